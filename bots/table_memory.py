"""What a Concentration bot remembers of the layout, and the questions it asks of it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from arena.api import Event, Recall
from arena.cards import Card, Colour
from arena.games.concentration import MatchRule, cards_match

Key = tuple[Any, ...]


def match_key(card: Card, rule: MatchRule) -> Key:
    """The bucket of a card: cards in one bucket match, except under opposite-colour."""
    if card.is_joker:
        return ("JK",)
    if rule is MatchRule.RANK:
        return (card.rank,)
    if rule is MatchRule.IDENTICAL:
        return (card.rank, card.suit)
    return (card.rank, card.colour)


def partner_key(card: Card, rule: MatchRule) -> Key:
    """The bucket that holds this card's possible mates."""
    if rule is MatchRule.OPPOSITE_COLOUR and not card.is_joker:
        other = Colour.BLACK if card.colour is Colour.RED else Colour.RED
        return (card.rank, other)
    return match_key(card, rule)


class TableMemory:
    """A perfect memory of the layout (a `Recall`) read through the variant's match rule."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.rule = MatchRule(params["match"])
        self.set_size = int(params["set_size"])
        self.recall = Recall()

    @property
    def known(self) -> dict[int, Card]:
        """Position -> card for every face-down card remembered."""
        return self.recall.cards

    def update(self, events: Iterable[Event]) -> None:
        """Remember what the events show."""
        self.recall.update(events)

    def unseen(self, legal: Sequence[int]) -> list[int]:
        """Legal positions whose card has not been seen."""
        known = self.recall.cards
        return [p for p in legal if p not in known]

    def known_set(self, legal: Sequence[int]) -> list[int] | None:
        """Positions of a complete set of remembered cards among `legal`, if there is one."""
        rule, size, known = self.rule, self.set_size, self.recall.cards
        buckets: dict[Key, list[int]] = {}
        for p in legal:
            card = known.get(p)
            if card is None:
                continue
            mates = buckets.get(partner_key(card, rule))
            if mates and size == 2:
                return [mates[0], p]
            bucket = buckets.setdefault(match_key(card, rule), [])
            bucket.append(p)
            if len(bucket) == size and rule is not MatchRule.OPPOSITE_COLOUR:
                return bucket
        return None

    def mates(self, up_cards: Sequence[Card], legal: Sequence[int]) -> list[int]:
        """Legal remembered positions whose card matches every card turned up."""
        rule, known = self.rule, self.recall.cards
        return [p for p in legal
                if (c := known.get(p)) is not None and all(cards_match(u, c, rule) for u in up_cards)]

    def turn_can_succeed(self, up_cards: Sequence[Card]) -> bool:
        """Whether the cards turned up so far could still be part of one set."""
        rule = self.rule
        return all(cards_match(a, b, rule) for i, a in enumerate(up_cards) for b in up_cards[i + 1:])
