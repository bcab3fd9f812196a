"""`tracker`: for cards that move. It weighs each memory by how likely the card is still there."""

from __future__ import annotations

import math
from typing import Any, ClassVar

from arena.api import Bot, GameInfo, Move, Observation, Remove, Reveal
from arena.cards import Card
from arena.games.concentration import ConcentrationView, MatchRule, cards_match

TRUST = 0.35
"""Below this chance of a memory still being right, exploring an unseen card is the better bet."""


class TrackerBot(Bot):
    """Remembers cards with a confidence that decays with every hidden swap; reasons about swaps.

    When a card turns up somewhere other than where it was remembered, the two positions have most
    likely been swapped, so the card remembered at the new place is moved to the old one. Known sets
    are tried least-certain card first, so that a wrong guess costs no information.
    """

    games: ClassVar[tuple[str, ...]] = ("concentration",)

    def start(self, info: GameInfo) -> None:
        """Start with an empty memory."""
        super().start(info)
        self.rule = MatchRule(info.params["match"])
        self.set_size = int(info.params["set_size"])
        self.memory: dict[int, tuple[Card, float]] = {}  # position -> (card, swaps counted then)
        self.swaps = 0.0  # expected hidden swaps that hit any one given position, so far

    def act(self, obs: Observation[Any]) -> int:
        """Take the most likely set, else the most likely mate, else explore."""
        view: ConcentrationView = obs.view
        self.observe(obs)
        legal: tuple[int, ...] = obs.legal  # type: ignore[assignment]
        up = [c for p in view.face_up if isinstance(c := view.cells[p], Card)]
        if up:
            if all(cards_match(a, b, self.rule) for a in up for b in up if a is not b):
                mate = self.best_mate(up, legal)
                if mate is not None:
                    return mate
        else:
            pick = self.best_set_start(legal)
            if pick is not None:
                return pick
        return self.explore(legal)

    def observe(self, obs: Observation[Any]) -> None:
        """Fold the new events into memory."""
        free = max(sum(1 for c in obs.view.cells if c is not None and not isinstance(c, Card)), 2)
        for ev in obs.events:
            if isinstance(ev, Reveal):
                self._seen(ev.position, ev.card)
            elif isinstance(ev, Remove):
                for p in ev.positions:
                    self.memory.pop(p, None)
            elif isinstance(ev, Move):
                if ev.swaps is None:
                    self.swaps += ev.count * 2.0 / free
                else:
                    for a, b in ev.swaps:
                        ma, mb = self.memory.pop(a, None), self.memory.pop(b, None)
                        if ma:
                            self.memory[b] = ma
                        if mb:
                            self.memory[a] = mb

    def _seen(self, pos: int, card: Card) -> None:
        elsewhere = [q for q, (c, _) in self.memory.items() if c == card and q != pos]
        if len(elsewhere) == 1 and self.set_size == 2 and self.info.params.get("decks", 1) == 1:
            # The card moved from `q` to `pos`: whatever was here most likely went to `q`.
            q = elsewhere[0]
            here = self.memory.get(pos)
            if here is not None:
                self.memory[q] = here
            else:
                del self.memory[q]
        self.memory[pos] = (card, self.swaps)

    def trust(self, pos: int) -> float:
        """The chance that the card remembered at `pos` is still there."""
        _, then = self.memory[pos]
        return math.exp(then - self.swaps)  # each swap hits a given card with chance 2/free

    def best_set_start(self, legal: tuple[int, ...]) -> int | None:
        """The least certain card of the most likely complete set in memory, if likely enough."""
        best: tuple[float, list[int]] | None = None
        remembered = [p for p in legal if p in self.memory]
        for i, p in enumerate(remembered):
            card = self.memory[p][0]
            group = [p] + [q for q in remembered[i + 1:]
                           if cards_match(card, self.memory[q][0], self.rule)]
            if len(group) < self.set_size:
                continue
            group = sorted(group, key=self.trust, reverse=True)[:self.set_size]
            chance = 1.0
            for q in group:
                chance *= self.trust(q)
            if best is None or chance > best[0]:
                best = (chance, group)
        if best is None or best[0] < TRUST:
            return None
        return min(best[1], key=self.trust)

    def best_mate(self, up: list[Card], legal: tuple[int, ...]) -> int | None:
        """The most trusted remembered card matching everything face up, if trusted enough."""
        mates = [p for p in legal if p in self.memory
                 and all(cards_match(u, self.memory[p][0], self.rule) for u in up)]
        if not mates:
            return None
        best = max(mates, key=self.trust)
        return best if self.trust(best) >= TRUST else None

    def explore(self, legal: tuple[int, ...]) -> int:
        """An unremembered card, else the memory least worth keeping."""
        unseen = [p for p in legal if p not in self.memory]
        if unseen:
            return unseen[self.rng.randrange(len(unseen))]
        return min(legal, key=self.trust)
