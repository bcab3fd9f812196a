"""The `arena` command line: parse, call the library, print. Errors become one line and exit 2.

One module per group of commands (`playing`, `tournaments`, `ratings`, `sandbox`, `league`);
`app` holds the Typer app and what they share. Their annotations are not postponed (no
`from __future__ import annotations`): typer reads every command's signature at each start, and
strings it would compile and evaluate twice a command, 60-80 ms of every `arena` command's CPU
(benchmarks/bench_cli_start.py); names only a type checker imports are quoted."""

from arena.cli import league, playing, ratings, sandbox, tournaments
from arena.cli.app import app

__all__ = ["app", "league", "main", "playing", "ratings", "sandbox", "tournaments"]


def main() -> None:
    """Entry point of the console script."""
    app()
