"""Animals' parts of `search` (bots/algorithms/search.py): the playout policy.

After every faced card every player still in decides at once; `search` tries each of its own
choices with the others' chosen by this policy, and settles them with `apply_joint`.
"""

from __future__ import annotations

import random

from arena.api import Action
from arena.engine import State
from arena.games.animals import QUIET, AnimalsView, call, partners


def animals_caller(state: State, seat: int, rng: random.Random) -> Action:
    """Animals' playout policy, `animals-sharp`'s rule: call the matching player with the
    biggest up-pile (the nearest to the left on a tie), else keep quiet."""
    view: AnimalsView = state.view(seat)
    found = partners(view.tops, seat, view.places)
    if not found:
        return QUIET
    n = view.players
    return call(max(found, key=lambda s: (view.piles[s], -((s - seat) % n))))
