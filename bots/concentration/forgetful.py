"""`forgetful`: a human-like opponent whose memory is patchy and short; pick its strength."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from arena.api import Event, GameInfo, Remove, Reveal
from bots.concentration.greedy import GreedyBot
from bots.concentration.table_memory import TableMemory


class FadingMemory(TableMemory):
    """Remembers each card it sees with probability `recall`, and only the last `capacity` cards."""

    def __init__(self, params: Mapping[str, Any], rng: random.Random, recall: float,
                 capacity: int) -> None:
        super().__init__(params)
        self.rng = rng
        self.recall_probability = recall
        self.capacity = capacity

    def update(self, events: Iterable[Event]) -> None:
        """Remember some of what is revealed, then let the oldest memories go."""
        known = self.cards
        for ev in events:
            if isinstance(ev, Reveal):
                known.pop(ev.position, None)  # re-seen: becomes the freshest memory, or is lost
                if self.rng.random() < self.recall_probability:
                    known[ev.position] = self.key(ev.card)
            else:
                super().update((ev,))
            if isinstance(ev, Remove | Reveal) and self.capacity:
                while len(known) > self.capacity:
                    del known[next(iter(known))]


class ForgetfulBot(GreedyBot):
    """Plays like `greedy` with a fading memory.

    `recall` is the chance of remembering each card seen (0..1); `capacity` is how many cards it can
    hold in mind at once (0: no limit). Try recall=0.5,capacity=6 for a beginner and recall=0.9,
    capacity=16 for a strong club player.
    """

    def __init__(self, recall: float = 0.7, capacity: int = 10) -> None:
        if not 0.0 <= recall <= 1.0:
            raise ValueError(f"recall must be between 0 and 1, not {recall}")
        if capacity < 0:
            raise ValueError(f"capacity must be 0 or more, not {capacity}")
        self.recall = recall
        self.capacity = capacity

    def new_memory(self, info: GameInfo) -> TableMemory:
        """A memory that fades."""
        return FadingMemory(info.params, self.rng, self.recall, self.capacity)
