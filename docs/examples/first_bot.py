"""A complete minimal Concentration bot: perfect memory in a few lines (docs/bot-api.md).

Run it:  arena play concentration -b docs/examples/first_bot.py:FirstBot -b greedy --show
"""

from __future__ import annotations

from typing import Any

from arena.api import Bot, GameInfo, Observation, Recall
from arena.games.concentration import MatchRule, cards_match


class FirstBot(Bot):
    """Takes a pair it remembers; otherwise turns up a card it has not seen yet."""

    games = ("concentration",)

    def start(self, info: GameInfo) -> None:
        """Keep the game info and the bot's own rng, and start with an empty memory."""
        super().start(info)
        self.rule = MatchRule(info.params["match"])  # which cards pair in this variant
        self.recall: Recall = Recall()

    def act(self, obs: Observation[Any]) -> int:
        """Choose a position to turn up from obs.legal."""
        self.recall.update(obs.events)  # remember every card seen since the last decision
        remembered = {p: c for p, c in self.recall.cards.items() if p in obs.legal}
        face_up = [obs.view.cells[p] for p in obs.view.face_up]
        for pos, card in remembered.items():
            if face_up and cards_match(card, face_up[0], self.rule):
                return pos  # the mate of the card we just turned up
            if not face_up and any(cards_match(card, other, self.rule)
                                   for q, other in remembered.items() if q != pos):
                return pos  # first card of a pair we know
        unseen = [p for p in obs.legal if p not in remembered]
        return self.rng.choice(unseen or list(obs.legal))
