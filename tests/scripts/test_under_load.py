"""scripts/under_load.py: its busy loops are other work, in a session of their own unless asked."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.helpers import load_script

under_load = load_script("under_load")


@pytest.mark.parametrize("own_session", [True, False])
def test_the_busy_loops_run_in_a_session_of_their_own_unless_asked_not_to(
        own_session: bool) -> None:
    loops = under_load.busy_loops(2, own_session=own_session)
    try:
        sessions = {os.getsid(loop.pid) for loop in loops}
        if own_session:
            assert os.getsid(0) not in sessions
            assert sessions == {loop.pid for loop in loops}
        else:
            assert sessions == {os.getsid(0)}
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def test_a_run_reports_its_time_load_and_last_line(tmp_path: Path) -> None:
    run = under_load.run_once([sys.executable, "-c", "print('3 passed')"], tmp_path / "log.txt")
    assert (run.code, run.last_line) == (0, "3 passed")
    assert (tmp_path / "log.txt").read_text() == "3 passed\n"
    assert run.summary(1).startswith("run 1: ")
