"""A program bot's game process, the bot side: once confined (its namespaces, control groups,
resource limits, Landlock rules and seccomp filter, all inherited across `execve`), it becomes
the program, with nothing between the arena and it (the arena's side:
`arena.sandbox.program`).

It first `execve`s a small shell (`SHELL`), ahead of its game, that says it is ready (`READY`)
and waits for the word to go (`GO`): no code of the bot's runs before its game, and the
teardown of the Python process the shell replaces costs no game its time. At `start` the word
comes, and the shell `exec`s the program, in its folder: one process per game, as for a Python
bot. Its standard input is the game's socket (the arena's messages, one line each), its standard
output a socket whose other end only the arena reads (its answers), its standard error the
game's output (the bot's log). It is the audit hook's business no more (the hook is Python's;
it runs no Python): the kernel's confinement is what holds a program.
"""

from __future__ import annotations

import json
import os
import resource
from typing import NoReturn

from arena.errors import BotSpecError
from arena.loader import resolve_bot
from arena.protocol.command import CommandSpec, bot_environment

PROGRAM_RESERVATION_MB = 2048
"""Address space a program bot gets beyond its memory limit: runtimes reserve far more than they
use (Node's V8 ~1 GB at start-up, the JVM its whole heap), and an address-space limit counts what
is reserved. The memory a game uses is held by its memory control group all the same (the
limit plus `GAME_MEMORY_BASE_MB`); only where there are no control groups is the address-space
limit the one limit, and then it is this much looser for a program than for a Python bot."""

SHELL = "/bin/sh"
"""The waiting process, until it becomes the program."""

READY = b'["ready"]\n'
"""What the waiting shell says first, on the program's standard output."""

GO = b"go\n"
"""The word to go, the line the arena sends just before `start`."""

_WAITER = ("printf '[\"ready\"]\\n' || exit 0; read -r _ || exit 0; unset PWD; code=0; "
           'if [ ! -e "$1" ]; then echo "$1: not found" >&2; code=127; '
           'elif [ -d "$1" ] || [ ! -x "$1" ]; then echo "$1: not executable" >&2; code=126; '
           # a script whose interpreter is missing: exec would end this shell before it said so
           "else first=''; IFS= read -r first < \"$1\" || true; case $first in '#!'*) "
           'at=${first#??}; while [ "${at# }" != "$at" ]; do at=${at# }; done; at=${at%% *}; '
           'if [ ! -x "$at" ]; then echo "$1: its interpreter $at: not found" >&2; code=127; '
           'fi;; esac; fi; '
           'if [ $code = 0 ]; then exec "$@"; fi; '
           "printf '[\"not run\",%d]\\n' $code; exit $code")
"""Its script (POSIX sh): say it is ready, wait for the word to go (end, if the game ends first:
its input closed), then become the program; or, if the program has gone or is no longer
executable, say so (`NOT_RUN`, with the shell's exit code, 127 or 126; the reason in the bot's
log) in place of the program's answer to `start`. A shell's `read` takes its input a byte at a
time where it cannot seek: the `start` line after the word is left for the program."""

NOT_RUN = "not run"
"""The first word of the waiting shell's line that says the program could not be run."""


def become_program(spec: str, game: str, stdin: int, stdout: int) -> NoReturn:
    """Become the waiting shell of the program `spec` (its standard input `stdin`, output
    `stdout`); or, if it cannot be run, say why on `stdout` (`["error", "crash", why]`) and
    end. Never returns."""
    try:
        found = resolve_bot(spec, game)  # checked here, as the game sees the file system
        command: CommandSpec = found.cls.command  # type: ignore[attr-defined]
        home = os.getcwd()
        os.chdir(command.folder)
        os.dup2(stdin, 0)
        os.dup2(stdout, 1)
        os.closerange(3, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
        os.execve(SHELL, [SHELL, "-c", _WAITER, "sh", *command.argv], bot_environment(home))
    except (BotSpecError, OSError, AttributeError) as exc:
        why = str(exc) if isinstance(exc, BotSpecError) else (
            f"bot spec {spec!r}: the program could not be started: "
            f"{getattr(exc, 'strerror', None) or exc}")
        line = json.dumps(["error", "crash", why]).encode() + b"\n"
        for fd in (stdout, 1):
            try:
                os.write(fd, line)
                break
            except OSError:
                continue
    os._exit(0)
