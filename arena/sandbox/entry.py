"""The sandbox's entries: a bot spec checked inside a sandbox (`probe`), and made into an entry
whose every game is played by a stand-in for a sandboxed process (`sandboxed`): a
`SandboxedBot` for a Python bot, a `ProgramBot` for a program; and how a game process is
confined here (`confinement_facts`)."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.api import Bot
from arena.errors import ArenaError, BotSpecError
from arena.loader import bot_file, display_name, is_bundled, resolve_bot
from arena.record import BotFault
from arena.sandbox.program import ProgramBot
from arena.sandbox.stand_in import BotHost, Limits, SandboxedBot


def stand_in_for(host: BotHost) -> SandboxedBot:
    """A stand-in for one game of `host`'s bot: the arena speaks the line protocol to a
    program itself, and sends a Python bot's game process pickles."""
    return ProgramBot(host) if host.program else SandboxedBot(host)


def probe(spec: str, game: str, limits: Limits | None = None,
          private: Sequence[Path] = ()) -> str | None:
    """Check a bot spec: an untrusted one inside a sandbox, which keeps `private` out of its
    view (see `arena.sandbox.unseen_by`): None if it loads and plays `game`, else the problem
    (one line naming the spec).

    The arena process itself never imports an untrusted bot. A bundled one it checks itself:
    trusted code, which the host that plays it imports before any game, out of the sandbox too.
    """
    if is_bundled(spec):
        try:
            resolve_bot(spec, game)
        except ArenaError as exc:
            return str(exc)
        return None
    return _problem(BotHost(spec, game, limits or Limits(memory_mb=None), private=private), spec,
                    keep=False)


def _problem(host: BotHost, spec: str, keep: bool) -> str | None:
    """Ask `host`'s first game process whether its bot loads and plays the host's game (in a
    game process of its own, ended after: the host's next one plays): None if it does, else the
    problem, one line naming `spec` as the user wrote it. The host is closed after, unless it
    passed and `keep`."""
    try:
        _ask(host, "probe")  # loading is not thinking
    except BotFault as fault:
        host.close()
        problem = fault.detail.removeprefix("probe raised ").removeprefix("BotSpecError: ")
        problem = problem.removeprefix("start: ")  # a program's, from its game process
        problem = problem.replace(host.spec, spec.strip())  # the file as the user named it
        given, made = bot_file(spec), bot_file(host.spec)
        if given is not None and made is not None:
            problem = problem.replace(str(made), str(given))
        return problem if problem.startswith("bot spec ") else f"bot spec {spec!r}: {problem}"
    except BaseException:
        host.close()
        raise
    if not keep:
        host.close()
    return None


def _ask(host: BotHost, op: str) -> list[Any]:
    """Ask a fresh game process of `host` one question (`op`, within the setup backstop), then
    end that game process: the answer. A program's game process answers only that it is ready
    (or why it cannot be: BotFault), which is a probe's answer."""
    bot = stand_in_for(host)
    try:
        bot.begin()
        if isinstance(bot, ProgramBot):
            bot._ready()
            return ["ok"]
        reply, _ = bot._call(op, None, host.limits.setup_seconds)
        return reply
    finally:
        with contextlib.suppress(Exception):
            bot.close()


@dataclass
class SandboxedSpec:
    """A bot entry whose games are played in sandboxed processes (the BotSpec of a sandbox)."""

    name: str
    host: BotHost

    def make(self) -> Bot:
        """A stand-in for a fresh bot."""
        return stand_in_for(self.host)

    def close(self) -> None:
        """End the bot's host process."""
        self.host.close()


def sandboxed(spec: str, game: str, limits: Limits, log: Path | None = None,
              echo: str | None = None, private: Sequence[Path] = ()) -> SandboxedSpec:
    """A sandboxed bot entry for a spec, checked first (BotSpecError if bad): a bundled bot here,
    as the arena imports it anyway; any other by the first game process of the host that is to
    play its games, which keeps `private` out of its view (see `arena.sandbox.unseen_by`). What
    its games print goes to `log`, and to stderr after the prefix `echo` if given."""
    trusted = is_bundled(spec)
    problem = probe(spec, game) if trusted else None  # checked here, as `probe` says
    if problem is not None:
        raise BotSpecError(problem)
    host = BotHost(spec, game, limits, log, trusted=trusted, echo=echo, private=private)
    if not trusted:  # one host, not one to check it and one to play
        problem = _problem(host, spec, keep=True)
        if problem is not None:
            raise BotSpecError(problem)
    return SandboxedSpec(display_name(spec), host)


def confinement_facts(game: str = "concentration") -> dict[str, Any]:
    """How a sandboxed game process is confined on this machine, as one reports it from inside
    (see `arena.sandbox.promises`); raises BotFault if no game process could be had."""
    host = BotHost("random", game, Limits())
    try:
        reply = _ask(host, "facts")
    finally:
        host.close()
    return reply[1] if len(reply) > 1 and isinstance(reply[1], dict) else {}
