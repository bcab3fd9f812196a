"""Dealing Stealing the Old Man's Bundle, and stacked packs for tests.

A pack in *deal order* is dealt like this: one card at a time to each player, the non-dealer
(seat 0) first, until both hold four; then four cards face up to the table; then, each time
both hands are empty, four more cards each in the same way, and none to the table.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.cards import Card, parse_cards, standard_deck
from arena.games.old_mans_bundle.variants import HAND, SEATS, TABLE

PACK = 52
ROUNDS = (PACK - TABLE) // (SEATS * HAND)
"""Rounds of four cards each: six (24 cards a player, 48 turns in all)."""


def split_round(cards: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    """The hands dealt from `cards` (eight cards), one at a time from seat 0."""
    return tuple(tuple(cards[seat::SEATS]) for seat in range(SEATS))


def stack_deck(rounds: Sequence[tuple[str, str]] = (), table: str = "") -> list[Card]:
    """A whole pack in deal order: round r deals `rounds[r]` = (seat 0's cards, seat 1's cards)
    and the first round turns up `table`; every other place takes the unnamed cards in pack order.

    ValueError for a card named twice, or too many cards for a hand or the table.
    """
    pool = standard_deck()
    named = [list(parse_cards(t)) for pair in rounds for t in pair] + [list(parse_cards(table))]
    for group in named:
        if len(group) > HAND:
            raise ValueError(f"at most {HAND} cards a hand or table, not {len(group)}")
        for card in group:
            pool.remove(card)  # ValueError for a card named twice
    rest = iter(pool)

    def fill(given: list[Card]) -> list[Card]:
        return given + [next(rest) for _ in range(HAND - len(given))]

    wanted = list(rounds) + [("", "")] * (ROUNDS - len(rounds))
    deck: list[Card] = []
    for r, (first, second) in enumerate(wanted):
        hands = fill(list(parse_cards(first))), fill(list(parse_cards(second)))
        deck += [card for pair in zip(*hands, strict=True) for card in pair]
        if r == 0:
            deck += fill(list(parse_cards(table)))
    return deck
