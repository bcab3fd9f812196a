"""Dealing Cribbage Square, and stacked packs for tests.

A pack in *deal order* is turned up from the front: the first sixteen cards are laid, the
seventeenth is the starter; the rest is never seen. Every seat plays the same order.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.cards import Card, parse_cards, standard_deck
from arena.games.cribbage_square.scoring import SIDE

LAID = SIDE * SIDE
"""Cards laid by each player before the starter."""


def stack_pack(first: str | Sequence[str] = ()) -> list[Card]:
    """A whole pack in deal order starting with the cards `first` (a text such as 'QH 5S' or
    a list of codes), the rest in pack order. ValueError for a card named twice."""
    text = first if isinstance(first, str) else " ".join(first)
    given = list(parse_cards(text))
    pool = standard_deck()
    for card in given:
        pool.remove(card)  # ValueError for a card named twice
    return given + pool
