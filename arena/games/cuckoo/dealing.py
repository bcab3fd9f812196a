"""Dealing a deal of Cuckoo: the order of turns, the pack each deal, and stacked deals for tests."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena.cards import Card, standard_deck

PACK: tuple[Card, ...] = tuple(standard_deck())
"""The 52-card pack in pack order (suit by suit, ace to king)."""


@dataclass(frozen=True)
class Stack:
    """A prearranged deal for tests: the card dealt to some seats, and the card the dealer
    would draw. Everything else comes from the rest of the pack in pack order (AC, 2C, ...)."""

    cards: Mapping[int, Card] = field(default_factory=dict)
    draw: Card | None = None


def turn_order(dealer: int, active: Sequence[int]) -> tuple[int, ...]:
    """The players still in, from the dealer's left round to the dealer (who is last)."""
    seats = sorted(active)
    start = next((i for i, s in enumerate(seats) if s > dealer), 0)
    order = seats[start:] + seats[:start]
    if dealer in order:
        order.remove(dealer)
        order.append(dealer)
    return tuple(order)


def next_dealer(dealer: int, active: Sequence[int]) -> int:
    """The next player still in to the left of `dealer` (who may have just dropped out)."""
    later = [s for s in sorted(active) if s > dealer]
    return later[0] if later else min(active)


def shuffled_pack(rng: random.Random) -> list[Card]:
    """The whole pack, shuffled: the deck of one deal, dealt from the front."""
    deck = list(PACK)
    rng.shuffle(deck)
    return deck


def stacked_pack(order: Sequence[int], stack: Stack) -> list[Card]:
    """The deck a Stack describes for a deal in this order of turns: one card per seat in
    turn order, then the card the dealer would draw, then the rest; ValueError if a card is
    named twice or a seat is not playing."""
    rest = list(PACK)
    named = [*stack.cards.values(), *([stack.draw] if stack.draw is not None else [])]
    for card in named:
        if card not in rest:
            raise ValueError(f"{card} is named twice in the stack")
        rest.remove(card)
    for seat in stack.cards:
        if seat not in order:
            raise ValueError(f"seat {seat} is not playing this deal")
    deck = [stack.cards[s] if s in stack.cards else rest.pop(0) for s in order]
    deck.append(stack.draw if stack.draw is not None else rest.pop(0))
    return deck + rest
