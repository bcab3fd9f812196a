"""The `arena` command line: parse, call the library, print. Errors become one line and exit 2.

One module per group of commands (`playing`, `tournaments`, `ratings`, `sandbox`, `league`);
`app` holds the Typer app and what they share."""

from arena.cli import league, playing, ratings, sandbox, tournaments
from arena.cli.app import app

__all__ = ["app", "league", "main", "playing", "ratings", "sandbox", "tournaments"]


def main() -> None:
    """Entry point of the console script."""
    app()
