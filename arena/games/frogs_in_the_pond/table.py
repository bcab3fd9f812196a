"""What players see at a Frogs in the Pond table: the deal action, the events and the view."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from arena.api import Event
from arena.cards import Card
from arena.games.common import HandDealt as HandDealt


class Say(enum.StrEnum):
    """The one action that is not a card: the dealer shuffles and deals."""

    DEAL = "deal"


class Phase(enum.Enum):
    """What the table is waiting for."""

    DEAL = "deal"  # the dealer of the next deal is to shuffle and deal
    PLAY = "play"  # a player is to play a card to the trick
    OVER = "over"  # a side has won (or the deal limit is reached)


class End(enum.Enum):
    """Why a game ended."""

    TARGET = "target"  # one side alone has the highest total, at or over the target
    DEAL_LIMIT = "deal-limit"  # the safety-net number of deals was reached


Play = tuple[int, Card]
"""One card played to a trick: (seat, card)."""


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    """`seat` deals deal number `deal` (0-based): `hand_size` cards each and as many frogs;
    `removed` were taken out of the pack first; `leader` leads the first trick."""

    deal: int
    leader: int
    hand_size: int
    removed: tuple[Card, ...]

    kind: ClassVar[str] = "deal-started"


@dataclass(frozen=True, slots=True)
class Played(Event):
    """`seat` plays `card` to trick `number` (1-based within the deal)."""

    number: int
    card: Card

    kind: ClassVar[str] = "played"


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """`seat` wins trick `number`, led by `leader`: its `cards` in the order played (from the
    leader round the table), worth `points`."""

    number: int
    leader: int
    cards: tuple[Card, ...]
    points: int

    kind: ClassVar[str] = "trick-won"


@dataclass(frozen=True, slots=True)
class FrogTaken(Event):
    """`seat` takes the top frog, face down (`left` remain in the pond); public, no card."""

    number: int
    left: int

    kind: ClassVar[str] = "frog-taken"


@dataclass(frozen=True, slots=True)
class FrogSeen(Event):
    """The frog `seat` just took, told to that seat alone."""

    number: int
    card: Card

    kind: ClassVar[str] = "frog-seen"


@dataclass(frozen=True, slots=True)
class DealShown(Event):
    """The end of a deal: every seat's won cards turned up, the trick cards and the frogs."""

    deal: int
    won: tuple[tuple[Card, ...], ...]
    frogs: tuple[tuple[Card, ...], ...]

    kind: ClassVar[str] = "deal-shown"


@dataclass(frozen=True, slots=True)
class DealScored(Event):
    """The deal's card points by seat (`seat` is the dealer), and the running totals by seat
    (partners carry their side's total)."""

    deal: int
    points: tuple[int, ...]
    totals: tuple[int, ...]

    kind: ClassVar[str] = "deal-scored"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game is over: the final totals by seat, the winning seats and why it ended."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    reason: End

    kind: ClassVar[str] = "game-over"


@dataclass(frozen=True, slots=True)
class FrogsView:
    """What one seat sees now.

    `hand` is the seat's own hand; `trick` the cards played to the trick in progress and
    `last_trick` those of the trick won last (until the deal ends), each as (seat, card) in
    play order; `frogs` the frogs this seat took this deal (nobody else's). `tricks_won` counts
    tricks by seat this deal; `totals` are the scores of finished deals by seat (partners carry
    their side's). `sides` lists the seats of each side; `removed` the cards out of play.
    """

    players: int
    sides: tuple[tuple[int, ...], ...]
    deal: int
    dealer: int
    phase: Phase
    hand: tuple[Card, ...]
    number: int
    leader: int
    trick: tuple[Play, ...]
    last_trick: tuple[Play, ...]
    last_winner: int | None
    frogs: tuple[Card, ...]
    frogs_left: int
    tricks_won: tuple[int, ...]
    totals: tuple[int, ...]
    target: int
    tadpole: bool
    removed: tuple[Card, ...]
