"""Cribbage Square: a patience of laying sixteen cards one at a time into a 4 x 4 square, each
row and column scored as a cribbage hand with the starter; played competitively, every seat
laying its own square from the same pack order.

Rules in our words: docs/rules/cribbage-square.md. The package: `variants` (parameters and
presets), `scoring` (a line and a square scored as cribbage hands), `placement` (where a card
may go), `dealing` (stacked packs for tests), `table` (events and the view), `narration`
(spectators), `state` (the game), `layout_text` (reading and scoring a written layout, for
`arena score`), `solve` (searching for high layouts, for `arena solve`).
"""

from __future__ import annotations

import random
from typing import Any

from arena.engine import Game, Params, Sampler, register
from arena.games.cribbage_square.dealing import LAID, stack_pack
from arena.games.cribbage_square.placement import (
    ORIGIN,
    Position,
    legal_positions,
    rows_of,
    span,
)
from arena.games.cribbage_square.scoring import (
    SIDE,
    HandScore,
    LayoutScore,
    hand_points,
    layout_points,
    score_hand,
    score_layout,
)
from arena.games.cribbage_square.state import SquareState
from arena.games.cribbage_square.table import (
    Cells,
    GameOver,
    Laid,
    Scored,
    SquareView,
    Started,
    StarterTurned,
    TurnedUp,
)
from arena.games.cribbage_square.variants import MAX_SEATS, PRESETS, Placement, SquareParams
from arena.luck.model import LuckModel

__all__ = [
    "LAID",
    "MAX_SEATS",
    "ORIGIN",
    "PRESETS",
    "SIDE",
    "Cells",
    "CribbageSquare",
    "GameOver",
    "HandScore",
    "Laid",
    "LayoutScore",
    "Placement",
    "Position",
    "Scored",
    "SquareParams",
    "SquareState",
    "SquareView",
    "Started",
    "StarterTurned",
    "TurnedUp",
    "hand_points",
    "layout_points",
    "legal_positions",
    "rows_of",
    "score_hand",
    "score_layout",
    "span",
    "stack_pack",
]


class CribbageSquare(Game):
    """Cribbage Square: lay sixteen cards into a 4 x 4 square; rows and columns score as
    cribbage hands with the starter."""

    name = "cribbage-square"
    title = "Cribbage Square"
    params_type = SquareParams
    presets = PRESETS
    default_preset = "standard"

    def new_state(self, params: Params, players: int, rng: random.Random) -> SquareState:
        """Shuffle the pack every seat will play, and turn up the first card."""
        assert isinstance(params, SquareParams)
        return SquareState(params, players, rng)

    def sampler(self) -> Sampler:
        """Shuffles the cards still to come from what a seat has seen (`sampler.py`)."""
        from arena.games.cribbage_square.sampler import SquareSampler

        return SquareSampler()

    def luck_model(self, params: Params, players: int) -> LuckModel[Any]:
        """Each square's exact expected points once one place is left; luck from the last card
        and the starter (`luck.py`)."""
        from arena.games.cribbage_square.luck import SquareLuck

        assert isinstance(params, SquareParams)
        return SquareLuck(params, players)


GAME = register(CribbageSquare())
