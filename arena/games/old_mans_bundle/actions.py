"""The actions of Stealing the Old Man's Bundle: plain tuples of strings, built and read here.

| action | meaning |
|---|---|
| `("take", "7H")` | play 7H from hand and take in every table card of rank 7 |
| `("take", "7H", "7C")` | preset `single-take`: play 7H and take in the 7C from the table |
| `("steal", "7H")` | play 7H and take the opponent's whole bundle, whose top card is a 7 |
| `("trail", "7H")` | put 7H face up on the table |
"""

from __future__ import annotations

import enum
from collections.abc import Hashable
from dataclasses import dataclass

from arena.cards import Card, parse_card


class Verb(enum.StrEnum):
    """What a turn does with the card played."""

    TAKE = "take"
    STEAL = "steal"
    TRAIL = "trail"


def take(card: Card, table_card: Card | None = None) -> tuple[str, ...]:
    """Take in table cards of `card`'s rank (only `table_card`, if given)."""
    if table_card is None:
        return (Verb.TAKE.value, str(card))
    return (Verb.TAKE.value, str(card), str(table_card))


def steal(card: Card) -> tuple[str, str]:
    """Steal the opponent's bundle with `card`."""
    return (Verb.STEAL.value, str(card))


def trail(card: Card) -> tuple[str, str]:
    """Trail `card` to the table."""
    return (Verb.TRAIL.value, str(card))


@dataclass(frozen=True, slots=True)
class Move:
    """An action read back: the verb, the card from hand, and the table card named (if any)."""

    verb: Verb
    card: Card
    target: Card | None = None


def read(action: Hashable) -> Move:
    """The Move an action stands for; ValueError if it is not an action of this game."""
    if not isinstance(action, tuple) or len(action) not in (2, 3):
        raise ValueError(f"not an Old Man's Bundle action: {action!r}")
    verb = Verb(action[0])
    target = parse_card(action[2]) if len(action) == 3 else None
    if target is not None and verb is not Verb.TAKE:
        raise ValueError(f"only a take names a table card: {action!r}")
    return Move(verb, parse_card(action[1]), target)
