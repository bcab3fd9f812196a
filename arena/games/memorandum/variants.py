"""Memorandum's variant parameters: which pack, how many cards a hand, and the named presets."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from arena.cards import Card, Rank, standard_deck
from arena.engine import Params
from arena.errors import VariantError

MIN_SEATS = 3
"""The dealer and at least two players holding hands (the source's smallest table)."""
MAX_SEATS = 7
"""The dealer and at most six players holding hands (the source's largest table, with jokers)."""


class Pack(enum.Enum):
    """The composition of each of the two packs (the playing pack and the dealer's pack)."""

    FULL = "full"  # 52 cards
    SHORT = "short"  # 40 cards: ace to ten of each suit (the court cards are taken out)
    JOKERS = "jokers"  # 54 cards: the 52 and a red and a black joker


def pack_cards(pack: Pack) -> list[Card]:
    """The cards of one pack of this kind, in pack order (suit by suit, then the jokers)."""
    if pack is Pack.SHORT:
        return [c for c in standard_deck() if c.rank <= Rank.TEN]
    return standard_deck(jokers=pack is Pack.JOKERS)


@dataclass(frozen=True)
class MemorandumParams(Params):
    """Variant parameters of Memorandum; see docs/rules/memorandum.md for each."""

    pack: Pack = Pack.FULL
    hand: int = 0  # cards per hand; 0 deals the playing pack out as far as it goes evenly

    @property
    def pack_size(self) -> int:
        """Cards in each pack."""
        return {Pack.FULL: 52, Pack.SHORT: 40, Pack.JOKERS: 54}[self.pack]

    def hand_size(self, seats: int) -> int:
        """Cards in each hand at a table of `seats` (one of them the dealer, who gets none)."""
        return self.hand or self.pack_size // (seats - 1)

    def players_allowed(self) -> range:
        """Three to seven seats, as long as every player but the dealer can get a full hand."""
        most = MAX_SEATS if not self.hand else min(MAX_SEATS, 1 + self.pack_size // self.hand)
        return range(MIN_SEATS, most + 1)

    def validate(self) -> None:
        """Reject a hand size that cannot be dealt to two players, naming the parameter."""
        if self.hand < 0:
            raise VariantError(f"hand must be 0 (as far as the pack goes) or more, not {self.hand}")
        most = self.pack_size // (MIN_SEATS - 1)
        if self.hand > most:
            raise VariantError(
                f"hand={self.hand} is too large for the {self.pack_size}-card pack "
                f"(pack={self.pack.value}): two players need {2 * self.hand} cards; "
                f"at most hand={most}")


PRESETS: Mapping[str, MemorandumParams] = MappingProxyType({
    "standard": MemorandumParams(),
    "short-pack": MemorandumParams(pack=Pack.SHORT, hand=10),
    "six-jokers": MemorandumParams(pack=Pack.JOKERS, hand=9),
})
