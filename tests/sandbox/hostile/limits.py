"""Hostile bots against the per-game limits the kernel keeps (issue 23): each plays Concentration
legally and, when its game starts, tries to take more of the machine than a game may have,
without tripping the Python-level defences (`_posixsubprocess.fork_exec` and threads raise no
audit event the sandbox refuses). Each says what it got in a line of its own (`<bot> ...`),
which goes to its log when it plays sandboxed."""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from arena.api import Bot, GameInfo, Observation


def say(text: str) -> None:
    """Print a line at once (to the bot's log, when sandboxed)."""
    print(text, flush=True)


def spawn(argv: list[str]) -> int:
    """Start `argv` with `_posixsubprocess.fork_exec` (no audit event), its output to /dev/null;
    its process id (OSError if the fork or the exec fails)."""
    import _posixsubprocess

    args = [os.fsencode(arg) for arg in argv]
    null = os.open(os.devnull, os.O_WRONLY)
    ready, failed = os.pipe()
    try:
        pid = _posixsubprocess.fork_exec(
            args, [args[0]], True, (), None, None, -1, -1, -1, null, -1, null,
            ready, failed, True, False, -1, None, None, None, -1, None, False)
        os.close(failed)
        failed = -1
        problem = os.read(ready, 4096)  # empty once the child has started the program
        if problem:
            os.waitpid(pid, 0)
            raise OSError(f"could not start {argv[0]}: {problem.decode(errors='replace')}")
        return pid
    finally:
        for fd in (ready, failed, null):
            if fd >= 0:
                os.close(fd)


class ForkBomb(Bot):
    """Plays the first legal card; when its game starts, starts up to `count` processes (each
    `sleeper` sleeping `marker` seconds, a number to find them by) or threads (`way`), until
    the kernel refuses, and says how many it got and what stopped it."""

    games = ("concentration",)

    def __init__(self, count: int = 500, way: str = "processes", sleeper: str = "/bin/sleep",
                 marker: int = 3600) -> None:
        self.count, self.way, self.sleeper, self.marker = count, way, sleeper, marker

    def start(self, info: GameInfo) -> None:
        """Start as many as it can, then say how many."""
        super().start(info)
        started, stopped = 0, "nothing"
        threading.stack_size(256 << 10)  # threads that are cheap in address space
        try:
            for _ in range(self.count):
                if self.way == "threads":
                    threading.Thread(target=time.sleep, args=(self.marker,), daemon=True).start()
                else:
                    spawn([self.sleeper, str(self.marker)])
                started += 1
        except Exception as exc:
            stopped = f"{type(exc).__name__}: {exc}"[:200]
        say(f"forkbomb {self.way} started {started}, stopped by {stopped}")

    def act(self, obs: Observation[Any]) -> Any:
        """The first legal card."""
        return obs.legal[0]
