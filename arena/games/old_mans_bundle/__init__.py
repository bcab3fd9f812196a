"""Stealing the Old Man's Bundle (also Old Man's Bundle, Stealing Bundles): a two-player
fishing game where a card of the right rank takes the opponent's whole pile.

Rules in our words: docs/rules/old-mans-bundle.md. The package: `variants` (parameters and
presets), `actions` (take, steal, trail), `dealing` (deal order, stacked packs for tests),
`table` (events and the view), `narration` (spectators), `state` (the game).
"""

from __future__ import annotations

import random

from arena.engine import Game, Params, Sampler, register
from arena.games.old_mans_bundle import actions
from arena.games.old_mans_bundle.actions import Move, Verb
from arena.games.old_mans_bundle.dealing import ROUNDS, stack_deck
from arena.games.old_mans_bundle.state import BundleState, hand_order
from arena.games.old_mans_bundle.table import (
    BundleView,
    Dealt,
    GameOver,
    HandDealt,
    Stole,
    TableLeft,
    Took,
    Trailed,
)
from arena.games.old_mans_bundle.variants import (
    DEALER,
    HAND,
    PRESETS,
    TABLE,
    BundleParams,
    Leftover,
    TakeRule,
)

__all__ = [
    "DEALER",
    "HAND",
    "PRESETS",
    "ROUNDS",
    "TABLE",
    "BundleParams",
    "BundleState",
    "BundleView",
    "Dealt",
    "GameOver",
    "HandDealt",
    "Leftover",
    "Move",
    "OldMansBundle",
    "Stole",
    "TableLeft",
    "TakeRule",
    "Took",
    "Trailed",
    "Verb",
    "actions",
    "hand_order",
    "stack_deck",
]


class OldMansBundle(Game):
    """Stealing the Old Man's Bundle: take in table cards, or the opponent's whole bundle."""

    name = "old-mans-bundle"
    title = "Stealing the Old Man's Bundle"
    params_type = BundleParams
    presets = PRESETS
    default_preset = "standard"

    def new_state(self, params: Params, players: int, rng: random.Random) -> BundleState:
        """Shuffle and deal the first round."""
        assert isinstance(params, BundleParams)
        return BundleState(params, players, rng)

    def sampler(self) -> Sampler:
        """Deals the opponent's hand and the stock from what a seat knows (`sampler.py`)."""
        from arena.games.old_mans_bundle.sampler import BundleSampler

        return BundleSampler()

    def luck_model(self, params: Params, players: int) -> None:
        """None: the value functions tried (the threats of a new hand; the exact value of the
        last round) left the variance of score differences as it was or made it larger
        (docs/rules/old-mans-bundle.md, "Value function (luck)")."""
        return None


GAME = register(OldMansBundle())
