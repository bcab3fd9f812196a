"""What players see at a Memorandum table: what they can say, the piles, the events and the view."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from arena.api import Event
from arena.cards import Card
from arena.games.common import GameOver as GameOver
from arena.games.common import HandDealt as HandDealt


class Say(enum.StrEnum):
    """The actions: a player says "Mine!" or keeps quiet; the dealer deals a new deal."""

    MINE = "mine"
    PASS = "pass"
    DEAL = "deal"


class Pile(enum.Enum):
    """Where a called card goes once the players have spoken."""

    TAKEN = "taken"  # exactly one claimant: the dealer hands it to them
    UNCLAIMED = "unclaimed"  # nobody claimed it
    DISPUTED = "disputed"  # two or more claimed it


class Phase(enum.Enum):
    """What the table is waiting for."""

    DEAL = "deal"  # the dealer of the next deal is to shuffle and deal
    CALL = "call"  # a card has been called: every player says "Mine!" or passes at once
    OVER = "over"  # every seat has dealt once


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    """`seat` deals deal number `deal` (0-based): `hand_size` cards to each of `holders`."""

    deal: int
    holders: tuple[int, ...]
    hand_size: int
    set_aside: int
    pack_size: int

    kind: ClassVar[str] = "deal-started"


@dataclass(frozen=True, slots=True)
class Called(Event):
    """The dealer (`seat`) turns up and announces the `number`-th card of the dealer's pack."""

    number: int
    card: Card

    kind: ClassVar[str] = "called"


@dataclass(frozen=True, slots=True)
class Resolved(Event):
    """The `number`-th called `card`: who said "Mine!" and which `pile` it went to (`seat` is the
    dealer)."""

    number: int
    card: Card
    claimants: tuple[int, ...]
    pile: Pile

    kind: ClassVar[str] = "resolved"


@dataclass(frozen=True, slots=True)
class HandsShown(Event):
    """The end of a deal: every hand turned up (by seat; the dealer's is empty) and the cards
    that were set aside."""

    deal: int
    hands: tuple[tuple[Card, ...], ...]
    set_aside: tuple[Card, ...]

    kind: ClassVar[str] = "hands-shown"


@dataclass(frozen=True, slots=True)
class Returned(Event):
    """`seat` received these cards without holding them, and puts them on the unclaimed pile."""

    cards: tuple[Card, ...]

    kind: ClassVar[str] = "returned"


@dataclass(frozen=True, slots=True)
class DealScored(Event):
    """The points of deal `deal` by seat, what they came from, and the totals so far.

    `right`: cards received that were the player's own (1 point each); `disputed`: cards of the
    dispute pile that were the player's own (`p` each); `returned`: cards given back; `unclaimed`:
    the unclaimed pile after the returns (`p` each to the dealer, `seat`).
    """

    deal: int
    points: tuple[int, ...]
    right: tuple[int, ...]
    disputed: tuple[int, ...]
    returned: tuple[int, ...]
    unclaimed: int
    dispute_pile: int
    totals: tuple[int, ...]

    kind: ClassVar[str] = "deal-scored"


@dataclass(frozen=True, slots=True)
class MemorandumView:
    """What every seat sees now (the same for all): never a hand, only cards called this deal.

    `called` is the card waiting for claims (None outside a call); `number` counts the cards
    called this deal, the current one included. `received` holds, by seat, the called cards
    handed to that seat this deal; `unclaimed` and `disputed` are the two piles; `totals` are
    the scores of the deals already finished. `players` is `p`, everyone at the table.
    """

    deal: int
    deals: int
    dealer: int
    players: int
    hand_size: int
    pack_size: int
    phase: Phase
    called: Card | None
    number: int
    received: tuple[tuple[Card, ...], ...]
    unclaimed: tuple[Card, ...]
    disputed: tuple[Card, ...]
    totals: tuple[int, ...]
