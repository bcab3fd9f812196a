"""Which cards make a set: the match rules, and small integer match keys for fast comparison."""

from __future__ import annotations

import enum
import functools

from arena.cards import Card, Colour, Suit, standard_deck


class MatchRule(enum.Enum):
    """Which cards make a set."""

    RANK_COLOUR = "rank-colour"
    RANK = "rank"
    OPPOSITE_COLOUR = "opposite-colour"
    IDENTICAL = "identical"


def cards_match(a: Card, b: Card, rule: MatchRule) -> bool:
    """Whether two cards belong to one set under `rule`; jokers match only each other."""
    if a.is_joker or b.is_joker:
        return a.is_joker and b.is_joker
    if a.rank != b.rank:
        return False
    if rule is MatchRule.RANK:
        return True
    if rule is MatchRule.RANK_COLOUR:
        return a.colour is b.colour
    if rule is MatchRule.OPPOSITE_COLOUR:
        return a.colour is not b.colour
    return a.suit is b.suit


_SUIT_ORDER = list(Suit)


def match_key(card: Card, rule: MatchRule) -> int:
    """A small int per card: under every rule but opposite-colour, cards match when their keys
    are equal; under opposite-colour a card's mates have its key with the lowest bit flipped."""
    if card.is_joker:
        return -1
    if rule is MatchRule.RANK:
        return card.rank.value
    if rule is MatchRule.IDENTICAL:
        return card.rank.value * 8 + _SUIT_ORDER.index(card.suit)  # type: ignore[arg-type]
    return card.rank.value * 2 + (card.colour is Colour.RED)


def mate_key(key: int, rule: MatchRule) -> int:
    """The key of the cards that match a card with key `key`."""
    return key ^ 1 if rule is MatchRule.OPPOSITE_COLOUR and key >= 0 else key


@functools.cache
def key_table(rule: MatchRule) -> dict[Card, int]:
    """Every card's match key under `rule`, computed once per rule (shared: do not modify)."""
    return {card: match_key(card, rule) for card in standard_deck(jokers=True)}
