"""The bot side of starting hosts: a fork server that has imported a host's modules once and
forks a bot's host process for each request. Started by `arena.sandbox.hosts`, one for each
arena process (and environment):

    python -m arena.sandbox.fork_server REQUESTS_FD

A fresh Python spends most of a host's start importing the sandbox's bot side, the games and the
bot API (see docs/sandbox.md, Speed); a host forked from this process starts with them imported.
It runs none of a bot's code and holds nothing of one: a request is the new host's control
socket and what the host would have inherited had the arena started it itself at that moment
(its working directory, standard output and error, file mode mask, CPUs and niceness), and the
host reads its settings from the arena over that socket, as a host started afresh does
(`arena.sandbox.host.main`). The server answers each request with the host's process id and a
pidfd of it, through which the arena waits for the host and kills it. It ends when the arena
closes its end of the requests socket (the arena ended, however), and each host it forked dies
with it (`die_with_parent`).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sys
import traceback

from arena.sandbox import host  # what a host imports, imported once, before any fork
from arena.sandbox.hosts import ANSWER, REQUEST_FDS

_STARTED_IN = os.getcwd()  # the first folder of the import path (`python -m` puts it there)


def serve(requests: socket.socket) -> int:
    """Fork a host for every request until the arena closes `requests`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's ^C is the arena's to handle
    signal.signal(signal.SIGCHLD, _reap)  # the hosts that ended, as they end
    host.name_process("arena-forksrv")
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(requests, 4096, REQUEST_FDS)
        except OSError:
            return 0
        if not data:
            return 0  # the arena is gone (or is done)
        pid = _fork_host(data, fds, requests.fileno()) if len(fds) == REQUEST_FDS else 0
        pidfd = -1
        if pid > 0:
            with contextlib.suppress(OSError):  # the host is not reaped yet (see `_fork_host`):
                pidfd = os.pidfd_open(pid)  # this is a pidfd of it, whatever became of it
        for fd in fds:
            os.close(fd)
        try:
            socket.send_fds(requests, [ANSWER.pack(pid if pidfd >= 0 else 0)],
                            [pidfd] if pidfd >= 0 else [])
        except OSError:
            return 0
        finally:
            if pidfd >= 0:
                os.close(pidfd)


def _reap(signum: int, frame: object) -> None:
    """Reap every host that has ended (the arena learns of it through its pidfd)."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass


def _fork_host(data: bytes, fds: list[int], requests: int) -> int:
    """Fork a host for this request: its process id (the child never returns), or 0."""
    # SIGCHLD waits until the host's pidfd is made, so that it cannot be reaped before
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
    server = os.getpid()
    try:
        pid = os.fork()
    except OSError:
        pid = -1
    if pid == 0:
        _become_host(data, fds, requests, server)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
    return max(pid, 0)


def _become_host(data: bytes, fds: list[int], requests: int, server: int) -> None:
    """In the forked child: take on what the arena's own child would have had, then be its host."""
    code = 1
    try:
        host.die_with_parent()
        if os.getppid() != server:  # the server ended before this host could die with it
            return
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
        os.close(requests)  # the server's own: no host makes requests
        control, workdir, out, err = fds
        os.fchdir(workdir)
        if sys.path and sys.path[0] == _STARTED_IN:  # as `python -m` would have put it there,
            sys.path[0] = os.getcwd()  # had the arena started the host itself, now
        os.dup2(out, 1)
        os.dup2(err, 2)
        for fd in (workdir, out, err):
            os.close(fd)
        state = json.loads(data)
        os.umask(int(state["umask"]))
        with contextlib.suppress(OSError, ValueError, TypeError):
            os.sched_setaffinity(0, state["cpus"])
        with contextlib.suppress(OSError, ValueError, TypeError):
            os.setpriority(os.PRIO_PROCESS, 0, int(state["nice"]))
        code = host.main(["", str(control)])
    except SystemExit as ended:
        code = ended.code if isinstance(ended.code, int) else 1
    except BaseException:  # as a host started afresh would: its traceback on its stderr
        with contextlib.suppress(BaseException):
            traceback.print_exc()
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def main(argv: list[str]) -> int:
    """Serve requests on the socket whose descriptor is `argv[1]`."""
    return serve(socket.socket(fileno=int(argv[1])))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
