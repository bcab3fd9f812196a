"""The actions of Dig: plain tuples of strings, built and read here.

| action | when | meaning |
|---|---|---|
| `("play", "7H")` | your turn | play 7H on the pile (it must match, or be an eight) |
| `("name", "S")` | you just played an eight | the next card must be a spade (or an eight) |
| `("name", "Q")` | after an eight, naming ranks | the next card must be a queen (or an eight) |
"""

from __future__ import annotations

from collections.abc import Hashable

from arena.cards import Card, Rank, Suit, parse_card

PLAY = "play"
NAME = "name"

SUITS = tuple(Suit)
RANKS = tuple(r for r in Rank if r not in (Rank.JOKER, Rank.EIGHT))
"""The ranks an eight may name: any but the eight itself."""

_RANK_CODES = {r.code: r for r in RANKS}


def play(card: Card) -> tuple[str, str]:
    """Play `card`."""
    return (PLAY, str(card))


def name(choice: Suit | Rank) -> tuple[str, str]:
    """Name a suit or a rank after an eight."""
    return (NAME, choice.value if isinstance(choice, Suit) else choice.code)


def read_play(action: Hashable) -> Card:
    """The card a play action plays; ValueError for anything else."""
    if not (isinstance(action, tuple) and len(action) == 2 and action[0] == PLAY):
        raise ValueError(f"not a play: {action!r}")
    return parse_card(action[1])


def read_name(action: Hashable) -> Suit | Rank:
    """The suit or rank a naming action names; ValueError for anything else."""
    if not (isinstance(action, tuple) and len(action) == 2 and action[0] == NAME):
        raise ValueError(f"not a naming: {action!r}")
    code = action[1]
    if code in _RANK_CODES:
        return _RANK_CODES[code]
    return Suit(code)
