"""What players see at a Cribbage Square table: the events and the view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from arena.api import Event
from arena.cards import Card
from arena.games.common import GameOver as GameOver
from arena.games.cribbage_square.placement import Position
from arena.games.cribbage_square.variants import Placement

Cells = tuple[tuple[Position, Card], ...]
"""A layout as (position, card) pairs in the order the cards were laid."""


@dataclass(frozen=True, slots=True)
class Started(Event):
    """The game began: `players` squares laid from the same pack order, under `placement`."""

    players: int
    placement: Placement

    kind: ClassVar[str] = "started"


@dataclass(frozen=True, slots=True)
class TurnedUp(Event):
    """The table turned up `card`, the `number`th of the sixteen, for every player to lay."""

    card: Card
    number: int

    kind: ClassVar[str] = "turned-up"


@dataclass(frozen=True, slots=True)
class Laid(Event):
    """`seat` laid `card` at `position` (the table lays each player's first card at (0, 0) in
    the adjacent placement)."""

    position: Position
    card: Card

    kind: ClassVar[str] = "laid"


@dataclass(frozen=True, slots=True)
class StarterTurned(Event):
    """Every square is full: the table turned up the seventeenth card, the starter."""

    card: Card

    kind: ClassVar[str] = "starter"


@dataclass(frozen=True, slots=True)
class Scored(Event):
    """`seat`'s square scored: each row (top to bottom), each column (left to right), total."""

    rows: tuple[int, ...]
    columns: tuple[int, ...]
    total: int

    kind: ClassVar[str] = "scored"


@dataclass(frozen=True, slots=True)
class SquareView:
    """What one seat sees now.

    `card` is the card to lay now (None once the squares are full) and `number` which of the
    sixteen it is. `cells` is your layout as (position, card) pairs in the order laid;
    `layouts` holds every seat's (yours included, by seat). `starter` is None until the
    squares are full. Positions are (row, col): see docs/rules/cribbage-square.md.
    """

    seat: int
    card: Card | None
    number: int
    layouts: tuple[Cells, ...]
    placement: Placement
    starter: Card | None

    @property
    def cells(self) -> Cells:
        """Your own layout: (position, card) pairs in the order laid."""
        return self.layouts[self.seat]
