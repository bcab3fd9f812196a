"""The stable player API: everything a bot sees and the one class it implements.

A bot is a subclass of `Bot`. For every game it gets a fresh instance, then `start(info)`, then
`act(obs)` each time it must decide, then `end(result)`. Everything it receives is an immutable
value built for its seat; an action is a plain value taken from `obs.legal`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Generic, TypeVar

from arena.cards import Card
from arena.frozen import FastPickle

API_VERSION = "1.0"

Action = Hashable
"""An action is a plain hashable value (an int position, a string, a tuple) from `obs.legal`."""

ViewT = TypeVar("ViewT")
MemoT = TypeVar("MemoT")


def _same(card: Card) -> Any:
    return card


@dataclass(frozen=True, slots=True)
class Event(FastPickle):
    """Something that happened at the table; `seat` is who did it (None for the table itself)."""

    seat: int | None

    kind: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of this event: its kind and its fields."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = _jsonable(getattr(self, f.name))
        return out


@dataclass(frozen=True, slots=True)
class Reveal(Event):
    """A card face was seen at a layout position."""

    position: int
    card: Card

    kind: ClassVar[str] = "reveal"


@dataclass(frozen=True, slots=True)
class Remove(Event):
    """Cards left the layout (taken by `seat`, or cleared by the table)."""

    positions: tuple[int, ...]

    kind: ClassVar[str] = "remove"


@dataclass(frozen=True, slots=True)
class Move(Event):
    """Face-down cards changed places: `swaps` lists the exchanged positions (None if hidden)."""

    count: int
    swaps: tuple[tuple[int, int], ...] | None

    kind: ClassVar[str] = "move"


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a bot learns at the start of a game: the game, its variant, its seat, its own rng."""

    game: str
    variant: str
    params: Mapping[str, Any]
    seat: int
    players: int
    rng: random.Random = field(compare=False, repr=False)
    api_version: str = API_VERSION


@dataclass(frozen=True, slots=True)
class Observation(FastPickle, Generic[ViewT]):
    """One decision: the legal actions, the events since the last decision, the visible state."""

    seat: int
    legal: tuple[Action, ...]
    events: tuple[Event, ...]
    view: ViewT


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game as one seat sees it: scores and ranks of all seats, and last events."""

    seat: int
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    events: tuple[Event, ...]
    final: Mapping[str, Any]


class Bot:
    """Base class of every bot. Override `act`; `start` and `end` are optional.

    Class attributes describe the bot in `arena bots`: `games` lists the game names it can play
    ("*" for any). Parameters come in through keyword arguments of `__init__`, typed by their
    annotations, e.g. the spec `forgetful:recall=0.6` calls `ForgetfulBot(recall=0.6)`.
    """

    games: ClassVar[tuple[str, ...]] = ("*",)
    info: GameInfo
    rng: random.Random

    def start(self, info: GameInfo) -> None:
        """Called once before the first decision; keeps `info` and the bot's own `rng`."""
        self.info = info
        self.rng = info.rng

    def act(self, obs: Observation[Any]) -> Action:
        """Choose one action from `obs.legal`."""
        raise NotImplementedError

    def end(self, result: Result) -> None:
        """Called once when the game is over."""

    def close(self) -> None:
        """Called last, however the game ended (even after a fault): release what the bot holds."""


class Recall(Generic[MemoT]):
    """Perfect memory of a layout: feed it every observation's events, ask where cards are.

    It understands the layout events `Reveal`, `Remove` and `Move`. After a `Move` whose swaps are
    hidden it keeps what it knew, which may now be stale: a later `Reveal` corrects a position.
    `remember` turns each card seen into what is stored (the card itself by default; a bot may
    keep something cheaper to compare, such as a match key).
    """

    __slots__ = ("cards", "remember")

    def __init__(self, remember: Callable[[Card], MemoT] = _same) -> None:  # type: ignore[assignment]
        self.cards: dict[int, MemoT] = {}
        self.remember = remember

    def update(self, events: Iterable[Event]) -> None:
        """Apply events in order."""
        cards, remember = self.cards, self.remember
        for ev in events:
            if isinstance(ev, Reveal):
                cards[ev.position] = remember(ev.card)
            elif isinstance(ev, Remove):
                for pos in ev.positions:
                    cards.pop(pos, None)
            elif isinstance(ev, Move):
                for a, b in ev.swaps or ():
                    ca, cb = cards.pop(a, None), cards.pop(b, None)
                    if ca is not None:
                        cards[b] = ca
                    if cb is not None:
                        cards[a] = cb

    def card_at(self, position: int) -> MemoT | None:
        """What was last seen at `position`, if anything."""
        return self.cards.get(position)

    def __contains__(self, position: object) -> bool:
        return position in self.cards


def _jsonable(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if hasattr(value, "value") and not isinstance(value, int | float | str | bool):
        return value.value  # an enum member
    return value

