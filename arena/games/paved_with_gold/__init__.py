"""Paved with Gold (David Parlett): a memory game of pairs, runs, flushes, primes and colours.

Rules in our words: docs/rules/paved-with-gold.md. Places of the 5 x 5 square are numbered row by
row from 0 to 24. The package: `combos` (the scoring combinations), `variants` (parameters and
presets), `actions` (what a player may do), `table` (what players see: the view and the events),
`narration` (spectator text), `state` (the game in progress).
"""

from __future__ import annotations

import random
from typing import Any

from arena.engine import Game, Params, Sampler, register
from arena.games.paved_with_gold import actions
from arena.games.paved_with_gold.combos import BEST_FIRST, Aces, Combo, ComboRules, run_windows
from arena.games.paved_with_gold.narration import position_name
from arena.games.paved_with_gold.state import PavedState
from arena.games.paved_with_gold.table import (
    Announce,
    Bonus,
    End,
    EndClaim,
    Failed,
    GameOver,
    Look,
    PavedView,
    Phase,
    PutBack,
    Refill,
    Spot,
    Verdict,
    Won,
)
from arena.games.paved_with_gold.variants import (
    DEFAULT_TURN_LIMIT,
    END_BELOW,
    PRESETS,
    SIDE,
    SQUARE,
    PavedParams,
)
from arena.luck.model import LuckModel

__all__ = [
    "BEST_FIRST",
    "DEFAULT_TURN_LIMIT",
    "END_BELOW",
    "PRESETS",
    "SIDE",
    "SQUARE",
    "Aces",
    "Announce",
    "Bonus",
    "Combo",
    "ComboRules",
    "End",
    "EndClaim",
    "Failed",
    "GameOver",
    "Look",
    "PavedParams",
    "PavedState",
    "PavedView",
    "PavedWithGold",
    "Phase",
    "PutBack",
    "Refill",
    "Spot",
    "Verdict",
    "Won",
    "actions",
    "position_name",
    "run_windows",
]


class PavedWithGold(Game):
    """Paved with Gold: look at cards in a face-down square and claim scoring combinations."""

    name = "paved-with-gold"
    title = "Paved with Gold (Parlett)"
    params_type = PavedParams
    presets = PRESETS
    default_preset = "standard"

    def new_state(self, params: Params, players: int, rng: random.Random) -> PavedState:
        """Shuffle, deal the square and stack the stock."""
        assert isinstance(params, PavedParams)
        return PavedState(params, players, rng)

    def sampler(self) -> Sampler:
        """Deals the places a seat does not know and the stock from what it knows
        (`sampler.py`)."""
        from arena.games.paved_with_gold.sampler import PavedSampler

        return PavedSampler()

    def luck_model(self, params: Params, players: int) -> LuckModel[Any]:
        """The scores as they stand; luck from places nobody has seen turned up for claims
        (`luck.py`)."""
        from arena.games.paved_with_gold.luck import PavedLuck

        return PavedLuck()


GAME = register(PavedWithGold())
