"""Paved with Gold's playout policy for `search`: `prospector`'s rules on a sampled state.

A sampled state (`arena.games.paved_with_gold.sampler.PavedSample`) follows which places each
seat knows, so each seat plays out from its own memory, not from the true cards: it claims a
sure combination of the most valuable kind still possible, else looks at places it does not
know, two a turn, and puts them back; it makes the end claim when it is right.
"""

from __future__ import annotations

import random
from typing import Any

from arena.api import Action
from arena.cards import Card
from arena.engine import State
from arena.games.paved_with_gold import BEST_FIRST, Combo, Phase, actions


def _floor(state: Any) -> list[Combo]:
    """The combinations of the most valuable kind still possible among the cards in play, and
    those above it, best first."""
    in_play = [c for c in state.square if c is not None] + state.stock
    found = state.rules.find(in_play)
    floor = found[0].points if found is not None else 0
    return [c for c in BEST_FIRST if c.points >= floor]


def paved_greedy(state: State, seat: int, rng: random.Random) -> Action:
    """`prospector`'s choice for `seat` from what it knows in a sampled state. Its chance comes
    from the sample's own `playout_rng` where it has one (the same for every action tried on
    that sample, which takes the luck of the playouts out of the comparison), else `rng`."""
    s: Any = state
    rng = getattr(state, "playout_rng", rng)
    legal = state.legal(seat)
    phase = s.phase
    if phase is Phase.BONUS_TO:
        return min(legal, key=lambda a: s.scores()[a[1]])
    square: list[Card | None] = s.square
    mine = {p: square[p] for p in s.known[seat] if square[p] is not None}
    if phase is Phase.TURN_UP:
        have = list(s.face_up)
        places = list(dict.fromkeys(have + list(mine)))
        cards = [square[p] for p in places]
        found = s.rules.find(cards, (s.combo,), must=range(len(have)))
        if found is not None:
            for i in found[1]:
                if places[i] not in have:
                    return actions.turn_up(places[i])
        return legal[rng.randrange(len(legal))]
    unseen = [p for p, c in enumerate(square) if c is not None and p not in mine
              and p not in s.held]
    if phase is Phase.LOOK:
        if actions.END_ACTION in legal and not s.rules.any_combo(
                [c for c in square if c is not None]):
            return actions.END_ACTION
        places = list(mine)
        found = s.rules.find([mine[p] for p in places], _floor(s))
        if found is not None:
            return actions.look(places[found[1][0]])
    else:  # Phase.HOLD
        held = list(s.held)
        places = held + [p for p in mine if p not in held]
        combos = [c for c in _floor(s) if c.size > len(held)]
        found = s.rules.find([square[p] for p in places], combos, must=range(len(held)))
        if found is not None:
            return actions.claim(found[0], tuple(held))
        if len(held) > 1 or not unseen:
            return actions.PUT_BACK_ACTION
    if not unseen:
        return legal[rng.randrange(len(legal))]
    return actions.look(unseen[rng.randrange(len(unseen))])
