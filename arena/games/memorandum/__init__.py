"""Memorandum (formerly Memini, David Parlett): remember your hand, then claim it as it is called.

Rules in our words: docs/rules/memorandum.md. The package: `variants` (packs, hand size,
presets), `table` (actions, piles, events, the view), `dealing` (hands and calls, stacked deals
for tests), `scoring` (one deal's points), `narration` (spectators), `state` (the game).
"""

from __future__ import annotations

import random

from arena.engine import Game, Params, Sampler, register
from arena.games.memorandum.dealing import Deal, Stack, holders_of
from arena.games.memorandum.scoring import DealScore, score_deal
from arena.games.memorandum.state import MemorandumState
from arena.games.memorandum.table import (
    Called,
    DealScored,
    DealStarted,
    GameOver,
    HandDealt,
    HandsShown,
    MemorandumView,
    Phase,
    Pile,
    Resolved,
    Returned,
    Say,
)
from arena.games.memorandum.variants import (
    MAX_SEATS,
    MIN_SEATS,
    PRESETS,
    MemorandumParams,
    Pack,
    pack_cards,
)

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "PRESETS",
    "Called",
    "Deal",
    "DealScore",
    "DealScored",
    "DealStarted",
    "GameOver",
    "HandDealt",
    "HandsShown",
    "Memorandum",
    "MemorandumParams",
    "MemorandumState",
    "MemorandumView",
    "Pack",
    "Phase",
    "Pile",
    "Resolved",
    "Returned",
    "Say",
    "Stack",
    "holders_of",
    "pack_cards",
    "score_deal",
]


class Memorandum(Game):
    """Memorandum: players memorise a hand, then claim its cards as the dealer calls them."""

    name = "memorandum"
    title = "Memorandum (formerly Memini)"
    params_type = MemorandumParams
    presets = PRESETS
    default_preset = "standard"

    def new_state(self, params: Params, players: int, rng: random.Random) -> MemorandumState:
        """A new game for `players` seats; every deal is shuffled from `rng`."""
        assert isinstance(params, MemorandumParams)
        return MemorandumState(params, players, rng)

    def sampler(self) -> Sampler:
        """Deals the other hands and the calls to come from what a seat knows (`sampler.py`)."""
        from arena.games.memorandum.sampler import MemorandumSampler

        return MemorandumSampler()

    def luck_model(self, params: Params, players: int) -> None:
        """None: every card plays the same part (hands are all the same size and score by who
        holds them, not which cards they are), so any value function that cannot read the
        bots' memories gives every deal and every order of calls the same value, and the luck
        would be 0 (docs/rules/memorandum.md, "Value function (luck)")."""
        return None


GAME = register(Memorandum())
