"""Animals' variant parameters: how calls are spoken, the length limit, and the named presets."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from arena.engine import Params
from arena.errors import VariantError

MIN_SEATS = 3
MAX_SEATS = 6

ANIMALS: tuple[tuple[str, str], ...] = (
    ("Dog", "Woof!"), ("Cat", "Miaow!"), ("Cow", "Moo!"),
    ("Lion", "Roar!"), ("Duck", "Quack!"), ("Pig", "Oink!"),
)
"""Each seat's animal and its noise, by seat."""


class CallStyle(enum.Enum):
    """How a call is spoken: the animal's noise (Animals) or its name (the names variant).

    For programs a call is the same action either way; only the narration differs.
    """

    NOISES = "noises"
    NAMES = "names"


@dataclass(frozen=True)
class AnimalsParams(Params):
    """Variant parameters of Animals; see docs/rules/animals.md for each."""

    calls: CallStyle = CallStyle.NOISES
    limit: int = 1000  # cards faced before the game is stopped and ranked by cards held

    def players_allowed(self) -> range:
        """Three to six players, as in the source."""
        return range(MIN_SEATS, MAX_SEATS + 1)

    def validate(self) -> None:
        """Reject a limit below one card faced, naming the parameter."""
        if self.limit < 1:
            raise VariantError(f"limit must be 1 or more (cards faced), not {self.limit}")


def animal(seat: int) -> str:
    """The animal of a seat."""
    return ANIMALS[seat][0]


def spoken(seat: int, style: CallStyle) -> str:
    """What a player says to call the player in `seat`: the noise or the name of its animal."""
    name, noise = ANIMALS[seat]
    return noise if style is CallStyle.NOISES else f"{name}!"


PRESETS: Mapping[str, AnimalsParams] = MappingProxyType({
    "standard": AnimalsParams(),
    "names": AnimalsParams(calls=CallStyle.NAMES),
})
