"""How the arena starts a bot's host: forked by a fork server of its own, with what a host started
afresh would have had, and ended however the arena or the server ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from arena.sandbox import BotHost, Limits
from arena.sandbox.hosts import FORK_SERVER_VARIABLE, HostProcess
from tests.sandbox.support import proc_stat

pytestmark = pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="needs pidfds (Linux 5.3)")


def _parent(pid: int) -> int:
    return int(proc_stat(pid)[1])


def _name(pid: int) -> str:
    return Path(f"/proc/{pid}/comm").read_text().strip()


def _gone(pid: int, seconds: float = 10) -> bool:
    """Whether the process ends (or is a zombie) within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if proc_stat(pid)[0] == "Z":
                return True
        except OSError:
            return True
        time.sleep(0.02)
    return False


@contextmanager
def _host(spec: str = "greedy") -> Iterator[BotHost]:
    """A started host of a bundled bot, its first game process taken and closed."""
    host = BotHost(spec, "concentration", Limits(), trusted=True)
    try:
        host.new_game().sock.close()
        yield host
    finally:
        host.close()


def test_hosts_are_forked_by_one_fork_server_of_the_arena_process() -> None:
    with _host() as first, _host("random") as second:
        assert first.pid is not None and second.pid is not None
        server = _parent(first.pid)
        assert _parent(second.pid) == server != os.getpid()
        assert _name(server) == "arena-forksrv" and _parent(server) == os.getpid()
        assert _name(first.pid) == _name(second.pid) == "arena-host"


def test_without_the_fork_server_a_host_is_the_arena_s_own_child(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(FORK_SERVER_VARIABLE, "0")
    with _host() as host:
        assert host.pid is not None and _parent(host.pid) == os.getpid()


def test_a_forked_host_has_what_a_host_started_afresh_would_have(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with _host():  # a server, started before any of what follows changes
        pass
    monkeypatch.chdir(tmp_path)
    mask = os.umask(0o027)
    cpus = os.sched_getaffinity(0)
    one = {min(cpus)}
    os.sched_setaffinity(0, one)
    err = os.dup(2)
    with (tmp_path / "stderr").open("wb") as stderr:
        os.dup2(stderr.fileno(), 2)
        try:
            with _host() as host:
                assert host.pid is not None
                found = {"cwd": os.readlink(f"/proc/{host.pid}/cwd"),
                         "stderr": os.readlink(f"/proc/{host.pid}/fd/2"),
                         "cpus": os.sched_getaffinity(host.pid),
                         "umask": next(line.split()[1] for line in
                                       Path(f"/proc/{host.pid}/status").read_text().splitlines()
                                       if line.startswith("Umask:"))}
        finally:
            os.dup2(err, 2)
            os.close(err)
            os.umask(mask)
            os.sched_setaffinity(0, cpus)
    assert found == {"cwd": str(tmp_path), "stderr": str(tmp_path / "stderr"), "cpus": one,
                     "umask": "0027"}


def test_another_environment_gets_a_server_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    with _host() as first:
        assert first.pid is not None
        monkeypatch.setenv("LANG", "C.UTF-8" if os.environ.get("LANG") != "C.UTF-8" else "C")
        with _host() as second:
            assert second.pid is not None
            assert _parent(first.pid) != _parent(second.pid)
            environment = Path(f"/proc/{second.pid}/environ").read_bytes().split(b"\0")
            assert f"LANG={os.environ['LANG']}".encode() in environment


def test_a_killed_fork_server_is_replaced_and_its_hosts_die_with_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "C.killed")  # a server of this test's own, no other test's
    with _host() as first:
        assert first.pid is not None
        server = _parent(first.pid)
        assert _name(server) == "arena-forksrv"
        os.kill(server, signal.SIGKILL)
        assert _gone(first.pid)  # its host with it
        with _host() as second:  # the next host: another server
            assert second.pid is not None
            assert _parent(second.pid) not in (server, os.getpid())


def test_a_process_forked_from_the_arena_starts_a_server_of_its_own() -> None:
    with _host() as first:
        assert first.pid is not None
        theirs = _parent(first.pid)
        reading, writing = os.pipe()
        child = os.fork()
        if child == 0:  # a pool's worker, say
            code = 1
            try:
                with _host() as host:
                    assert host.pid is not None
                    mine = _parent(host.pid)
                    code = 0 if mine != theirs and _parent(mine) == os.getpid() else 3
            finally:
                os.write(writing, bytes([code]))
                os._exit(code)
        os.close(writing)
        answer = os.read(reading, 1)
        os.close(reading)
        os.waitpid(child, 0)
        assert answer == b"\0"


def test_a_host_process_waits_and_kills_through_its_pidfd() -> None:
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    process = HostProcess(sleeper.pid, pidfd=os.pidfd_open(sleeper.pid))
    try:
        assert not process.wait(0.1)
        process.kill()
        assert process.wait(10)
    finally:
        process.release()
        sleeper.kill()
        sleeper.wait()
