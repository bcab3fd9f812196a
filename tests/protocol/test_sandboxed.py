"""Program bots in the sandbox: the same confinement, limits and faults as a Python bot."""

from __future__ import annotations

import json
import os
import time
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
        # the arena reads the program's lines itself: each way of breaking the protocol
        for seed, kind, detail in [*FAULTS, (5, None, None)]:
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
        # its own PID namespace, where it is the game process itself: nothing relays
        assert seen["procs"] == [str(seen["pid"])]


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
    # the move's time is not what is tested: long enough that no load times the hog out
    # before it reaches its memory (5 s did at a load of 27)
    hog = sandboxed(f"cmd:python3 {tmp_path / 'hog.py'}", "dig", Limits(move_seconds=60.0,
                                                                         memory_mb=128))
    try:
        record = play_game(find_game("dig").variant(), [hog.make(), resolve_bot("random").make()],
                           ["hog", "random"], 0)
    finally:
        hog.close()
    (fault,) = record.faults
    assert (fault.kind.value, "act: ran out of memory" in fault.detail) == ("memory", True)


def _waiting_for(program: Path, seconds: float = 10.0) -> bool:
    """Whether a game process has become the waiting shell of `program` within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if words[:1] == [b"/bin/sh"] and str(program).encode() in words:
                return True
        time.sleep(0.01)
    return False


def test_a_program_gone_before_its_game_is_a_fault_at_start_naming_the_spec(tmp_path: Path
                                                                            ) -> None:
    program = tmp_path / "bot.py"
    program.write_text("#!/usr/bin/env python3\n" + SLOW_START.replace("time.sleep(0.4)", ""))
    program.chmod(0o755)
    spec = f"cmd:{program}"
    variant = find_game("dig").variant()
    bot = sandboxed(spec, "dig", LIMITS, tmp_path / "bot.log")
    try:
        program.unlink()  # before its host has prepared any game: the game process says so
        record = play_game(variant, [bot.make(), resolve_bot("random").make()], ["p", "r"], 0)
    finally:
        bot.close()
    (fault,) = record.faults
    assert fault.kind.value == "crash"
    assert fault.detail.startswith(f"start: bot spec {spec!r}: program ")
    assert "not found" in fault.detail and "\n" not in fault.detail


def test_a_program_gone_while_its_game_waits_plays_the_copy_its_games_see(
        tmp_path: Path) -> None:
    """A program's folder is copied into its games' view when its host starts (issue 38): a
    program removed after that still plays, as it was when it was checked."""
    program = tmp_path / "bot.py"
    program.write_text("#!/usr/bin/env python3\n" + SLOW_START.replace("time.sleep(0.4)", ""))
    program.chmod(0o755)
    variant = find_game("dig").variant()
    bot = sandboxed(f"cmd:{program}", "dig", LIMITS, tmp_path / "bot.log")
    try:
        first = play_game(variant, [bot.make(), resolve_bot("random").make()], ["p", "r"], 0)
        assert _waiting_for(program)  # the next game's process, ready ahead
        program.unlink()
        second = play_game(variant, [bot.make(), resolve_bot("random").make()], ["p", "r"], 1)
    finally:
        bot.close()
    assert not first.faults and not second.faults


def test_a_program_that_cannot_be_run_is_a_crash_that_says_how(tmp_path: Path) -> None:
    program = tmp_path / "bot.py"  # its interpreter is nowhere
    program.write_text("#!/nowhere/python3\n" + SLOW_START.replace("time.sleep(0.4)", ""))
    program.chmod(0o755)
    log = tmp_path / "bot.log"
    bot = sandboxed(f"cmd:{program}", "dig", LIMITS, log)
    try:
        record = play_game(find_game("dig").variant(),
                           [bot.make(), resolve_bot("random").make()], ["p", "r"], 0)
    finally:
        bot.close()
    (fault,) = record.faults
    assert fault.kind.value == "crash"
    assert fault.detail.startswith("start: ")
    assert "exited with code 127: the program could not be run" in fault.detail
    assert "not found" in log.read_text()  # the shell's word on it
