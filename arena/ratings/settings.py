"""TrueSkill settings of one game: prior, performance noise, drift, draw rate."""

from __future__ import annotations

import math
from dataclasses import dataclass

import trueskill

from arena.errors import ArenaError


class RatingSettingsError(ArenaError):
    """A TrueSkill setting out of its range; `field` names it."""

    def __init__(self, field: str, value: float, rule: str) -> None:
        super().__init__(f"TrueSkill setting {field} must be {rule} (got {value!r})")
        self.field = field
        self.value = value


@dataclass(frozen=True)
class TrueSkillSettings:
    """The TrueSkill environment of one game: prior, performance noise, drift, draw rate."""

    mu: float = 25.0
    sigma: float = 25.0 / 3
    beta: float = 25.0 / 6
    tau: float = 25.0 / 300
    draw_probability: float = 0.10

    def validate(self) -> None:
        """Raise RatingSettingsError naming the first field out of its range."""
        if not math.isfinite(self.mu):
            raise RatingSettingsError("mu", self.mu, "a finite number")
        for name in ("sigma", "beta"):
            value = getattr(self, name)
            if not (value > 0 and math.isfinite(value)):
                raise RatingSettingsError(name, value, "> 0")
        if not (self.tau >= 0 and math.isfinite(self.tau)):
            raise RatingSettingsError("tau", self.tau, ">= 0")
        if not 0 <= self.draw_probability < 1:
            raise RatingSettingsError("draw_probability", self.draw_probability, "in [0, 1)")

    def env(self, backend: str | None = None) -> trueskill.TrueSkill:
        """A trueskill environment with these settings (`backend='mpmath'` for extreme cases)."""
        return trueskill.TrueSkill(self.mu, self.sigma, self.beta, self.tau,
                                   self.draw_probability, backend=backend)
