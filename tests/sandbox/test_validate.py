"""`arena validate`: a submitted bot's battery, its verdict and its exit code."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.engine import all_games, find_game
from arena.newbot import class_name, write_bot
from arena.sandbox import confinement_facts, promises_summary
from arena.sandbox.validate import validate_bot
from tests.helpers import run, slow_unless
from tests.sandbox.support import counted_hosts

HOSTILE = Path(__file__).parent / "hostile" / "bots.py"


def test_a_sound_bot_passes_and_the_verdict_says_how_it_was_confined() -> None:
    verdict = validate_bot("greedy", "concentration", quick=True)
    assert verdict.passed and verdict.games == 4
    assert verdict.lines[0] == ("PASS: 4 sandboxed games of concentration (preset standard; 2 "
                                "players), no faults")
    assert verdict.lines[1].split() == ["variant", "forgetful", "random"]
    assert verdict.lines[3].startswith("  standard  2 g, 0 f, ")
    # how it was confined; --quick leaves the doctor's attacks out (they take seconds)
    assert verdict.lines[-1] == (f"  sandbox: {promises_summary(confinement_facts())}; the "
                                 "doctor's attacks not tried (--quick: `arena doctor` tries them)")


def test_every_bundled_bot_plays_it_in_every_preset() -> None:
    verdict = validate_bot("random", "paved-with-gold", games=1)
    assert verdict.passed
    game = find_game("paved-with-gold")
    assert {cell.variant for cell in verdict.cells} == set(game.presets)
    assert {cell.opponent for cell in verdict.cells} == {"prospector", "prospector-forgetful",
                                                         "assayer", "random"}
    assert all(cell.faults == 0 and cell.decisions > 0 for cell in verdict.cells)
    assert verdict.lines[0] == (f"PASS: {verdict.games} sandboxed games of paved-with-gold "
                                f"(presets {', '.join(game.presets)}; 2 players), no faults")
    # how it was confined, and what the doctor's attacks found (summarised)
    assert "attacks of `arena doctor`" in verdict.lines[-1]


def test_the_variants_asked_for_are_the_ones_played() -> None:
    verdict = validate_bot("greedy", "concentration", games=1, variants=("zebra", "duel"))
    opponents = {cell.opponent for cell in verdict.cells}
    assert [cell.variant for cell in verdict.cells][::len(opponents)] == ["zebra", "duel"]
    assert opponents == {"forgetful", "greedy", "optimal", "planner", "tracker", "random"}


# one game in the default run (tests/test_newbot.py plays every game's scaffold in-process)
@pytest.mark.parametrize("game", [slow_unless(game.name == "memorandum", game.name)
                                  for game in all_games()])
def test_every_game_s_new_bot_scaffold_passes(game: str, tmp_path: Path) -> None:
    path = write_bot("scaffold", game, tmp_path)
    verdict = validate_bot(f"{path}:{class_name('scaffold')}", game, games=1)
    assert verdict.passed, verdict.lines
    assert all(cell.faults == 0 for cell in verdict.cells)


def test_the_first_fault_fails_the_bot_with_where_it_happened() -> None:
    verdict = validate_bot(f"{HOSTILE}:Raiser", "concentration", games=1)
    assert not verdict.passed and verdict.games == 1
    line = verdict.lines[0]
    assert line.startswith("FAIL: game 1 (against ")
    assert ", 2 players, seed 1, seat 0): exception: its decision 3 (the game's " in line
    assert verdict.cells[0].faults == 1
    assert "act raised RuntimeError: boom (at bots.py:" in line


def test_a_bot_that_does_not_load_fails_before_any_game(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("raise ImportError('no such helper')\n")
    verdict = validate_bot(f"{broken}:Bot", "concentration", games=1)
    assert not verdict.passed and verdict.games == 0
    (line,) = verdict.lines
    assert line.startswith("FAIL: the bot does not load: ") and "no such helper" in line


def test_the_command_exits_0_on_a_pass_1_on_a_fail_and_2_on_bad_input(
        runner: CliRunner) -> None:
    passed = run(runner, "validate", "greedy", "--game", "concentration", "--quick")
    assert passed.exit_code == 0 and passed.stdout.startswith("PASS: ")
    failed = run(runner, "validate", f"{HOSTILE}:Illegal", "--game", "concentration",
                 "--games", "1")
    assert failed.exit_code == 1 and failed.stdout.startswith("FAIL: game 1 ")
    unknown = run(runner, "validate", "greedy", "--game", "chess")
    assert unknown.exit_code == 2 and "chess" in unknown.stderr
    assert len(unknown.stderr.strip().splitlines()) == 1


def test_the_table_sizes_asked_for_are_checked_and_said() -> None:
    verdict = validate_bot("greedy", "concentration", quick=True, players=(3, 2))
    assert verdict.passed
    assert verdict.lines[0] == ("PASS: 10 sandboxed games of concentration (preset standard; 2 "
                                "and 3 players), no faults")
    assert sorted({(cell.players, cell.games) for cell in verdict.cells}) == [(2, 2), (3, 3)]
    assert [line.split()[:2] for line in verdict.lines[3:5]] == [["standard", "(3p)"],
                                                               ["standard", "(2p)"]]


def test_a_table_size_no_preset_seats_is_refused_before_anything_is_played(
        runner: CliRunner) -> None:
    refused = run(runner, "validate", "greedy", "--game", "concentration", "-v", "duel",
                  "--players", "3", "--players", "2")
    assert refused.exit_code == 2
    assert refused.stderr.strip().splitlines() == [
        "arena: error: --players 3: no preset checked seats 3 players (concentration: duel 2 "
        "players)"]


def test_a_bot_is_checked_and_played_by_one_host(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.sandbox import promises

    hosts = counted_hosts(monkeypatch)
    monkeypatch.setattr(promises, "_FACTS", {})
    path = write_bot("scaffold", "concentration", tmp_path)
    spec = f"{path}:{class_name('scaffold')}"
    assert validate_bot(spec, "concentration", quick=True).passed
    # the bot's host, and one that says how a game is confined (a game process of `random`)
    started = [host.spec for host in hosts]
    assert len(started) == 2 and started[-1] == "random", started
    assert validate_bot(spec, "concentration", quick=True).passed
    assert len(hosts) == 3  # the bot's only: how a game is confined is asked once a process
