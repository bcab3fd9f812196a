"""Program bots in the sandbox: the same confinement, limits and faults as a Python bot."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from arena.engine import find_game
from arena.errors import BotSpecError
from arena.loader import resolve_bot
from arena.match import play_game
from arena.sandbox import Limits, sandboxed
from tests.protocol.test_command import FAULTS, HOSTILE_SPEC
from tests.sandbox.test_cgroups import needs_cgroups

LIMITS = Limits(move_seconds=2.0, game_seconds=30.0, memory_mb=512, output_bytes=4096)


def test_every_fault_is_recorded_in_the_sandbox_and_the_log_is_capped(tmp_path: Path) -> None:
    variant = find_game("concentration").variant("standard")
    log = tmp_path / "hostile.log"
    hostile = sandboxed(HOSTILE_SPEC, "concentration", LIMITS, log)
    try:
        # the relay's faults all travel alike: a few of them here (every one in-process)
        for seed, kind, detail in [*(FAULTS[i] for i in (0, 3, 6, 8)), (5, None, None)]:
            record = play_game(variant, [hostile.make(), resolve_bot("greedy").make()],
                               ["hostile", "greedy"], seed).to_json()
            if kind is None:  # seed 5: megabytes on stderr, then a good answer: no fault
                assert not record["faults"]
                continue
            (fault,) = record["faults"]
            assert (seed, fault["kind"]) == (seed, kind)
            assert detail in fault["detail"] and "\n" not in fault["detail"]
    finally:
        hostile.close()
    assert "noise noise" in log.read_text()
    assert log.stat().st_size < 64 * 1024  # the program's endless stderr is capped


def test_a_missing_program_is_refused_before_any_game() -> None:
    with pytest.raises(BotSpecError, match="program '/nowhere/bot' not found"):
        sandboxed("cmd:/nowhere/bot", "concentration", LIMITS)


SPY = r"""
import json, os, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "act":
        seen = {"pid": os.getpid(), "cwd": os.getcwd(), "env": sorted(os.environ),
                "procs": sorted(p for p in os.listdir("/proc") if p.isdigit()),
                "seccomp": [l.split()[1] for l in open("/proc/self/status")
                            if l.startswith("Seccomp:")][0]}
        try:
            open(os.path.join(os.environ["HOME"], "note"), "w").write("x")
            seen["home_writable"] = True
        except OSError:
            seen["home_writable"] = False
        try:
            open(os.path.join(os.getcwd(), "note"), "w").write("x")
            seen["folder_writable"] = True
        except OSError:
            seen["folder_writable"] = False
        sys.stderr.write("SEEN " + json.dumps(seen) + "\n")
        print(0, flush=True)
    else:
        print("{}", flush=True)
"""


def test_the_program_runs_confined(tmp_path: Path) -> None:
    folder = tmp_path / "spy"
    folder.mkdir()
    (folder / "spy.py").write_text(SPY)
    log = tmp_path / "spy.log"
    variant = find_game("dig").variant()
    spy = sandboxed(f"cmd:python3 {folder / 'spy.py'}", "dig", LIMITS, log)
    try:
        record = play_game(variant, [spy.make(), resolve_bot("random").make()],
                           ["spy", "random"], 0)
    finally:
        spy.close()
    assert not record.faults
    seen = json.loads(next(line for line in log.read_text().splitlines()
                           if "SEEN " in line).partition("SEEN ")[2])
    assert seen["seccomp"] == "2"  # the game's filter, inherited across execve
    assert seen["cwd"] == str(folder)
    assert seen["env"] == ["HOME", "LANG", "PATH", "TMPDIR"]
    assert seen["home_writable"] and not seen["folder_writable"]
    if os.path.exists("/proc/self/ns/pid"):
        assert len(seen["procs"]) <= 3  # its own PID namespace: the game process and itself


SLOW_START = r"""
import json, sys, time
time.sleep(0.4)  # a slow runtime's start-up (the JVM's, say)
for line in sys.stdin:
    msg = json.loads(line)
    print(0 if msg["type"] == "act" else "{}", flush=True)
"""


def test_a_slow_start_up_counts_under_the_start_limit_not_the_first_move(tmp_path: Path) -> None:
    (tmp_path / "slow.py").write_text(SLOW_START)
    limits = Limits(move_seconds=0.25, start_seconds=2.0, memory_mb=512)
    slow = sandboxed(f"cmd:python3 {tmp_path / 'slow.py'}", "dig", limits)
    try:
        record = play_game(find_game("dig").variant(), [slow.make(), resolve_bot("random").make()],
                           ["slow", "random"], 0)
    finally:
        slow.close()
    assert not record.faults


HOG = r"""
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "act":
        hoard = bytearray(600 << 20)
    print(0 if msg["type"] == "act" else "{}", flush=True)
"""


@needs_cgroups
def test_a_program_that_takes_too_much_memory_is_a_memory_fault(tmp_path: Path) -> None:
    (tmp_path / "hog.py").write_text(HOG)
    hog = sandboxed(f"cmd:python3 {tmp_path / 'hog.py'}", "dig", Limits(move_seconds=5.0,
                                                                         memory_mb=128))
    try:
        record = play_game(find_game("dig").variant(), [hog.make(), resolve_bot("random").make()],
                           ["hog", "random"], 0)
    finally:
        hog.close()
    (fault,) = record.faults
    assert (fault.kind.value, "act: ran out of memory" in fault.detail) == ("memory", True)
