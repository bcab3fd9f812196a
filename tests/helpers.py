"""Helpers that tests import: a run directory's records, the command line through a CliRunner
(the `runner` fixture in conftest.py makes one), and the keys sandboxed bots play with."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from typer.testing import CliRunner
from typer.testing import Result as CliResult

from arena.sandbox import SandboxedBot
from arena.tournament.playing import tasks as playing
from arena.tournament.records.results import GAMES


def run_records(run: Path) -> dict[int, dict[str, Any]]:
    """A run directory's records by task id, durations left out; a task recorded twice fails."""
    out: dict[int, dict[str, Any]] = {}
    for line in (run / GAMES).read_text(encoding="utf-8").split("\n")[:-1]:  # "\n" only
        record = json.loads(line)
        record.pop("duration")
        record.pop("times", None)  # timed, like the duration
        assert record["task"] not in out, f"task {record['task']} was recorded twice"
        out[record["task"]] = record
    return out


def run(runner: CliRunner, *args: str) -> CliResult:
    """Invoke the `arena` app with these arguments."""
    from arena.cli import app

    return runner.invoke(app, list(args))


class KeysUsed:
    """Records the key of every game a sandboxed bot plays in this process."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.keys: list[str] = []
        real = playing.play_game

        def watched(variant: Any, bots: Any, names: Any, seed: int, *args: Any,
                    key: str = "", **kwargs: Any) -> Any:
            if any(isinstance(bot, SandboxedBot) for bot in bots):
                self.keys.append(key)
            return real(variant, bots, names, seed, *args, key=key, **kwargs)

        monkeypatch.setattr(playing, "play_game", watched)


LARGER_LAYOUTS = frozenset({("concentration", "two-decks"), ("concentration", "two-decks-jokers")})
"""Presets that play other presets' rules on a larger layout (every setting but the layout's
rows and columns is some other preset's: tests/protocol/test_forms.py checks it): a game of one
takes seconds where the others take a fraction, so a test over every preset plays these under
`slow` only."""


def slow_unless(kept: bool, *values: Any, id: str | None = None) -> Any:
    """A parametrized case, in the default run if `kept` (a representative one), else only in
    `pytest -m slow` (the rest of an exhaustive product: see "Testing" in docs/architecture.md)."""
    return pytest.param(*values, id=id, marks=() if kept else (pytest.mark.slow,))


def said(result: object) -> str:
    """Everything a command printed, stdout and stderr."""
    out = getattr(result, "output", "")
    try:
        err = getattr(result, "stderr", "")
    except ValueError:  # stderr mixed into output
        err = ""
    return f"{out}\n{err}"


def load_script(name: str) -> ModuleType:
    """scripts/<name>.py as a module (scripts/ is not a package), imported once."""
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parents[1] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def holding(module: str, name: str) -> str:
    """The source of a bot file: bot class `name` of `module` (a bundled bot's), which holds
    its process's game for good at its HOLD_AFTER-th game where that variable is set: a run
    started with it in a child's environment cannot end before the test kills it part way,
    however late the test looks (its in-process rerun, without the variable, plays on)."""
    return (f"import os\nimport time\n\nfrom {module} import {name}\n\n\n"
            f"class Holding({name}):\n"
            f"    started = 0\n\n"
            f"    def start(self, info):\n"
            f"        Holding.started += 1\n"
            f"        if Holding.started == int(os.environ.get('HOLD_AFTER', '0') or -1):\n"
            f"            time.sleep(3600)\n"
            f"        super().start(info)\n")
