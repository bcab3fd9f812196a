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
    second = run(runner, "league", "update", league, "--isolation", "none", "--workers", "1")
    assert second.exit_code == 0, second.stderr
    # tracker plays Concentration only: Dig's games and ratings stay as they were
    (dig,) = (line for line in second.stderr.splitlines() if "dig-standard-2p:" in line)
    assert "(0 played now)" in dig and "ratings kept from the round before" in dig
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


def test_the_report_of_a_round_from_the_command_line(runner: CliRunner, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Without matplotlib the update still keeps its round and says in one line that the
    report was skipped; `league report` says so in one line, exit 2, as do a link where the
    report goes and a crafted pool id (checked before anything is drawn)."""
    import json
    import sys

    league = tmp_path / "L"
    _ok(runner, "league", "new", str(league), "--game", "concentration", "--deals", "1")
    for bot in ("greedy", "random"):
        _ok(runner, "submit", str(league), bot)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    updated = run(runner, "league", "update", str(league), "--isolation", "none",
                  "--workers", "1", "-q", "--report")
    assert updated.exit_code == 0, updated.stderr
    assert "round 1 kept" in updated.stderr
    skipped = [line for line in updated.stderr.splitlines() if line.startswith("arena: rep")]
    assert skipped == ["arena: report skipped: plots need matplotlib: pip install "
                       "'card-arena[plots]'"]
    missing = run(runner, "league", "report", str(league))
    assert missing.exit_code == 2 and missing.stderr.count("\n") == 1
    assert "plots need matplotlib" in missing.stderr
    monkeypatch.delitem(sys.modules, "matplotlib")
    pytest.importorskip("matplotlib")
    assert run(runner, "league", "report", str(league), "--round", "2").exit_code == 2
    folder = league / "rounds" / "1" / "report"
    folder.mkdir()
    (folder / "report.html").symlink_to(tmp_path / "elsewhere.html")
    linked = run(runner, "league", "report", str(league))
    assert linked.exit_code == 2 and linked.stderr.count("\n") == 1
    assert not (tmp_path / "elsewhere.html").exists() and not list(folder.glob("*.png"))
    (folder / "report.html").unlink()
    path = league / "rounds" / "1" / "round.json"
    document = json.loads(path.read_text())
    document["pools"][0]["id"] = "../../escaped"
    path.write_text(json.dumps(document))
    crafted = run(runner, "league", "report", str(league))
    assert crafted.exit_code == 2 and "damaged" in crafted.stderr
    assert crafted.stderr.count("\n") == 1 and not list(tmp_path.rglob("*escaped*"))
