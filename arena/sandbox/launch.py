"""A program bot's process in a sandboxed game: spawned ahead by the game process, under the
game's confinement (its namespaces, control groups, resource limits, Landlock and seccomp
filter, all inherited by every process it starts and across `execve`), waiting; at the game's
`start` it is told to go and `execve`s the program. It is spawned before the game process's
audit hook is installed (the hook refuses new processes to the bot's Python code, and runs no
further than Python: the kernel's confinement is what holds a program), and until its game
starts it is a small shell (`SHELL`) that does nothing but wait: no code of the bot's runs
before its game.

The game process relays between the arena's wire and the program's line protocol
(`arena.protocol.command.CommandBot`); the program's standard error is the game's output (the
bot's log)."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from arena.errors import BotSpecError
from arena.protocol import command
from arena.protocol.command import bot_environment, command_spec, describe_status, use_launcher
from arena.record import BotFault, FaultKind

PROGRAM_RESERVATION_MB = 2048
"""Address space a program bot gets beyond its memory limit: runtimes reserve far more than they
use (Node's V8 ~1 GB at start-up, the JVM its whole heap), and an address-space limit counts what
is reserved. The memory a game uses is held by its memory control group all the same (the
limit plus `GAME_MEMORY_BASE_MB`); only where there are no control groups is the address-space
limit the one limit, and then it is this much looser for a program than for a Python bot."""

SHELL = "/bin/sh"
"""The waiting process, until it becomes the program."""

_WAITER = ('read -r _ <&3 || exit 0; exec 3<&-; cd -- "$1" || exit 126; unset PWD OLDPWD; shift; '
           'exec "$@"')
"""Its script (POSIX sh): wait for the word to go on descriptor 3 (end, if the game ends first),
then become the program, in its folder."""


class Waiting:
    """The waiting process (see the module): spawned without copying the game process
    (`posix_spawn`, no page tables copied), so that neither spawning it nor its `execve` costs a
    game the teardown of a copy of the Python process."""

    def __init__(self, pid: int, go: int, stdin: int, stdout: int) -> None:
        self.pid, self._go = pid, go
        self.stdin, self.stdout = stdin, stdout
        self._status: int | None = None

    @classmethod
    def spawn(cls, argv: Sequence[str], folder: Path, env: Mapping[str, str]) -> Waiting:
        """Spawn the waiting process for `argv` (descriptor 3 its word to go; standard input and
        output the relay's pipes; standard error still the game's output)."""
        go_read, go = os.pipe()
        stdin_read, stdin = os.pipe()
        stdout, stdout_write = os.pipe()
        try:
            pid = os.posix_spawn(SHELL, [SHELL, "-c", _WAITER, "sh", str(folder), *argv],
                                 dict(env), file_actions=[
                                     (os.POSIX_SPAWN_DUP2, stdin_read, 0),
                                     (os.POSIX_SPAWN_DUP2, stdout_write, 1),
                                     (os.POSIX_SPAWN_DUP2, go_read, 3)])
        except BaseException:
            for fd in (go, stdin, stdout):
                os.close(fd)
            raise
        finally:
            for fd in (go_read, stdin_read, stdout_write):
                os.close(fd)
        return cls(pid, go, stdin, stdout)

    def launch(self, argv: Sequence[str], folder: Path, env: Mapping[str, str]) -> Waiting:
        """Have the waiting process become the program (named when it was spawned): this."""
        if self._go < 0:
            raise BotFault(FaultKind.CRASH, "start: the bot's program was started already")
        with contextlib.suppress(OSError):
            os.write(self._go, b"go\n")
        os.close(self._go)
        self._go = -1
        return self

    def ended(self, wait: float = 0.0) -> str:
        """How the program ended, if it has within `wait` seconds; else empty (codes 126 and 127
        are the shell's: the program could not be run, and the bot's log says why)."""
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
        how = describe_status(self._status)
        if self._status in (126, 127):
            how += ": the program could not be run (the bot's log says why)"
        return how

    def stop(self) -> None:
        """Close the program's pipes (the arena ends every process of the game after it)."""
        for name in ("stdin", "stdout", "_go"):
            fd = getattr(self, name)
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
                setattr(self, name, -1)


class _Unlaunchable:
    """The launcher of a program bot that could not be spawned when its game was prepared."""

    def __init__(self, problem: str) -> None:
        self.problem = problem

    def launch(self, argv: Sequence[str], folder: Path, env: Mapping[str, str]) -> Waiting:
        """Fail: the program cannot be started."""
        raise BotFault(FaultKind.CRASH, "start: the bot's program could not be started: "
                       f"{self.problem}")


def warm_up(spec: str) -> None:
    """In a program bot's host, before it forks games: import what the relay needs (`hashlib`,
    for `start`'s seed words; the compact encoding and numpy, if the bot asks for them), once,
    rather than in every game process (which, behind its audit hook, would take milliseconds of
    the bot's start limit)."""
    import hashlib  # noqa: F401

    command.warm_up(spec)


def prepare(spec: str) -> None:
    """In a game process whose bot is the program `spec`: spawn the process that will run it
    (before the audit hook), and have this process's command bots use it."""
    try:
        found = command_spec(spec)
        use_launcher(Waiting.spawn(found.argv, found.folder, bot_environment(os.getcwd())))
    except BotSpecError as exc:
        use_launcher(_Unlaunchable(str(exc)))
    except OSError as exc:
        use_launcher(_Unlaunchable(exc.strerror or str(exc)))
