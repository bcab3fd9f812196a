"""The seccomp filter of game processes (`arena.sandbox.seccomp`): what it refuses, what it lets
through, each tried in a forked child (a filter cannot be undone)."""

from __future__ import annotations

import ctypes
import errno
import json
import os
import platform
import subprocess
import threading
from collections.abc import Callable
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
    assert found["applied"] is True, found
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
