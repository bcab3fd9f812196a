"""What the sandbox tests share: whether the kernel's namespaces can be had on this machine (asked
once, in a forked child), and finding the processes a test's bots started."""

from __future__ import annotations

import contextlib
import ctypes
import os
import platform
import sys
from pathlib import Path

import pytest

from arena.sandbox import namespaces
from arena.sandbox.probes import marked_processes
from arena.sandbox.stand_in import BotHost


def _kernel_at_least(major: int, minor: int) -> bool:
    """Whether the running kernel is at least `major.minor`."""
    try:
        found = tuple(int(part) for part in platform.release().split("-")[0].split(".")[:2])
    except ValueError:
        return False
    return found >= (major, minor)


def _unshare_allowed() -> bool:
    """Whether a (forked) process may enter user, mount and network namespaces of its own."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return False
    pid = os.fork()
    if pid == 0:
        code = 1
        with contextlib.suppress(BaseException):
            code = 0 if libc.unshare(namespaces.CLONE_NEWUSER | namespaces.CLONE_NEWNS
                                        | namespaces.CLONE_NEWNET) == 0 else 1
        os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


NAMESPACES = (sys.platform == "linux" and platform.machine() in ("x86_64", "aarch64", "riscv64")
              and all(os.path.exists(f"/proc/self/ns/{kind}")
                      for kind in ("user", "mnt", "net", "pid", "ipc"))
              and _kernel_at_least(5, 12)  # mount_setattr
              and _unshare_allowed())

needs_namespaces = pytest.mark.skipif(
    not NAMESPACES, reason="needs Linux 5.12+ (mount_setattr) on x86_64, aarch64 or riscv64 with "
                           "user, mount, network, PID and IPC namespaces allowed for this user")




def proc_stat(pid: int) -> list[str]:
    """A process's /proc/PID/stat fields after its name: its state first, then its parent's id;
    its start time at 19 (OSError once it is gone)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_ns(pids: list[int]) -> int:
    """The CPU time, in nanoseconds, every thread of these processes has had (counted by the
    kernel: /proc/PID/task/*/schedstat; 0 once gone)."""
    total = 0
    for pid in pids:
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError):
            continue
    return total


def marked(marker: str) -> list[int]:
    """The live processes (not zombies) with `marker` as one of their arguments (the sandbox's
    own processes carry a bot's spec, the marker inside it, not as an argument)."""
    return marked_processes(marker)


def idmapped_mounts(folder: str) -> bool:
    """Whether this process (root) can make an idmapped mount of `folder` here (its file system
    and kernel allow it): tried in a forked child, which closes what it made."""
    from arena.sandbox import namespaces

    if os.geteuid() != 0 or not NAMESPACES:
        return False
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            code = 0 if namespaces._idmapped([folder]) else 1
        finally:
            os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


def counted_hosts(monkeypatch: pytest.MonkeyPatch) -> list[BotHost]:
    """Every host `arena.sandbox.entry` makes from now on (for this test), in order."""
    from arena.sandbox import entry

    made: list[BotHost] = []

    class Counted(BotHost):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            made.append(self)

    monkeypatch.setattr(entry, "BotHost", Counted)
    return made


attack_control = pytest.mark.slow
"""The mark of an attack's control, a test that shows the attack works where nothing stops it
(in process): under `pytest -m slow`, since it checks the attack, not the product; the default
run keeps the test that the sandbox stops it (see "Testing" in docs/architecture.md)."""
