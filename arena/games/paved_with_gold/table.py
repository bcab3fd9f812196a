"""What players see of a Paved with Gold table: places, phases, the view and the game's events."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from arena.api import Event, Remove
from arena.cards import Card
from arena.games.paved_with_gold.combos import Combo


class Spot(enum.Enum):
    """A place of the square whose card is not face up."""

    DOWN = "down"  # a face-down card
    HELD = "held"  # picked up by the player to act (only they see it)
    EMPTY = "empty"  # no card: the stock could not refill it


class Phase(enum.Enum):
    """What the seat to act is deciding."""

    LOOK = "look"  # start of a turn: look at a card, announce a pair, or make the end claim
    HOLD = "hold"  # holding one or two cards: look at a second, put back, or claim
    TURN_UP = "turn-up"  # claiming: choose the next card to turn up
    BONUS_TO = "bonus-to"  # three players: choose the opponent who receives the bonus cards
    OVER = "over"


class End(enum.Enum):
    """Why a game ended."""

    END_CLAIM = "end-claim"
    TURN_LIMIT = "turn-limit"


@dataclass(frozen=True, slots=True)
class Look(Event):
    """`seat` picked up the card at `position` (everyone sees where; only `seat` sees the card)."""

    position: int

    kind: ClassVar[str] = "look"


@dataclass(frozen=True, slots=True)
class PutBack(Event):
    """`seat` put the cards it held back face down where they were."""

    positions: tuple[int, ...]

    kind: ClassVar[str] = "put-back"


@dataclass(frozen=True, slots=True)
class Announce(Event):
    """`seat` claims `combo` with the cards it holds at `held` (none for an announced pair)."""

    combo: Combo
    held: tuple[int, ...]

    kind: ClassVar[str] = "claim"


@dataclass(frozen=True, slots=True)
class Won(Remove):
    """The claim came good: `seat` wins these cards and the combination's points."""

    combo: Combo
    cards: tuple[Card, ...]
    points: int

    kind: ClassVar[str] = "won"


@dataclass(frozen=True, slots=True)
class Failed(Event):
    """The cards turned up do not make the combination `seat` claimed."""

    combo: Combo
    positions: tuple[int, ...]
    cards: tuple[Card, ...]

    kind: ClassVar[str] = "false-claim"


@dataclass(frozen=True, slots=True)
class Bonus(Remove):
    """`seat` receives these cards as bonus cards, through `claimant`'s false or end claim."""

    cards: tuple[Card, ...]
    claimant: int

    kind: ClassVar[str] = "bonus"


@dataclass(frozen=True, slots=True)
class Refill(Event):
    """After a claim: the vacated places filled face down from the stock (none once it is out)."""

    positions: tuple[int, ...]
    stock: int

    kind: ClassVar[str] = "refill"


@dataclass(frozen=True, slots=True)
class EndClaim(Event):
    """`seat` claims that no scoring combination remains; the cards at `positions` turn up."""

    positions: tuple[int, ...]

    kind: ClassVar[str] = "end-claim"


@dataclass(frozen=True, slots=True)
class Verdict(Event):
    """Whether `seat`'s end claim was right; if not, a combination found (`combo`, `positions`)."""

    right: bool
    combo: Combo | None
    positions: tuple[int, ...]

    kind: ClassVar[str] = "verdict"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended, by the end claim or at the turn limit."""

    reason: End

    kind: ClassVar[str] = "game-over"


@dataclass(frozen=True, slots=True)
class PavedView:
    """What one seat sees now: the square, its own cards in hand, the claim, stock and scores.

    `cells` has one entry per place, row by row: a `Card` if it lies face up (the cards of a claim
    being made, the cards turned up by the end claim), else a `Spot`. `hand` lists the seat's own
    picked-up cards as (position, card); it is empty for every other seat. `out` holds every card
    won or given as bonus so far: they lie face up in front of their owners.
    """

    cells: tuple[Card | Spot, ...]
    hand: tuple[tuple[int, Card], ...]
    phase: Phase
    to_act: int
    claim: Combo | None
    claim_positions: tuple[int, ...]
    stock: int
    out: tuple[Card, ...]
    points: tuple[int, ...]
    bonus: tuple[int, ...]
    scores: tuple[int, ...]
    turn: int
