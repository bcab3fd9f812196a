"""Animals' parts of `search` (bots/algorithms/search.py): the playout policy.

After every faced card every player still in decides at once; `search` tries each of its own
choices with the others' chosen by this policy, and settles them with `apply_joint`.
"""

from __future__ import annotations

import random

from arena.api import Action
from arena.engine import State
from arena.games.animals import QUIET, AnimalsView, call, partners
from bots.algorithms.hints import Playout, SearchHints


def animals_caller(state: State, seat: int, rng: random.Random) -> Action:
    """Animals' playout policy, `animals-sharp`'s rule: call the matching player with the
    biggest up-pile (the nearest to the left on a tie), else keep quiet."""
    view: AnimalsView = state.view(seat)
    found = partners(view.tops, seat, view.places)
    if not found:
        return QUIET
    n = view.players
    return call(max(found, key=lambda s: (view.piles[s], -((s - seat) % n))))


SEARCH_HINTS = SearchHints(Playout.GREEDY, greedy=animals_caller, depth=2,
                           policy_breaks_ties=True)
"""What Animals tells the generic search: greedy playouts of two plies, and ties to the policy.
A playout stops after two more cards faced and counts the cards held: the game is chaotic (one
card more or less and every later race changes), so longer playouts only add noise to what a
call changes at once. Actions of equal value go to the playout policy's choice: the lots of
races decide many playouts alike, so keeping quiet ties with calling a match on every sample
more often than the count suggests; calling is never worse (docs/strategy.md)."""
