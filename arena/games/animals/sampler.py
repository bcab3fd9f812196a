"""Animals' hidden cards dealt again from one seat's knowledge: the order of every face-down
pack, and the cards in the up-piles that were never faced.

Nobody looks at a pack, so what is hidden is the same for every seat. Every card is a *slot*,
followed through the public events: the deal makes each pack's slots; a face moves the top slot
of a pack onto the up-pile and shows its card; a turn-over makes the up-pile, reversed, the new
pack (so its order is known, every card of it having been faced, but penalty cards paid from a
pack); a penalty moves the payer's top slot (of its up-pile, or of its pack) under the named
player's up-pile; a race moves the loser's whole up-pile under the winner's. The view's top
cards bind the slots on top of the up-piles (a card paid from a pack onto an empty up-pile is
seen there). The unseen cards are equally likely in every order, so a sample deals them to the
unbound slots uniformly at random: that is the exact posterior of a uniform shuffle.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from arena.cards import Card, standard_deck
from arena.engine import Knowledge, Sampler, State
from arena.games.animals.state import AnimalsState
from arena.games.animals.table import (
    AnimalsView,
    Called,
    Dealt,
    Faced,
    Paid,
    Source,
    Took,
    TurnedOver,
    Verdict,
)
from arena.games.animals.variants import AnimalsParams

PACK: tuple[Card, ...] = tuple(standard_deck())


@dataclass
class AnimalsBelief:
    """Every seat's pack and up-pile as slots (top last), and the cards of the slots seen."""

    packs: list[list[int]] = field(default_factory=list)
    piles: list[list[int]] = field(default_factory=list)
    bound: dict[int, Card] = field(default_factory=dict)
    won: list[int] = field(default_factory=list)
    wrong: list[int] = field(default_factory=list)
    slots: int = 0

    @classmethod
    def read(cls, knowledge: Knowledge) -> AnimalsBelief:
        """Follow every event in order; then bind the up-piles' tops to the view's."""
        n = knowledge.players
        belief = cls([[] for _ in range(n)], [[] for _ in range(n)], {}, [0] * n, [0] * n)
        for event in knowledge.events:
            belief.follow(event)
        view: AnimalsView = knowledge.view
        for seat, top in enumerate(view.tops):
            if top is not None and belief.piles[seat]:
                belief.bound[belief.piles[seat][-1]] = top
        return belief

    def follow(self, event: object) -> None:
        """One public event: make, move or show slots."""
        if isinstance(event, Dealt):  # a shuffled deal: every card in a face-down pack
            self.slots = sum(event.cards)
            first = 0
            for seat, size in enumerate(event.cards):
                self.packs[seat] = list(range(first, first + size))
                first += size
        elif isinstance(event, Faced):
            slot = self.packs[event.seat or 0].pop()
            self.bound[slot] = event.card
            self.piles[event.seat or 0].append(slot)
        elif isinstance(event, TurnedOver):
            seat = event.seat or 0
            self.packs[seat], self.piles[seat] = self.piles[seat][::-1], []
        elif isinstance(event, Paid):
            payer = event.seat or 0
            source = self.piles[payer] if event.source is Source.PILE else self.packs[payer]
            self.piles[event.to].insert(0, source.pop())
        elif isinstance(event, Took):
            winner = event.seat or 0
            self.piles[winner][:0] = self.piles[event.loser]
            self.piles[event.loser] = []
        elif isinstance(event, Called):
            self.won[event.seat or 0] += event.verdict is Verdict.WON
            self.wrong[event.seat or 0] += event.verdict is Verdict.WRONG


class AnimalsSampler(Sampler):
    """Deals the unseen cards to the packs' and up-piles' unseen places from the public
    events."""

    def sample(self, knowledge: Knowledge, count: int, rng: random.Random) -> list[State]:
        """`count` states: the unseen cards shuffled into the slots nobody has seen."""
        belief = AnimalsBelief.read(knowledge)
        seen = set(belief.bound.values())
        unseen = [c for c in PACK if c not in seen]
        free = [s for s in range(belief.slots) if s not in belief.bound]
        out: list[State] = []
        for _ in range(count):
            rng.shuffle(unseen)
            cards = {**belief.bound, **dict(zip(free, unseen, strict=True))}
            out.append(self._state(knowledge, belief, cards, rng))
        return out

    def _state(self, knowledge: Knowledge, belief: AnimalsBelief, cards: dict[int, Card],
               rng: random.Random) -> AnimalsState:
        view: AnimalsView = knowledge.view
        params = knowledge.params
        assert isinstance(params, AnimalsParams)
        state = object.__new__(AnimalsState)
        State.__init__(state)
        state.params = params
        state.seats = knowledge.players
        state.rng = random.Random(rng.getrandbits(64))
        state.dealer = view.dealer
        state.packs = [[cards[s] for s in pack] for pack in belief.packs]
        state.piles = [[cards[s] for s in pile] for pile in belief.piles]
        state.places = list(view.places)
        state.faces = view.faces
        state.facer = view.facer
        state.won = list(belief.won)
        state.wrong = list(belief.wrong)
        state.end = None
        state._to_act = tuple(s for s in range(knowledge.players) if view.places[s] is None)
        state._legal = {}
        state._view = None
        return state
