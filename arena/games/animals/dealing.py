"""Dealing Animals: the whole pack one card at a time from the dealer's left; stacked tables."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena.cards import Card, parse_cards, standard_deck


@dataclass(frozen=True)
class Table:
    """Cards on the table by seat: face-down packs (top card last) and face-up up-piles (top
    card last), and the seat that faces the first card."""

    packs: tuple[tuple[Card, ...], ...]
    piles: tuple[tuple[Card, ...], ...]
    first: int


@dataclass(frozen=True)
class Stack:
    """A prearranged table for tests, in short card text: each seat's pack listed top card
    first, each up-pile listed bottom card first (its top card last). Seats not named hold
    nothing; any cards may be used (a game of six cards is a game)."""

    packs: Mapping[int, str] = field(default_factory=dict)
    piles: Mapping[int, str] = field(default_factory=dict)
    first: int = 0

    def table(self, seats: int) -> Table:
        """The table this stack describes; ValueError for a seat that is not at the table."""
        for seat in [*self.packs, *self.piles, self.first]:
            if not 0 <= seat < seats:
                raise ValueError(f"seat {seat} is not at a table of {seats}")
        packs = tuple(tuple(reversed(parse_cards(self.packs.get(s, "")))) for s in range(seats))
        piles = tuple(parse_cards(self.piles.get(s, "")) for s in range(seats))
        return Table(packs, piles, self.first)


def dealer_of(seats: int) -> int:
    """The dealer: the last seat, so that seat 0 sits at the dealer's left."""
    return seats - 1


def shuffled_table(seats: int, rng: random.Random) -> Table:
    """Shuffle a 52-card pack and deal it all, one card at a time, from the dealer's left.

    The first card dealt to a seat ends up at the bottom of its pack. Seats nearer the
    dealer's left get one card more when the pack does not divide evenly.
    """
    pack = standard_deck()
    rng.shuffle(pack)
    packs = deal_round(pack, seats)
    return Table(packs, tuple(() for _ in range(seats)), 0)


def deal_round(cards: Sequence[Card], seats: int) -> tuple[tuple[Card, ...], ...]:
    """Deal `cards` in order one at a time to seats 0, 1, ...; each pack's top card is last."""
    return tuple(tuple(cards[s::seats]) for s in range(seats))
