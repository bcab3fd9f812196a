"""What players see of a Concentration table: backs, roles, the view, and the game's events."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from arena.api import Event, Remove
from arena.cards import Card
from arena.frozen import FastPickle, enum_by_name
from arena.games.concentration.variants import ConcentrationParams


class Back(enum.Enum):
    """The back of a face-down card: plain, or the pack's colour in the checkerboard variant."""

    __reduce_ex__ = enum_by_name

    PLAIN = "plain"
    RED = "red"
    BLUE = "blue"


class Role(enum.Enum):
    """What the seat to act is doing: flipping (every variant) or answering (the duel)."""

    __reduce_ex__ = enum_by_name

    FLIP = "flip"
    ANSWER = "answer"


class End(enum.Enum):
    """Why a game ended."""

    CLEARED = "cleared"
    TURN_LIMIT = "turn-limit"


@dataclass(frozen=True, slots=True)
class Claim(Remove):
    """`seat` took a set: these positions held these cards, worth `points`."""

    cards: tuple[Card, ...]
    points: int

    kind: ClassVar[str] = "claim"


@dataclass(frozen=True, slots=True)
class Miss(Event):
    """The cards turned up this turn did not make a set and went face down again."""

    positions: tuple[int, ...]

    kind: ClassVar[str] = "miss"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended: the table is clear, or the turn limit was reached."""

    reason: End

    kind: ClassVar[str] = "game-over"


@dataclass(frozen=True, slots=True)
class ConcentrationView(FastPickle):
    """What every seat sees: the layout (face down, face up this turn, taken), scores, the turn."""

    rows: int
    cols: int
    cells: tuple[Card | Back | None, ...]
    face_up: tuple[int, ...]
    scores: tuple[int, ...]
    turn: int
    role: Role
    field: range


def layout_backs(params: ConcentrationParams) -> tuple[Back, ...]:
    """The back of the card at each position: a checkerboard of red and blue, or all plain."""
    size = params.field_size * params.fields
    if not params.checkerboard:
        return (Back.PLAIN,) * size
    return tuple(Back.RED if (p // params.cols + p % params.cols) % 2 == 0 else Back.BLUE
                 for p in range(size))
