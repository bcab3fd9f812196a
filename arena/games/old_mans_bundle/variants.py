"""Stealing the Old Man's Bundle: variant parameters, their validation and the named presets."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from arena.engine import Params

HAND = 4
"""Cards dealt to each player at a time."""

TABLE = 4
"""Cards dealt face up to the table at the start (never again)."""

SEATS = 2
"""The game is for two players."""

DEALER = 1
"""The dealer's seat; the non-dealer (seat 0) leads."""


class TakeRule(enum.Enum):
    """How many table cards one card from hand takes in."""

    ALL = "all"  # every table card of its rank
    ONE = "one"  # one table card of its rank, chosen by the player


class Leftover(enum.Enum):
    """Where the cards still on the table go when the last hand has been played."""

    NOBODY = "nobody"  # they stay on the table and count for nobody
    LAST_TAKER = "last-taker"  # onto the bundle of the last player to take in or steal


@dataclass(frozen=True)
class BundleParams(Params):
    """Variant parameters of Stealing the Old Man's Bundle (docs/rules/old-mans-bundle.md)."""

    take: TakeRule = TakeRule.ALL
    leftover: Leftover = Leftover.NOBODY

    def players_allowed(self) -> range:
        """Two players only."""
        return range(SEATS, SEATS + 1)


PRESETS: Mapping[str, BundleParams] = MappingProxyType({
    "standard": BundleParams(),
    "last-taker": BundleParams(leftover=Leftover.LAST_TAKER),
    "single-take": BundleParams(take=TakeRule.ONE),
})
