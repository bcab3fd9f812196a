"""Cribbage Square's hidden cards dealt again from one seat's knowledge: the order of the cards
still to come (the starter among them).

Every seat lays the same cards, and every square is public, so the only thing hidden is the
order of the pack below the card turned up. The sample keeps the cards already turned up in
the order they came (read from the `TurnedUp` events), shuffles the unseen ones below them,
and replays every seat's layout from its view, so the sampled state shows the seat exactly its
own view and legal places.
"""

from __future__ import annotations

import random

from arena.cards import Card, standard_deck
from arena.engine import Knowledge, Sampler, State
from arena.games.cribbage_square.state import SquareState
from arena.games.cribbage_square.table import SquareView, TurnedUp
from arena.games.cribbage_square.variants import Placement, SquareParams


class SquareSampler(Sampler):
    """Shuffles the cards not yet turned up; everything else is public."""

    def sample(self, knowledge: Knowledge, count: int, rng: random.Random) -> list[State]:
        """`count` states with the seen cards in their order and the rest shuffled below."""
        params = knowledge.params
        assert isinstance(params, SquareParams)
        view: SquareView = knowledge.view
        turned = turned_up(knowledge)
        out: list[State] = []
        for order in self.orders(knowledge, count, rng):
            state = SquareState(params, knowledge.players, random.Random(0), [*turned, *order])
            _replay(state, view, params.placement)
            state.log.clear()
            state.private.clear()
            out.append(state)
        return out

    def orders(self, knowledge: Knowledge, count: int, rng: random.Random) -> list[list[Card]]:
        """`count` orders of the cards still to come (the cards to lay after this one, then the
        starter): the one hidden thing, without building the states around it."""
        seen = set(turned_up(knowledge))
        unseen = [c for c in standard_deck() if c not in seen]
        out = []
        for _ in range(count):
            rng.shuffle(unseen)
            out.append(list(unseen))
        return out


def turned_up(knowledge: Knowledge) -> list[Card]:
    """The cards turned up so far, in order (the one to lay now last)."""
    return [e.card for e in knowledge.events if isinstance(e, TurnedUp)]


def _replay(state: SquareState, view: SquareView, placement: Placement) -> None:
    """Lay every seat's cards where its view shows them, in the order laid."""
    first = 1 if placement is Placement.ADJACENT else 0  # the table laid the first card
    laid = len(view.layouts[0])
    for turn in range(first, laid):
        state.apply_joint({s: view.layouts[s][turn][0] for s in range(len(view.layouts))})
