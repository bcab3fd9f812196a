"""Dealing Dig, and stacked packs for tests.

A pack in *deal order* is dealt like this: seven cards to each player, one at a time, seat 0
(the dealer's left) first; the next card is turned up to start the pile; the rest is the stock,
dug from the front.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.cards import Card, parse_card, parse_cards, standard_deck
from arena.games.dig.variants import HAND, SEATS

DEALT = SEATS * HAND


def split_hands(cards: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    """The hands dealt from the first 14 cards, one at a time from seat 0."""
    return tuple(tuple(cards[seat:DEALT:SEATS]) for seat in range(SEATS))


def stack_deck(hands: tuple[str, str] = ("", ""), upcard: str = "",
               stock: Sequence[str] = ()) -> list[Card]:
    """A whole pack in deal order: these hands (up to seven cards each), this upcard, and a
    stock that gives `stock` to the first digs; every other place takes the unnamed cards in
    pack order. ValueError for a card named twice or a hand of more than seven."""
    pool = standard_deck()
    given = [list(parse_cards(h)) for h in hands]
    up = [parse_card(upcard)] if upcard else []
    first = [parse_card(t) for t in stock]
    for group in (*given, up, first):
        for card in group:
            pool.remove(card)  # ValueError for a card named twice
    if any(len(h) > HAND for h in given):
        raise ValueError(f"a hand holds {HAND} cards")
    rest = iter(pool)
    full = [h + [next(rest) for _ in range(HAND - len(h))] for h in given]
    deck = [card for pair in zip(*full, strict=True) for card in pair]
    deck += up or [next(rest)]
    return deck + first + list(rest)
