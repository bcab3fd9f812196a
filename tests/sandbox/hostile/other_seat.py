"""Another seat's bot for `seats.py` to read: its source holds a secret, and it plays the first
legal card."""

from __future__ import annotations

from typing import Any

from arena.api import Bot, Observation

SECRET = "the other seat's secret"


class Other(Bot):
    """Plays the first legal card."""

    games = ("concentration",)

    def act(self, obs: Observation[Any]) -> Any:
        return obs.legal[0]
