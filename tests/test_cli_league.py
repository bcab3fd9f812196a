"""`arena submit` and `arena league`: the weekly cycle from the command line, and bad input in
one line with exit code 2."""

from __future__ import annotations

import re
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
    (dig,) = (line for line in second.stderr.splitlines()
              if "dig-standard-2p:" in line and "played now" in line)
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


def _option_help(*names: str) -> dict[str, str]:
    """The help of each option of a command of the app (`league new`), by its first flag."""
    import typer

    from arena.cli import app

    command = typer.main.get_command(app)
    for name in names:
        command = command.commands[name]  # type: ignore[attr-defined]
    return {p.opts[0]: p.help or "" for p in command.params if p.opts[0].startswith("--")}


def test_every_example_in_the_league_commands_help_runs(runner: CliRunner,
                                                        tmp_path: Path) -> None:
    """`arena league new --help` said `dig:standard:3`, which no league could play, and the
    refusal named a league.toml the user never wrote."""
    new = _option_help("league", "new")
    games = new["--game"].partition("(repeatable): ")[2].rstrip(".").split(", ")
    assert len(games) >= 2
    for i, example in enumerate(games):
        _ok(runner, "league", "new", str(tmp_path / f"g{i}"), "--game", example, "--deals", "1")
    found = re.search(r"\(([\w/.-]+\.toml)\)", new["--config"])
    assert found is not None
    root = Path(__file__).resolve().parents[1]
    _ok(runner, "league", "new", str(tmp_path / "c"), "--config", str(root / found[1]))
    league = str(tmp_path / "g0")
    for bot in ("greedy", "random"):
        _ok(runner, "submit", league, bot)
    _ok(runner, "league", "update", league, "--isolation", "none", "--workers", "1", "-q")
    found = re.search(r"\((\S+)\)", _option_help("league", "standings")["--variant"])
    assert found is not None
    assert "greedy" in _ok(runner, "league", "standings", league, "--variant", found[1])
    # a table size the game does not seat is refused naming the option, not a league.toml
    wrong = run(runner, "league", "new", str(tmp_path / "w"), "--game", "dig:standard:3")
    assert wrong.exit_code == 2 and wrong.stderr.count("\n") == 1
    assert "--game 'dig:standard:3': " in wrong.stderr and "league.toml" not in wrong.stderr
    assert not (tmp_path / "w").exists()


def test_a_spec_that_does_not_load_is_refused_whole_naming_the_students_file(
        runner: CliRunner, tmp_path: Path) -> None:
    """A misnamed class is bad input: one line, exit 2, the whole reason ("did you mean") and
    the student's own path, not the store's; nothing recorded or stored. A version that loads
    but fails validation says why in one line, naming the student's files too."""
    league = tmp_path / "L"
    _ok(runner, "league", "new", str(league), "--game", "concentration", "--deals", "1")
    folder = tmp_path / ("a-long-folder-name-for-the-students-work" * 2) / "ada"
    folder.mkdir(parents=True)
    extra = "".join(f'\n\nclass Helper{i}(Bot):\n    """A helper."""\n' for i in range(4))
    (folder / "bot.py").write_text(
        "from arena.api import Bot\n\n\nclass AdaBot(Bot):\n    \"\"\"Ada.\"\"\"\n\n"
        "    games = (\"concentration\",)\n\n    def act(self, obs):\n"
        "        raise RuntimeError(__file__)\n" + extra)
    typo = run(runner, "submit", str(league), f"{folder}/bot.py:AdaBto", "--name", "ada")
    assert typo.exit_code == 2 and typo.stderr.count("\n") == 1, typo.stderr
    assert "did you mean 'AdaBot'?" in typo.stderr and f"{folder}/bot.py" in typo.stderr
    assert "store" not in typo.stderr and not re.search(r"[0-9a-f]{64}", typo.stderr)
    assert not (league / "submissions.json").exists()
    assert not list((league / "store").glob("*"))
    failed = run(runner, "submit", str(league), f"{folder}/bot.py:AdaBot", "--name", "ada")
    assert failed.exit_code == 1 and failed.stdout.count("\n") == 1, failed.stdout
    assert f"act raised RuntimeError: {folder}/bot.py" in failed.stdout
    assert not re.search(r"[0-9a-f]{64}", failed.stdout)
