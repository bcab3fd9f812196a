"""What players see at a Cuckoo table: the actions, the phases, the events and the view."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from arena.api import Event
from arena.cards import Card


class Say(enum.StrEnum):
    """The actions: the dealer deals; a player stands or changes; the dealer stands or draws."""

    DEAL = "deal"
    STAND = "stand"
    CHANGE = "change"  # exchange cards with the next player still in, at the left
    DRAW = "draw"  # the dealer only: exchange the card for one from the rest of the pack


class Phase(enum.Enum):
    """What the table is waiting for."""

    DEAL = "deal"  # the dealer of the next deal is to shuffle and deal
    PLAY = "play"  # a player (or the dealer, last) is to stand or change
    OVER = "over"  # one player or none is left, or the deal limit is reached


class Turn(enum.Enum):
    """What became of one seat's turn in the current deal."""

    STOOD = "stood"
    CHANGED = "changed"  # exchanged cards with the neighbour at the left
    REFUSED = "refused"  # asked to change, but the neighbour showed a king
    KING = "king"  # showed a king when asked: the turn passed on
    DREW = "drew"  # the dealer exchanged with the rest of the pack


class End(enum.Enum):
    """How a game ended."""

    SURVIVOR = "survivor"  # one player is left
    ALL_OUT = "all-out"  # the last players lost their last chips in the same deal
    LIMIT = "limit"  # the deal limit was reached with players still in


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    """`seat` deals deal `deal` (0-based) one card to each player still in; `order` is the
    order of turns, from the dealer's left round to the dealer; `chips` by seat."""

    deal: int
    order: tuple[int, ...]
    chips: tuple[int, ...]

    kind: ClassVar[str] = "deal-started"


@dataclass(frozen=True, slots=True)
class CardDealt(Event):
    """The card dealt to `seat`, shown to that seat alone."""

    card: Card

    kind: ClassVar[str] = "card-dealt"


@dataclass(frozen=True, slots=True)
class Stood(Event):
    """`seat` keeps its card."""

    kind: ClassVar[str] = "stood"


@dataclass(frozen=True, slots=True)
class Changed(Event):
    """`seat` and `neighbour` exchanged cards, face down (each learns what it receives)."""

    neighbour: int

    kind: ClassVar[str] = "changed"


@dataclass(frozen=True, slots=True)
class Received(Event):
    """`seat` now holds `card`, from seat `giver` (None: drawn from the rest of the pack);
    told to `seat` alone."""

    card: Card
    giver: int | None

    kind: ClassVar[str] = "received"


@dataclass(frozen=True, slots=True)
class KingShown(Event):
    """`seat` was asked to change by `asker`, showed its king `card`, and keeps it; `asker`
    keeps its own card and `seat`'s turn passes."""

    asker: int
    card: Card

    kind: ClassVar[str] = "king-shown"


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """The dealer (`seat`) put its card aside face down and drew one from the rest of the
    pack."""

    kind: ClassVar[str] = "drew"


@dataclass(frozen=True, slots=True)
class Showdown(Event):
    """The end of deal `deal`: every card held (by seat; None for seats out), the lowest rank,
    who paid a chip (`dealer_king`: the dealer drew a king and paid alone), the chips left by
    seat, and the seats that lost their last chip and dropped out."""

    deal: int
    cards: tuple[Card | None, ...]
    low: int
    payers: tuple[int, ...]
    dealer_king: bool
    chips: tuple[int, ...]
    dropped: tuple[int, ...]

    kind: ClassVar[str] = "showdown"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game is over: how it ended, after how many deals, every seat's score (see the rules
    page) and the winners."""

    end: End
    deals: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    kind: ClassVar[str] = "game-over"


@dataclass(frozen=True, slots=True)
class CuckooView:
    """What one seat sees now.

    `order` is the order of turns this deal (the dealer last), `turn` the seat to decide (None
    between deals), `turns` what each seat that has had its turn did, `chips` the chips by seat
    (0 once out), `card` the seat's own card (None between deals and for a seat out), `kings`
    the kings shown this deal (seat, card), and `shown` the cards of the last showdown by seat
    while they lie face up between deals (empty during a deal).
    """

    deal: int
    deal_limit: int
    dealer: int
    phase: Phase
    order: tuple[int, ...]
    turn: int | None
    turns: tuple[tuple[int, Turn], ...]
    chips: tuple[int, ...]
    card: Card | None
    kings: tuple[tuple[int, Card], ...]
    shown: tuple[Card | None, ...]
