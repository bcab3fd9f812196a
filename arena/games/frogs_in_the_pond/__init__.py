"""Frogs in the Pond (Frogpond): tricks for counting cards; every trick wins a hidden frog.

Rules in our words: docs/rules/frogs-in-the-pond.md. The package: `variants` (parameters, the
deal at each table size, card points, presets), `tricks` (card order, legal plays, the trick's
winner), `table` (the deal action, events, the view), `dealing` (hands and the frog pile,
stacked deals for tests), `scoring` (points, sides, the end), `narration` (spectators), `state`
(the game).
"""

from __future__ import annotations

import random
from typing import Any

from arena.engine import Game, Params, Sampler, register
from arena.games.frogs_in_the_pond.dealing import Deal, Stack, deal_order
from arena.games.frogs_in_the_pond.scoring import (
    game_end,
    pack_points,
    seat_points,
    winning_seats,
)
from arena.games.frogs_in_the_pond.state import FrogsState
from arena.games.frogs_in_the_pond.table import (
    DealScored,
    DealShown,
    DealStarted,
    End,
    FrogSeen,
    FrogsView,
    FrogTaken,
    GameOver,
    HandDealt,
    Phase,
    Play,
    Played,
    Say,
    TrickWon,
)
from arena.games.frogs_in_the_pond.tricks import hand_order, playable, power, winning_play
from arena.games.frogs_in_the_pond.variants import (
    CARD_POINTS,
    DEFAULT_DEAL_LIMIT,
    DEFAULT_TARGET,
    HAND_SIZES,
    MAX_SEATS,
    MIN_SEATS,
    PRESETS,
    REMOVED,
    TADPOLE,
    FrogsParams,
    hand_size,
)
from arena.luck.model import LuckModel

__all__ = [
    "CARD_POINTS",
    "DEFAULT_DEAL_LIMIT",
    "DEFAULT_TARGET",
    "HAND_SIZES",
    "MAX_SEATS",
    "MIN_SEATS",
    "PRESETS",
    "REMOVED",
    "TADPOLE",
    "Deal",
    "DealScored",
    "DealShown",
    "DealStarted",
    "End",
    "FrogSeen",
    "FrogTaken",
    "FrogsInThePond",
    "FrogsParams",
    "FrogsState",
    "FrogsView",
    "GameOver",
    "HandDealt",
    "Phase",
    "Play",
    "Played",
    "Say",
    "Stack",
    "TrickWon",
    "deal_order",
    "game_end",
    "hand_order",
    "hand_size",
    "pack_points",
    "playable",
    "power",
    "seat_points",
    "winning_play",
    "winning_seats",
]


class FrogsInThePond(Game):
    """Frogs in the Pond: tricks won with counting cards, and a hidden frog for every trick."""

    name = "frogs-in-the-pond"
    title = "Frogs in the Pond (Frogpond)"
    params_type = FrogsParams
    presets = PRESETS
    default_preset = "standard"

    def new_state(self, params: Params, players: int, rng: random.Random) -> FrogsState:
        """A new game for `players` seats; every deal is shuffled from `rng`."""
        assert isinstance(params, FrogsParams)
        return FrogsState(params, players, rng)

    def sampler(self) -> Sampler:
        """Deals the hidden cards of the deal in progress from what a seat knows
        (`sampler.py`)."""
        from arena.games.frogs_in_the_pond.sampler import FrogsSampler

        return FrogsSampler()

    def luck_model(self, params: Params, players: int) -> LuckModel[Any]:
        """Each side's points plus its hands' card weights; luck from the deals and the frogs
        (`luck.py`)."""
        from arena.games.frogs_in_the_pond.luck import FrogsLuck

        assert isinstance(params, FrogsParams)
        return FrogsLuck(params, players)


GAME = register(FrogsInThePond())
