"""The seccomp filter of game processes (`arena.sandbox.seccomp`): what it refuses, what it lets
through, each tried in a forked child (a filter cannot be undone)."""

from __future__ import annotations

import ctypes
import errno
import faulthandler
import json
import os
import platform
import signal
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.sandbox import namespaces, seccomp

needs_filter = pytest.mark.skipif(not seccomp.available(),
                                  reason="seccomp filters need Linux on x86_64 or aarch64")


def in_filtered_child(trial: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run `trial` in a forked child after applying the filter; what it reports."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            found = {"applied": seccomp.apply(), **trial()}
        except BaseException as exc:  # reported, not raised in the child
            found = {"error": repr(exc)}
        os.write(write_end, json.dumps(found).encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    return json.loads(data)


def _raises(call: Callable[[], Any]) -> bool:
    """Whether `call` raises OSError."""
    try:
        call()
    except OSError:
        return True
    return False


def _errno_of(result: int) -> int:
    return 0 if result >= 0 else ctypes.get_errno()


def test_the_program_is_made_for_each_architecture_it_knows() -> None:
    for machine in ("x86_64", "aarch64"):
        program = seccomp.filter_program(machine)
        assert program is not None and len(program) % 8 == 0
        assert 40 < len(program) // 8 < 255  # every jump fits a classic BPF offset
    assert seccomp.filter_program("sparc") is None
    assert seccomp.available() == (platform.machine() in ("x86_64", "aarch64"))


@needs_filter
def test_new_namespaces_ptrace_and_friends_are_refused() -> None:
    def trial() -> dict[str, Any]:
        libc = ctypes.CDLL(None, use_errno=True)
        clone = {"x86_64": 56, "aarch64": 220}[platform.machine()]
        return {
            "unshare": _errno_of(libc.unshare(namespaces.CLONE_NEWUSER)),
            "clone_newuser": _errno_of(libc.syscall(clone, namespaces.CLONE_NEWUSER | 17,
                                                    0, 0, 0, 0)),
            "clone3": _errno_of(libc.syscall(435, 0, 0)),
            "ptrace": _errno_of(libc.syscall({"x86_64": 101, "aarch64": 117}[
                platform.machine()], 0, 0, 0, 0)),
            "mount": _errno_of(libc.mount(b"none", b"/tmp", b"tmpfs", 0, None)),
        }

    found = in_filtered_child(trial)
    assert found.get("applied") is True, found
    assert found["unshare"] == found["clone_newuser"] == errno.EPERM
    assert found["ptrace"] == found["mount"] == errno.EPERM
    assert found["clone3"] == errno.ENOSYS  # so the C library falls back to clone


@needs_filter
def test_what_a_bot_needs_still_works() -> None:
    def trial() -> dict[str, Any]:
        ran: list[bool] = []
        thread = threading.Thread(target=lambda: ran.append(True))
        thread.start()
        thread.join()
        child = os.fork()
        if child == 0:
            os._exit(7)
        forked = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
        program = subprocess.run(["sh", "-c", "exit 3"], check=False).returncode
        return {"thread": ran == [True], "fork": forked, "program": program}

    found = in_filtered_child(trial)
    assert found == {"applied": True, "thread": True, "fork": 7, "program": 3}


@needs_filter
def test_typing_into_a_terminal_is_refused_and_other_ioctls_by_an_allow_list() -> None:
    import pty
    import termios

    master, slave = pty.openpty()  # made before the filter: making one is refused (TIOCGPTN)

    def trial() -> dict[str, Any]:
        found = {}
        found["openpty"] = int(_raises(pty.openpty))
        for name, command, argument in (("tiocsti", termios.TIOCSTI, b"x"),
                                        ("tioclinux", 0x541C, b"\x00"),
                                        ("tiocsti_high_bits", termios.TIOCSTI | (1 << 32), b"x")):
            libc = ctypes.CDLL(None, use_errno=True)
            found[name] = _errno_of(libc.ioctl(slave, ctypes.c_ulong(command), argument))
        found["tcgets"] = _errno_of(libc.ioctl(os.open(os.devnull, os.O_RDONLY),
                                               ctypes.c_ulong(termios.TCGETS),
                                               ctypes.create_string_buffer(64)))
        found["tiocgpgrp"] = _errno_of(libc.ioctl(slave, ctypes.c_ulong(termios.TIOCGPGRP),
                                                  ctypes.create_string_buffer(8)))
        os.set_inheritable(master, True)  # FIONCLEX, or fcntl where that is refused
        found["inheritable"] = os.get_inheritable(master)
        left, _right = __import__("socket").socketpair()
        left.setblocking(False)  # FIONBIO
        found["nonblocking"] = not left.getblocking()
        found["isatty"] = os.isatty(slave)
        return found

    try:
        found = in_filtered_child(trial)
    finally:
        os.close(master)
        os.close(slave)
    assert found.get("applied") is True, found
    assert found["openpty"] == 1
    assert found["tiocsti"] == found["tioclinux"] == errno.EPERM
    assert found["tiocsti_high_bits"] == errno.EPERM  # the kernel reads 32 bits; so does the filter
    assert found["tcgets"] == errno.ENOTTY  # allowed: /dev/null is no terminal
    assert found["tiocgpgrp"] == errno.ENOTTY  # not on the allow-list
    assert found["inheritable"] is True and found["nonblocking"] is True
    assert found["isatty"] is True  # TCGETS is allowed


@needs_filter
def test_file_locks_lock_nothing_and_leases_and_notifications_are_refused(
        tmp_path: Path) -> None:
    import fcntl
    import struct

    shared = tmp_path / "shared.txt"  # as a file every game can open (the Python library's own)
    shared.write_text("x")
    held = os.open(shared, os.O_RDWR)
    fcntl.flock(held, fcntl.LOCK_EX)  # held by another process: would block a real lock
    fcntl.fcntl(held, fcntl.F_SETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0))

    def trial() -> dict[str, Any]:
        fd = os.open(shared, os.O_RDWR)
        lock = struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)
        found: dict[str, Any] = {}
        for name, call in (("flock", lambda: fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)),
                           ("setlk", lambda: fcntl.fcntl(fd, fcntl.F_SETLK, lock)),
                           ("getlk", lambda: fcntl.fcntl(fd, fcntl.F_GETLK, lock)),
                           ("ofd_setlk", lambda: fcntl.fcntl(fd, 37, lock)),
                           ("lease", lambda: fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK)),
                           ("notify", lambda: fcntl.fcntl(os.open("/", os.O_RDONLY),
                                                          fcntl.F_NOTIFY, fcntl.DN_ACCESS)),
                           ("setown", lambda: fcntl.fcntl(fd, fcntl.F_SETOWN, os.getpid()))):
            try:
                result = call()
                found[name] = 0 if name != "getlk" else (
                    "unlocked" if struct.unpack("hhqqi", result)[0] == fcntl.F_UNLCK else
                    "as asked")
            except OSError as exc:
                found[name] = exc.errno
        found["getfl"] = fcntl.fcntl(fd, fcntl.F_GETFL) >= 0
        found["dup"] = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) >= 10
        return found

    try:
        found = in_filtered_child(trial)
    finally:
        os.close(held)
    assert found.get("applied") is True, found
    # the locks the test holds would make each fail: they succeed, and see nothing
    assert found["flock"] == found["setlk"] == found["ofd_setlk"] == 0
    assert found["getlk"] == "as asked"  # not told of the test's lock
    assert found["lease"] == found["notify"] == found["setown"] == errno.EINVAL
    assert found["getfl"] is True and found["dup"] is True


@needs_filter
def test_no_socket_of_any_family_and_socketpair_only_for_unix() -> None:
    def trial() -> dict[str, Any]:
        import socket

        found = {}
        for name, family, kind, proto in (("netlink_usersock", 16, socket.SOCK_RAW, 2),
                                          ("netlink_route", 16, socket.SOCK_RAW, 0),
                                          ("packet", 17, socket.SOCK_RAW, 0),
                                          ("vsock", 40, socket.SOCK_STREAM, 0),
                                          ("udp", socket.AF_INET, socket.SOCK_DGRAM, 0),
                                          ("unix", socket.AF_UNIX, socket.SOCK_DGRAM, 0)):
            try:
                socket.socket(family, kind, proto).close()
                found[name] = 0
            except OSError as exc:
                found[name] = exc.errno
        left, right = socket.socketpair()
        left.sendall(b"x")
        found["pair"] = right.recv(1).decode()
        libc = ctypes.CDLL(None, use_errno=True)
        pair = (ctypes.c_int * 2)()
        found["pair_netlink"] = _errno_of(libc.socketpair(16, socket.SOCK_RAW, 0, pair))
        found["inotify"] = _errno_of(libc.inotify_init1(0))
        found["fanotify"] = _errno_of(libc.fanotify_init(0, 0))
        return found

    found = in_filtered_child(trial)
    assert found.get("applied") is True, found
    for name in ("netlink_usersock", "netlink_route", "packet", "vsock", "udp", "unix"):
        assert found[name] == errno.EPERM, name
    assert found["pair"] == "x"
    assert found["pair_netlink"] == errno.EAFNOSUPPORT
    assert found["inotify"] == found["fanotify"] == errno.EPERM


def _ended_by_filter(trial: Callable[[Any], Any]) -> int | str:
    """Run `trial(libc)` in a forked child, in a process group of its own, after applying the
    filter: the signal that ended it (negative), its exit code, or what it raised."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.setpgid(0, 0)  # a kill of its group (0) reaches nothing but it
            faulthandler.disable()  # pytest's: no traceback for the signals sent
            libc = ctypes.CDLL(None, use_errno=True)
            if seccomp.apply():
                result = trial(libc)
                code = 100 + (ctypes.get_errno() if result < 0 else 0)
            else:
                code = 2
        finally:
            os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


@needs_filter
def test_a_signal_the_kernel_would_spare_process_1_ends_the_process_that_sends_it() -> None:
    numbers = {"x86_64": {"tgkill": 234, "rt_tgsigqueueinfo": 297, "tkill": 200},
               "aarch64": {"tgkill": 131, "rt_tgsigqueueinfo": 240, "tkill": 130}}[
        platform.machine()]
    info = ctypes.create_string_buffer(128)
    # its own group (pid 0): ended by the filter (SIGSYS), not by the signal sent (SIGSEGV)
    assert _ended_by_filter(lambda libc: libc.kill(0, signal.SIGSEGV)) == -signal.SIGSYS
    assert _ended_by_filter(lambda libc: libc.kill(0, signal.SIGSTOP)) == -signal.SIGSYS
    assert _ended_by_filter(lambda libc: libc.kill(0, signal.SIGABRT)) == -signal.SIGSYS
    # process 1 (a thread of it that does not exist: unfiltered, nothing is sent, ESRCH)
    assert _ended_by_filter(lambda libc: libc.syscall(
        numbers["tgkill"], 1, 999_999_999, signal.SIGKILL)) == -signal.SIGSYS
    assert _ended_by_filter(lambda libc: libc.syscall(
        numbers["rt_tgsigqueueinfo"], 1, 999_999_999, signal.SIGBUS, info)) == -signal.SIGSYS
    # the calls whose target the filter cannot tell do not exist
    assert _ended_by_filter(lambda libc: libc.syscall(
        numbers["tkill"], os.getpid(), 0)) == 100 + errno.ENOSYS
    assert _ended_by_filter(lambda libc: libc.syscall(
        424, 0, signal.SIGKILL, 0, 0)) == 100 + errno.ENOSYS
    # other signals, and these to other processes, go as ever
    assert _ended_by_filter(lambda libc: libc.kill(0, 0)) == 100
    assert _ended_by_filter(lambda libc: libc.kill(os.getpid(), signal.SIGSEGV)) \
        == -signal.SIGSEGV
    assert _ended_by_filter(lambda libc: libc.kill(0, signal.SIGTERM)) == -signal.SIGTERM
