"""Helpers that tests import: a run directory's records, and the command line through a CliRunner
(the `runner` fixture in conftest.py makes one)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner
from typer.testing import Result as CliResult

from arena.tournament.results import GAMES


def run_records(run: Path) -> dict[int, dict[str, Any]]:
    """A run directory's records by task id, durations left out; a task recorded twice fails."""
    out: dict[int, dict[str, Any]] = {}
    for line in (run / GAMES).read_text().splitlines():
        record = json.loads(line)
        record.pop("duration")
        assert record["task"] not in out, f"task {record['task']} was recorded twice"
        out[record["task"]] = record
    return out


def run(runner: CliRunner, *args: str) -> CliResult:
    """Invoke the `arena` app with these arguments."""
    from arena.cli import app

    return runner.invoke(app, list(args))
