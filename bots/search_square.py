"""Cribbage Square's playout policy for `search` (bots/search.py).

`square-greedy` values each line against the cards not yet seen, which costs a fresh table of
values every move (about 0.2 ms): too slow for hundreds of playouts a decision. The playouts
value lines against a full pack instead, one table shared by every move of every playout, so
a move costs a few lines looked up.
"""

from __future__ import annotations

import random

from arena.api import Action
from arena.cards import standard_deck
from arena.engine import State
from arena.games.cribbage_square import SquareState
from bots.square_bots import Layout, LineValues

_STATIC = LineValues(standard_deck())
"""Line values against a full pack, filled in as lines are met and kept for every playout."""


def square_static_greedy(state: State, seat: int, rng: random.Random) -> Action:
    """The place where the card adds most to the seat's lines, valued against a full pack."""
    assert isinstance(state, SquareState)
    legal = state.legal(seat)
    card = state.card
    assert card is not None
    gains = Layout(state.order[seat]).gains(card, legal, _STATIC)  # type: ignore[arg-type]
    return max(legal, key=lambda p: gains[p])  # type: ignore[index]
