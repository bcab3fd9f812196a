"""A minimal init for a game's PID namespace, as containers get one with `--init`.

The process cloned into a new PID namespace is process 1 there, which the kernel spares every
signal sent from inside the namespace that it has no handler for: a bot in it that calls
`abort()`, or sends itself SIGSEGV or SIGTERM, would play on. So the game process, once its
namespaces are set up, forks the process the bot runs in (process 2) and stays behind as process
1, doing nothing but wait: the bot's process has the semantics it would have anywhere else, and
when it ends, for whatever reason, the init ends too, and with it (the kernel sees to that) every
process of the game. The arena's socket, the output pipe and every other file are the bot's
process's alone, so the arena sees its end at once.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable

from arena.sandbox import namespaces

SIGNALLED = 128
"""The init ends with this plus the signal's number when a signal ended the bot's process (process
1 cannot end by a signal of its own), else with the bot's process's exit code; it says how on
the game's output (its host logs no status of a game with an init)."""


def become_init(name: Callable[[str], None], output: int, known_as: int) -> bool:
    """In a game process that is process 1 of its PID namespace: fork the bot's process and
    return True in it; in this process, named "arena-init" (by `name`), wait as its init until
    it ends, say on `output` (the game's output) how it ended if it did not end well, as the
    process `known_as` (its id outside), then exit (never returns). Where this process is not
    process 1 (no PID namespace), nothing: False."""
    if os.getpid() != 1:
        return False
    child = os.fork()
    if child == 0:
        return True
    name("arena-init")
    with contextlib.suppress(OSError, AttributeError):  # it needs none to wait
        namespaces.drop_capabilities()
    _serve_as_init(child, output, known_as)
    raise AssertionError("unreachable")  # pragma: no cover


def _serve_as_init(child: int, output: int, known_as: int) -> None:
    """Reap every process that ends in the namespace (orphans are the init's to reap); exit as the
    bot's process did once it has ended, having said how on `output` (the arena kills a game
    that ended with SIGKILL, which is not said)."""
    try:
        for number in signal.valid_signals():
            if number not in (signal.SIGKILL, signal.SIGSTOP):
                with contextlib.suppress(OSError, ValueError):
                    signal.signal(number, signal.SIG_DFL)  # ignored: it is process 1
        # told to end (SIGTERM, by the arena or the host): the bot's process is killed, then the
        # init says how it had ended, if it had, and ends with it
        def end(*_: object) -> None:
            with contextlib.suppress(OSError):  # reaped already: it ended by itself
                os.kill(child, signal.SIGKILL)

        signal.signal(signal.SIGTERM, end)
        os.dup2(output, 0)  # only the game's output is kept: the arena's socket is the bot's
        os.closerange(1, os.sysconf("SC_OPEN_MAX"))
        while True:
            try:
                pid, status = os.wait()
            except ChildProcessError:
                os._exit(0)
            except InterruptedError:
                continue
            if pid == child:
                code = os.waitstatus_to_exitcode(status)
                if code not in (0, -signal.SIGKILL):
                    how = f"killed by signal {-code}" if code < 0 else f"exited with code {code}"
                    with contextlib.suppress(OSError):
                        os.write(0, f"\n[game process {known_as} {how}]\n".encode())
                os._exit(SIGNALLED - code if code < 0 else code & 0xFF)
    finally:
        os._exit(1)
