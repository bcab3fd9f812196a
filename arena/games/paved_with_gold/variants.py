"""Paved with Gold's variant parameters, their validation, and the named presets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from arena.engine import Params
from arena.errors import VariantError
from arena.games.paved_with_gold.combos import Aces, ComboRules

SIDE = 5
"""The square is SIDE x SIDE places."""

SQUARE = SIDE * SIDE
"""Places in the square (25); the rest of the pack is the stock."""

END_BELOW = 9
"""The end claim is allowed once the stock is empty and fewer cards than this lie in the square."""

DEFAULT_TURN_LIMIT = 200
"""The safety-net turn limit of every preset (see the rulings)."""


@dataclass(frozen=True)
class PavedParams(Params):
    """Variant parameters of Paved with Gold; see docs/rules/paved-with-gold.md for each."""

    aces: Aces = Aces.HIGH_OR_LOW
    suited_runs: bool = False
    another_turn: bool = False
    max_turns: int = DEFAULT_TURN_LIMIT

    def players_allowed(self) -> range:
        """Two or three players."""
        return range(2, 4)

    def validate(self) -> None:
        """Reject a turn limit below one."""
        if self.max_turns < 1:
            raise VariantError(f"max-turns must be 1 or more, not {self.max_turns}")

    @property
    def rules(self) -> ComboRules:
        """Which cards make which combination in this variant."""
        return ComboRules(self.aces, self.suited_runs)


PRESETS: Mapping[str, PavedParams] = MappingProxyType({
    "standard": PavedParams(),
    "ace-low": PavedParams(aces=Aces.LOW),
    "round-the-corner": PavedParams(aces=Aces.ROUND_THE_CORNER),
    "suited-runs": PavedParams(suited_runs=True),
    "another-turn": PavedParams(another_turn=True),
})
