"""Dig's variant parameters, their validation, and the named presets."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from arena.engine import Params
from arena.errors import VariantError

HAND = 7
"""Cards dealt to each player."""

SEATS = 2
"""Dig is for two players."""

DEALER = 1
"""The dealer's seat; the player at the dealer's left (seat 0) plays first."""

DEFAULT_TURN_LIMIT = 300
"""The safety-net turn limit of every preset (see the rulings)."""


class Naming(enum.Enum):
    """What a player who plays an eight may name for the next card to follow."""

    SUIT_OR_RANK = "suit-or-rank"  # any suit, or any rank but eight (the source)
    SUIT = "suit"  # a suit only (as in Crazy Eights)


class StockOut(enum.Enum):
    """What a player who cannot play does once the stock is empty."""

    PASS = "pass"  # the turn passes; two passes in a row block the game
    RESHUFFLE = "reshuffle"  # the pile below its top card is shuffled into a new stock


@dataclass(frozen=True)
class DigParams(Params):
    """Variant parameters of Dig; see docs/rules/dig.md for each."""

    naming: Naming = Naming.SUIT_OR_RANK
    stock_out: StockOut = StockOut.PASS
    max_turns: int = DEFAULT_TURN_LIMIT

    def players_allowed(self) -> range:
        """Two players only."""
        return range(SEATS, SEATS + 1)

    def validate(self) -> None:
        """Reject a turn limit below one."""
        if self.max_turns < 1:
            raise VariantError(f"max-turns must be 1 or more, not {self.max_turns}")


PRESETS: Mapping[str, DigParams] = MappingProxyType({
    "standard": DigParams(),
    "suit-only": DigParams(naming=Naming.SUIT),
    "reshuffle": DigParams(stock_out=StockOut.RESHUFFLE),
})
