"""Cribbage Square's learned-value bot, `square-expert`: learned line values, a small look-ahead.

It values every row and column by its *learned* value (`bots.cribbage_square.values`): what the line
is worth if filled at random from the unseen cards, plus what self-play found good play adds
to a line in that abstract state at that stage. It lays each card where the sum of its lines'
values gains most, looking one card further as `square-search` does: for its best `width`
places it draws `samples` cards from the unseen ones (the same draws for every place; spread
evenly over the ranks unless `spread=false`) and adds the average best gain of the next card,
everything valued at the stage after both cards are down. `samples=0` plays greedily on the
learned values. The defaults (16 x 6) take about 7 ms a move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from arena.api import Action, Bot, Observation
from arena.cards import Card
from arena.games.cribbage_square import SquareView
from bots.cribbage_square.heuristic import Layout, LineValues, check_budget, unseen_cards
from bots.cribbage_square.values import STAGES, LearnedValues, Residuals, learned


class SquareExpertBot(Bot):
    """Greedy on learned line values, with an optional sampled one-card look-ahead."""

    games: ClassVar[tuple[str, ...]] = ("cribbage-square",)

    def __init__(self, samples: int = 16, width: int = 6, spread: bool = True) -> None:
        self.samples, self.width = check_budget(samples, width)
        self.spread = spread
        self.table: Residuals = learned()

    def _draws(self, unseen: list[Card]) -> list[Card]:
        """`samples` of the unseen cards: systematic (every n-th by rank from a random start)
        when `spread`, so each rank comes up in proportion; else a simple random sample."""
        count = min(self.samples, len(unseen) - 1)
        if not self.spread:
            return self.rng.sample(unseen, count)
        ordered = sorted(unseen, key=lambda c: (int(c.rank), self.rng.random()))
        step = len(ordered) / count
        start = self.rng.random() * step
        return [ordered[int(start + i * step)] for i in range(count)]

    def act(self, obs: Observation[Any]) -> Action:
        """The place of highest learned gain (plus the next card's expected best gain)."""
        view: SquareView = obs.view
        card = view.card
        assert card is not None
        unseen = unseen_cards(view)
        base = LineValues(unseen, deep=True)
        stage = len(view.cells) + 1  # cards down once this one is laid
        values = LearnedValues(base, stage, self.table)
        layout = Layout(view.cells)
        legal: Sequence[tuple[int, int]] = obs.legal  # type: ignore[assignment]
        gains = layout.gains(card, legal, values)
        if len(legal) == 1 or self.samples == 0 or stage >= STAGES:
            return max(legal, key=gains.__getitem__)
        ranked = sorted(legal, key=lambda p: -gains[p])
        draws = self._draws(unseen)
        later = LearnedValues(base, stage + 1, self.table)  # both cards down: all valued then
        candidates = ranked[:self.width]
        now = layout.gains(card, candidates, later)
        return layout.look_ahead(card, candidates, now, draws, later, view.placement)
