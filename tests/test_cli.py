"""Tests for the `arena` command line through Typer's CliRunner, including bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from arena.cli import app
from arena.games.concentration import PRESETS
from tests.helpers import load_script, run

RECORD_KEYS = ["game", "variant", "seed", "seats", "scores", "ranks", "order", "turns", "faults",
               "final"]


SLOW_DECISION = load_script("docs_examples").SLOW
"""The warning that a bot's decision took longer than a sandboxed move may: on a loaded machine
even a quick bot's may (time limits are wall-clock time), so it is no fault of the command's."""


def ok(runner: CliRunner, *args: str) -> Result:
    """Invoke the app and check it succeeded quietly on stderr (but for a slow decision's
    warning, which depends on the machine's load, not on the command)."""
    result = run(runner, *args)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    assert [line for line in result.stderr.splitlines() if not SLOW_DECISION.fullmatch(line)] == []
    return result


def json_lines(result: Result) -> list[dict[str, object]]:
    """Every stdout line parsed as one JSON object."""
    lines = result.stdout.splitlines()
    assert lines
    records = [json.loads(line) for line in lines]
    assert all(isinstance(r, dict) for r in records)
    return records


def bots(*specs: str) -> list[str]:
    """'-b spec' for every spec."""
    return [arg for spec in specs for arg in ("-b", spec)]


# -- listing -------------------------------------------------------------------------------------

def test_games(runner: CliRunner) -> None:
    out = ok(runner, "games").stdout
    assert "concentration" in out
    assert "1-6" in out
    for preset in ("standard", "zebra", "duel"):
        assert preset in out


def test_games_concentration(runner: CliRunner) -> None:
    out = ok(runner, "games", "concentration").stdout
    lines = out.splitlines()
    for preset in PRESETS:
        assert any(line.split()[:1] == [preset] for line in lines), preset
    assert "match=identical" in out and "one-flip=true" in out
    duel = next(line for line in lines if line.startswith("duel "))
    assert " 2 " in duel


def test_bots(runner: CliRunner) -> None:
    out = ok(runner, "bots").stdout
    for name in ("random", "greedy", "forgetful"):
        assert any(line.split()[:1] == [name] for line in out.splitlines()), name
    assert "concentration" in out


# -- play ----------------------------------------------------------------------------------------

def test_play_show(runner: CliRunner) -> None:
    out = ok(runner, "play", "concentration", *bots("greedy", "random"), "--show",
             "--seed", "3").stdout
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any(line.startswith("  A  ") and "##" in line for line in lines)  # the layout
    assert any("sets: greedy " in line for line in lines)  # the scores, by bot
    assert any("turns up" in line for line in lines)
    assert any(line.startswith("Game over (cleared)") for line in lines)
    assert lines[-1].startswith("seed 3: greedy ")


@pytest.mark.parametrize("preset", ["duel", "two-decks-jokers", "checkerboard", "moving"])
def test_play_show_fits_80_columns_in_wide_variants(runner: CliRunner, preset: str) -> None:
    out = ok(runner, "play", "concentration", "-v", preset, *bots("greedy", "forgetful"),
             "--show").stdout
    assert max(len(line) for line in out.splitlines()) <= 80


def test_play_show_fits_80_columns_with_long_bot_specs(runner: CliRunner) -> None:
    out = ok(runner, "play", "concentration", "--show",
             *bots("forgetful:recall=0.6,capacity=8", "forgetful:recall=0.9,capacity=16")).stdout
    assert max(len(line) for line in out.splitlines()) <= 80


def test_play_json(runner: CliRunner) -> None:
    args = ["play", "concentration", *bots("greedy", "random", "forgetful"), "--json",
            "--seed", "7", "--games", "3", "-v", "zebra"]
    first = ok(runner, *args)
    records = json_lines(first)
    assert [r["seed"] for r in records] == [7, 8, 9]
    for record in records:
        assert list(record) == RECORD_KEYS
        assert record["game"] == "concentration" and record["variant"] == "zebra"
        assert record["seats"] == ["greedy", "random", "forgetful"]
        assert len(record["scores"]) == len(record["ranks"]) == 3  # type: ignore[arg-type]
        assert record["faults"] == []
        assert set(record["final"]) >= {"end", "sets", "points", "left"}  # type: ignore[arg-type]
    again = ok(runner, *args)
    assert again.stdout_bytes == first.stdout_bytes


def test_play_json_seeds_differ(runner: CliRunner) -> None:
    records = json_lines(ok(runner, "play", "concentration", *bots("random", "random"),
                            "--json", "--games", "2"))
    assert [r["seed"] for r in records] == [0, 1]
    assert records[0]["final"] != records[1]["final"] or records[0]["turns"] != records[1]["turns"]


def test_play_json_timings(runner: CliRunner) -> None:
    plain = json_lines(ok(runner, "play", "concentration", *bots("greedy"), "--json"))
    timed = json_lines(ok(runner, "play", "concentration", *bots("greedy"), "--json",
                          "--timings"))
    assert "duration" not in plain[0]
    assert timed[0]["duration"] >= 0  # type: ignore[operator]
    del timed[0]["duration"]
    assert len(timed[0].pop("times")) == len(plain[0]["seats"])  # per seat: microseconds
    assert timed == plain


def test_solitaire(runner: CliRunner) -> None:
    records = json_lines(ok(runner, "play", "concentration", *bots("greedy"), "--json",
                            "--games", "2"))
    for record in records:
        assert record["scores"] == [record["turns"]]
        assert record["ranks"] == [1]
        assert record["seats"] == ["greedy"]


def test_solitaire_text_line(runner: CliRunner) -> None:
    out = ok(runner, "play", "concentration", *bots("greedy"), "--seed", "2").stdout
    (line,) = out.splitlines()
    assert line.startswith("seed 2: greedy ") and line.endswith(" turns)")


def test_summary_table_with_several_games(runner: CliRunner) -> None:
    out = ok(runner, "play", "concentration", *bots("greedy", "random"), "--games",
             "3").stdout
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["seed 0", "seed 1", "seed 2"]
    assert "mean rank" in out and "wins" in out
    table = lines[3:]
    assert any(line.split()[:2] == ["0", "greedy"] for line in table)
    assert any(line.split()[:2] == ["1", "random"] for line in table)


def test_no_summary_table_for_one_game_or_json(runner: CliRunner) -> None:
    single = ok(runner, "play", "concentration", *bots("greedy", "random")).stdout
    assert "mean rank" not in single
    assert len(single.splitlines()) == 1
    many_json = ok(runner, "play", "concentration", *bots("greedy", "random"), "--games", "3",
                   "--json")
    assert "mean rank" not in many_json.stdout
    assert len(json_lines(many_json)) == 3


def test_play_with_params_and_short_options(runner: CliRunner) -> None:
    records = json_lines(ok(runner, "play", "concentration", "-v", "two-decks", "-p",
                            "one-flip=true", "-p", "max-turns=5", *bots("greedy", "random"),
                            "--json"))
    (record,) = records
    assert record["turns"] == 5
    assert record["final"]["end"] == "turn-limit"  # type: ignore[index]
    assert "one-flip=true" in record["variant"]  # type: ignore[operator]


def test_play_file_bot(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "first.py"
    path.write_text("from arena.api import Bot\n\n\nclass First(Bot):\n"
                    "    def act(self, obs):\n        return obs.legal[0]\n")
    records = json_lines(ok(runner, "play", "concentration", *bots(f"{path}:First", "random"),
                            "--json"))
    assert records[0]["seats"] == ["first:First", "random"]
    assert records[0]["faults"] == []


def test_faulty_bot_is_reported_not_fatal(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "faulty.py"
    path.write_text("from arena.api import Bot\n\n\nclass Faulty(Bot):\n"
                    "    def act(self, obs):\n        raise RuntimeError('oops')\n")
    result = ok(runner, "play", "concentration", *bots(f"{path}:Faulty", "random"))
    assert "[faults: 1]" in result.stdout
    (record,) = json_lines(ok(runner, "play", "concentration", *bots(f"{path}:Faulty", "random"),
                              "--json"))
    assert record["ranks"] == [2, 1]
    assert record["faults"][0]["detail"] == (  # type: ignore[index]
        "its decision 1 (the game's 1): act raised RuntimeError: oops (at faulty.py:6 in act) "
        "(what it printed: on stderr, after [seat 0])")


# -- bad input -----------------------------------------------------------------------------------

def check_error(result: Result, *mentions: str) -> str:
    """Exit 2, nothing on stdout, one 'arena: error:' line on stderr; returns the line."""
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("arena: error: ")
    assert "Traceback" not in result.stderr
    for text in mentions:
        assert text in lines[0]
    return lines[0]


@pytest.mark.parametrize(("args", "mentions"), [
    (["games", "chess"], ["'chess'", "concentration"]),
    (["play", "chess", *bots("greedy")], ["'chess'", "concentration"]),
    (["play", "concentration", "-v", "zebr", *bots("greedy")], ["'zebr'", "zebra"]),
    (["play", "concentration", "-p", "flips=1", *bots("greedy")], ["'flips'", "one-flip"]),
    (["play", "concentration", "-p", "decks=two", *bots("greedy")], ["'decks'", "'two'"]),
    (["play", "concentration", "-p", "decks", *bots("greedy")], ["'decks'", "key=value"]),
    (["play", "concentration", "-p", "decks=3", *bots("greedy")], ["decks"]),
    (["play", "concentration", "-p", "jokers=true", *bots("greedy")], ["rows x cols"]),
    (["play", "concentration", "-v", "duel", *bots("greedy", "greedy", "random")],
     ["duel", "not 3"]),
    (["play", "concentration", "-v", "duel", *bots("greedy")], ["duel", "not 1"]),
    (["play", "concentration", "-v", "chips-winner", *bots("greedy")],
     ["chips-winner", "not 1"]),
    (["play", "concentration", *bots(*["random"] * 7)], ["not 7"]),
    (["play", "concentration", *bots("greedy", "nosuchbot")], ["'nosuchbot'"]),
    (["play", "concentration", *bots("forgetful:recall=lots")], ["'recall'"]),
    (["play", "concentration", *bots("forgetful:memory=3")], ["'memory'"]),
    (["play", "concentration", *bots("no/such/file.py:Bot")], ["not found"]),
    (["play", "concentration", *bots("bots.concentration.greedy:Nope")], ["'Nope'"]),
])
def test_bad_input_is_one_error_line(runner: CliRunner, args: list[str],
                                     mentions: list[str]) -> None:
    check_error(run(runner, *args), *mentions)


def test_a_sandboxed_bad_spec_is_named_once(runner: CliRunner) -> None:
    result = run(runner, "play", "concentration", *bots("nosuch.module:Thing"))
    line = check_error(result, "no module named 'nosuch.module'")
    assert line.count("'nosuch.module:Thing'") == 1


def test_bot_that_does_not_play_the_game(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "digger.py"
    path.write_text("from arena.api import Bot\n\n\nclass Digger(Bot):\n    games = ('dig',)\n\n"
                    "    def act(self, obs):\n        return obs.legal[0]\n")
    check_error(run(runner, "play", "concentration", *bots(f"{path}:Digger")), "dig",
                "concentration")


def test_bot_file_raising_at_import(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("raise RuntimeError('broken bot\\nmore text')\n")
    check_error(run(runner, "play", "concentration", *bots(f"{path}:Bot")),
                "RuntimeError: broken bot")


@pytest.mark.parametrize("args", [
    ["play", "concentration", *bots("greedy"), "--games", "0"],
    ["play", "concentration", *bots("greedy"), "--seed", "x"],
    ["play", "concentration"],
    ["play"],
    ["nosuchcommand"],
])
def test_usage_errors_exit_2(runner: CliRunner, args: list[str]) -> None:
    result = run(runner, *args)
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr + result.stdout


def test_console_script_error_line() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "from arena.cli import main; main()", "play", "chess", "-b",
         "greedy"], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2
    assert proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert line.startswith("arena: error: unknown game 'chess' (known: ")
    assert "concentration" in line


def test_help_keeps_the_install_hints_whole(runner: CliRunner) -> None:
    shown = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and "pip install 'card-arena[plots]'" in shown.stdout
    for command in ("games", "bots", "play", "run", "validate", "replay", "report", "new-bot",
                    "ratings", "compare", "score", "solve"):
        assert f" {command} " in shown.stdout
    run_help = runner.invoke(app, ["run", "--help"], env={"COLUMNS": "200"})
    assert "pip install 'card-arena[ray]'" in run_help.stdout


# -- what a run was played on: its bots' code, its deals ----------------------------------------

MINE = ("from bots.algorithms.random_bot import RandomBot\n\n\nclass Mine(RandomBot):\n"
        "    games = ('concentration',)\n")

RUN_CONFIG = """
name = "mine"
[deals]
count = {count}
base = {base}
[[bots]]
spec = "greedy"
[[bots]]
spec = "mine.py:Mine"
name = "mine"
isolation = "none"
[[games]]
game = "concentration"
players = 2
variants = ["standard"]
"""


def a_run(tmp_path: Path, name: str = "mine", count: int = 2, base: int = 1) -> Path:
    """A config of greedy against a bot file, mine.py, beside it."""
    if not (tmp_path / "mine.py").exists():
        (tmp_path / "mine.py").write_text(MINE)
    path = tmp_path / f"{name}.toml"
    path.write_text(RUN_CONFIG.format(count=count, base=base))
    return path


def test_a_run_whose_bot_changed_plays_its_games_again_and_says_so(
        runner: CliRunner, tmp_path: Path) -> None:
    config, out = a_run(tmp_path), tmp_path / "run"
    assert run(runner, "run", str(config), "--out", str(out), "-q").exit_code == 0
    games = (out / "games.jsonl").read_text()
    (tmp_path / "mine.py").write_text(MINE + "# better now\n")
    again = run(runner, "run", str(config), "--out", str(out))
    assert again.exit_code == 0, again.stderr
    assert ("arena: kept 0 games; to play 4 (changed: mine); no longer scheduled 4 (kept on "
            "record, not rated)") in again.stderr.splitlines()
    assert "4 of 4 games" in again.stderr and "(4 played now)" in again.stderr
    # the old games stay on record under their numbers, the new ones appended after them
    now = (out / "games.jsonl").read_text()
    assert now.startswith(games) and len(now.splitlines()) == 8
    assert not (out / "retired.jsonl").exists()
    fresh = run(runner, "run", str(config), "--out", str(out), "-q", "--fresh")
    assert fresh.exit_code == 0 and "4 of 4 games" in fresh.stderr
    assert len((out / "games.jsonl").read_text().splitlines()) == 4
    assert not (out / "numbers.json").exists()


def test_replay_and_report_warn_of_changed_code(runner: CliRunner, tmp_path: Path) -> None:
    config, out = a_run(tmp_path), tmp_path / "run"
    assert run(runner, "run", str(config), "--out", str(out), "-q").exit_code == 0
    assert run(runner, "replay", str(out), "0").stderr == ""
    (tmp_path / "mine.py").write_text(MINE + "# a comment changes nothing it does\n")
    replayed = run(runner, "replay", str(out), "0")
    assert replayed.exit_code == 0 and "reproduced" in replayed.stdout
    (warning,) = replayed.stderr.splitlines()
    assert warning.startswith(f"arena: warning: {out}: bot 'mine' changed since this run began: "
                              f"mine.py differs (sha256 ")
    assert warning.endswith("; a replay may differ from the record")
    every = run(runner, "replay", str(out), "--all")
    assert every.exit_code == 0 and len(every.stderr.splitlines()) == 1
    pytest.importorskip("matplotlib")
    reported = run(runner, "report", str(out))
    assert reported.exit_code == 0, reported.stderr
    (warning,) = reported.stderr.splitlines()
    assert warning.startswith(f"arena: warning: {out}: bot 'mine' changed since this run began")


def test_run_deals_like(runner: CliRunner, tmp_path: Path) -> None:
    earlier, later = tmp_path / "a", tmp_path / "b"
    assert run(runner, "run", str(a_run(tmp_path)), "--out", str(earlier), "-q").exit_code == 0
    other = a_run(tmp_path, "other", count=5, base=50)
    args = ["run", str(other), "--out", str(later), "-q", "--deals-like", str(earlier)]
    first = run(runner, *args)
    assert first.exit_code == 0 and "4 of 4 games" in first.stderr
    assert (later / "games.jsonl").read_text().count("\n") == 4
    again = run(runner, *args)
    assert again.exit_code == 0 and "(0 played now)" in again.stderr
    check_error(run(runner, "run", str(other), "--out", str(tmp_path / "c"), "-q",
                    "--deals-like", str(tmp_path)),
                f"{tmp_path}: not a run directory (no config.toml)")
    assert not (tmp_path / "c").exists()


def test_compare_measures_against_the_unchanged_bots_and_checks_anchors(
        runner: CliRunner, tmp_path: Path) -> None:
    earlier, later = tmp_path / "a", tmp_path / "b"
    config = a_run(tmp_path)
    assert run(runner, "run", str(config), "--out", str(earlier), "-q").exit_code == 0
    (tmp_path / "mine.py").write_text(MINE + "# better now\n")
    assert run(runner, "run", str(config), "--out", str(later), "-q").exit_code == 0
    shown = run(runner, "compare", str(earlier), str(later))
    assert shown.exit_code == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0].startswith("note: code changed: mine: mine.py differs (sha256 ")
    assert any(line.startswith("field: code changed: mine. Moves are measured against the "
                               "unchanged bot greedy (its change of mu ") for line in lines)
    doc = json.loads(run(runner, "compare", str(earlier), str(later), "--format",
                         "json").stdout)
    assert doc["pools"][0]["reference"]["bots"] == ["greedy"]
    anchored = run(runner, "compare", str(earlier), str(later), "--anchor", "greedy",
                   "--format", "json")
    assert json.loads(anchored.stdout)["pools"][0]["reference"]["kind"] == "anchors"
    check_error(run(runner, "compare", str(earlier), str(later), "--anchor", "mine"),
                "--anchor mine: its code changed between the runs (mine.py differs",
                "an anchor must be unchanged")
    check_error(run(runner, "compare", str(earlier), str(later), "--anchor", "nobody"),
                "--anchor nobody: no bot of that name is in neither run")


@pytest.mark.parametrize("command", [
    ["run", "configs/quick.toml"],
    ["duel", "optimal", "greedy", "--game", "concentration"]])
def test_ctrl_c_says_where_the_games_are_and_exits_130(runner: CliRunner, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       command: list[str]) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    # duel first: imported after run's is patched, it would keep the patched one for good
    monkeypatch.setattr("arena.tournament.duel.run_tournament", interrupted)
    monkeypatch.setattr("arena.tournament.run.run_tournament", interrupted)
    root = Path(__file__).resolve().parent.parent
    args = [str(root / a) if a.endswith(".toml") else a for a in command]
    result = run(runner, *args, "--out", str(tmp_path / "out"), "-q")
    assert result.exit_code == 130
    assert result.stderr.strip() == (f"arena: stopped; the games played so far are saved in "
                                     f"{tmp_path / 'out'}; run the same command to resume")


def test_a_duel_s_folder_has_a_short_readable_name_of_its_own(tmp_path: Path) -> None:
    """duel-<a>-vs-<b> from the bots' short names; another duel of the same short names gets
    -2 after it, and the same duel its own folder again (to resume)."""
    from arena.cli.tournaments import _duel_folder
    from arena.tournament.duel import duel_name

    a, b = "conc2/conc_bot2.py:ConcBot2", "conc/conc_bot.py:ConcBot"
    first = _duel_folder(tmp_path, a, b, duel_name(a, b))
    assert first == tmp_path / "duel-ConcBot2-vs-ConcBot"
    first.mkdir()
    (first / "config.toml").write_text(f'name = "{duel_name(a, b)}"\n')
    assert _duel_folder(tmp_path, a, b, duel_name(a, b)) == first
    other = "elsewhere/conc_bot2.py:ConcBot2"
    assert _duel_folder(tmp_path, other, b, duel_name(other, b)) == \
        tmp_path / "duel-ConcBot2-vs-ConcBot-2"
    assert _duel_folder(tmp_path, "forgetful:recall=0.6", "greedy", "x") == \
        tmp_path / "duel-forgetful-recall=0.6-vs-greedy"
    assert _duel_folder(tmp_path, "greedy", "greedy", "y") == tmp_path / "duel-greedy-vs-greedy-2"


def _with_luck(run_dir: Path, model: str = "concentration-minimax/1") -> None:
    """Give every record of a run a luck (a test double: the seats' luck made up, the first
    seat's 1.5, the second's -0.5), as games of a game with a luck model carry."""
    path = run_dir / "games.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    for record in records:
        record["luck"] = [1.5, -0.5][:len(record["seats"])]
        record["luck_model"] = model
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def test_ratings_and_compare_adjust_edges_for_luck_unless_told_off(
        runner: CliRunner, tmp_path: Path) -> None:
    earlier, later = tmp_path / "a", tmp_path / "b"
    config = a_run(tmp_path, count=6)
    for out in (earlier, later):
        assert run(runner, "run", str(config), "--out", str(out), "-q").exit_code == 0
        _with_luck(out)
    shown = run(runner, "ratings", str(earlier))
    assert shown.exit_code == 0, shown.stderr
    assert "edges adjusted for luck (concentration-minimax/1)" in shown.stdout
    off = run(runner, "ratings", str(earlier), "--luck", "off")
    assert ("edges raw (--luck off); the records carry luck from concentration-minimax/1"
            in off.stdout)
    doc = json.loads(run(runner, "ratings", str(earlier), "--format", "json").stdout)
    assert doc["pools"][0]["luck_model"] == "concentration-minimax/1"
    doc = json.loads(run(runner, "ratings", str(earlier), "--crosstable", "--format", "json",
                         "--luck", "off").stdout)
    assert doc["pools"][0]["luck_model"] is None
    compared = json.loads(run(runner, "compare", str(earlier), str(later), "--format",
                              "json").stdout)
    assert compared["pools"][0]["luck_after"] == "concentration-minimax/1"
    compared = json.loads(run(runner, "compare", str(earlier), str(later), "--format", "json",
                              "--luck", "off").stdout)
    assert compared["pools"][0]["luck_after"] is None
    check_error(run(runner, "ratings", str(earlier), "--luck", "perhaps"), "--luck")
