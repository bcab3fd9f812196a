"""How the arena starts a bot's host process: forked by a fork server of this arena process's own,
which has imported what a host imports once (`arena.sandbox.fork_server`), or, where that cannot
be had, as a fresh Python (`python -m arena.sandbox`). Either way the host gets the same
environment, settings and limits, and the arena waits for it and kills it the same way
(`HostProcess`).

A fork server is started on the first host an arena process asks for, with the environment a
host gets (another environment gets a server of its own); it ends when the arena process does,
and the hosts it forked with it. A process forked from the arena (a worker of a process pool)
starts a server of its own. `ARENA_SANDBOX_FORK_SERVER=0` in the arena's environment starts every
host as a fresh Python, to measure what the server saves (docs/sandbox.md, Speed).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import threading

FORK_SERVER_VARIABLE = "ARENA_SANDBOX_FORK_SERVER"
"""The arena's environment variable that turns the fork server off ("0")."""
REQUEST_FDS = 4
"""A request's descriptors: the host's control socket, the arena's working directory, its
standard output and its standard error."""
ANSWER = struct.Struct("=i")
"""The server's answer: the new host's process id (a pidfd of it goes with it), or 0 if it could
not fork one."""


class HostProcess:
    """A bot's host process as the arena holds it: its id, and a way to wait for it and kill it
    (a pidfd, for a host forked by a fork server, which is not the arena's child)."""

    def __init__(self, pid: int, pidfd: int | None = None,
                 started: subprocess.Popen[bytes] | None = None) -> None:
        self.pid = pid
        self._pidfd = pidfd
        self._started = started

    def wait(self, timeout: float | None = None) -> bool:
        """Whether the host has ended, waiting at most `timeout` seconds (None: until it has)."""
        if self._started is not None:
            try:
                self._started.wait(timeout)
            except subprocess.TimeoutExpired:
                return False
            return True
        if self._pidfd is None:
            return True
        poller = select.poll()
        poller.register(self._pidfd, select.POLLIN)
        return bool(poller.poll(None if timeout is None else int(timeout * 1000)))

    def kill(self) -> None:
        """Kill the host (nothing if it has ended)."""
        if self._started is not None:
            self._started.kill()
        elif self._pidfd is not None:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)

    def release(self) -> None:
        """Let go of the host's pidfd (once it has ended)."""
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None


def start_host(control: socket.socket, environment: dict[str, str],
               timeout: float) -> HostProcess:
    """A bot's host process, its control socket `control`, with `environment` as its own."""
    if os.environ.get(FORK_SERVER_VARIABLE, "1") != "0" and hasattr(os, "pidfd_open"):
        for _ in range(2):  # a server that has ended (killed, say) is replaced once
            server = _SERVERS.get(environment)
            forked = server.fork(control, timeout)
            if forked is not None:
                return forked
            # ended before it is asked again: a host it may have forked for `control` dies with
            # it (its parent-death signal), before it can read a word of the settings
            _SERVERS.drop(server)
    started = subprocess.Popen([sys.executable, "-m", "arena.sandbox", str(control.fileno())],
                               pass_fds=(control.fileno(),), stdin=subprocess.DEVNULL,
                               env=environment)
    return HostProcess(started.pid, started=started)


class _ForkServer:
    """One fork server: its process, and the socket its requests go over."""

    def __init__(self, environment: dict[str, str]) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        # its hosts get the arena's standard output and error of the moment, with each request
        self.process = subprocess.Popen(
            [sys.executable, "-m", "arena.sandbox.fork_server", str(theirs.fileno())],
            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, env=environment)
        theirs.close()
        self.requests = ours
        self.lock = threading.Lock()

    def fork(self, control: socket.socket, timeout: float) -> HostProcess | None:
        """A host forked for `control`, or None if this server cannot fork one."""
        state = {"umask": _umask(), "cpus": sorted(os.sched_getaffinity(0)),
                 "nice": os.getpriority(os.PRIO_PROCESS, 0)}
        try:
            workdir = os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:  # the arena's working directory is gone: a fresh Python copes
            return None
        try:
            with self.lock:
                self.requests.settimeout(timeout)  # the first waits for the server's imports
                socket.send_fds(self.requests, [json.dumps(state).encode()],
                                [control.fileno(), workdir, 1, 2])
                data, fds, _, _ = socket.recv_fds(self.requests, 64, 1)
        except OSError:  # gone, or stuck (a timeout): it serves no more
            return None
        finally:
            os.close(workdir)
        pid = ANSWER.unpack(data)[0] if len(data) == ANSWER.size else 0
        if pid <= 0 or len(fds) != 1:
            for fd in fds:
                os.close(fd)
            return None
        return HostProcess(pid, pidfd=fds[0])

    def close(self) -> None:
        """End the server (its hosts end with it) and reap it."""
        self.requests.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _umask() -> int:
    """This process's file mode mask, read without changing it."""
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status") as status:
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class _Servers:
    """This process's fork servers, one for each environment its hosts get."""

    def __init__(self) -> None:
        self.running: dict[tuple[tuple[str, str], ...], _ForkServer] = {}
        self.inherited: list[_ForkServer] = []  # a parent's, in a forked process: never used
        self.lock = threading.Lock()

    def get(self, environment: dict[str, str]) -> _ForkServer:
        """The server for hosts with this environment, started if there is none."""
        key = tuple(sorted(environment.items()))
        with self.lock:
            if key not in self.running:
                self.running[key] = _ForkServer(environment)
            return self.running[key]

    def drop(self, server: _ForkServer) -> None:
        """Forget a server that serves no more, and end it."""
        with self.lock:
            for key, running in list(self.running.items()):
                if running is server:
                    del self.running[key]
        with contextlib.suppress(OSError):
            server.close()

    def close(self) -> None:
        """End every server (as the arena process ends)."""
        with self.lock:
            servers, self.running = list(self.running.values()), {}
        for server in servers:
            with contextlib.suppress(OSError):
                server.close()

    def forget(self) -> None:
        """In a process forked from the arena: the parent's servers are not this process's."""
        for server in self.running.values():
            server.requests.close()  # nor kept running by it
            self.inherited.append(server)
        self.running = {}
        self.lock = threading.Lock()


_SERVERS = _Servers()
atexit.register(_SERVERS.close)
os.register_at_fork(after_in_child=_SERVERS.forget)
