"""Animals, or Menagerie: face cards in turn and race to call the animal of a matching player.

Rules in our words: docs/rules/animals.md. The package: `variants` (animals, call style, the
length limit, presets), `table` (actions, events, the view), `dealing` (the deal, stacked
tables for tests), `calls` (settling a round of calls), `narration` (spectators), `state`
(the game).
"""

from __future__ import annotations

import random
from typing import Any

from arena.engine import Game, Params, Sampler, register
from arena.games.animals.calls import Settlement, clockwise, settle
from arena.games.animals.dealing import Stack, Table, deal_round, dealer_of, shuffled_table
from arena.games.animals.state import AnimalsState
from arena.games.animals.table import (
    CALL,
    QUIET,
    AnimalsView,
    Called,
    Dealt,
    End,
    Faced,
    GameOver,
    Left,
    Paid,
    Source,
    Took,
    TurnedOver,
    Verdict,
    call,
    partners,
)
from arena.games.animals.variants import (
    ANIMALS,
    MAX_SEATS,
    MIN_SEATS,
    PRESETS,
    AnimalsParams,
    CallStyle,
    animal,
    spoken,
)
from arena.luck.model import LuckModel

__all__ = [
    "ANIMALS",
    "CALL",
    "MAX_SEATS",
    "MIN_SEATS",
    "PRESETS",
    "QUIET",
    "Animals",
    "AnimalsParams",
    "AnimalsState",
    "AnimalsView",
    "CallStyle",
    "Called",
    "Dealt",
    "End",
    "Faced",
    "GameOver",
    "Left",
    "Paid",
    "Settlement",
    "Source",
    "Stack",
    "Table",
    "Took",
    "TurnedOver",
    "Verdict",
    "animal",
    "call",
    "clockwise",
    "deal_round",
    "dealer_of",
    "partners",
    "settle",
    "shuffled_table",
    "spoken",
]


class Animals(Game):
    """Animals (Menagerie): players face cards in turn and race to call a matching player."""

    name = "animals"
    title = "Animals (Menagerie)"
    params_type = AnimalsParams
    presets = PRESETS
    default_preset = "standard"

    def new_state(self, params: Params, players: int, rng: random.Random) -> AnimalsState:
        """A new game for `players` seats; the deal and every lot come from `rng`."""
        assert isinstance(params, AnimalsParams)
        return AnimalsState(params, players, rng)

    def sampler(self) -> Sampler:
        """Deals the unseen cards into the packs from the public events (`sampler.py`)."""
        from arena.games.animals.sampler import AnimalsSampler

        return AnimalsSampler()

    def luck_model(self, params: Params, players: int) -> LuckModel[Any]:
        """The scores as they stand; luck from the lots between right calls (`luck.py`)."""
        from arena.games.animals.luck import AnimalsLuck

        return AnimalsLuck()


GAME = register(Animals())
