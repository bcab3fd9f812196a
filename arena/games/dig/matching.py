"""What Dig's next card must match: the card on top of the pile, or what an eight named."""

from __future__ import annotations

from dataclasses import dataclass

from arena.cards import Card, Rank, Suit

WILD = Rank.EIGHT
"""Eights are wild: playable on anything."""


@dataclass(frozen=True, slots=True)
class Target:
    """The next card must have this suit or this rank (None: that part is not asked), unless it
    is an eight. A card on top asks for both; an eight's naming for one of them."""

    suit: Suit | None
    rank: Rank | None

    @classmethod
    def of(cls, card: Card) -> Target:
        """What a card on top of the pile asks for: its own suit or rank."""
        return cls(card.suit, card.rank)

    def accepts(self, card: Card) -> bool:
        """Whether `card` may be played now."""
        return card.rank is WILD or card.suit is self.suit or card.rank is self.rank

    def describe(self) -> str:
        """'a spade or a seven', 'a spade', 'a seven'."""
        parts = []
        if self.suit is not None:
            parts.append(f"a {SUIT_NAMES[self.suit]}")
        if self.rank is not None:
            parts.append(f"a {RANK_NAMES[self.rank]}")
        return " or ".join(parts)


SUIT_NAMES = {Suit.CLUBS: "club", Suit.DIAMONDS: "diamond", Suit.HEARTS: "heart",
              Suit.SPADES: "spade"}
RANK_NAMES = {Rank.ACE: "ace", Rank.TWO: "two", Rank.THREE: "three", Rank.FOUR: "four",
              Rank.FIVE: "five", Rank.SIX: "six", Rank.SEVEN: "seven", Rank.EIGHT: "eight",
              Rank.NINE: "nine", Rank.TEN: "ten", Rank.JACK: "jack", Rank.QUEEN: "queen",
              Rank.KING: "king"}
