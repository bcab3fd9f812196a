"""Frogs in the Pond's variant parameters, the deal at each table size, and the named presets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from arena.cards import Card, Rank, Suit
from arena.engine import Params
from arena.errors import VariantError

MIN_SEATS = 2
MAX_SEATS = 5
PARTNERS_SEATS = 4
"""The one table size at which the players may form two partnerships."""

DEFAULT_TARGET = 100
"""Points a side needs to win (the source's game)."""

DEFAULT_DEAL_LIMIT = 30
"""The safety-net number of deals after which the game stops (see the rulings)."""

DEUCES = tuple(Card(Rank.TWO, suit) for suit in Suit)
"""The deuces in the order they are taken out of the pack: clubs, diamonds, hearts, spades."""

HAND_SIZES: Mapping[int, int] = MappingProxyType({2: 17, 3: 13, 4: 10, 5: 8})
"""Cards in each hand, and in the frog pile, by table size."""

REMOVED: Mapping[int, tuple[Card, ...]] = MappingProxyType(
    {2: DEUCES[:1], 3: (), 4: DEUCES[:2], 5: DEUCES})
"""Cards taken out of the pack before the deal, by table size (nobody plays them)."""


@dataclass(frozen=True)
class FrogsParams(Params):
    """Variant parameters of Frogs in the Pond; see docs/rules/frogs-in-the-pond.md for each."""

    partners: bool = True  # four players play two against two (seats 0 and 2 against 1 and 3)
    tadpole: bool = False  # the jack of spades counts minus 10
    target: int = DEFAULT_TARGET
    max_deals: int = DEFAULT_DEAL_LIMIT

    def players_allowed(self) -> range:
        """Two to five players."""
        return range(MIN_SEATS, MAX_SEATS + 1)

    def validate(self) -> None:
        """Reject a target or a deal limit below one, naming the parameter."""
        if self.target < 1:
            raise VariantError(f"target must be 1 or more, not {self.target}")
        if self.max_deals < 1:
            raise VariantError(f"max-deals must be 1 or more, not {self.max_deals}")

    def sides(self, seats: int) -> tuple[tuple[int, ...], ...]:
        """The seats of each side: two partnerships at four with `partners`, else one a seat."""
        if self.partners and seats == PARTNERS_SEATS:
            return ((0, 2), (1, 3))
        return tuple((seat,) for seat in range(seats))

    def points(self, card: Card) -> int:
        """What a card won counts: ten 10, five 5, ace 4, king 3, queen 2, jack 1 (the jack of
        spades -10 with the tadpole), any other card 0."""
        if self.tadpole and card == TADPOLE:
            return TADPOLE_POINTS
        return CARD_POINTS.get(card.rank, 0)


TADPOLE = Card(Rank.JACK, Suit.SPADES)
TADPOLE_POINTS = -10
CARD_POINTS: Mapping[Rank, int] = MappingProxyType({
    Rank.TEN: 10, Rank.FIVE: 5, Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1})


def hand_size(seats: int) -> int:
    """Cards in each hand (and in the frog pile) at a table of `seats`."""
    return HAND_SIZES[seats]


PRESETS: Mapping[str, FrogsParams] = MappingProxyType({
    "standard": FrogsParams(),
    "tadpole": FrogsParams(tadpole=True),
    "four-individual": FrogsParams(partners=False),
})
