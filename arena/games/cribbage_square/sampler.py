"""Cribbage Square's hidden cards dealt again from one seat's knowledge: the order of the cards
still to come off the pack, and the starter.

Nothing is hidden from one seat that another sees: every square is laid face up, and every
seat lays the same cards. What nobody knows is the rest of the pack. The cards turned up so
far are those in the seat's own square and the card to lay now, so the unseen cards are the
rest of the pack, and a sample shuffles them into the order still to come.
"""

from __future__ import annotations

import random

from arena.cards import Card, standard_deck
from arena.engine import Knowledge, Sampler, State
from arena.games.cribbage_square.placement import Position
from arena.games.cribbage_square.state import SquareState
from arena.games.cribbage_square.table import SquareView
from arena.games.cribbage_square.variants import SquareParams

PACK = tuple(standard_deck())


class SquareSampler(Sampler):
    """Shuffles the cards not yet turned up into the rest of the pack."""

    def sample(self, knowledge: Knowledge, count: int, rng: random.Random) -> list[State]:
        """`count` states: every square as laid, the card to lay now, the rest in a random
        order."""
        view: SquareView = knowledge.view
        assert isinstance(knowledge.params, SquareParams)
        if view.card is None:
            raise ValueError("the squares are full: nothing is left to decide")
        turned = [card for _, card in view.layouts[knowledge.seat]] + [view.card]
        shown = set(turned)
        unseen = [c for c in PACK if c not in shown]
        players = len(view.layouts)
        out: list[State] = []
        for _ in range(count):
            rest = list(unseen)
            rng.shuffle(rest)
            out.append(_state(knowledge.params, players, view, turned + rest))
        return out


def _state(params: SquareParams, players: int, view: SquareView, pack: list[Card]) -> SquareState:
    """The game as the view shows it, on `pack` (the cards turned up first, in their order)."""
    state = object.__new__(SquareState)
    State.__init__(state)
    state.params = params
    state.players = players
    state.pack = pack
    state.next = view.number
    state.card = view.card
    state.starter = None
    state.cells = [dict[Position, Card](layout) for layout in view.layouts]
    state.order = [list(layout) for layout in view.layouts]
    state.scores = []
    state._seats = tuple(range(players))
    state._legal = [None] * players
    state._cells = [None] * players
    state._views = [None] * players
    return state
