"""Cuckoo's variant parameters (chips each, an optional deal limit) and the named presets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from arena.engine import Params
from arena.errors import VariantError

MIN_SEATS = 6
"""The source's smallest table."""
MAX_SEATS = 20
"""The source's "approximately 20", taken as the largest table."""
MAX_CHIPS = 20
"""The most chips a player may start with (keeps games of 20 seats within 400 deals)."""


@dataclass(frozen=True)
class CuckooParams(Params):
    """Variant parameters of Cuckoo; see docs/rules/cuckoo.md for each."""

    chips: int = 3
    max_deals: int = 0  # 0: no limit but the rules' own (at most chips x seats deals)

    def players_allowed(self) -> range:
        """Six to twenty seats."""
        return range(MIN_SEATS, MAX_SEATS + 1)

    def validate(self) -> None:
        """Reject a chip count or a deal limit out of range, naming the parameter."""
        if not 1 <= self.chips <= MAX_CHIPS:
            raise VariantError(f"chips must be 1 to {MAX_CHIPS}, not {self.chips}")
        if self.max_deals < 0:
            raise VariantError(f"max-deals must be 0 (no limit) or more, not {self.max_deals}")

    def deal_limit(self, seats: int) -> int:
        """The deal after which the game stops at the latest: the rules' own bound (every deal
        takes at least one chip out of play) or `max_deals`, whichever comes first."""
        bound = self.chips * seats
        return min(bound, self.max_deals) if self.max_deals else bound


PRESETS: Mapping[str, CuckooParams] = MappingProxyType({
    "standard": CuckooParams(),
    "one-chip": CuckooParams(chips=1),
    "ten-deals": CuckooParams(max_deals=10),
})
