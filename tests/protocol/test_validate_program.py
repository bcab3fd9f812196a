"""`arena validate` checks a program bot as it checks a Python one: sandboxed games, a verdict,
exit code 0 on a pass and 1 on a fail."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tests.helpers import run
from tests.protocol.test_command import HOSTILE_SPEC


@pytest.fixture
def runner() -> CliRunner:
    """A runner that keeps stderr apart."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


def test_a_sound_program_passes_validation(runner: CliRunner, python_bot: str) -> None:
    passed = run(runner, "validate", python_bot, "--game", "concentration", "--quick")
    assert passed.exit_code == 0 and passed.stdout.startswith("PASS: "), passed.stdout


def test_a_program_that_breaks_the_protocol_fails_validation(runner: CliRunner) -> None:
    # the hostile program's way of breaking the protocol is its deal's: deal 0 sends no JSON
    failed = run(runner, "validate", HOSTILE_SPEC, "--game", "concentration", "--games", "1")
    assert failed.exit_code == 1 and failed.stdout.startswith("FAIL: game 1 "), failed.stdout
