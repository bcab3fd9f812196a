"""Cribbage Square's search: the playout policy of `search` (bots/algorithms/search.py), and
`square-pimc`.

`square-greedy` values each line against the cards not yet seen, which costs a fresh table of
values every move (about 0.2 ms): too slow for hundreds of playouts a decision. The playouts
value lines against a full pack instead, one table shared by every move of every playout, so
a move costs a few lines looked up.

`square-pimc` searches on the game's sampler directly. Cribbage Square hides only the order of
the cards to come. At each decision the bot asks the game's sampler (`SquareSampler.orders`) for
`samples` orders consistent with the cards turned up, and for each of its best `width` places
(by the gain now) lays the card there and plays each order `horizon` cards on, every card where
it gains most then. A playout is scored by what it adds to the layout's value (each line's
expected final points against the unseen cards, as `square-search` reckons them); the place of
best gain now plus mean playout gain wins. The same orders serve every place. With `horizon=1`
this is `square-search`'s one-card expectimax; seeing four cards on (the default) gained about
a point a square over it, six no more (docs/rules/cribbage-square.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from arena.api import Action, Bot, Event, GameInfo, Observation
from arena.cards import Card, standard_deck
from arena.engine import Knowledge, State
from arena.games.cribbage_square import Placement, SquareState, SquareView, legal_positions
from arena.games.cribbage_square.sampler import SquareSampler
from arena.games.cribbage_square.scoring import SIDE
from bots.algorithms.hints import Playout, SearchHints
from bots.algorithms.search_base import params_of
from bots.cribbage_square.heuristic import Layout, LineValues, check_budget, unseen_cards

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


def play_ahead(layout: Layout, cards: Sequence[Card], values: LineValues,
               placement: Placement) -> float:
    """What laying `cards` in turn adds to `layout`'s value, each where it gains most then."""
    total = 0.0
    for card in cards:
        places = legal_positions(layout.occupied, placement)
        gains = layout.gains(card, places, values)
        place = max(places, key=gains.__getitem__)
        total += gains[place]
        layout.lay(place, card)
    return total


class SquarePimcBot(Bot):
    """Determinized search on the game's sampler, each playout `horizon` cards long and
    valued by its lines' expected final points."""

    games: ClassVar[tuple[str, ...]] = ("cribbage-square",)

    def __init__(self, samples: int = 32, width: int = 8, horizon: int = 4) -> None:
        """`samples` orders of the cards to come a decision, tried on the best `width` places
        by the gain now, each played out `horizon` cards (1 or more) further."""
        self.samples, self.width = check_budget(samples, width)
        if horizon < 1:
            raise ValueError(f"horizon must be 1 or more, not {horizon}")
        self.horizon = horizon
        self.sampler = SquareSampler()

    def start(self, info: GameInfo) -> None:
        """Nothing seen yet."""
        super().start(info)
        self.params = params_of(info)
        self.seen: list[Event] = []

    def act(self, obs: Observation[Any]) -> Action:
        """The place of best gain now plus mean gain of the playouts after it."""
        self.seen += obs.events
        view: SquareView = obs.view
        card = view.card
        assert card is not None
        values = LineValues(unseen_cards(view), deep=True)
        layout = Layout(view.cells)
        legal: Sequence[tuple[int, int]] = obs.legal  # type: ignore[assignment]
        gains = layout.gains(card, legal, values)
        ranked = sorted(legal, key=lambda p: -gains[p])
        to_come = SIDE * SIDE - view.number
        if len(ranked) == 1 or self.samples == 0 or to_come == 0:
            return ranked[0]
        knowledge = Knowledge(self.params, self.info.players, obs.seat, tuple(self.seen), view)
        depth = min(self.horizon, to_come)
        futures = [order[:depth] for order in
                   self.sampler.orders(knowledge, self.samples, self.rng)]
        best, best_value = ranked[0], float("-inf")
        for place in ranked[:self.width]:
            ahead = 0.0
            for cards in futures:
                after = layout.copy()
                after.lay(place, card)
                ahead += play_ahead(after, cards, values, view.placement)
            total = gains[place] + ahead / len(futures)
            if total > best_value:
                best, best_value = place, total
        return best


SEARCH_HINTS = SearchHints(Playout.GREEDY, greedy=square_static_greedy, samples=8)
"""What Cribbage Square tells the generic search: greedy playouts, and 8 samples a decision:
every playout lays the rest of the square for every seat, so 8 samples cost about 200 ms a
decision early in a game (24 about 600)."""
