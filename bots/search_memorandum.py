"""Memorandum's playout policy for `search`: each player says "Mine!" to exactly the cards of
its own hand, as `elephant` does (a sampled state holds every hand, so each seat plays from its
own)."""

from __future__ import annotations

import random

from arena.api import Action
from arena.engine import State
from arena.games.memorandum import MemorandumState, Say


def memorandum_owner(state: State, seat: int, rng: random.Random) -> Action:
    """"Mine!" for a called card of the seat's own hand, else pass."""
    assert isinstance(state, MemorandumState)
    return Say.MINE if state.called in state.hands[seat] else Say.PASS
