"""A bot's own files import (issue 39, item 1): inside a bot's folder, `from helper import x` and
a package's relative imports work the same sandboxed and in-process, in `play`, `validate`,
`run`, `duel` and the league (a `--dir` submission), and for a program's folder (`bot.toml`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.league.folder import new_league, parse_game
from arena.league.submissions import submit
from tests.helpers import run, said
from tests.sandbox.support import needs_namespaces

BOT = '''from arena.api import Bot

from helper import first
from .rules import pick


class Two(Bot):
    """Plays as its two helpers say."""

    games = ("concentration",)

    def act(self, obs):
        return pick(first(obs.legal))
'''
HELPER = "def first(legal):\n    return legal[0]\n"
RULES = "def pick(action):\n    return action\n"
PROGRAM = '''import json
import sys

from helper import first

for line in sys.stdin:
    kind = json.loads(line)["type"]
    print(json.dumps({"index": first([0])} if kind == "act" else {"ok": True}), flush=True)
    if kind == "end":
        break
'''


@pytest.fixture
def two(tmp_path: Path) -> str:
    """A bot of three files in a folder of its own: its spec."""
    folder = tmp_path / "two"
    folder.mkdir()
    (folder / "bot.py").write_text(BOT)
    (folder / "helper.py").write_text(HELPER)
    (folder / "rules.py").write_text(RULES)
    return f"{folder / 'bot.py'}:Two"


def test_in_process_a_bot_imports_its_helpers(runner: CliRunner, two: str) -> None:
    result = run(runner, "play", "concentration", "-b", two, "-b", "random", "--isolation",
                 "none")
    assert result.exit_code == 0, said(result)


@needs_namespaces
def test_sandboxed_a_bot_imports_its_helpers(runner: CliRunner, two: str) -> None:
    result = run(runner, "play", "concentration", "-b", two, "-b", "random")
    assert result.exit_code == 0, said(result)
    assert "[faults" not in said(result)


@needs_namespaces
def test_validate_a_bot_of_three_files(runner: CliRunner, two: str) -> None:
    result = run(runner, "validate", two, "--game", "concentration", "--quick")
    assert result.exit_code == 0, said(result)


@needs_namespaces
def test_run_and_duel_a_bot_of_three_files(runner: CliRunner, two: str, tmp_path: Path) -> None:
    config = tmp_path / "two.toml"
    config.write_text(f'name = "two"\n[deals]\nseeds = [1]\n[[bots]]\nspec = "{two}"\n'
                      '[[bots]]\nspec = "random"\n[[games]]\ngame = "concentration"\n'
                      'players = 2\nvariants = ["standard"]\n')
    result = run(runner, "run", str(config), "--out", str(tmp_path / "run"), "-q")
    assert result.exit_code == 0, said(result)
    records = (tmp_path / "run" / "games.jsonl").read_text().splitlines()
    assert records and all(not json.loads(record)["faults"] for record in records)
    duel = run(runner, "duel", two, "random", "--game", "concentration", "--max-games", "2",
               "--out", str(tmp_path / "duel"), "-q")
    assert duel.exit_code == 0, said(duel)


@needs_namespaces
def test_a_league_version_of_three_files_imports_its_helpers(tmp_path: Path, two: str) -> None:
    league = new_league(tmp_path / "class", [parse_game("concentration:standard:2")], deals=1)
    version = submit(league, two, "two", folder=True)
    assert version.passed, version.validation


@needs_namespaces
def test_a_program_imports_its_helpers_sandboxed(runner: CliRunner, tmp_path: Path) -> None:
    folder = tmp_path / "prog"
    folder.mkdir()
    (folder / "bot.py").write_text(PROGRAM)
    (folder / "helper.py").write_text(HELPER)
    (folder / "bot.toml").write_text(f'name = "prog"\ncommand = "{sys.executable} bot.py"\n'
                                     'games = ["concentration"]\n')
    result = run(runner, "play", "concentration", "-b", str(folder), "-b", "random")
    assert result.exit_code == 0, said(result)
    assert "[faults" not in said(result)
