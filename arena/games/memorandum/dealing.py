"""Dealing one deal of Memorandum: the hands, the cards set aside and the order of the calls."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena.cards import Card


@dataclass(frozen=True)
class Deal:
    """One deal's cards: a hand per seat (the dealer's empty), the rest of the playing pack set
    aside, and the dealer's pack in the order it will be called."""

    hands: tuple[tuple[Card, ...], ...]
    set_aside: tuple[Card, ...]
    calls: tuple[Card, ...]


@dataclass(frozen=True)
class Stack:
    """A prearranged deal for tests: cards given to some seats and the first cards to call.

    The hands are filled up, seat by seat, and the calls continued, from the rest of each pack
    in pack order; what is left of the playing pack is set aside. Hands keep the order given.
    """

    hands: Mapping[int, Sequence[Card]] = field(default_factory=dict)
    calls: Sequence[Card] = ()


def holders_of(dealer: int, seats: int) -> tuple[int, ...]:
    """The seats that receive hands, from the dealer's left round the table."""
    return tuple((dealer + i) % seats for i in range(1, seats))


def shuffled_deal(playing_pack: Sequence[Card], dealers_pack: Sequence[Card], seats: int,
                  dealer: int, hand_size: int, rng: random.Random) -> Deal:
    """Shuffle both packs and deal the playing pack one card at a time from the dealer's left.

    Each hand, and the cards set aside, are then sorted into the order of `playing_pack`."""
    playing, calling = list(playing_pack), list(dealers_pack)
    rng.shuffle(playing)
    rng.shuffle(calling)
    holders = holders_of(dealer, seats)
    hands: list[tuple[Card, ...]] = [() for _ in range(seats)]
    dealt = hand_size * len(holders)
    order = {card: i for i, card in enumerate(playing_pack)}.__getitem__
    for i, seat in enumerate(holders):
        hands[seat] = tuple(sorted(playing[i:dealt:len(holders)], key=order))
    return Deal(tuple(hands), tuple(sorted(playing[dealt:], key=order)), tuple(calling))


def stacked_deal(playing_pack: Sequence[Card], dealers_pack: Sequence[Card], seats: int,
                 dealer: int, hand_size: int, stack: Stack) -> Deal:
    """The deal a Stack describes; ValueError if it does not fit the packs, hands or table."""
    rest = list(playing_pack)
    holders = holders_of(dealer, seats)
    given: dict[int, list[Card]] = {}
    for seat, cards in stack.hands.items():
        if seat not in holders:
            raise ValueError(f"seat {seat} deals or is not at the table: it holds no hand")
        if len(cards) > hand_size:
            raise ValueError(f"seat {seat} is given {len(cards)} cards; hands hold {hand_size}")
        given[seat] = list(cards)
        for card in cards:
            _take(rest, card, "the playing pack")
    hands: list[tuple[Card, ...]] = [() for _ in range(seats)]
    for seat in sorted(holders):
        hand = given.get(seat, [])
        while len(hand) < hand_size:
            hand.append(rest.pop(0))
        hands[seat] = tuple(hand)
    calls = list(dealers_pack)
    for card in stack.calls:
        _take(calls, card, "the dealer's pack")
    return Deal(tuple(hands), tuple(rest), (*stack.calls, *calls))


def _take(cards: list[Card], card: Card, where: str) -> None:
    if card not in cards:
        raise ValueError(f"{card} is not (or no longer) in {where}")
    cards.remove(card)
