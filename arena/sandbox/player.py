"""The bot side of one game of a Python bot: its game process answers the arena's messages (one
pickle each, one memo for the game) with one JSON line each (`serve`, `Player`); and the
rehearsal its host plays before it forks any game, which every game process replays while it
waits for its game, so that the game itself runs warm (`rehearse`, `replay`). A program bot's
game process runs none of this: it becomes the program (`arena.sandbox.launch`).
"""

from __future__ import annotations

import contextlib
import enum
import json
import operator
import pickle
import socket
import sys
import traceback
from typing import Any

from arena.api import Action, Bot, GameInfo, Observation, Result
from arena.cards import Card
from arena.engine import find_game
from arena.loader import BotSpec, resolve_bot
from arena.match import described
from arena.record import exception_detail
from arena.sandbox.observed import observed
from arena.sandbox.wire import Outbox, end_payload, start_payload

YOUNG_OBJECTS = 10_000
"""How many new objects a game process lets build up before the collector looks at them."""

REHEARSED_DECISIONS = 40
"""How many decisions of the host's rehearsal game the host goes through."""

WARM_DECISIONS = 3
"""How many a game process goes through while it waits for its game."""


def rehearse(game: str) -> tuple[bytes, bytes]:
    """Play one game of `game` here, between uniformly random stand-ins (never the bot: it runs
    only in games); what the arena would send seat 0, as it would send it: the whole (up to
    `REHEARSED_DECISIONS` decisions) and an excerpt (`WARM_DECISIONS`). Nothing of this game is
    left behind but these messages."""
    from arena.match import play_game  # the engine, for this one game only

    sent: list[tuple[str, Any]] = []

    class StandIn(Bot):
        def act(self, obs: Observation[Any]) -> Action:
            return obs.legal[self.rng.randrange(len(obs.legal))]

    class Recorder(StandIn):
        def start(self, info: GameInfo) -> None:
            super().start(info)
            sent.append(("start", start_payload(info)))

        def act(self, obs: Observation[Any]) -> Action:
            if len(sent) <= REHEARSED_DECISIONS:
                sent.append(("act", obs))
            return super().act(obs)

        def end(self, result: Result) -> None:
            sent.append(("end", end_payload(result)))

    try:
        variant = find_game(game).variant()
        allowed = variant.params.players_allowed()
        players = 2 if 2 in allowed else allowed.start
        seats = [Recorder()] + [StandIn() for _ in range(players - 1)]
        # no luck: a value function is the arena's business, and some solve tables first
        play_game(variant, seats, [f"seat{i}" for i in range(players)], 0, luck=False)
    except Exception:
        return b"", b""
    excerpt = sent[:1 + WARM_DECISIONS] + sent[-1:]
    return _packed(sent), _packed(excerpt)


def _packed(messages: list[tuple[str, Any]]) -> bytes:
    outbox = Outbox()
    return b"".join(outbox.pack(op, payload) for op, payload in messages)


class _Understudy(Bot):
    """Stands in for the bot in a rehearsal: plays at random with its own rng, as bots do."""

    def act(self, obs: Observation[Any]) -> Action:
        return obs.legal[self.rng.randrange(len(obs.legal))]


def replay(rehearsal: bytes, pair: tuple[socket.socket, socket.socket] | None = None) -> None:
    """Play a rehearsal as a game: `serve` reads it from a socket and answers with a stand-in
    (never the bot). A warm-up: the code a game runs, and the memory it writes, are then ready.
    `pair`: the sockets to play it on, made before a game process's lockdown (which refuses
    making them); made here if None."""
    if not rehearsal or len(rehearsal) > (1 << 16):  # it must fit in the socket's buffer
        if pair is not None:
            for end in pair:
                end.close()
        return
    ours, theirs = pair if pair is not None else socket.socketpair()
    try:
        ours.sendall(rehearsal)
        ours.shutdown(socket.SHUT_WR)
        serve(Player(BotSpec("understudy", "understudy", _Understudy), None), theirs)
    except Exception:  # a warm-up only
        pass
    finally:
        ours.close()
        theirs.close()




def serve(player: Player, game: socket.socket) -> None:
    """Answer the arena's messages (one pickle each, one memo for the game) until the arena
    closes the socket; after the game the arena kills this process (having moved it off its
    own CPU first, so that it ends elsewhere)."""
    load = pickle.Unpickler(game.makefile("rb")).load
    send = game.sendall
    while True:
        try:
            op, payload = load()
        except Exception:  # the arena closed the socket
            return
        try:
            send(player.answer(op, payload))
        except OSError:
            return


class Player:
    """The bot's side of one game: each message answered with one JSON line."""

    def __init__(self, spec: BotSpec | None, problem: BaseException | None,
                 facts: dict[str, Any] | None = None,
                 load: tuple[str, str] | None = None) -> None:
        self.spec, self.problem = spec, problem
        self.facts = facts or {}  # how this game process is confined (see `arena.sandbox.promises`)
        self.bot: Bot | None = None
        self.unmade: BaseException | None = None  # what making the bot ahead raised
        self.unloaded = load  # the bot's spec and game, until the first message loads it
        self.last: Any = None  # the bot's last answer

    def load(self) -> None:
        """Import and make the bot (an untrusted bot's code runs first here, when its game has
        begun: the arena's first message); what goes wrong is reported at `start`."""
        target, game = self.unloaded or ("", "")
        self.unloaded = None
        try:
            self.spec = resolve_bot(target, game)  # confined already
        except BaseException as exc:  # a bot may raise anything
            self.problem = exc
            return
        self.make()

    def make(self) -> None:
        """Make the bot ahead of its game (what goes wrong is reported at `start`)."""
        if self.spec is not None and self.problem is None:
            try:
                self.bot = self.spec.make()
            except BaseException as exc:  # a bot may raise anything
                self.unmade = exc

    def answer(self, op: str, payload: Any) -> bytes:
        try:
            if op == "act":
                action = self.last = self.bot.act(payload)  # type: ignore[union-attr]
                return _answer_action(action)
            if op == "explain":  # the last answer was not legal: what it really was
                return _answer(["ok", described(self.last)])
            if self.unloaded is not None:
                self.load()
            if self.problem is not None:
                raise self.problem
            spec = self.spec
            assert spec is not None
            if op == "probe":
                return _answer(["ok", spec.name])
            if op == "facts":
                return _answer(["ok", {**self.facts, "capabilities": _capabilities(),
                                       **observed()}])
            if op == "start":
                if self.unmade is not None:
                    raise self.unmade
                if self.bot is None:
                    self.bot = spec.make()
                self.bot.start(payload)
                return _OK if _has_end(self.bot) else _OK_WITHOUT_END
            else:
                self.bot.end(payload)  # type: ignore[union-attr]
            return _OK
        except MemoryError:
            reply = ["error", "memory", f"{op}: ran out of memory"]
        except _NotPlain as exc:  # the arena says what legal actions look like
            return _answer(["unplain", str(exc)])
        except BaseException as exc:  # a bot may raise anything, SystemExit included
            reply = ["error", "exception", self.fault_detail(exc, op)]
        return _answer(reply)

    def fault_detail(self, exc: BaseException, op: str) -> str:
        """The detail of what the bot raised (with its place in the bot's files); its whole
        traceback goes to the game's output (the bot's log, or the terminal in `arena play`)."""
        cls = type(self.bot) if self.bot is not None else (
            self.spec.cls if self.spec is not None else None)
        if cls is not None:
            with contextlib.suppress(Exception):
                traceback.print_exception(exc, file=sys.stderr)
                sys.stderr.flush()
        detail = exception_detail(exc, op, cls)
        if type(exc).__name__ == "BdbQuit":  # a debugger with no terminal to read (stdin is null)
            detail += " (a debugger needs a terminal: play it with --isolation none)"
        return detail


def _capabilities() -> int | None:
    """The capabilities this process has (its effective set, as a number), None if unknown."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("CapEff:"):
                    return int(line.split()[1], 16)
    except (OSError, ValueError):
        pass
    return None


_OK = b'["ok"]\n'
_OK_WITHOUT_END = b'["ok","without end"]\n'  # started; its `end` does nothing: do not send it


def _has_end(bot: Bot) -> bool:
    """Whether a bot does anything at the end of a game: whether it, or its class, defines
    `end` (when its game starts)."""
    return type(bot).end is not Bot.end or "end" in getattr(bot, "__dict__", ())


def _answer(reply: list[Any]) -> bytes:
    return json.dumps(reply).encode() + b"\n"


def _answer_action(action: Any) -> bytes:
    if type(action) is int:
        return b'["action",%d]\n' % action
    try:
        return _answer(["action", _plain(action)])
    except _NotPlain:
        raise _NotPlain(described(action)) from None


class _NotPlain(Exception):
    """An action that cannot travel as JSON (ints, floats, strings, bools, None, tuples, and
    cards and enums as their plain forms)."""


def _plain(value: Any) -> Any:
    """What the bot's action is sent as: a card as its text form, an enum as its value (see
    `arena.engine.plain_action`; the arena maps the plain form back to the legal action)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return _plain(value.value)
    if hasattr(value, "__index__"):  # e.g. numpy integers
        return operator.index(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    raise _NotPlain()
