"""Cuckoo (Ranter Go Round): one card each; stand or change with the neighbour at the left; the
lowest card pays a chip; the last player left wins.

Rules in our words: docs/rules/cuckoo.md. The package: `variants` (chips, deal limit, presets),
`table` (actions, events, the view), `dealing` (order of turns, the pack, stacked deals for
tests), `scoring` (who pays, survival scores), `narration` (spectators), `state` (the game).
"""

from __future__ import annotations

import random
from typing import Any

from arena.engine import Game, Params, Sampler, register
from arena.games.cuckoo.dealing import PACK, Stack, next_dealer, turn_order
from arena.games.cuckoo.scoring import payers, survival_scores
from arena.games.cuckoo.state import CuckooState
from arena.games.cuckoo.table import (
    CardDealt,
    Changed,
    CuckooView,
    DealStarted,
    Drew,
    End,
    GameOver,
    KingShown,
    Phase,
    Received,
    Say,
    Showdown,
    Stood,
    Turn,
)
from arena.games.cuckoo.variants import MAX_CHIPS, MAX_SEATS, MIN_SEATS, PRESETS, CuckooParams
from arena.luck.model import LuckModel

__all__ = [
    "MAX_CHIPS",
    "MAX_SEATS",
    "MIN_SEATS",
    "PACK",
    "PRESETS",
    "CardDealt",
    "Changed",
    "Cuckoo",
    "CuckooParams",
    "CuckooState",
    "CuckooView",
    "DealStarted",
    "Drew",
    "End",
    "GameOver",
    "KingShown",
    "Phase",
    "Received",
    "Say",
    "Showdown",
    "Stack",
    "Stood",
    "Turn",
    "next_dealer",
    "payers",
    "survival_scores",
    "turn_order",
]


class Cuckoo(Game):
    """Cuckoo: one card each, stand or change round the table; the lowest card pays a chip."""

    name = "cuckoo"
    title = "Cuckoo (Ranter Go Round)"
    params_type = CuckooParams
    presets = PRESETS
    default_preset = "standard"

    def new_state(self, params: Params, players: int, rng: random.Random) -> CuckooState:
        """A new game for `players` seats; every deal is shuffled from `rng`."""
        assert isinstance(params, CuckooParams)
        return CuckooState(params, players, rng)

    def luck_model(self, params: Params, players: int) -> LuckModel[Any]:
        """Each deal's cards by their own rank, and the dealer's draws (`luck.py`)."""
        from arena.games.cuckoo.luck import CuckooLuck

        return CuckooLuck()

    def sampler(self) -> Sampler:
        """Deals the others' cards and the rest of the pack from what a seat knows
        (`sampler.py`)."""
        from arena.games.cuckoo.sampler import CuckooSampler

        return CuckooSampler()


GAME = register(Cuckoo())
