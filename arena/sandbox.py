"""Bot isolation, the arena side: each sandboxed bot plays every game in a fresh process of its own.

A `BotHost` starts `python -m arena.bot_host` once per bot (per worker process); that host imports
the bot and forks a new, locked-down process for every game, so nothing carries over from one
game to the next. A `SandboxedBot` stands in for the bot in the match loop: it sends each
observation over a socket (one message each way per decision), enforces the time limits while
the bot thinks, and turns whatever goes wrong into a `BotFault` the match loop records.
"""

from __future__ import annotations

import contextlib
import enum
import json
import math
import os
import pickle
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, ClassVar

from arena.api import Action, Bot, GameInfo, Observation, Result
from arena.errors import BotSpecError
from arena.loader import anchored, display_name, is_bundled
from arena.record import BotFault, FaultKind

REPLY_LIMIT = 1 << 20
"""The largest answer a bot process may send, in bytes."""


class Isolation(enum.Enum):
    """Where a bot runs: in a sandboxed process of its own, or in the arena's own process."""

    PROCESS = "process"
    NONE = "none"


@dataclass(frozen=True)
class Limits:
    """What a sandboxed bot may use. None: no limit."""

    move_seconds: float | None = None
    game_seconds: float | None = None
    overage_seconds: float = 0.0
    memory_mb: int | None = None
    output_bytes: int = 65536
    start_seconds: float = 30.0


class BotHost:
    """One bot's host process: imports the bot once, forks a fresh process for every game."""

    def __init__(self, spec: str, game: str, limits: Limits, log: Path | None = None,
                 trusted: bool = False) -> None:
        self.spec, self.game, self.limits, self.log = anchored(spec), game, limits, log
        self.trusted = trusted
        self._process: subprocess.Popen[bytes] | None = None
        self._control: socket.socket | None = None

    def _start(self) -> socket.socket:
        ours, theirs = socket.socketpair()
        settings = {"spec": self.spec, "game": self.game, "memory_mb": self.limits.memory_mb,
                    "output_bytes": self.limits.output_bytes, "trusted": self.trusted,
                    "log": str(self.log) if self.log else None}
        if self.log is not None:
            self.log.parent.mkdir(parents=True, exist_ok=True)
        self._process = subprocess.Popen(
            [sys.executable, "-m", "arena.bot_host", str(theirs.fileno()), json.dumps(settings)],
            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
        theirs.close()
        self._control = ours
        return ours

    def new_game(self) -> tuple[Connection, int]:
        """A connection to a fresh game process, and that process's id (its process group)."""
        control = self._control or self._start()
        try:
            control.sendall(b"game")
            _, fds, _, _ = socket.recv_fds(control, 16, 1)
        except OSError:
            fds = []
        if not fds:
            raise BotFault(FaultKind.CRASH, "the bot's host process has ended")
        conn = Connection(fds[0])
        if not conn.poll(self.limits.start_seconds):
            conn.close()
            raise BotFault(FaultKind.TIMEOUT, "the bot process did not start in time")
        try:
            hello = json.loads(conn.recv_bytes(REPLY_LIMIT))
        except (EOFError, OSError, ValueError):
            conn.close()
            raise BotFault(FaultKind.CRASH, "the bot process ended while starting") from None
        return conn, int(hello[1])

    def close(self) -> None:
        """End the host and every game process it still has."""
        if self._control is not None:
            self._control.close()
            self._control = None
        if self._process is not None:
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._process = None


class SandboxedBot(Bot):
    """Stands in for a bot that plays in its own process, under time limits."""

    games: ClassVar[tuple[str, ...]] = ("*",)

    def __init__(self, host: BotHost) -> None:
        self.host = host
        self.limits = host.limits
        self.conn: Connection | None = None
        self._poller: select.poll | None = None
        self.group = 0
        self.bank = self.limits.overage_seconds
        self.game_left = self.limits.game_seconds or math.inf

    def start(self, info: GameInfo) -> None:
        """Start a fresh game process and hand it the game info."""
        self.conn, self.group = self.host.new_game()
        self._call("start", replace(info, params=_thawed(info.params)), self.limits.start_seconds)

    def act(self, obs: Observation[Any]) -> Action:
        """Ask the bot process for its action, within the time it has left."""
        move = self.limits.move_seconds
        allowed = math.inf if move is None else move + self.bank
        reply, used = self._call("act", obs, min(allowed, self.game_left))
        if move is not None and used > move:
            self.bank = max(0.0, self.bank - (used - move))
        self.game_left -= used
        return _hashable(reply[1])

    def end(self, result: Result) -> None:
        """Tell the bot process the result; it then ends."""
        self._call("end", replace(result, final=_thawed(result.final)), self.limits.start_seconds)

    def close(self) -> None:
        """Make sure the game process and anything it started are gone."""
        if self.conn is not None:
            self.conn.close()
            self.conn = None
            self._poller = None
        if self.group:
            with contextlib.suppress(OSError):
                os.killpg(self.group, signal.SIGKILL)
            self.group = 0

    def _call(self, op: str, payload: Any, timeout: float) -> tuple[list[Any], float]:
        conn = self.conn
        assert conn is not None
        if self._poller is None:
            self._poller = select.poll()
            self._poller.register(conn.fileno(), select.POLLIN)
        started = time.perf_counter()
        try:
            conn.send_bytes(pickle.dumps((op, payload), pickle.HIGHEST_PROTOCOL))
            wait_ms = None if math.isinf(timeout) else max(math.ceil(timeout * 1000), 0)
            answered = bool(self._poller.poll(wait_ms))
        except OSError:
            answered = True  # the process is gone: recv below says so
        if not answered:
            self.close()
            raise BotFault(FaultKind.TIMEOUT, f"{op}: no answer within {timeout:.3g} s")
        try:
            reply = json.loads(conn.recv_bytes(REPLY_LIMIT))
        except (EOFError, OSError):
            self.close()
            raise BotFault(FaultKind.CRASH, f"{op}: the bot process ended without answering "
                                            "(a crash, os._exit, a signal or the memory limit)"
                           ) from None
        except ValueError:
            self.close()
            raise BotFault(FaultKind.MALFORMED, f"{op}: the bot process sent a malformed "
                                                "answer") from None
        used = time.perf_counter() - started
        if not (isinstance(reply, list) and reply and reply[0] in _ANSWERS[op]):
            self.close()
            raise BotFault(FaultKind.MALFORMED, f"{op}: the bot process sent a malformed answer")
        if reply[0] == "error":
            self.close()
            kind = reply[1] if len(reply) == 3 and reply[1] in _BOT_FAULTS else "malformed"
            raise BotFault(FaultKind(kind), str(reply[-1])[:300])
        return reply, used


_ANSWERS = {"start": ("ok", "error"), "act": ("action", "error"), "end": ("ok", "error"),
            "probe": ("ok", "error")}
_BOT_FAULTS = ("exception", "memory", "malformed")


def probe(spec: str, game: str, limits: Limits | None = None) -> str | None:
    """Resolve a bot spec inside a sandbox: None if it loads and plays `game`, else the problem.

    The arena process itself never imports an untrusted bot.
    """
    host = BotHost(spec, game, limits or Limits(memory_mb=None))
    try:
        bot = SandboxedBot(host)
        bot.conn, bot.group = host.new_game()
        bot._call("probe", None, host.limits.start_seconds)
    except BotFault as fault:
        return fault.detail.removeprefix("probe raised ").removeprefix("BotSpecError: ")
    finally:
        with contextlib.suppress(Exception):
            bot.close()
        host.close()
    return None


def _thawed(value: Any) -> Any:
    """Read-only mappings (which do not pickle) as plain dicts, recursively."""
    if isinstance(value, Mapping):
        return {k: _thawed(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(_thawed(v) for v in value)
    return value


def _hashable(value: Any) -> Any:
    """JSON arrays back to tuples: actions are hashable plain values."""
    return tuple(_hashable(v) for v in value) if isinstance(value, list) else value


@dataclass
class SandboxedSpec:
    """A bot entry whose games are played in sandboxed processes (the BotSpec of a sandbox)."""

    name: str
    host: BotHost

    def make(self) -> Bot:
        """A stand-in for a fresh bot."""
        return SandboxedBot(self.host)

    def close(self) -> None:
        """End the bot's host process."""
        self.host.close()


def sandboxed(spec: str, game: str, limits: Limits, log: Path | None = None) -> SandboxedSpec:
    """A sandboxed bot entry for a spec, checked inside a sandbox first (BotSpecError if bad)."""
    problem = probe(spec, game, limits)
    if problem is not None:
        said = problem if problem.startswith("bot spec ") else f"bot spec {spec!r}: {problem}"
        raise BotSpecError(said)
    return SandboxedSpec(display_name(spec), BotHost(spec, game, limits, log,
                                                      trusted=is_bundled(spec)))
