"""Ordinary signal semantics for a game process, which is process 1 of its PID namespace.

The kernel spares process 1 every signal sent from inside its namespace that it has no handler
for: a bot that calls `abort()`, or sends itself SIGTERM, would play on. Two remedies:

- by default, `exit_on_signals`: every signal whose default action ends a process gets the C
  library's `_exit` as its handler, so that it ends process 1 at once (with the signal's number
  as its exit code), whatever the process is doing, for nothing a game; those no handler can
  catch (SIGKILL, SIGSTOP), SIGABRT and the faults' signals it sends itself end it by the seccomp
  filter (`arena.sandbox.seccomp.UNIGNORABLE`);
- with ARENA_SANDBOX_INIT=1, `become_init`: a minimal init, as containers get one with
  `--init`. The game process forks the process the bot runs in (process 2) and stays behind as
  process 1, doing nothing but wait: the bot's process has the semantics it would have anywhere
  else (SIGKILL and SIGSTOP it sends itself included), and when it ends, for whatever reason,
  the init says how and ends too, and with it (the kernel sees to that) every process of the
  game. The arena's socket and every other file but the output are the bot's process's alone,
  so the arena sees its end at once. It costs a second fork of a Python process per game
  (6-7 ms a game, measured: see docs/sandbox.md), which is why it is not the default.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
from collections.abc import Callable
from typing import Any

from arena.sandbox import namespaces

SIGNALLED = 128
"""The init ends with this plus the signal's number when a signal ended the bot's process (process
1 cannot end by a signal of its own), else with the bot's process's exit code; it says how on
the game's output (its host logs no status of a game with an init)."""


EXITING = ("SIGABRT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM",
           "SIGVTALRM", "SIGPROF", "SIGXCPU", "SIGIO", "SIGPWR", "SIGSYS", "SIGSTKFLT")
"""The signals whose default action ends a process that `exit_on_signals` makes end process 1.
SIGINT, SIGPIPE and SIGXFSZ keep Python's own handling (KeyboardInterrupt; ignored, so that a
write too large fails: the file size limit); the faults (SIGSEGV,
SIGBUS, SIGFPE, SIGILL, SIGTRAP) keep the kernel's, which ends process 1 too when the fault is
real (only the same signal sent by the process itself is ignored), and says so in its status."""


def exit_on_signals(libc: Any) -> int:
    """The cheap equivalent of an init, for a game process that is process 1 (the kernel spares
    it the signals it sends itself that it has no handler for): make each of `EXITING` call the C
    library's `_exit` as its handler, with the signal's number as the exit code, at once, in
    C, wherever the process is (in native code too: `abort()` included). What it cannot give:
    SIGKILL, SIGSTOP, SIGABRT and the faults' signals a process sends itself, which the seccomp
    filter ends it on instead (`arena.sandbox.seccomp.UNIGNORABLE`), and a signal it reset to
    its default; and the process exits rather than being killed (its host logs the code). How
    many handlers were set (0 without a C library)."""
    if libc is None:
        return 0
    handler = ctypes.cast(libc._exit, ctypes.c_void_p)
    libc.signal.restype = ctypes.c_void_p
    libc.signal.argtypes = (ctypes.c_int, ctypes.c_void_p)
    made = 0
    for name in EXITING:
        number = getattr(signal, name, None)
        if number is not None and libc.signal(int(number), handler) != _SIG_ERR:
            made += 1
    return made


_SIG_ERR = ctypes.c_void_p(-1).value


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
