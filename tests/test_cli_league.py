"""`arena submit` and `arena league`: the weekly cycle from the command line, and bad input in
one line with exit code 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.helpers import run


def _ok(runner: CliRunner, *args: str) -> str:
    result = run(runner, *args)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_the_weekly_cycle(runner: CliRunner, tmp_path: Path) -> None:
    league = str(tmp_path / "L")
    made = _ok(runner, "league", "new", league, "--game", "concentration:standard:2",
               "--game", "dig", "--deals", "1")
    assert "concentration-standard-2p, dig-standard-2p" in made
    for bot in ("greedy", "random", "dig-sharp"):
        assert "passed" in _ok(runner, "submit", league, bot)
    listed = _ok(runner, "league", "list", league)
    assert "dig-sharp" in listed and "playing v1" in listed
    first = run(runner, "league", "update", league, "--isolation", "none", "--workers", "1")
    assert first.exit_code == 0, first.stderr
    assert "round 1 kept" in first.stderr and "concentration / standard@2p" in first.stdout
    _ok(runner, "submit", league, "tracker")
    _ok(runner, "league", "update", league, "--isolation", "none", "--workers", "1")
    assert "tracker" in _ok(runner, "league", "standings", league, "--round", "2")
    assert "tracker" not in _ok(runner, "league", "standings", league, "--round", "1")
    assert "round 2" in _ok(runner, "league", "history", league)
    compared = _ok(runner, "league", "compare", league, "1", "2")
    assert "joined: tracker" in compared
    assert "withdrawn" in _ok(runner, "league", "withdraw", league, "tracker")
    assert "withdrawn" in _ok(runner, "league", "list", league)


@pytest.mark.parametrize("args, message", [
    (["league", "list", "{tmp}/nope"], "no such league folder"),
    (["league", "standings", "{tmp}"], "not a league folder"),
    (["submit", "{league}", "nosuchbot"], "not a bundled bot"),
    (["submit", "{league}", "dig-sharp"], "plays dig; the league plays concentration"),
    (["league", "withdraw", "{league}", "bob"], "no bot named 'bob'"),
    (["league", "standings", "{league}"], "no rounds yet"),
    (["league", "new", "{tmp}/M", "--game", "nosuchgame"], "nosuchgame"),
])
def test_bad_input_is_one_line_and_exit_2(runner: CliRunner, tmp_path: Path, args: list[str],
                                          message: str) -> None:
    league = tmp_path / "L"
    _ok(runner, "league", "new", str(league), "--game", "concentration")
    result = run(runner, *(a.format(tmp=tmp_path, league=league) for a in args))
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.count("\n") == 1
