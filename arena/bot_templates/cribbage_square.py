"""`arena new-bot`'s template for Cribbage Square: `arena/newbot.py` writes it with its HEADER (the
new bot's docstring: how to try it, what it plays) in place of this docstring."""

from __future__ import annotations

from typing import Any, ClassVar

from arena.api import Action, Bot, Observation
from arena.games.cribbage_square import SquareView


def _pip(rank: int) -> int:
    return min(rank, 10)  # court cards count ten toward fifteens


class __CLASS__(Bot):
    """Lays each card where it pairs with, or makes fifteen with, the most cards already in its
    row and its column."""

    games: ClassVar[tuple[str, ...]] = ("cribbage-square",)

    def act(self, obs: Observation[Any]) -> Action:
        """Choose a place (row, col) from obs.legal for the card turned up."""
        view: SquareView = obs.view  # card (to lay now), cells (your square), layouts, number
        card = view.card
        assert card is not None

        def fit(place: tuple[int, int]) -> int:
            row, col = place
            lines = [c for (r, k), c in view.cells if r == row or k == col]
            pairs = sum(c.rank == card.rank for c in lines)
            fifteens = sum(_pip(c.rank) + _pip(card.rank) == 15 for c in lines)
            return pairs + fifteens

        # FIRST IMPROVEMENT: count runs and flushes, not only pairs and fifteens. Every row and
        # column is scored as a cribbage hand with the starter: fifteens, pairs, runs, a flush
        # (*Patience Games*, "analogous to the very popular Poker Patience";
        # docs/rules/cribbage-square.md).
        # hand_points(line, starter) from arena.games.cribbage_square scores a full line.
        # Where to improve next: weigh the cards still to come (52 less those seen) and keep
        # places open for them; docs/rules/cribbage-square.md describes square-search.
        return max(obs.legal, key=fit)
