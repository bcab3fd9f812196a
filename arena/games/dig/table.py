"""What players see at a Dig table: the phases, the events and the view."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from arena.api import Event
from arena.cards import Card, Rank, Suit
from arena.games.common import HandDealt as HandDealt


class Phase(enum.Enum):
    """What the seat to act is deciding."""

    PLAY = "play"  # which card to play
    NAME = "name"  # an eight was just played: what the next card must be
    OVER = "over"


class End(enum.Enum):
    """Why a game ended."""

    OUT = "out"  # a player played their last card
    BLOCKED = "blocked"  # the stock is out and neither player could play
    TURN_LIMIT = "turn-limit"


@dataclass(frozen=True, slots=True)
class Started(Event):
    """`seat` (the dealer) dealt seven cards each and turned up `upcard`; `stock` cards remain."""

    upcard: Card
    stock: int

    kind: ClassVar[str] = "started"


@dataclass(frozen=True, slots=True)
class Played(Event):
    """`seat` played `card` on the pile and holds `left` cards now."""

    card: Card
    left: int

    kind: ClassVar[str] = "played"


@dataclass(frozen=True, slots=True)
class Named(Event):
    """After an eight, `seat` named what the next card must be: a suit or a rank."""

    suit: Suit | None
    rank: Rank | None

    kind: ClassVar[str] = "named"


@dataclass(frozen=True, slots=True)
class Dug(Event):
    """`seat` could not play and dug `count` cards from the stock (`stock` left)."""

    count: int
    stock: int

    kind: ClassVar[str] = "dug"


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """The cards `seat` dug, in order; only that seat sees this event."""

    cards: tuple[Card, ...]

    kind: ClassVar[str] = "drew"


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """Preset `reshuffle`: the pile below its top card became a new stock of `count` cards."""

    count: int

    kind: ClassVar[str] = "reshuffled"


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """`seat` could not play and the stock could not help: the turn passes."""

    kind: ClassVar[str] = "passed"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended (`reason`): cards left in each hand, and the winners (fewest left)."""

    reason: End
    hands: tuple[int, ...]
    winners: tuple[int, ...]

    kind: ClassVar[str] = "game-over"


@dataclass(frozen=True, slots=True)
class DigView:
    """What one seat sees now.

    `hand` is the seat's own hand (sorted by suit, then rank). `top` is the card on top of the
    pile; `suit` and `rank` say what the next card must match (one of them is None after an
    eight's naming, both are the top card's otherwise); eights always match. `hands` counts the
    cards in each hand, `stock` the cards left to dig, `pile` the cards in the pile.
    """

    seat: int
    hand: tuple[Card, ...]
    top: Card
    suit: Suit | None
    rank: Rank | None
    hands: tuple[int, ...]
    stock: int
    pile: int
    phase: Phase
    to_act: int | None
    turn: int
