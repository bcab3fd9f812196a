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
from arena.errors import BotSpecError
from arena.loader import bot_file, display_name, is_bundled
from arena.record import BotFault
from arena.sandbox.program import ProgramBot
from arena.sandbox.stand_in import BotHost, Limits, SandboxedBot


def stand_in_for(host: BotHost) -> SandboxedBot:
    """A stand-in for one game of `host`'s bot: the arena speaks the line protocol to a
    program itself, and sends a Python bot's game process pickles."""
    return ProgramBot(host) if host.program else SandboxedBot(host)


def probe(spec: str, game: str, limits: Limits | None = None,
          private: Sequence[Path] = ()) -> str | None:
    """Resolve a bot spec inside a sandbox, which keeps `private` out of its view (see
    `arena.sandbox.unseen_by`): None if it loads and plays `game`, else the problem (one line
    naming the spec).

    The arena process itself never imports an untrusted bot.
    """
    host = BotHost(spec, game, limits or Limits(memory_mb=None), private=private)
    try:
        _ask_alone(host, "probe")  # loading is not thinking
    except BotFault as fault:
        problem = fault.detail.removeprefix("probe raised ").removeprefix("BotSpecError: ")
        problem = problem.removeprefix("start: ")  # a program's, from its game process
        problem = problem.replace(host.spec, spec.strip())  # the file as the user named it
        given, made = bot_file(spec), bot_file(host.spec)
        if given is not None and made is not None:
            problem = problem.replace(str(made), str(given))
        return problem if problem.startswith("bot spec ") else f"bot spec {spec!r}: {problem}"
    return None


def _ask_alone(host: BotHost, op: str) -> list[Any]:
    """Ask a fresh game process of `host` one question (`op`, within the setup backstop), then
    end it and the host: the answer. A program's game process answers only that it is ready
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
        host.close()


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
    """A sandboxed bot entry for a spec, checked inside a sandbox first (BotSpecError if bad);
    its games (and the check) may not see `private` (see `arena.sandbox.unseen_by`). What its
    games print goes to `log`, and to stderr after the prefix `echo` if given."""
    problem = probe(spec, game, limits, private)
    if problem is not None:
        raise BotSpecError(problem)
    return SandboxedSpec(display_name(spec), BotHost(spec, game, limits, log,
                                                      trusted=is_bundled(spec), echo=echo,
                                                      private=private))


def confinement_facts(game: str = "concentration") -> dict[str, Any]:
    """How a sandboxed game process is confined on this machine, as one reports it from inside
    (see `arena.sandbox.promises`); raises BotFault if no game process could be had."""
    reply = _ask_alone(BotHost("random", game, Limits()), "facts")
    return reply[1] if len(reply) > 1 and isinstance(reply[1], dict) else {}
