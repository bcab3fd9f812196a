"""What several games' tables share: the events they have in common, stacked decks for tests,
and narration text fitted to the terminal."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from arena.api import Event
from arena.cards import Card


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """`seat`'s hand, told to that seat alone (Dig, Frogs in the Pond, Memorandum)."""

    cards: tuple[Card, ...]

    kind: ClassVar[str] = "hand-dealt"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended: every seat's final total, and the winners, the seats with the highest total
    (Memorandum, Cribbage Square)."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]

    kind: ClassVar[str] = "game-over"


def stacked(deck: Sequence[Card], cards: Sequence[Card], what: str = "deck") -> list[Card]:
    """`deck` as a list, if it holds exactly `cards` in some order (for stacked-deck tests);
    a ValueError otherwise."""
    if len(deck) != len(cards) or sorted(map(str, deck)) != sorted(map(str, cards)):
        whose = "the 52 cards of one pack" if what == "deck" else "the variant's cards"
        raise ValueError(f"a stacked {what} must hold exactly {whose}")
    return list(deck)


def fit(text: str, indent: str = "  ", width: int = 80) -> list[str]:
    """The text wrapped into lines of at most `width` columns, continuation lines indented."""
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent + "  ",
                         break_on_hyphens=False) or [indent.rstrip()]
