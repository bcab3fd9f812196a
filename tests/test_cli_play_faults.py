"""`arena play` shows each fault's detail, a bot's output prefixed with its seat, and the
traceback of a bot's exception on stderr, sandboxed and in-process."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.helpers import run

NOISY = '''\
from arena.api import Bot


class Noisy(Bot):
    def act(self, obs):
        print("thinking about", len(obs.legal), "choices")
        if len(obs.legal) < 40:
            raise ValueError("gave up")
        return obs.legal[0]
'''


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_play_prints_the_fault_and_the_bot_s_output(tmp_path: Path, isolation: str) -> None:
    (tmp_path / "noisy.py").write_text(NOISY)
    done = subprocess.run(
        [sys.executable, "-c", "from arena.cli import main; main()", "play", "concentration",
         "-b", "noisy.py:Noisy", "-b", "greedy", "--isolation", isolation],
        cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    fault = " ".join(line.strip() for line in done.stdout.splitlines()[1:])
    assert fault.startswith("fault: seat 0 (noisy:Noisy), exception: its decision 10 (the "
                            "game's 20): act raised ValueError: gave up (at noisy.py:8 in act)")
    if isolation == "process":  # where its output is: on stderr, after its seat
        assert fault.endswith("(what it printed: on stderr, after [seat 0])")
    assert 'noisy.py", line 8, in act' in done.stderr  # the whole traceback
    if isolation == "process":  # a sandboxed bot's output, each line after its seat
        assert "[seat 0] thinking about 52 choices\n" in done.stderr
        assert "[seat 0] ValueError: gave up\n" in done.stderr
    else:  # an in-process bot prints on stderr, as its fault's traceback does
        assert "seat 0 (noisy:Noisy): act raised ValueError: gave up" in done.stderr
        assert "thinking about 52 choices\n" in done.stderr
    assert "thinking" not in done.stdout


def test_version_is_the_installed_distribution_s() -> None:
    from importlib.metadata import version

    done = subprocess.run([sys.executable, "-c", "from arena.cli import main; main()",
                           "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == f"arena {version('card-arena')}\n"


def test_with_rotate_a_sandboxed_bot_s_output_is_marked_by_its_place(tmp_path: Path) -> None:
    (tmp_path / "noisy.py").write_text(NOISY)
    done = subprocess.run(
        [sys.executable, "-c", "from arena.cli import main; main()", "play", "concentration",
         "-b", "greedy", "-b", "noisy.py:Noisy", "--isolation", "process", "--rotate"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "[bot 1] thinking about 52 choices\n" in done.stderr  # seat 1, then seat 0
    assert "[seat" not in done.stderr


CHATTY = '''\
import time

from arena.api import Bot


class Chatty(Bot):
    def act(self, obs):
        print("x" * 99)
        if len(obs.legal) == 50:  # its second decision: slower than the limit asked for
            started = time.perf_counter()
            while time.perf_counter() - started < 0.01:
                pass
        return obs.legal[0]
'''


def test_in_process_bots_print_on_stderr_never_into_json(runner: CliRunner, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """--json's stdout holds records only; a decision slower than the time a move would have
    sandboxed is warned about, once, on stderr."""
    (tmp_path / "chatty.py").write_text(CHATTY)
    monkeypatch.chdir(tmp_path)
    result = run(runner, "play", "concentration", "-b", "chatty.py:Chatty", "-b", "greedy",
                 "--isolation", "none", "--json", "--games", "2", "--time-limit", "0.005")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [json.loads(line)["seed"] for line in lines] == [0, 1]
    assert "x" * 99 + "\n" in result.stderr
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    # once a seat: on a loaded machine greedy's quick decisions pass 5 ms as well, and it is
    # warned about once too
    (warning,) = [line for line in warnings if "seat 0" in line]
    assert re.match(r"arena: warning: seat 0 \(chatty:Chatty\) took [\d.]+ s over its "
                    r"decision \d+ of seed 0, more than the 0.005 s a move", warning), warning
    assert all(re.match(r"arena: warning: seat 1 \(greedy\) took ", line)
               for line in warnings if line != warning) and len(warnings) <= 2, warnings


def test_play_gives_file_bots_the_default_limits_unless_asked_otherwise() -> None:
    from arena.cli.playing import _play_limits
    from arena.sandbox import DEFAULT_LIMITS, Limits

    assert _play_limits(DEFAULT_LIMITS, None, False, 64) == DEFAULT_LIMITS
    assert DEFAULT_LIMITS.move_seconds == 1.0 and DEFAULT_LIMITS.memory_mb == 512
    asked = _play_limits(DEFAULT_LIMITS, 0.5, False, 2)
    assert (asked.move_seconds, asked.overage_seconds, asked.output_bytes) == (0.5, 1.0, 2048)
    assert _play_limits(DEFAULT_LIMITS, None, True, 64) == Limits()


def test_play_cuts_a_sandboxed_bot_s_output_at_the_limit_asked_for(tmp_path: Path) -> None:
    (tmp_path / "chatty.py").write_text(CHATTY)
    done = subprocess.run(
        [sys.executable, "-c", "from arena.cli import main; main()", "play", "concentration",
         "-b", "chatty.py:Chatty", "-b", "greedy", "--output-kb", "1"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("[seat 0] " + "x" * 99 + "\n") == 10  # 1000 of 1024 bytes
    assert "[output truncated at 1024 bytes" in done.stderr
