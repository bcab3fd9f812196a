"""Concentration (Memory, Pelmanism) with every variant of the sources, as parameters and presets.

Rules in our words: docs/rules/concentration.md. Positions are numbered row by row from 0; in the
duel the second player's field follows the first's. The package: `matching` (which cards make a
set), `variants` (parameters and presets), `table` (what players see: the view and the events),
`state` (the game in progress).
"""

from __future__ import annotations

import random
from typing import Any

from arena.engine import Game, Params, register
from arena.games.concentration.luck import luck_of, minimax_applies
from arena.games.concentration.matching import (
    MatchRule,
    cards_match,
    key_table,
    match_key,
    mate_key,
)
from arena.games.concentration.state import ConcentrationState
from arena.games.concentration.table import (
    Back,
    Claim,
    ConcentrationView,
    End,
    GameOver,
    Miss,
    Role,
    layout_backs,
)
from arena.games.concentration.variants import (
    PRESETS,
    TURN_LIMIT_PER_CARD,
    ConcentrationParams,
    Scoring,
)
from arena.luck.model import LuckModel

__all__ = [
    "PRESETS",
    "TURN_LIMIT_PER_CARD",
    "Back",
    "Claim",
    "Concentration",
    "ConcentrationParams",
    "ConcentrationState",
    "ConcentrationView",
    "End",
    "GameOver",
    "MatchRule",
    "Miss",
    "Role",
    "Scoring",
    "cards_match",
    "key_table",
    "layout_backs",
    "match_key",
    "mate_key",
]


class Concentration(Game):
    """Concentration: turn up cards two at a time (four in four-of-a-kind) and take the sets."""

    name = "concentration"
    title = "Concentration (Memory, Pelmanism)"
    params_type = ConcentrationParams
    presets = PRESETS
    default_preset = "standard"

    def new_state(self, params: Params, players: int, rng: random.Random) -> ConcentrationState:
        """Shuffle and lay out a new game."""
        assert isinstance(params, ConcentrationParams)
        return ConcentrationState(params, players, rng)

    def luck_model(self, params: Params, players: int) -> LuckModel[Any] | None:
        """The two-player minimax's values where they apply (two seats, one mate a card, no
        moving cards; see `luck.py`); None elsewhere."""
        assert isinstance(params, ConcentrationParams)
        return luck_of(params) if minimax_applies(params, players) else None


GAME = register(Concentration())
