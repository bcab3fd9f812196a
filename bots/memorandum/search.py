"""Memorandum's playout policy for `search` (bots/algorithms/search.py).

In a sampled state every hand is known, so a playout lets every player claim exactly the cards
of its own hand, as a perfect memory (`elephant`) does: the rest of the deal then plays the
same whatever the searching seat does now, and the comparison of "mine" and "pass" comes down
to the called card alone.
"""

from __future__ import annotations

import random

from arena.api import Action
from arena.engine import State
from arena.games.memorandum import MemorandumState, Say
from bots.algorithms.hints import Playout, SearchHints


def memorandum_recall(state: State, seat: int, rng: random.Random) -> Action:
    """"Mine!" for a called card of the seat's own (sampled) hand, else pass; the dealer deals."""
    assert isinstance(state, MemorandumState)
    if state.called is None:
        return Say.DEAL
    return Say.MINE if state.called in state.hands[seat] else Say.PASS


SEARCH_HINTS = SearchHints(Playout.GREEDY, greedy=memorandum_recall, ties_to_last=True)
"""What Memorandum tells the generic search: greedy playouts, and actions of equal mean margin
to the last legal one: "pass" over "mine", since a claim of a card not held that changes nothing
in the playouts is still a false claim, which tells the others (`chancer` learns from it) that
disputing this seat's calls pays."""
