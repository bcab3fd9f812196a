"""What players see at an Old Man's Bundle table: the events and the view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from arena.api import Event
from arena.cards import Card


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """`seat` (the dealer) dealt round `round` (1-based): four cards to each player and, in the
    first round only, the `table` cards face up; `stock` cards are left to deal."""

    round: int
    table: tuple[Card, ...]
    stock: int

    kind: ClassVar[str] = "dealt"


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """The four cards `seat` received this round; only that seat sees this event."""

    round: int
    cards: tuple[Card, ...]

    kind: ClassVar[str] = "hand-dealt"


@dataclass(frozen=True, slots=True)
class Took(Event):
    """`seat` took in `taken` from the table with `card` from hand; its bundle now holds
    `bundle` cards, `card` on top."""

    card: Card
    taken: tuple[Card, ...]
    bundle: int

    kind: ClassVar[str] = "took"


@dataclass(frozen=True, slots=True)
class Stole(Event):
    """`seat` stole `victim`'s whole bundle of `count` cards (whose top card was `top`) with
    `card`; its own bundle now holds `bundle` cards, `card` on top."""

    card: Card
    victim: int
    top: Card
    count: int
    bundle: int

    kind: ClassVar[str] = "stole"


@dataclass(frozen=True, slots=True)
class Trailed(Event):
    """`seat` put `card` face up on the table without taking anything."""

    card: Card

    kind: ClassVar[str] = "trailed"


@dataclass(frozen=True, slots=True)
class TableLeft(Event):
    """The last hand is played: the `cards` still on the table go onto the bundle of `seat`,
    the last player to take in (None: they count for nobody)."""

    cards: tuple[Card, ...]

    kind: ClassVar[str] = "table-left"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The pack is exhausted and every hand played: the bundle sizes and the winners."""

    bundles: tuple[int, ...]
    winners: tuple[int, ...]

    kind: ClassVar[str] = "game-over"


@dataclass(frozen=True, slots=True)
class BundleView:
    """What one seat sees now.

    `hand` is the seat's own hand (sorted by rank, then suit). `table` lists the face-up table
    cards in the order they arrived. `tops` and `bundles` give, by seat, the card on top of each
    bundle (None for an empty bundle) and how many cards it holds; cards below the top are not
    shown (they were all seen as they went in: following the events is the bot's job).
    `hands` counts the cards in each player's hand, `stock` the cards still to deal.
    """

    seat: int
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    tops: tuple[Card | None, ...]
    bundles: tuple[int, ...]
    hands: tuple[int, ...]
    stock: int
    round: int
    rounds: int
    turn: int
    to_act: int | None
    dealer: int
