"""Keeping a game's ping-pong on one CPU: the arena process and its sandboxed bots' game processes
share a CPU while a game is played, and the bots' hosts (preparing the next games) use the others.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

from arena.sandbox.cgroups import set_cpus


class Pinning:
    """Keeps this process and the game processes of its sandboxed bots on one CPU during a game,
    and the bots' host processes (with the games they prepare) off it.

    A decision is a ping-pong: the arena sends, waits, the bot thinks, answers, the arena goes on.
    On one CPU each hand-over is a switch between two processes (a few microseconds); across
    CPUs the waiting process's CPU is idle and must be woken first, which costs tens of
    microseconds on a virtual machine, several times the rest of the round trip. Meanwhile the
    hosts fork the next games' processes, which warm up on the other CPUs. The CPU is the one this
    process runs on when its first game process of a game is taken; the pin is lifted when the
    last is closed (between games the scheduler may move this process elsewhere). Set
    ARENA_SANDBOX_PIN=0 in the environment to turn it off.
    """

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.holders = 0
        self.cpu = 0
        self.saved: set[int] = set()
        self.others: set[int] = set()

    def enter(self) -> int | None:
        """Pin this process to the CPU it is on (if not pinned yet); that CPU, or None."""
        if not self.enabled:
            return None
        if self.holders == 0:
            try:
                saved = os.sched_getaffinity(0)
                if len(saved) < 2:
                    return None
                cpu = _current_cpu()
                cpu = cpu if cpu in saved else min(saved)
                os.sched_setaffinity(0, {cpu})
            except OSError:
                return None
            self.cpu, self.saved, self.others = cpu, saved, saved - {cpu}
        self.holders += 1
        return self.cpu

    def adopt(self, pid: int, cpuset: str | None = None) -> None:
        """Pin game process `pid` to this process's CPU: by its control group's `cpuset` file
        if it has one (every process of the game, for good), else by its affinity."""
        if cpuset is not None:
            set_cpus(cpuset, {self.cpu})
            return
        with contextlib.suppress(OSError):
            os.sched_setaffinity(pid, {self.cpu})

    def leave(self, pid: int, cpuset: str | None = None) -> None:
        """Move game process `pid` off this process's CPU (it ends elsewhere); unpin this
        process with the last."""
        if cpuset is not None:
            set_cpus(cpuset, self.others)
        elif pid:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(pid, self.others)
        self.holders -= 1
        if self.holders == 0:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(0, self.saved)


PINNING = Pinning(os.environ.get("ARENA_SANDBOX_PIN", "1") != "0"
                  and hasattr(os, "sched_setaffinity"))  # Linux only
"""This process's pinning (CPU affinity belongs to a process, so there is one)."""


def _current_cpu() -> int:
    """The CPU this process is running on (-1 if unknown)."""
    global _sched_getcpu
    if _sched_getcpu is None:
        try:
            import ctypes

            _sched_getcpu = ctypes.CDLL(None).sched_getcpu
        except (OSError, AttributeError):
            _sched_getcpu = lambda: -1  # noqa: E731
    return int(_sched_getcpu())


_sched_getcpu: Any = None
