"""`arena play` shows each fault's detail, a bot's output prefixed with its seat, and the
traceback of a bot's exception on stderr, sandboxed and in-process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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
    assert done.stdout.splitlines()[-2:] == [
        "  fault: seat 0 (noisy:Noisy), exception at decision 20: act raised ValueError:",
        "    gave up (at noisy.py:8 in act)"]
    assert 'noisy.py", line 8, in act' in done.stderr  # the whole traceback
    if isolation == "process":  # a sandboxed bot's output, each line after its seat
        assert "[seat 0] thinking about 52 choices\n" in done.stderr
        assert "[seat 0] ValueError: gave up\n" in done.stderr
    else:  # an in-process bot prints where the arena does; its fault is logged on stderr
        assert "seat 0 (noisy:Noisy): act raised ValueError: gave up" in done.stderr


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
