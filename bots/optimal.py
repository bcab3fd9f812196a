"""`optimal`: the exact two-player minimax of Concentration where it applies, `planner` elsewhere.

- Two players, every card with exactly one mate (standard, one-flip, jokers, two decks without
  jokers), no moving cards: the minimax strategy of bots.concentration_minimax, solved over the
  whole public state (pairs left, known singletons, known pairs left on the table). No strategy
  gains against it in expectation; it may leave a pair on the table, or turn a known card second.
- Everything else (solitaire, three or more players, any-colour, the duel, the checkerboard,
  moving cards): `planner`, the plan of bots.memory_strategy and strong heuristics.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from arena.api import GameInfo, Observation
from arena.cards import Card
from arena.games.concentration import ConcentrationView
from bots.concentration_minimax import First, MinimaxStrategy, Node, Position, Second
from bots.planner import PlannerBot, pairs_are_unique


def minimax_applies(params: Any, players: int) -> bool:
    """Whether the exact two-player minimax covers this variant and table."""
    return players == 2 and pairs_are_unique(params) and params["moves"] == 0


class OptimalBot(PlannerBot):
    """Plays the two-player minimax where it applies, and `planner` elsewhere."""

    def start(self, info: GameInfo) -> None:
        """Choose the minimax (by the extra-turn rule) or fall back to the planner."""
        super().start(info)
        self.minimax: MinimaxStrategy | None = None
        if minimax_applies(info.params, info.players):
            self.minimax = MinimaxStrategy(again=not info.params["one_flip"])
        self.turn: tuple[Position, First] | None = None

    def act(self, obs: Observation[Any]) -> int:
        """The minimax's flip, or the planner's where the minimax does not apply."""
        if self.minimax is None:
            return super().act(obs)
        view: ConcentrationView = obs.view
        self.table.update(obs.events)
        legal: tuple[int, ...] = obs.legal  # type: ignore[assignment]
        if not view.face_up:
            return self._first(view, legal, self.minimax)
        return self._second(view, legal, self.minimax)

    def position(self, view: ConcentrationView) -> tuple[Position, list[int], list[int]]:
        """The public state at the start of a turn, with a card of each known pair and each
        known singleton."""
        live = sum(1 for c in view.cells if c is not None)
        counts = Counter(self.table.known.values())
        pair_cards, singles = [], []
        for p, key in self.table.known.items():
            (pair_cards if counts[key] == 2 else singles).append(p)
        return Position(live // 2, len(singles), len(pair_cards) // 2), pair_cards, singles

    def _first(self, view: ConcentrationView, legal: tuple[int, ...],
               minimax: MinimaxStrategy) -> int:
        """The first flip of a turn."""
        pos, pair_cards, singles = self.position(view)
        first = minimax(Node.FIRST, pos)
        assert isinstance(first, First)
        self.turn = (pos, first)
        if first is First.TAKE_PAIR or first is First.PAIR_CARD:
            return min(pair_cards)
        if first is First.SINGLETON:
            return self._pick(singles)
        return self._pick(self.table.unseen(legal))

    def _second(self, view: ConcentrationView, legal: tuple[int, ...],
                minimax: MinimaxStrategy) -> int:
        """The second flip: forced by the first, or chosen after an unseen first card."""
        up = view.face_up[0]
        card = view.cells[up]
        assert isinstance(card, Card) and self.turn is not None
        pos, first = self.turn
        mates = [p for p in self.table.mates([card], view.face_up, view.field) if p in legal]
        unseen = self.table.unseen(legal)
        if first is First.TAKE_PAIR:
            return mates[0]
        if first is not First.UNSEEN:
            return self._pick(unseen)
        second = minimax(Node.MATCHED if mates else Node.NEW, pos)
        if second is Second.MATE:
            return mates[0]
        if second is Second.UNSEEN:
            return self._pick(unseen)
        wanted = self.table.mate_key(card)
        return self._pick([p for p in legal if self.table.known.get(p, wanted) != wanted])

    def _pick(self, pool: list[int]) -> int:
        """A card of a class of interchangeable cards, at random."""
        return pool[self.rng.randrange(len(pool))]
