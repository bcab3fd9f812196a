"""The sandbox host's own housekeeping (the games themselves are tested in test_sandbox)."""

from __future__ import annotations

import importlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from arena.sandbox import BotHost, Limits
from arena.sandbox import host as host_module
from arena.sandbox.host import _RECORD, HOME_PREFIX, _finished, _kill, sweep
from arena.sandbox.stand_in import how_it_ended
from arena.text import ByteLines


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


@pytest.mark.skipif(not Path("/proc/self/comm").exists(), reason="process names need Linux")
def test_the_sandbox_processes_are_named_for_what_they_do() -> None:
    host = BotHost("greedy", "concentration", Limits(), trusted=True)
    handover = host.new_game()
    try:
        game = handover.group
        assert host.pid is not None
        pid = host.pid
        forker = int(Path(f"/proc/{pid}/task/{pid}/children").read_text().split()[0])
        wanted = ["arena-host", "arena-forker", "arena-game"]
        deadline = time.monotonic() + 5  # a game process is handed over before it names itself
        while (names := [Path(f"/proc/{p}/comm").read_text().strip()
                         for p in (pid, forker, game)]) != wanted and time.monotonic() < deadline:
            time.sleep(0.01)
        assert names == wanted
    finally:  # only now: a game process whose socket is closed ends, and once its forker has
        handover.sock.close()  # reaped it (as it forks the next), it has no name to read
        host.close()


def test_a_game_process_that_has_no_group_yet_is_killed_all_the_same() -> None:
    # a process forked a moment ago may not have made its own process group yet
    sleeper = subprocess.Popen(["sleep", "60"])
    _kill(sleeper.pid)
    assert sleeper.wait(timeout=5) == -signal.SIGKILL
    _kill(sleeper.pid)  # gone (and reaped): nothing to do, nothing raised


def test_a_host_imports_none_of_the_arena_side_of_the_sandbox() -> None:
    # every bot's host is a fresh Python: what it imports, it pays for at every start
    shown = subprocess.run(
        [sys.executable, "-c", "import sys, arena.sandbox.host; "
                               "print(' '.join(m for m in sys.modules if m.startswith('arena.')))"],
        capture_output=True, text=True, check=True).stdout.split()
    assert "arena.sandbox.host" in shown
    arena_side = {"entry", "stand_in", "program", "validate", "probes", "promises", "sight"}
    assert not arena_side & {name.removeprefix("arena.sandbox.") for name in shown}


def test_the_front_door_names_every_name_from_its_module() -> None:
    import arena.sandbox as front

    for name in front.__all__:
        value = getattr(front, name)
        home = importlib.import_module(front._HOMES[name])
        assert value is getattr(home, name), name
    with pytest.raises(AttributeError):
        front.no_such_name  # noqa: B018


def _zombie(code: int) -> int:
    """A child process that has exited with `code` and is not reaped yet."""
    pid = os.fork()
    if pid == 0:
        os._exit(code)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            if stat.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                return pid
        time.sleep(0.01)
    raise AssertionError(f"process {pid} did not exit")


def test_the_game_being_played_is_left_for_the_arena_to_read_however_late_it_looks() -> None:
    """The forker reaps the games that have ended when it forks the next, but not the newest
    (the one the arena has just taken): a bot that ends itself at once may be gone before the
    forker gets there, and the arena reads how it ended from /proc only after that (under load,
    the fault said only "a crash, os._exit, a signal or the memory limit")."""
    before, playing = _zombie(3), _zombie(4)
    forked = [before, playing]
    try:
        assert _finished(_RECORD.pack, forked) == _RECORD.pack(b"E", before, 3 << 8)
        assert forked == [playing]
        assert how_it_ended(playing) == "it exited with code 4"  # still there to be read
        assert _finished(_RECORD.pack, forked) == b"" and forked == [playing]
    finally:
        for pid in forked:
            os.waitpid(pid, 0)


def test_what_a_game_printed_reaches_the_log_however_late_the_host_closes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A host that closes gives the last games' output a second to arrive; what is in their
    pipes already is logged even when that second has passed before the host got to it (a loaded
    machine: the truncation line of a game went missing from its log so)."""
    clock = iter([0.0] + [10.0] * 1000)  # the deadline has passed at once
    monkeypatch.setattr(host_module, "time", SimpleNamespace(monotonic=lambda: next(clock)))
    control, arena = socket.socketpair()
    requests, forker_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    forker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    log = tmp_path / "chatty.log"
    host = host_module._Host(control, requests, forker.pid, {"log": str(log), "output_bytes": 60},
                             str(tmp_path / "home"), None, str(tmp_path / "shared"))
    read_end, write_end = os.pipe()
    host.outputs[read_end] = 0
    host.escaping[read_end] = ByteLines()
    host.named[read_end] = b"task 8, deal 4"
    os.write(write_end, b"x" * 49 + b"\n" + b"y" * 49 + b"\n")  # 100 bytes, the game still on
    try:
        host.close()
    finally:
        os.close(write_end)
        forker.wait()
        for end in (arena, forker_end):
            end.close()
    assert log.read_text() == "x" * 49 + "\n" + "y" * 10 + (
        "\n[output truncated at 60 bytes (task 8, deal 4): a game's output limit, output_kb in "
        "a config's [limits], --output-kb of arena play]\n")
