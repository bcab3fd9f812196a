"""`greedy`: perfect memory, takes every known set, and always explores otherwise."""

from __future__ import annotations

from typing import Any, ClassVar

from arena.api import Bot, GameInfo, Observation
from arena.cards import Card
from arena.games.concentration import ConcentrationView, Role
from bots.table_memory import TableMemory


class GreedyBot(Bot):
    """Takes a remembered set if there is one; else turns up unseen cards, taking mates it knows.

    In the duel it answers with the twin when it knows where it is, else flips an unseen card.
    """

    games: ClassVar[tuple[str, ...]] = ("concentration",)

    def start(self, info: GameInfo) -> None:
        """Start with an empty memory."""
        super().start(info)
        self.memory = self.new_memory(info)

    def new_memory(self, info: GameInfo) -> TableMemory:
        """The memory this bot plays with (perfect here; subclasses may fade it)."""
        return TableMemory(info.params)

    def act(self, obs: Observation[Any]) -> int:
        """Take a known set, else a known mate of what is face up, else explore."""
        self.memory.update(obs.events)
        view: ConcentrationView = obs.view
        legal: tuple[int, ...] = obs.legal  # type: ignore[assignment]
        memory = self.memory
        if view.role is Role.ANSWER or view.face_up:
            up_cards = [c for p in view.face_up if isinstance(c := view.cells[p], Card)]
            mates = memory.mates(up_cards, legal)
            if mates:
                return mates[0]
        elif (known := memory.known_set(legal)) is not None:
            return known[0]
        return self.explore(obs, legal)

    def explore(self, obs: Observation[Any], legal: tuple[int, ...]) -> int:
        """Turn up an unseen card, chosen at random (any legal card if every card is known)."""
        unseen = self.memory.unseen(legal)
        pool = unseen or legal
        return pool[self.rng.randrange(len(pool))]
