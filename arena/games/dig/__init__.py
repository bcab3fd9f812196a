"""Dig: a two-player game of following suit or rank, with eights wild; a player who cannot
follow digs from the stock until they can.

Rules in our words: docs/rules/dig.md. The package: `variants` (parameters and presets),
`matching` (what the next card must match), `actions` (play, name), `dealing` (deal order,
stacked packs for tests), `table` (events and the view), `narration` (spectators), `state`
(the game).
"""

from __future__ import annotations

import random
from typing import Any

from arena.engine import Game, Params, Sampler, register
from arena.games.dig import actions
from arena.games.dig.dealing import stack_deck
from arena.games.dig.matching import RANK_NAMES, SUIT_NAMES, WILD, Target
from arena.games.dig.state import DigState, hand_order
from arena.games.dig.table import (
    DigView,
    Drew,
    Dug,
    End,
    GameOver,
    HandDealt,
    Named,
    Passed,
    Phase,
    Played,
    Reshuffled,
    Started,
)
from arena.games.dig.variants import (
    DEALER,
    DEFAULT_TURN_LIMIT,
    HAND,
    PRESETS,
    DigParams,
    Naming,
    StockOut,
)
from arena.luck.model import LuckModel

__all__ = [
    "DEALER",
    "DEFAULT_TURN_LIMIT",
    "HAND",
    "PRESETS",
    "RANK_NAMES",
    "SUIT_NAMES",
    "WILD",
    "Dig",
    "DigParams",
    "DigState",
    "DigView",
    "Drew",
    "Dug",
    "End",
    "GameOver",
    "HandDealt",
    "Named",
    "Naming",
    "Passed",
    "Phase",
    "Played",
    "Reshuffled",
    "Started",
    "StockOut",
    "Target",
    "actions",
    "hand_order",
    "stack_deck",
]


class Dig(Game):
    """Dig: play to the upcard's suit or rank, eights wild; dig when you cannot play."""

    name = "dig"
    title = "Dig"
    params_type = DigParams
    presets = PRESETS
    default_preset = "standard"

    def new_state(self, params: Params, players: int, rng: random.Random) -> DigState:
        """Shuffle, deal seven each and turn up the upcard."""
        assert isinstance(params, DigParams)
        return DigState(params, players, rng)

    def luck_model(self, params: Params, players: int) -> LuckModel[Any]:
        """Cards in hand and eights held, and the digs that add to them (`luck.py`)."""
        from arena.games.dig.luck import DigLuck

        assert isinstance(params, DigParams)
        return DigLuck(params)

    def sampler(self) -> Sampler:
        """Deals the opponent's hand and the stock from what a seat knows (`sampler.py`)."""
        from arena.games.dig.sampler import DigSampler

        return DigSampler()


GAME = register(Dig())
