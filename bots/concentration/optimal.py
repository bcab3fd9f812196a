"""`optimal`: the exact two-player minimax of Concentration where it applies, `planner` elsewhere.

- Two players, every card with exactly one mate (standard, one-flip, jokers, two decks without
  jokers), no moving cards: the minimax strategy of bots.concentration.minimax, solved over the
  whole public state (pairs left, known singletons, known pairs left on the table). No strategy
  gains against it in expectation; it may leave a pair on the table, or turn a known card second.
- Two players, any-colour (one deck matched on rank, with or without jokers), no moving cards:
  the minimax of bots.concentration.groups, read from its shipped table of choices.
- Everything else (solitaire, three or more players, the duel, the checkerboard, moving cards):
  `planner`, the plan of bots.algorithms.memory_strategy and strong heuristics.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from arena.api import GameInfo, Observation, Reveal
from arena.cards import Card, standard_deck
from arena.games.concentration import ConcentrationView, MatchRule
from arena.games.concentration.minimax import First, Node, Position, Second
from bots.concentration import groups
from bots.concentration.minimax import MinimaxStrategy
from bots.concentration.planner import PlannerBot, pairs_are_unique


def minimax_applies(params: Any, players: int) -> bool:
    """Whether the exact two-player minimax of unique mates covers this variant and table."""
    return players == 2 and pairs_are_unique(params) and params["moves"] == 0


def group_minimax_applies(params: Any, players: int) -> bool:
    """Whether the any-colour minimax (groups of four, one deck, jokers or not) covers it."""
    return (players == 2 and MatchRule(params["match"]) is MatchRule.RANK and params["decks"] == 1
            and params["set_size"] == 2 and not params["duel"]
            and not params["checkerboard"] and params["moves"] == 0)


class OptimalBot(PlannerBot):
    """Plays the two-player minimax where it applies, and `planner` elsewhere."""

    def start(self, info: GameInfo) -> None:
        """Choose the minimax (by the extra-turn rule) or fall back to the planner."""
        super().start(info)
        again = not info.params["one_flip"]
        self.minimax: MinimaxStrategy | None = None
        self.groups: groups.TableStrategy | None = None
        if minimax_applies(info.params, info.players):
            self.minimax = MinimaxStrategy(again)
        elif group_minimax_applies(info.params, info.players):
            self.groups = groups.TableStrategy(again)
            pack = [self.table.key(c) for c in standard_deck(bool(info.params["jokers"]))]
            self.group_size = Counter(pack)
            self.ever: dict[int, int] = {}  # position -> key of every card ever turned up
        self.turn: tuple[Position, First] | None = None
        self.group_turn: tuple[groups.State, dict[int, int], int] | None = None

    def act(self, obs: Observation[Any]) -> int:
        """The minimax's flip, or the planner's where the minimax does not apply."""
        if self.groups is not None:
            return self._group_act(obs, self.groups)
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

    def group_state(self, view: ConcentrationView) -> tuple[groups.State, dict[int, int]]:
        """The any-colour public state, and each key's group kind (rank -> kind index)."""
        claimed = Counter(self.ever[p] for p, c in enumerate(view.cells) if c is None)
        seen = Counter(self.table.known.values())
        counts = [0] * len(groups.KINDS)
        kinds: dict[int, int] = {}
        for key, size in self.group_size.items():
            left = size - claimed[key]
            if left:
                kind = groups.KIND_INDEX[(left - seen[key], seen[key])]
                counts[kind] += 1
                kinds[key] = kind
        return tuple(counts), kinds

    def _group_act(self, obs: Observation[Any], strategy: groups.TableStrategy) -> int:
        """A flip of the any-colour minimax."""
        for ev in obs.events:
            if isinstance(ev, Reveal):
                self.ever[ev.position] = self.table.key(ev.card)
        self.table.update(obs.events)
        view: ConcentrationView = obs.view
        legal: tuple[int, ...] = obs.legal  # type: ignore[assignment]
        known = self.table.known
        if not view.face_up:
            state, kinds = self.group_state(view)
            action = strategy.first(state)
            self.group_turn = (state, kinds, action)
            decoded = groups.decode_first(action)
            if decoded is None:
                return self._pick(self.table.unseen(legal))
            return min(p for p, key in known.items() if kinds[key] == decoded[0])
        assert self.group_turn is not None
        state, kinds, action = self.group_turn
        up = view.face_up[0]
        key = known[up]
        mates = [p for p, k in known.items() if k == key and p != up and p in legal]
        decoded = groups.decode_first(action)
        if decoded is not None:
            return mates[0] if decoded[1] else self._pick(self.table.unseen(legal))
        second = strategy.second(state, kinds[key])
        if second == groups.SECOND_MATE:
            return mates[0]
        if second == groups.SECOND_KNOWN:
            return self._pick([p for p in legal if p in known and known[p] != key])
        return self._pick(self.table.unseen(legal))

    def _pick(self, pool: list[int]) -> int:
        """A card of a class of interchangeable cards, at random."""
        return pool[self.rng.randrange(len(pool))]
