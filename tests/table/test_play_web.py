"""`arena play … --web` from the command line: the table's address printed, Ctrl-C ends the game
as a recorded quit (the record printed, no traceback, the process gone), and the options it
cannot go with refused in one line."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from tests.helpers import run

pytest.importorskip("aiohttp")


def test_ctrl_c_ends_the_game_as_a_recorded_quit_and_leaves_nothing_running() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "arena.cli", "play", "dig", "-b", "human", "--level", "easy",
         "--web", "--no-open", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        assert re.match(r"arena: seat 0 is at http://127\.0\.0\.1:\d+/\?t=\S{20,}$", line), line
        time.sleep(0.5)  # the game waits for the person's first move
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert "Traceback" not in err
    record = json.loads(out.splitlines()[0])
    assert record["game"] == "dig" and [f["seat"] for f in record["faults"]] == [0]
    assert "Ctrl-C" in record["faults"][0]["detail"]


def test_web_wants_a_person_and_goes_with_neither_show_nor_rotate(runner: CliRunner) -> None:
    alone = run(runner, "play", "dig", "-b", "random", "-b", "random", "--web")
    assert alone.exit_code == 2 and "-b human" in alone.output
    shown = run(runner, "play", "dig", "-b", "human", "-b", "random", "--web", "--show")
    assert shown.exit_code == 2 and "--web cannot be used with --show" in shown.output
