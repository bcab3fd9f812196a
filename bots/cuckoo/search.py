"""Cuckoo's parts of `search` (bots/algorithms/search.py): the playout policy.

A playout stops at the end of the deal (`CuckooSampler.playout_over`): a turn changes only who
pays at this showdown, and the deals after it are shuffled afresh.
"""

from __future__ import annotations

import random

from arena.api import Action
from arena.engine import State
from arena.games.cuckoo import CuckooView, Say
from bots.algorithms.hints import Playout, SearchHints

STAND_FROM = 7
"""The playout players stand on a seven or higher, as `cuckoo-simple` does (and, near enough,
`cuckoo-sharp` at six seats); below it they change, or draw as the dealer."""


def cuckoo_threshold(state: State, seat: int, rng: random.Random) -> Action:
    """Cuckoo's playout policy: deal; stand from a seven up; else change (draw, as dealer)."""
    legal = state.legal(seat)
    if Say.DEAL in legal:
        return Say.DEAL
    view: CuckooView = state.view(seat)
    if view.card is not None and int(view.card.rank) >= STAND_FROM:
        return Say.STAND
    return Say.DRAW if Say.DRAW in legal else Say.CHANGE


SEARCH_HINTS = SearchHints(Playout.GREEDY, greedy=cuckoo_threshold, samples=100)
"""What Cuckoo tells the generic search: greedy playouts, and 100 samples a decision: a playout
is a few turns to the end of the deal, so 100 samples cost about what 24 do elsewhere, and the
choice between standing and changing is often close (docs/strategy.md)."""
