"""A bot that looks at its own game process from inside and says what it finds, for the tests of
the game process's set-up (`tests/sandbox/test_game_process.py`). It first gets past the
Python-level defences (the audit hook, the replaced `os` functions: `disarm`), so that what it
finds is what the kernel allows. It prints one line `inspector {json}` at the start of its game
(to its log, when it plays sandboxed), then plays the first legal card.

Its module-level code notes when it ran (`IMPORTED`), so that a test can tell whether a game
process imported it before its game began."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import signal
import socket
import struct
import termios
import time
from collections.abc import Callable
from typing import Any

from arena.api import Bot, GameInfo, Observation
from tests.sandbox.hostile.kernel import disarm

IMPORTED = time.time()  # when this module's code ran (the clock every process shares)


def _error(call: Callable[[], Any]) -> str:
    """What `call` raised, as an errno name ("ok" if nothing; the type for anything else)."""
    try:
        call()
    except OSError as exc:
        return errno.errorcode.get(exc.errno or 0, type(exc).__name__)
    except Exception as exc:
        return type(exc).__name__
    return "ok"


def _open_close(path: str, flags: int = os.O_RDONLY) -> None:
    os.close(os.open(path, flags | os.O_CLOEXEC))


def _read(path: str) -> str:
    try:
        with open(path, "rb") as file:
            return file.read(4096).decode("utf-8", "replace")
    except OSError as exc:
        return errno.errorcode.get(exc.errno or 0, "?")


def _listing(path: str) -> list[str] | str:
    try:
        return sorted(os.listdir(path))
    except OSError as exc:
        return errno.errorcode.get(exc.errno or 0, "?")


def _mounts() -> dict[str, list[str]]:
    """Each mount in view (its mount point) and its options (from /proc/self/mountinfo)."""
    found = {}
    with open("/proc/self/mountinfo") as mounts:
        for line in mounts:
            fields = line.split()
            found[fields[4]] = fields[5].split(",")
    return found


def _tiocsti(fd: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSTI, b"#")


def _flock() -> None:
    fd = os.open(os.__file__, os.O_RDONLY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    finally:
        os.close(fd)


def _fcntl_lock() -> None:
    fd = os.open(os.__file__, os.O_RDONLY | os.O_CLOEXEC)
    try:
        fcntl.fcntl(fd, fcntl.F_SETLK, struct.pack("hhqqi", fcntl.F_RDLCK, 0, 0, 0, 0))
    finally:
        os.close(fd)


def _socket(family: int, kind: int = socket.SOCK_DGRAM, proto: int = 0) -> None:
    socket.socket(family, kind, proto).close()


def _pair() -> None:
    left, right = socket.socketpair()
    left.close()
    right.close()


CHECKS: dict[str, Callable[[], Any]] = {
    "terminal": lambda: int(_read("/proc/self/stat").rsplit(")", 1)[1].split()[4]),  # tty_nr
    "dev_tty": lambda: _error(lambda: _open_close("/dev/tty", os.O_RDWR)),
    "tiocsti": lambda: [_error(lambda fd=fd: _tiocsti(fd)) for fd in (0, 1, 2)],
    "stdin": lambda: os.readlink("/proc/self/fd/0"),
    "environment": lambda: dict(os.environ),
    "cmdline": lambda: _read("/proc/self/cmdline").split("\0"),
    "dev": lambda: _listing("/dev"),
    "dev_null_write": lambda: _error(lambda: os.write(os.open("/dev/null", os.O_WRONLY), b"x")),
    "dev_urandom": lambda: _error(lambda: os.read(os.open("/dev/urandom", os.O_RDONLY), 8)),
    "netlink_usersock": lambda: _error(lambda: _socket(socket.AF_NETLINK, socket.SOCK_RAW, 2)),
    "netlink_route": lambda: _error(lambda: _socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)),
    "udp": lambda: _error(lambda: _socket(socket.AF_INET)),
    "vsock": lambda: _error(lambda: _socket(40, socket.SOCK_STREAM)),
    "packet": lambda: _error(lambda: _socket(17, socket.SOCK_RAW)),
    "unix_socket": lambda: _error(lambda: _socket(socket.AF_UNIX)),
    "socketpair": lambda: _error(_pair),
    "flock": lambda: _error(_flock),
    "fcntl_lock": lambda: _error(_fcntl_lock),
    "mounts": _mounts,
    "network": lambda: os.readlink("/proc/self/ns/net"),
    "sys_fs_cgroup": lambda: _listing("/sys/fs/cgroup"),
    "proc_cgroup": lambda: _read("/proc/self/cgroup"),
    "proc_stat": lambda: os.path.exists("/proc/stat"),
    "proc_net": lambda: os.path.exists("/proc/net"),
    "uid": lambda: [os.getuid(), os.getgid()],
    "pid": lambda: os.getpid(),
    "imported": lambda: IMPORTED,
    "started": lambda: time.time(),
}


class Inspector(Bot):
    """Says what its game process can see and do (`checks`: names of `CHECKS`, joined by '+';
    all of them if empty); then, if `die` names a signal, sends it to itself (and says
    "survived" if it is still there)."""

    games = ("concentration",)

    def __init__(self, checks: str = "", die: str = "") -> None:
        self.checks = [name for name in checks.split("+") if name] or list(CHECKS)
        self.die = die

    def start(self, info: GameInfo) -> None:
        super().start(info)
        with contextlib.suppress(Exception):
            disarm()
        found = {name: CHECKS[name]() for name in self.checks}
        print("inspector " + json.dumps(found), flush=True)
        if self.die:
            os.kill(os.getpid(), getattr(signal, self.die))
            time.sleep(0.2)
            print("inspector " + json.dumps({"survived": True}), flush=True)

    def act(self, obs: Observation[Any]) -> Any:
        """The first legal card."""
        return obs.legal[0]
