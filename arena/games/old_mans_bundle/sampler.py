"""The Old Man's Bundle's hidden cards dealt again from one seat's knowledge: the opponent's
hand and the stock.

Every card that leaves a hand is shown (taken in, stolen with, or trailed), and the table and the
bundles are public, so the cards a seat has not seen are exactly the opponent's hand and the
stock. The sample deals them at random: the opponent's hand from the unseen cards, the rest to
the stock in random order. The bundles are rebuilt card by card from the events, so a sampled
state steals and counts as the real one does.
"""

from __future__ import annotations

import random

from arena.cards import Card, standard_deck
from arena.engine import Knowledge, Sampler, State
from arena.games.old_mans_bundle.state import BundleState, hand_order
from arena.games.old_mans_bundle.table import BundleView, Stole, Took, Trailed
from arena.games.old_mans_bundle.variants import SEATS, BundleParams

PACK = tuple(standard_deck())


class BundleSampler(Sampler):
    """Deals the opponent's hand and the stock from the cards a seat has not seen."""

    def sample(self, knowledge: Knowledge, count: int, rng: random.Random) -> list[State]:
        """`count` states: the unseen cards shuffled, the opponent's hand taken first."""
        view: BundleView = knowledge.view
        assert isinstance(knowledge.params, BundleParams)
        bundles, last_taker, counts = rebuild(knowledge)
        seen = set(view.hand) | set(view.table)
        for bundle in bundles:
            seen.update(bundle)
        unseen = [c for c in PACK if c not in seen]
        opp = 1 - knowledge.seat
        out: list[State] = []
        for _ in range(count):
            pool = list(unseen)
            rng.shuffle(pool)
            size = view.hands[opp]
            hands: list[list[Card]] = [[], []]
            hands[knowledge.seat] = sorted(view.hand, key=hand_order)
            hands[opp] = sorted(pool[:size], key=hand_order)
            state = object.__new__(BundleState)
            State.__init__(state)
            state.params = knowledge.params
            state.stock = pool[size:size + view.stock]
            state.hands = hands
            state.table = list(view.table)
            state.bundles = [list(b) for b in bundles]
            state.takes, state.steals, state.trails = (list(c) for c in counts)
            state.last_taker = last_taker
            state.left = ()
            state.round = view.round
            state.turns = view.turn
            state.seat = view.to_act
            state._legal = None
            out.append(state)
        return out


def rebuild(knowledge: Knowledge) -> tuple[list[list[Card]], int | None, list[list[int]]]:
    """The bundles (bottom first), the last seat to take in, and each seat's takes, steals and
    trails, followed from the events."""
    bundles: list[list[Card]] = [[] for _ in range(SEATS)]
    takes, steals, trails = [0] * SEATS, [0] * SEATS, [0] * SEATS
    last: int | None = None
    for event in knowledge.events:
        if isinstance(event, Took):
            bundles[event.seat] += [*event.taken, event.card]
            takes[event.seat] += 1
            last = event.seat
        elif isinstance(event, Stole):
            bundles[event.seat] += [*bundles[event.victim], event.card]
            bundles[event.victim] = []
            steals[event.seat] += 1
            last = event.seat
        elif isinstance(event, Trailed):
            trails[event.seat] += 1
    return bundles, last, [takes, steals, trails]
