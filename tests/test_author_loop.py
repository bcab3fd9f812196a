"""A bot author's whole loop for one game, from a fresh folder, through the command line only:
new-bot -> validate -> a small run -> the worst loss found -> its seat's-eye replay -> a duel of
a changed version."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app


def test_the_authors_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def arena(*args: str, code: int = 0) -> str:
        done = runner.invoke(app, list(args))
        assert done.exit_code == code, (args, done.output)
        return done.stdout

    arena("new-bot", "my_bot", "--game", "dig")
    arena("validate", "my_bot.py:MyBot", "--game", "dig", "--quick")
    # a small run: two deals against the bundled dig bots, in this process
    config = Path("my_bot.toml")
    config.write_text(re.sub(r"count = \d+", "count = 2", config.read_text()))
    arena("run", "my_bot.toml", "--isolation", "none", "--workers", "1", "--quiet")
    run = Path("results/my_bot")

    worst = json.loads(arena("games-of", str(run), "--bot", "my_bot", "--lost", "--worst", "1",
                             "--json"))
    assert worst["result"] == "lost" and worst["margin"] < 0
    assert worst["seats"][worst["seat"]] == "my_bot"
    command = worst["replay"]
    assert command[:3] == ["arena", "replay", str(run)]
    view = json.loads(arena(*command[1:], "--json"))
    assert view["reproduced"] and view["opening"]["name"] == "my_bot"
    decisions = [s for s in view["steps"] if s["kind"] == "decision"]
    assert decisions and all(d["seconds"] is not None for d in decisions)
    hand = decisions[0]["view"]["hand"]
    assert hand and all(isinstance(card, str) for card in hand)
    text = arena(*command[1:])
    assert "== its decision 1 (the game's" in text and "placed 2 of 2" in text

    # a changed version: the same bot with its first choice always taken
    source = Path("my_bot.py").read_text()
    changed = re.sub(r"(\n    def act\(self, obs[^\n]*\n)", r"\1        return obs.legal[0]\n",
                     source, count=1)
    assert changed != source
    Path("my_bot2.py").write_text(changed)
    duel = json.loads(arena("duel", "my_bot2.py:MyBot", "my_bot.py:MyBot", "--game", "dig",
                            "--isolation", "none", "--max-games", "4", "--workers", "1",
                            "--quiet", "--json"))
    assert duel["games"] == 4 and duel["verdict"] in ("H0", "H1", "inconclusive")
