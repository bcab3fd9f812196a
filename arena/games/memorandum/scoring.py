"""Scoring one deal of Memorandum: right claims, disputed cards, returns and the dealer's pile."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena.cards import Card


@dataclass(frozen=True)
class DealScore:
    """The scoring of one deal, by seat, and the unclaimed pile once the returns are added."""

    points: tuple[int, ...]
    right: tuple[int, ...]
    disputed: tuple[int, ...]
    returned: tuple[tuple[Card, ...], ...]
    unclaimed: tuple[Card, ...]


def score_deal(hands: Sequence[Sequence[Card]], received: Sequence[Sequence[Card]],
               unclaimed: Sequence[Card], disputed: Sequence[Card], dealer: int) -> DealScore:
    """Score a finished deal; `p`, the points of a disputed or unclaimed card, is the table size.

    A player scores 1 for each card received that was in their hand and `p` for each card of the
    dispute pile that was in their hand (whether or not they claimed it). Cards received wrongly
    go back to the unclaimed pile, and the dealer scores `p` for each card of that pile.
    """
    p = len(hands)
    owner = {card: seat for seat, hand in enumerate(hands) for card in hand}
    right = [0] * p
    won = [0] * p
    returned: list[tuple[Card, ...]] = []
    pile = list(unclaimed)
    for seat, cards in enumerate(received):
        wrong = tuple(c for c in cards if owner.get(c) != seat)
        right[seat] = len(cards) - len(wrong)
        returned.append(wrong)
        pile.extend(wrong)
    for card in disputed:
        seat = owner.get(card)
        if seat is not None:
            won[seat] += 1
    points = [right[s] + p * won[s] for s in range(p)]
    points[dealer] += p * len(pile)
    return DealScore(tuple(points), tuple(right), tuple(won), tuple(returned), tuple(pile))
