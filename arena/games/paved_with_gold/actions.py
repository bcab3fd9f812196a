"""The actions of Paved with Gold: plain tuples, built and read by these helpers.

| action | when | meaning |
|---|---|---|
| `("look", p)` | start of a turn, or holding one card | pick up the card at `p` and look at it |
| `("claim", "pair", ())` | start of a turn | announce a pair, then turn up two cards |
| `("claim", combo, held)` | holding cards | claim `combo` with the held positions `held` |
| `("put-back",)` | holding cards | put the held cards back; the turn ends |
| `("turn-up", p)` | claiming | turn up the card at `p` for the claim |
| `("bonus-to", s)` | three players | seat `s` receives the bonus cards |
| `("end",)` | start of a turn, stock empty, under nine cards | claim that no combination remains |
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from arena.games.paved_with_gold.combos import Combo

LOOK = "look"
CLAIM = "claim"
PUT_BACK = "put-back"
TURN_UP = "turn-up"
BONUS_TO = "bonus-to"
END = "end"


def look(position: int) -> tuple[str, int]:
    """Pick up the card at `position`."""
    return (LOOK, position)


def claim(combo: Combo, held: tuple[int, ...]) -> tuple[str, str, tuple[int, ...]]:
    """Claim `combo` with the cards held at `held` (`()` announces a pair before picking up)."""
    return (CLAIM, combo.value, held)


def turn_up(position: int) -> tuple[str, int]:
    """Turn up the card at `position` for the claim being made."""
    return (TURN_UP, position)


def bonus_to(seat: int) -> tuple[str, int]:
    """Give the bonus cards to `seat`."""
    return (BONUS_TO, seat)


PUT_BACK_ACTION: tuple[str] = (PUT_BACK,)
"""Put the held cards back."""

END_ACTION: tuple[str] = (END,)
"""Claim that no scoring combination remains."""


def verb(action: Hashable) -> str:
    """The first element of an action: 'look', 'claim', ..."""
    assert isinstance(action, tuple) and action, f"not an action: {action!r}"
    head: Any = action[0]
    return str(head)
