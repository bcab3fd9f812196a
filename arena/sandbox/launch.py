"""A program bot's process in a sandboxed game: forked ahead by the game process, under the
game's confinement (its namespaces, control groups, resource limits, Landlock and seccomp
filter, all inherited across `execve`), waiting; at the game's `start` it is handed the command
and `execve`s it. It is forked before the game process's audit hook is installed (the hook
refuses new processes to the bot's Python code, and runs no further than Python: the kernel's
confinement is what holds an `execve`d program), and runs nothing but a read and the `execve`
until then: no code of the bot's runs before its game.

The game process relays between the arena's wire and the program's line protocol
(`arena.protocol.command.CommandBot`); the program's standard error is the game's output (the
bot's log)."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from arena.protocol import command
from arena.protocol.command import describe_status, use_launcher
from arena.record import BotFault, FaultKind

_MESSAGE_LIMIT = 1 << 16

PROGRAM_RESERVATION_MB = 2048
"""Address space a program bot gets beyond its memory limit: runtimes reserve far more than they
use (Node's V8 ~1 GB at start-up, the JVM its whole heap), and an address-space limit counts what
is reserved. The memory a game uses is held by its memory control group all the same (the
limit plus `GAME_MEMORY_BASE_MB`); only where there are no control groups is the address-space
limit the one limit, and then it is this much looser for a program than for a Python bot."""


class Prepared:
    """A process forked ahead that `execve`s a bot's program when told to (see the module)."""

    def __init__(self, pid: int, go: int, failed: int, stdin: int, stdout: int) -> None:
        self.pid, self._go, self._failed = pid, go, failed
        self.stdin, self.stdout = stdin, stdout
        self._status: int | None = None

    @classmethod
    def fork(cls, closed: Sequence[int] = (), forked: Callable[[], None] | None = None
             ) -> Prepared:
        """Fork the waiting process (which closes `closed`, the game's socket, and calls
        `forked` first thing)."""
        go_read, go = os.pipe()
        failed, failed_write = os.pipe()  # close-on-exec: closed without a word by a good execve
        stdin_read, stdin = os.pipe()
        stdout, stdout_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover (runs in the child)
            _wait_and_exec(go_read, failed_write, stdin_read, stdout_write,
                           (go, failed, stdin, stdout, *closed), forked)
        for fd in (go_read, failed_write, stdin_read, stdout_write):
            os.close(fd)
        return cls(pid, go, failed, stdin, stdout)

    def launch(self, argv: Sequence[str], folder: Path, env: Mapping[str, str]) -> Prepared:
        """Have the waiting process `execve` `argv` in `folder`: this process, once it has;
        BotFault (crash) if it could not."""
        if self._go < 0:
            raise BotFault(FaultKind.CRASH, "start: the bot's program was started already")
        cpus: list[int] = []
        with contextlib.suppress(AttributeError, OSError):
            # the CPU this game is played on, which the waiting process, forked while the game
            # was prepared elsewhere, may not have yet (without a cpuset group of the game's)
            cpus = sorted(os.sched_getaffinity(0))
        message = json.dumps({"argv": list(argv), "folder": str(folder), "env": dict(env),
                              "cpus": cpus})
        try:
            os.write(self._go, message.encode())
        except OSError:
            pass
        finally:
            os.close(self._go)
            self._go = -1
        said = b""
        with contextlib.suppress(OSError):
            while chunk := os.read(self._failed, 4096):
                said += chunk
        os.close(self._failed)
        self._failed = -1
        if said:
            detail = said.decode("utf-8", "replace")[:200]
            raise BotFault(FaultKind.CRASH, f"start: the bot's program {argv[0]!r} could not be "
                           f"started: {detail}")
        return self

    def ended(self, wait: float = 0.0) -> str:
        """How the program ended, if it has within `wait` seconds; else empty."""
        deadline = time.monotonic() + wait
        while self._status is None:
            with contextlib.suppress(ChildProcessError, OSError):
                pid, status = os.waitpid(self.pid, os.WNOHANG)
                if pid:
                    self._status = os.waitstatus_to_exitcode(status)
                    break
            if time.monotonic() >= deadline:
                return ""
            time.sleep(0.002)
        return describe_status(self._status)

    def stop(self) -> None:
        """Close the program's pipes (the arena ends every process of the game after it)."""
        for name in ("stdin", "stdout", "_go", "_failed"):
            fd = getattr(self, name)
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
                setattr(self, name, -1)


def _wait_and_exec(go: int, failed: int, stdin: int, stdout: int, closed: Sequence[int],
                   forked: Callable[[], None] | None) -> None:  # pragma: no cover (the child)
    """The waiting process: wait for the command, then `execve` it (never returns)."""
    try:
        if forked is not None:
            forked()
        for fd in closed:
            with contextlib.suppress(OSError):
                os.close(fd)
        os.dup2(stdin, 0)
        os.dup2(stdout, 1)
        os.close(stdin)
        os.close(stdout)
        data = b""
        while len(data) < _MESSAGE_LIMIT and (chunk := os.read(go, _MESSAGE_LIMIT)):
            data += chunk
        if not data:  # the game ended before it started
            os._exit(0)
        order = json.loads(data)
        if order.get("cpus"):
            with contextlib.suppress(AttributeError, OSError):
                os.sched_setaffinity(0, order["cpus"])
        os.chdir(order["folder"])
        os.execve(order["argv"][0], order["argv"], order["env"])
    except BaseException as exc:  # whatever went wrong is said, then it exits
        with contextlib.suppress(BaseException):
            os.write(failed, (getattr(exc, "strerror", None) or str(exc)).encode())
    os._exit(127)


def warm_up(spec: str) -> None:
    """In a program bot's host, before it forks games: import what the relay needs (`hashlib`,
    for `start`'s seed words; the compact encoding and numpy, if the bot asks for them), once,
    rather than in every game process (which, behind its audit hook, would take milliseconds of
    the bot's start limit)."""
    import hashlib  # noqa: F401

    command.warm_up(spec)


def prepare(closed: Sequence[int], forked: Callable[[], None] | None = None) -> None:
    """In a game process whose bot is a program: fork the process that will run it, and have
    this process's command bots use it."""
    use_launcher(Prepared.fork(closed, forked))
