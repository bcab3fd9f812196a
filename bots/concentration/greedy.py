"""`greedy`: perfect memory, takes every known set, and always explores otherwise."""

from __future__ import annotations

from typing import Any, ClassVar

from arena.api import Bot, GameInfo, Observation
from arena.games.concentration import ConcentrationView
from bots.concentration.table_memory import TableMemory


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
        memory = self.memory
        memory.update(obs.events)
        view: ConcentrationView = obs.view
        legal: tuple[int, ...] = obs.legal  # type: ignore[assignment]
        up = view.face_up
        if up:
            cells = view.cells
            for mate in memory.mates([cells[p] for p in up], up, view.field):  # type: ignore[misc]
                if mate in legal:
                    return mate
        elif (known := memory.known_set(view.field)) is not None:
            return known[0]
        return self.explore(obs, legal)

    def explore(self, obs: Observation[Any], legal: tuple[int, ...]) -> int:
        """Turn up an unseen card, chosen at random (any legal card if every card is known)."""
        unseen = self.memory.unseen(legal)
        pool = unseen or legal
        return pool[self.rng.randrange(len(pool))]
