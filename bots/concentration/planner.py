"""`planner`: perfect memory and a plan for every Concentration variant (`optimal` until the
two-player minimax of bots.concentration.minimax replaced it where it applies).

- Pairs where every card has exactly one mate (standard, jokers, two decks without jokers) and no
  moving cards: the plan of bots.algorithms.memory_strategy (solitaire: fewest expected turns,
  exact; two players: the best expected margin over positions without known pairs on the table,
  which is exact under one-flip but exploitable under the standard rule, see docs/strategy.md; more
  players: each maximises its own expected pairs). It may deliberately turn up a known card
  second, and always takes a known pair.
- The duel: answers with the twin when it knows it; as flipper it learns its own field by
  flipping unseen cards, and once it knows them all it shows a card whose twin the opponent has
  never seen, so that the answer is a blind guess.
- Cards that move (hidden swaps): the tracker's confidence-weighted memory.
- Everything else: takes known sets and explores where a match is most likely (in the checkerboard
  only cards of the other back can be twins under identical matching).
"""

from __future__ import annotations

from typing import Any

from arena.api import GameInfo, Observation, Reveal
from arena.cards import Card, standard_deck
from arena.games.concentration import (
    Back,
    ConcentrationParams,
    ConcentrationView,
    MatchRule,
    Scoring,
    cards_match,
    layout_backs,
)
from bots.algorithms.memory_strategy import Second, race_plan, solitaire_plan
from bots.concentration.table_memory import TableMemory
from bots.concentration.tracker import TrackerBot


def pairs_are_unique(params: dict[str, Any] | Any) -> bool:
    """Whether every card has exactly one possible mate (the setting of the exact plan)."""
    if params["set_size"] != 2 or params["duel"] or params["checkerboard"]:
        return False
    match = MatchRule(params["match"])
    if match is MatchRule.RANK_COLOUR:
        return params["decks"] == 1
    return match is MatchRule.IDENTICAL and params["decks"] == 2 and not params["jokers"]


class PlannerBot(TrackerBot):
    """Plays the plan of bots.algorithms.memory_strategy where it applies, and strong heuristics
    elsewhere."""

    def start(self, info: GameInfo) -> None:
        """Choose the plan for this variant and table size."""
        super().start(info)
        params = info.params
        self.table = TableMemory(params)
        self.moving = params["moves"] > 0 and not params["show_moves"]
        self.plan: Any = None
        if pairs_are_unique(params) and params["moves"] == 0:
            self.plan = (solitaire_plan() if info.players == 1
                         else race_plan(info.players, not params["one_flip"]))
        self.backs = layout_backs(ConcentrationParams(**{
            **params, "match": MatchRule(params["match"]), "scoring": Scoring(params["scoring"])}))
        self.seen_by_back: dict[Back, set[Card]] = {}
        self.pack = standard_deck(bool(params["jokers"]))

    def act(self, obs: Observation[Any]) -> int:
        """Dispatch to the plan that fits the variant."""
        if self.moving:
            return super().act(obs)
        view: ConcentrationView = obs.view
        self.table.update(obs.events)
        self._note_backs(obs)
        legal: tuple[int, ...] = obs.legal  # type: ignore[assignment]
        up = [c for p in view.face_up if isinstance(c := view.cells[p], Card)]
        if up:
            mates = self.table.mates(up, view.face_up, view.field)
            if mates := [m for m in mates if m in legal]:
                return mates[0]
            if self.plan is not None and len(up) == 1 and self._deliberate_miss(legal):
                return self._known_miss(legal, up[0])
            return self._explore_towards(up, legal, view)
        if (known := self.table.known_set(view.field)) is not None:
            return known[0]
        if self.info.params["duel"]:
            return self._duel_flip(legal, view)
        return self._explore_towards([], legal, view)

    def _deliberate_miss(self, legal: tuple[int, ...]) -> bool:
        """After a new first card: does the plan turn up a known card second?"""
        k = sum(1 for p in legal if p in self.table.known)  # the new first card is not in legal
        n = (len(legal) + 1) // 2
        if k < 1 or k >= n:
            return False
        return bool(self.plan.second(n, k) is Second.KNOWN)

    def _known_miss(self, legal: tuple[int, ...], first: Card) -> int:
        """A remembered card that does not match the first card."""
        mate = self.table.mate_key(first)
        misses = [p for p in legal if self.table.known.get(p, mate) != mate]
        return misses[self.rng.randrange(len(misses))]

    def _note_backs(self, obs: Observation[Any]) -> None:
        """Remember which cards of each back's pack have been seen (backs never change)."""
        for ev in obs.events:
            if isinstance(ev, Reveal):
                self.seen_by_back.setdefault(self.backs[ev.position], set()).add(ev.card)

    def _explore_towards(self, up: list[Card], legal: tuple[int, ...],
                         view: ConcentrationView) -> int:
        """An unseen card, from the back whose pack most likely holds a mate of the cards up."""
        unseen = self.table.unseen(legal) or list(legal)
        by_back: dict[Back, list[int]] = {}
        for p in unseen:
            by_back.setdefault(self.backs[p], []).append(p)
        pool = unseen
        if up and len(by_back) > 1:
            rule = self.table.rule

            def chance(back: Back) -> float:
                seen = self.seen_by_back.get(back, set())
                mates = sum(1 for c in self.pack if c not in seen and cards_match(up[0], c, rule))
                return mates / len(by_back[back])

            pool = by_back[max(sorted(by_back, key=lambda b: b.value), key=chance)]
        return pool[self.rng.randrange(len(pool))]

    def _duel_flip(self, legal: tuple[int, ...], view: ConcentrationView) -> int:
        """Learn our own field by flipping unseen cards; once all are known, show a card whose
        twin the opponent has never seen, so their answer is a blind guess."""
        unseen = self.table.unseen(legal)
        if unseen:
            return unseen[self.rng.randrange(len(unseen))]
        theirs = {c for p, c in self.table.known.items() if p not in view.field}
        safe = [p for p in legal if self.table.known.get(p) not in theirs] or list(legal)
        return safe[self.rng.randrange(len(safe))]
