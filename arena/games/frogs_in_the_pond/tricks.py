"""Tricks: the order of the cards (ace high), which cards may be played, and who wins a trick."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from arena.cards import Card, Rank, Suit

_SUIT_ORDER = {suit: i for i, suit in enumerate(Suit)}


def power(card: Card) -> int:
    """A card's strength within its suit: two 2 up to king 13 and ace 14."""
    return 14 if card.rank is Rank.ACE else int(card.rank)


def hand_order(card: Card) -> tuple[int, int]:
    """The order hands are sorted in: by suit (clubs, diamonds, hearts, spades), then two to ace."""
    assert card.suit is not None
    return (_SUIT_ORDER[card.suit], power(card))


def sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards in hand order."""
    return tuple(sorted(cards, key=hand_order))


def playable(hand: Sequence[Card], led: Suit | None) -> tuple[Card, ...]:
    """The cards of `hand` that may be played: any to lead; else the led suit if held, else any."""
    if led is None:
        return tuple(hand)
    follow = tuple(c for c in hand if c.suit is led)
    return follow or tuple(hand)


def winning_play(plays: Sequence[tuple[int, Card]]) -> tuple[int, Card]:
    """The (seat, card) winning the trick so far: the highest card of the suit led."""
    led = plays[0][1].suit
    return max((p for p in plays if p[1].suit is led), key=lambda p: power(p[1]))
