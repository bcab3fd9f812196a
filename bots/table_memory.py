"""What a Concentration bot remembers of the layout, and the questions it asks of it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from arena.api import Event, Recall
from arena.cards import Card, Colour, Suit, standard_deck
from arena.games.concentration import MatchRule, cards_match

Key = int
_SUITS = list(Suit)


def match_key(card: Card, rule: MatchRule) -> Key:
    """The bucket of a card as a small int: cards in one bucket match (except under
    opposite-colour, where a card's mates are in `partner_key`)."""
    if card.is_joker:
        return -1
    if rule is MatchRule.RANK:
        return card.rank.value
    if rule is MatchRule.IDENTICAL:
        return card.rank.value * 8 + _SUITS.index(card.suit)
    return card.rank.value * 2 + (card.colour is Colour.RED)


def partner_key(card: Card, rule: MatchRule) -> Key:
    """The bucket that holds this card's possible mates."""
    key = match_key(card, rule)
    if rule is MatchRule.OPPOSITE_COLOUR and key >= 0:
        return key ^ 1
    return key


class TableMemory:
    """A perfect memory of the layout that stores each card's match key, read through the rule."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.rule = MatchRule(params["match"])
        self.set_size = int(params["set_size"])
        self.zebra = self.rule is MatchRule.OPPOSITE_COLOUR
        self._keys = {card: match_key(card, self.rule) for card in standard_deck(jokers=True)}
        self.recall: Recall[Key] = Recall(self._keys.__getitem__)

    @property
    def known(self) -> dict[int, Key]:
        """Position -> match key for every face-down card remembered."""
        return self.recall.cards

    def update(self, events: Iterable[Event]) -> None:
        """Remember what the events show."""
        self.recall.update(events)

    def key(self, card: Card) -> Key:
        """The card's match key under this variant's rule."""
        return self._keys[card]

    def mate_key(self, card: Card) -> Key:
        """The match key of this card's possible mates."""
        return partner_key(card, self.rule)

    def unseen(self, legal: Sequence[int]) -> list[int]:
        """Legal positions whose card has not been seen."""
        known = self.recall.cards
        return [p for p in legal if p not in known]

    def known_set(self, legal: Sequence[int]) -> list[int] | None:
        """Positions of a complete set of remembered cards among `legal`, if there is one."""
        size, zebra = self.set_size, self.zebra
        allowed = set(legal)
        buckets: dict[Key, list[int]] = {}
        for p, key in self.recall.cards.items():
            if p not in allowed:
                continue
            if size == 2:
                mates = buckets.get(key ^ 1 if zebra and key >= 0 else key)
                if mates:
                    return [mates[0], p]
            bucket = buckets.setdefault(key, [])
            bucket.append(p)
            if len(bucket) == size and not zebra:
                return bucket
        return None

    def mates(self, up_cards: Sequence[Card], legal: Sequence[int]) -> list[int]:
        """Legal remembered positions whose card would complete a set with the cards face up."""
        if not up_cards or not self.turn_can_succeed(up_cards):
            return []
        wanted = self.mate_key(up_cards[0])
        allowed = set(legal)
        return [p for p, key in self.recall.cards.items() if key == wanted and p in allowed]

    def turn_can_succeed(self, up_cards: Sequence[Card]) -> bool:
        """Whether the cards turned up so far could still be part of one set."""
        rule = self.rule
        return all(cards_match(a, b, rule)
                   for i, a in enumerate(up_cards) for b in up_cards[i + 1:])
