"""A bot of two files (docs/bot-api.md, A bot of more than one file): how it chooses lives in
`choosing.py` beside it, imported as any module of its own folder.

Run it:  arena play concentration -b docs/examples/two_files/bot.py:TwoFiles -b greedy
"""

from __future__ import annotations

from typing import Any

from arena.api import Bot, GameInfo, Observation, Recall
from arena.games.concentration import MatchRule

from .choosing import choose  # or: from choosing import choose


class TwoFiles(Bot):
    """Takes a pair it remembers; otherwise turns up a card it has not seen yet."""

    games = ("concentration",)

    def start(self, info: GameInfo) -> None:
        """Keep the game info and the bot's own rng, and start with an empty memory."""
        super().start(info)
        self.rule = MatchRule(info.params["match"])
        self.recall: Recall = Recall()

    def act(self, obs: Observation[Any]) -> int:
        """Remember what was seen, then let the helper choose."""
        self.recall.update(obs.events)
        face_up = [obs.view.cells[p] for p in obs.view.face_up]
        return choose(self.recall.cards, face_up, obs.legal, self.rule, self.rng)
