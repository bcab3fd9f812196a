"""Issue 27's channels, attacked by the hostile bots of `tests/sandbox/hostile/channels.py`: the
organiser's terminal, devices, notes between two game processes that win a duplicate game, the
process prepared ahead computing, the arena's environment and command line, and signals a bot
sends itself. Each attack is first shown to work in the arena's own process (`--isolation none`,
or a game played in-process), or, where it would take the test's own process down (a signal) or
needs what only a sandbox has (control groups), against the code before issue 27; then a
sandboxed game contains it. These need the kernel's work of issue 27 to pass sandboxed."""

from __future__ import annotations

import contextlib
import os
import pty
import re
import select
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from arena.api import Bot
from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.record import FaultKind, GameRecord
from arena.sandbox import Limits, sandboxed
from arena.sandbox.cgroups import find_hierarchies
from tests.sandbox.support import NAMESPACES

CHANNELS = Path(__file__).parent / "hostile" / "channels.py"
LIMITS = Limits(move_seconds=0.5, game_seconds=20.0, overage_seconds=0.5, memory_mb=256,
                output_bytes=16384, start_seconds=10.0, end_seconds=5.0)

needs_kernel = pytest.mark.skipif(
    not NAMESPACES, reason="the kernel confinement needs PID, IPC, mount, network and user "
                           "namespaces, which this machine does not offer")


def spec(bot: str, **params: object) -> str:
    """The spec of a bot of channels.py, with its parameters."""
    given = ",".join(f"{key}={value}" for key, value in params.items())
    return f"{CHANNELS}:{bot}" + (f":{given}" if given else "")


def _greedy() -> Bot:
    return resolve_bot("greedy").make()


@contextlib.contextmanager
def sandboxed_seat(bot_spec: str, log: Path) -> Iterator[Callable[[int, int], GameRecord]]:
    """Games of a sandboxed bot against in-process greedy, one host for all (as a duplicate
    pairing's): a function playing a seed with the bot at a seat (0 or 1), its record."""
    variant = find_game("concentration").variant("standard")
    entry = sandboxed(bot_spec, "concentration", LIMITS, log)

    def play(seed: int, seat: int) -> GameRecord:
        seats = [entry.make(), _greedy()] if seat == 0 else [_greedy(), entry.make()]
        names = ["hostile", "greedy"] if seat == 0 else ["greedy", "hostile"]
        return play_game(variant, seats, names, seed)

    try:
        yield play
    finally:
        entry.close()


def said(log: Path) -> str:
    """What a sandboxed bot printed (its log)."""
    return log.read_text() if log.exists() else ""


# 1. notes between games that win the second seating of a duplicate pair


def _duplicate_in_process(way: str) -> tuple[GameRecord, GameRecord, list[Bot]]:
    """The two seatings of a deal, a layout passer in each (both made before the first game,
    as a sandboxed bot's next process is made ahead)."""
    variant = find_game("concentration").variant("standard")
    resolved = resolve_bot(spec("LayoutPasser", way=way))
    first, second = resolved.make(), resolved.make()
    one = play_game(variant, [first, _greedy()], ["hostile", "greedy"], 5)
    time.sleep(0.1)
    two = play_game(variant, [_greedy(), second], ["greedy", "hostile"], 5)
    return one, two, [first, second]


@pytest.mark.parametrize("way", ["netlink", "lock"])
def test_a_layout_passed_between_games_wins_the_duplicate_in_process(
        way: str, capfd: pytest.CaptureFixture[str]) -> None:
    _, two, bots = _duplicate_in_process(way)
    try:
        out = capfd.readouterr().out
        got = re.search(r"layoutpasser \w+ received (\d+) cards", out)
        assert got and int(got.group(1)) >= 40, out
        assert two.scores[1] >= 0.8 * sum(two.scores), two.scores  # it takes nearly every pair
    finally:
        for bot in bots:
            bot.close()  # type: ignore[attr-defined]


@needs_kernel
@pytest.mark.parametrize("way", ["netlink", "lock"])
def test_no_layout_passes_between_sandboxed_games(way: str, tmp_path: Path) -> None:
    log = tmp_path / "passer.log"
    with sandboxed_seat(spec("LayoutPasser", way=way), log) as play:
        play(5, 0)
        play(5, 1)
    text = said(log)
    assert f"layoutpasser {way} passed" in text or "could not pass" in text, text  # it tried
    assert "received nothing" in text and not re.search(r"received \d+ cards", text), text


@needs_kernel
@pytest.mark.skipif(not find_hierarchies()[0], reason="no control groups for games here")
def test_control_group_counters_carry_no_note_between_sandboxed_games(tmp_path: Path) -> None:
    """Each game leaves a count in its pids group's events; a later game that gets the group
    (a host reuses them) must find zero, and the machine's hierarchy out of view. (In-process
    there are no game groups: the code before issue 27 found the note.)"""
    log = tmp_path / "cgroupnote.log"
    with sandboxed_seat(spec("CgroupNote"), log) as play:
        for seed in range(4):
            play(seed, 0)
    text = said(log)
    assert text.count("cgroupnote left a note") == 4, text
    assert not re.search(r"found max=[1-9]", text), text


# 2. the terminal and devices


def _under_a_terminal(argv: list[str], typed: bytes = b"") -> str:
    """Run `argv` with a pty of the test's own as its controlling terminal (`typed` written to
    it first); then read what is left in the terminal's input, as the shell that started it
    would: everything the pty showed, with `READ<...>` for that input."""
    reader = ("import os, select, subprocess, sys\n"
              "subprocess.run(sys.argv[1:])\n"
              "ready = select.select([0], [], [], 0.5)[0]\n"
              "print('READ<%r>' % (os.read(0, 4096) if ready else b''), flush=True)\n")
    pid, master = pty.fork()
    if pid == 0:  # the child: the pty is its controlling terminal
        try:
            os.execv(sys.executable, [sys.executable, "-c", reader, *argv])
        finally:
            os._exit(127)
    if typed:
        os.write(master, typed)
    out = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready = select.select([master], [], [], 1.0)[0]
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child is gone
                break
            if not chunk:
                break
            out += chunk
    os.waitpid(pid, 0)
    os.close(master)
    return out.decode(errors="replace")


def _play(bot_spec: str, isolation: str) -> list[str]:
    return [sys.executable, "-m", "arena.cli", "play", "concentration", "-b", bot_spec, "-b",
            "greedy", "--isolation", isolation]


def test_a_bot_types_into_the_organiser_s_terminal_in_process() -> None:
    shown = _under_a_terminal(_play(spec("Typist", text="echo arena-typed"), "none"))
    assert "READ<b'echo arena-typed\\n'>" in shown, shown


@needs_kernel
def test_a_sandboxed_bot_cannot_type_into_the_organiser_s_terminal(tmp_path: Path) -> None:
    shown = _under_a_terminal(_play(spec("Typist", text="echo arena-typed"), "process"))
    assert "READ<b''>" in shown, shown
    assert "typist typed" not in shown, shown


def _pts() -> tuple[int, int, str]:
    """A pty of the test's own with a password typed into it: master, slave, the slave's path."""
    master, slave = os.openpty()
    os.write(master, b"password\n")
    return master, slave, os.ttyname(slave)


def test_a_bot_uses_devices_and_reads_another_terminal_in_process(
        capfd: pytest.CaptureFixture[str]) -> None:
    master, slave, path = _pts()
    try:
        variant = find_game("concentration").variant("standard")
        play_game(variant, [resolve_bot(spec("Devices", pts=path)).make(), _greedy()],
                  ["hostile", "greedy"], 1)
    finally:
        os.close(master)
        os.close(slave)
    out = capfd.readouterr().out
    assert "devices read from" in out and "password" in out, out
    if os.path.exists("/dev/kvm") and os.access("/dev/kvm", os.R_OK):
        assert "devices made a VM and a vCPU" in out, out
    if os.path.exists("/dev/userfaultfd") and os.access("/dev/userfaultfd", os.R_OK):
        assert "devices made a userfaultfd" in out, out


@needs_kernel
def test_a_sandboxed_bot_uses_no_device_and_reads_no_terminal(tmp_path: Path) -> None:
    master, slave, path = _pts()
    log = tmp_path / "devices.log"
    try:
        with sandboxed_seat(spec("Devices", pts=path), log) as play:
            play(1, 0)
    finally:
        os.close(master)
        os.close(slave)
    text = said(log)
    assert "devices could not use /dev/kvm" in text, text  # it tried
    assert "made a VM" not in text and "made a userfaultfd" not in text, text
    assert "password" not in text and "devices could not read" in text, text


# 3. the environment and the command line


def test_a_bot_reads_the_arena_s_environment_in_process(
        monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("ARENA_TEST_SECRET", "s3cret")
    variant = find_game("concentration").variant("standard")
    play_game(variant, [resolve_bot(spec("Environment")).make(), _greedy()], ["h", "g"], 1)
    assert "environment found ARENA_TEST_SECRET=s3cret" in capfd.readouterr().out


@needs_kernel
def test_a_sandboxed_bot_sees_nothing_of_the_arena_s_environment_or_settings(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ARENA_TEST_SECRET", "s3cret")
    log = tmp_path / "environment.log"
    with sandboxed_seat(spec("Environment"), log) as play:
        play(1, 0)
    text = said(log)
    assert "environment found no ARENA_TEST_SECRET" in text, text
    assert "found no settings in its command line" in text, text


# 4. the process prepared ahead


def test_a_bot_made_ahead_computes_during_another_game_in_process(
        capfd: pytest.CaptureFixture[str]) -> None:
    variant = find_game("concentration").variant("standard")
    resolved = resolve_bot(spec("AheadSpinner"))
    first, second = resolved.make(), resolved.make()
    play_game(variant, [first, _greedy()], ["h", "g"], 1)
    # the gap between the games: until the spinner (a thread of this process) has had 0.2 s of
    # CPU, however loaded the machine (within reason)
    before, deadline = time.process_time(), time.monotonic() + 10
    while time.process_time() - before < 0.2 and time.monotonic() < deadline:
        time.sleep(0.02)
    play_game(variant, [second, _greedy()], ["h", "g"], 2)
    ahead = [int(ms) for ms in re.findall(r"computed (\d+) ms ahead", capfd.readouterr().out)]
    assert ahead[-1] >= 100, ahead


@needs_kernel
def test_the_process_prepared_ahead_runs_no_bot_code(tmp_path: Path) -> None:
    """The next game's process is made while a game is played: it must neither run the bot's
    code nor compute before its own game begins."""
    log = tmp_path / "ahead.log"
    with sandboxed_seat(spec("AheadSpinner"), log) as play:
        play(1, 0)
        time.sleep(1.0)  # the next game's process is made meanwhile
        play(2, 0)
    ahead = [int(ms) for ms in re.findall(r"computed (\d+) ms ahead", said(log))]
    # made ahead, it would spin for most of the second between the games; made as its game
    # begins, only while the game is set up (a few ms, tens on a loaded machine)
    assert len(ahead) == 2 and ahead[-1] < 200, said(log)


# 5. signals a bot sends itself


@needs_kernel
@pytest.mark.parametrize("name", ["SIGABRT", "SIGSEGV"])
def test_a_signal_a_sandboxed_bot_sends_itself_is_a_crash(name: str, tmp_path: Path) -> None:
    """Anywhere else such a signal ends the process (in-process it would end the test's own, so
    this is shown against the code before issue 27, where the game process, process 1 of its
    namespace, ignored it and played on)."""
    log = tmp_path / "signaller.log"
    with sandboxed_seat(spec("SelfSignaller", name=name), log) as play:
        record = play(1, 0)
    assert "plays on" not in said(log), said(log)
    assert [(f.seat, f.kind) for f in record.faults] == [(0, FaultKind.CRASH)]  # its first act


def test_the_forked_child_of_a_plain_process_dies_of_its_own_signal() -> None:
    """What the sandbox must give a bot: the ordinary semantics (a child here, not the test)."""
    code = "import signal; signal.raise_signal(signal.SIGABRT); print('plays on')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == -6 and "plays on" not in done.stdout
