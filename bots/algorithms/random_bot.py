"""`random`: any game, a uniformly random legal action from the bot's own rng."""

from __future__ import annotations

from typing import Any

from arena.api import Action, Bot, Observation


class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    def act(self, obs: Observation[Any]) -> Action:
        """Pick any legal action."""
        return obs.legal[self.rng.randrange(len(obs.legal))]
