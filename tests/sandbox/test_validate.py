"""`arena validate`: a submitted bot's battery, its verdict and its exit code."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from arena.sandbox import landlock
from arena.sandbox.validate import validate_bot
from tests.helpers import run

HOSTILE = Path(__file__).parent / "hostile" / "bots.py"


def test_a_sound_bot_passes_and_the_verdict_says_how_it_was_confined() -> None:
    verdict = validate_bot("greedy", "concentration", games=1)
    assert verdict.passed and verdict.games > 0
    assert verdict.lines[0].startswith(f"PASS: {verdict.games} sandboxed games of concentration")
    assert any(line.startswith("  against random: ") for line in verdict.lines)
    assert verdict.lines[-1] == f"  sandbox: {landlock.coverage()}"


def test_the_first_fault_fails_the_bot_with_where_it_happened() -> None:
    verdict = validate_bot(f"{HOSTILE}:Raiser", "concentration", games=1)
    assert not verdict.passed and verdict.games == 1
    (line,) = verdict.lines
    assert line.startswith("FAIL: game 1 (against ") and "seat 0): exception at decision " in line
    assert line.endswith("act raised RuntimeError: boom")


def test_a_bot_that_does_not_load_fails_before_any_game(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("raise ImportError('no such helper')\n")
    verdict = validate_bot(f"{broken}:Bot", "concentration", games=1)
    assert not verdict.passed and verdict.games == 0
    (line,) = verdict.lines
    assert line.startswith("FAIL: the bot does not load: ") and "no such helper" in line


def test_the_command_exits_0_on_a_pass_1_on_a_fail_and_2_on_bad_input(
        runner: CliRunner) -> None:
    passed = run(runner, "validate", "greedy", "--game", "concentration", "--games", "1")
    assert passed.exit_code == 0 and passed.stdout.startswith("PASS: ")
    failed = run(runner, "validate", f"{HOSTILE}:Illegal", "--game", "concentration",
                 "--games", "1")
    assert failed.exit_code == 1 and failed.stdout.startswith("FAIL: game 1 ")
    unknown = run(runner, "validate", "greedy", "--game", "chess")
    assert unknown.exit_code == 2 and "chess" in unknown.stderr
    assert len(unknown.stderr.strip().splitlines()) == 1
