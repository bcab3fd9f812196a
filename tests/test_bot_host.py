"""The sandbox host's own housekeeping (the games themselves are tested in test_sandbox)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from arena.bot_host import HOME_PREFIX, sweep


def test_sweep_removes_only_what_killed_hosts_of_this_user_left(tmp_path: Path) -> None:
    gone = subprocess.Popen(["true"])
    gone.wait()
    stale = tmp_path / f"{HOME_PREFIX}{gone.pid}-abc123"
    (stale / "0f3a").mkdir(parents=True)
    (stale / "0f3a" / "note.txt").write_text("left by a bot")
    running = tmp_path / f"{HOME_PREFIX}{os.getpid()}-def456"
    running.mkdir()
    unnamed = tmp_path / f"{HOME_PREFIX}x7k2q"  # no process id in the name: not ours to judge
    unnamed.mkdir()
    unrelated = tmp_path / "arena-botany-1-2"
    unrelated.mkdir()
    a_file = tmp_path / f"{HOME_PREFIX}{gone.pid}-file"
    a_file.write_text("not a directory")
    sweep(str(tmp_path))
    assert not stale.exists()
    assert running.exists() and unnamed.exists() and unrelated.exists() and a_file.exists()


def test_sweep_of_a_missing_folder_does_nothing(tmp_path: Path) -> None:
    sweep(str(tmp_path / "missing"))
