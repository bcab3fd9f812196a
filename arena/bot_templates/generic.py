"""`arena new-bot`'s template for a game without one of its own (random legal actions):
`arena/newbot.py` writes it with its HEADER in place of this docstring."""

from __future__ import annotations

from typing import Any, ClassVar

from arena.api import Action, Bot, Observation


class __CLASS__(Bot):
    """Plays a random legal action: a starting point for a real strategy."""

    games: ClassVar[tuple[str, ...]] = ("__GAME__",)

    def act(self, obs: Observation[Any]) -> Action:
        """Choose one of obs.legal."""
        # obs.legal: what you may do now; obs.events: what you saw happen since your last
        # decision (remembering it is your job); obs.view: the table as your seat sees it.
        # The game's rules page lists its actions, events and view.
        return self.rng.choice(obs.legal)
