"""What a Concentration bot remembers of the layout, and the questions it asks of it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.api import Recall
from arena.cards import Card
from arena.games.concentration import MatchRule, cards_match, key_table, mate_key

Key = int


class TableMemory(Recall[int]):
    """A perfect memory of the layout that stores each card's match key, read through the rule."""

    __slots__ = ("_keys", "duel", "rule", "set_size", "zebra")

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.rule = MatchRule(params["match"])
        self.set_size = int(params["set_size"])
        self.zebra = self.rule is MatchRule.OPPOSITE_COLOUR
        self.duel = bool(params["duel"])
        self._keys = key_table(self.rule)
        super().__init__(self._keys.__getitem__)

    @property
    def known(self) -> dict[int, Key]:
        """Position -> match key for every face-down card remembered."""
        return self.cards

    def key(self, card: Card) -> Key:
        """The card's match key under this variant's rule."""
        return self._keys[card]

    def mate_key(self, card: Card) -> Key:
        """The match key of this card's possible mates."""
        return mate_key(self._keys[card], self.rule)

    def unseen(self, legal: Sequence[int]) -> list[int]:
        """Legal positions whose card has not been seen."""
        known = self.cards
        return [p for p in legal if p not in known]

    def known_set(self, field: range) -> list[int] | None:
        """Positions of a complete set of remembered face-down cards in `field`, if any."""
        items = [(p, k) for p, k in self.cards.items() if p in field] if self.duel \
            else self.cards.items()
        if self.set_size == 2:
            firsts: dict[Key, int] = {}
            if self.zebra:
                for p, key in items:
                    if (q := firsts.get(mate_key(key, self.rule))) is not None:
                        return [q, p]
                    firsts[key] = p
            else:
                for p, key in items:
                    if (q := firsts.setdefault(key, p)) != p:
                        return [q, p]
            return None
        buckets: dict[Key, list[int]] = {}
        for p, key in items:
            bucket = buckets.setdefault(key, [])
            bucket.append(p)
            if len(bucket) == self.set_size:
                return bucket
        return None

    def mates(self, up_cards: Sequence[Card], up: Sequence[int], field: range) -> list[int]:
        """Remembered positions in `field` whose card completes a set with the cards face up."""
        if not up_cards or (len(up_cards) > 1 and not self.turn_can_succeed(up_cards)):
            return []
        wanted = self.mate_key(up_cards[0])
        return [p for p, key in self.cards.items()
                if key == wanted and p in field and p not in up]

    def turn_can_succeed(self, up_cards: Sequence[Card]) -> bool:
        """Whether the cards turned up so far could still be part of one set."""
        rule = self.rule
        return all(cards_match(a, b, rule)
                   for i, a in enumerate(up_cards) for b in up_cards[i + 1:])
