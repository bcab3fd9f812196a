"""Dealing one deal of Frogs in the Pond: a hand per seat and the frog pile, shuffled or stacked."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena.cards import Card
from arena.games.frogs_in_the_pond.tricks import sort_hand


@dataclass(frozen=True)
class Deal:
    """One deal's cards: a hand per seat (sorted) and the frogs in the order they will be taken
    (the top of the pile first)."""

    hands: tuple[tuple[Card, ...], ...]
    frogs: tuple[Card, ...]


@dataclass(frozen=True)
class Stack:
    """A prearranged deal for tests: cards given to some seats and the first frogs to be taken.

    The hands are filled up, seat by seat, then the frog pile continued, from the rest of the
    pack in pack order.
    """

    hands: Mapping[int, Sequence[Card]] = field(default_factory=dict)
    frogs: Sequence[Card] = ()


def deal_order(dealer: int, seats: int) -> tuple[int, ...]:
    """The seats in the order they receive cards (and play to the first trick): from the
    dealer's left round to the dealer."""
    return tuple((dealer + i) % seats for i in range(1, seats + 1))


def shuffled_deal(pack: Sequence[Card], seats: int, dealer: int, size: int,
                  rng: random.Random) -> Deal:
    """Shuffle the pack and deal it two cards at a time from the dealer's left (one at a time for
    the last round when `size` is odd) until each hand holds `size`; the next `size` cards make
    the frog pile, the last of them dealt on top."""
    cards = list(pack)
    rng.shuffle(cards)
    hands: list[list[Card]] = [[] for _ in range(seats)]
    order = deal_order(dealer, seats)
    top = 0
    while len(hands[order[0]]) < size:
        step = min(2, size - len(hands[order[0]]))
        for seat in order:
            hands[seat] += cards[top:top + step]
            top += step
    frogs = cards[top:top + size]
    assert len(frogs) == size and top + size == len(cards), "the pack does not fit the deal"
    return Deal(tuple(sort_hand(h) for h in hands), tuple(reversed(frogs)))


def stacked_deal(pack: Sequence[Card], seats: int, size: int, stack: Stack) -> Deal:
    """The deal a Stack describes; ValueError if it does not fit the pack or the table."""
    rest = list(pack)
    given: dict[int, list[Card]] = {}
    for seat, cards in stack.hands.items():
        if not 0 <= seat < seats:
            raise ValueError(f"seat {seat} is not at the table")
        if len(cards) > size:
            raise ValueError(f"seat {seat} is given {len(cards)} cards; hands hold {size}")
        given[seat] = list(cards)
        for card in cards:
            _take(rest, card)
    if len(stack.frogs) > size:
        raise ValueError(f"{len(stack.frogs)} frogs are given; the pile holds {size}")
    for card in stack.frogs:
        _take(rest, card)
    hands = []
    for seat in range(seats):
        hand = given.get(seat, [])
        while len(hand) < size:
            hand.append(rest.pop(0))
        hands.append(sort_hand(hand))
    return Deal(tuple(hands), (*stack.frogs, *rest))


def _take(cards: list[Card], card: Card) -> None:
    if card not in cards:
        raise ValueError(f"{card} is not (or no longer) in the pack")
    cards.remove(card)
