"""scripts/under_load.py: its busy loops are other work, in a session of their own unless asked."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import load_script

under_load = load_script("under_load")


def _descendants(pid: int) -> set[int]:
    """The processes under `pid` (its children, theirs, ...)."""
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").iterdir():
            children = (task / "children").read_text().split()
            found.update(int(child) for child in children)
            todo.extend(int(child) for child in children)
    return found


@pytest.mark.parametrize("own_session", [True, False])
def test_the_busy_loops_run_together_in_a_session_of_their_own_unless_asked_not_to(
        own_session: bool) -> None:
    loops = under_load.busy_loops(3, own_session=own_session)
    try:
        deadline = time.monotonic() + 30
        pids = {loop.pid for loop in loops}
        while own_session and len(pids) < 3 and time.monotonic() < deadline:
            pids = {loops[0].pid} | _descendants(loops[0].pid)
            time.sleep(0.05)
        assert len(pids) == 3
        sessions = {os.getsid(pid) for pid in pids}
        # one session for all (one share of the CPU where the kernel shares it by session)
        assert sessions == ({loops[0].pid} if own_session else {os.getsid(0)})
    finally:
        under_load.end_loops(loops)
    deadline = time.monotonic() + 30  # a killed process ends once the kernel schedules it
    while [pid for pid in pids if _running(pid)] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in pids if _running(pid)]


def _running(pid: int) -> bool:
    """Whether the process is there and not a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def test_a_run_reports_its_time_load_and_last_line(tmp_path: Path) -> None:
    run = under_load.run_once([sys.executable, "-c", "print('3 passed')"], tmp_path / "log.txt")
    assert (run.code, run.last_line) == (0, "3 passed")
    assert (tmp_path / "log.txt").read_text() == "3 passed\n"
    assert run.summary(1).startswith("run 1: ")
