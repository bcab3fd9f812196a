"""Cribbage Square's variant parameters, their validation, and the named presets."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from arena.engine import Params

MAX_SEATS = 4
"""Up to four players, each laying out their own square from the same pack order."""


class Placement(enum.Enum):
    """Where a card may be laid."""

    ADJACENT = "adjacent"  # next to a card on the table, the square still possible (the source)
    GRID = "grid"  # any empty place of a fixed 4 x 4 grid (as in Poker Squares' modern form)


@dataclass(frozen=True)
class SquareParams(Params):
    """Variant parameters of Cribbage Square; see docs/rules/cribbage-square.md for each."""

    placement: Placement = Placement.ADJACENT

    def players_allowed(self) -> range:
        """One to four seats: every seat lays its own square from the same pack order."""
        return range(1, MAX_SEATS + 1)


PRESETS: Mapping[str, SquareParams] = MappingProxyType({
    "standard": SquareParams(),
    "grid": SquareParams(placement=Placement.GRID),
})
