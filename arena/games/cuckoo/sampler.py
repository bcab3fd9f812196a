"""Cuckoo's hidden cards dealt again from one seat's knowledge: the others' cards this deal, the
dealer's card put aside, and the rest of the pack.

Every card of the deal is a *slot*, followed through the deal's events: a swap (`Changed`) moves
two slots between their holders, a draw puts the dealer's slot aside and gives it a new one from
the pack. What the seat knows binds some slots to cards: its own card (and the cards it
received), the kings shown, and, since it follows the slots, where its old card went (after
the player at its right changed with it, or after it changed with the player at its left and
that card moved on). A player asked to change who did not show a king held no king: the slot
the asker got is no king. Every turn the others took says something of the card they held
then: a player stands on high cards and changes (or draws) on low ones. Each such turn weighs
its slot by the chance of that choice on each rank, from a prior (standing on seven and up)
moved by what the seat saw at the showdowns of the game: every slot that decided is shown
there (but the card put aside), so the seat learns how each player stands. A sample deals the
unseen cards to the free slots in proportion to those weights (sequentially, then a short
Metropolis chain over swaps that makes the deal follow the weights exactly), and the rest of
the pack, shuffled, is the stock. Deals already played are public (their showdowns).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from arena.cards import Card, Rank
from arena.engine import Knowledge, Sampler, State
from arena.games.cuckoo.dealing import PACK
from arena.games.cuckoo.state import CuckooState
from arena.games.cuckoo.table import (
    CardDealt,
    Changed,
    CuckooView,
    DealStarted,
    Drew,
    KingShown,
    Phase,
    Received,
    Showdown,
    Stood,
    Turn,
)
from arena.games.cuckoo.variants import CuckooParams

KING = int(Rank.KING)
PRIOR_WEIGHT = 3.0
"""How many showdowns' worth of evidence the prior of a player's standing counts for."""
_SWEEPS = 4  # Metropolis steps per free slot


def prior_stand(rank: int) -> float:
    """The chance a player stands on `rank` before anything is learnt: about seven and up."""
    return 0.99 if rank == KING else 1.0 / (1.0 + math.exp(-(rank - 6.5)))


@dataclass
class Decision:
    """A turn another player took this deal: who, on which slot, and whether it stood."""

    seat: int
    slot: int
    stood: bool


@dataclass
class CuckooBelief:
    """What a seat's events say of the deal in progress, and how each player stands."""

    seats: int
    held: dict[int, int] = field(default_factory=dict)  # seat -> slot it holds
    bound: dict[int, Card] = field(default_factory=dict)  # slot -> the card it is known to be
    no_king: set[int] = field(default_factory=set)  # slots known to hold no king
    aside: int | None = None  # the dealer's slot put aside after a draw
    decisions: list[Decision] = field(default_factory=list)
    out_deal: list[int | None] = field(default_factory=list)
    stands: list[list[float]] = field(default_factory=list)  # by seat, then rank
    seen: list[list[float]] = field(default_factory=list)
    slots: int = 0

    @classmethod
    def read(cls, knowledge: Knowledge) -> CuckooBelief:
        """Follow every event the seat was shown, in order."""
        n = knowledge.players
        belief = cls(n, out_deal=[None] * n, stands=[[0.0] * (KING + 1) for _ in range(n)],
                     seen=[[0.0] * (KING + 1) for _ in range(n)])
        for event in knowledge.events:
            belief.follow(event, knowledge.seat)
        return belief

    def _new_slot(self) -> int:
        self.slots += 1
        return self.slots - 1

    def _bind(self, slot: int, card: Card) -> None:
        self.bound[slot] = card

    def _decided(self, seat: int, me: int, stood: bool) -> None:
        if seat != me:
            self.decisions.append(Decision(seat, self.held[seat], stood))

    def follow(self, event: object, me: int) -> None:
        """One event: move, bind or weigh the slots it concerns."""
        if isinstance(event, DealStarted):
            self.slots, self.bound, self.no_king, self.aside = 0, {}, set(), None
            self.decisions = []
            self.held = {seat: self._new_slot() for seat in event.order}
        elif isinstance(event, CardDealt):
            self._bind(self.held[event.seat], event.card)
        elif isinstance(event, Stood):
            self._decided(event.seat or 0, me, True)
        elif isinstance(event, Changed):
            a, b = event.seat or 0, event.neighbour
            self._decided(a, me, False)
            self.held[a], self.held[b] = self.held[b], self.held[a]
            self.no_king.add(self.held[a])  # the neighbour showed no king
        elif isinstance(event, KingShown):
            self._decided(event.asker, me, False)
            self._bind(self.held[event.seat or 0], event.card)
        elif isinstance(event, Drew):
            dealer = event.seat or 0
            self._decided(dealer, me, False)
            self.aside = self.held[dealer]
            self.held[dealer] = self._new_slot()
        elif isinstance(event, Received):
            self._bind(self.held[event.seat or 0], event.card)
        elif isinstance(event, Showdown):
            self._learn(event)

    def _learn(self, event: Showdown) -> None:
        where = {slot: seat for seat, slot in self.held.items()}
        for decision in self.decisions:
            seat = where.get(decision.slot)  # None: the card put aside, never shown
            card = event.cards[seat] if seat is not None else None
            if card is not None:
                self.seen[decision.seat][int(card.rank)] += 1.0
                self.stands[decision.seat][int(card.rank)] += decision.stood
        for seat in event.dropped:
            self.out_deal[seat] = event.deal + 1

    def stand_chance(self, seat: int, rank: int) -> float:
        """How likely `seat` is to stand on `rank`: the prior moved by its showdowns."""
        return ((PRIOR_WEIGHT * prior_stand(rank) + self.stands[seat][rank])
                / (PRIOR_WEIGHT + self.seen[seat][rank]))

    def weights(self) -> dict[int, list[float]]:
        """Each free slot's weight by rank (index 0 unused): the likelihood of the turns taken
        on it, and 0 for a king where the slot is known to hold none."""
        live = [*self.held.values(), *([self.aside] if self.aside is not None else [])]
        out = {slot: [0.0] + [1.0] * KING for slot in live if slot not in self.bound}
        for decision in self.decisions:
            table = out.get(decision.slot)
            if table is None:
                continue
            for rank in range(1, KING + 1):
                chance = self.stand_chance(decision.seat, rank)
                table[rank] *= chance if decision.stood else 1.0 - chance
        for slot in self.no_king:
            if slot in out:
                out[slot][KING] = 0.0
        return out


def _pick(pool: list[Card], weight: list[float], rng: random.Random) -> int:
    """The index of a card of `pool` drawn in proportion to `weight` by rank (uniform if all
    weigh nothing)."""
    total = sum(weight[int(c.rank)] for c in pool)
    if total <= 0:
        return rng.randrange(len(pool))
    x = rng.random() * total
    for i, card in enumerate(pool):
        x -= weight[int(card.rank)]
        if x < 0:
            return i
    return len(pool) - 1


def deal_slots(weights: dict[int, list[float]], unseen: list[Card],
               rng: random.Random) -> tuple[dict[int, Card], list[Card]]:
    """The unseen cards dealt to the free slots with probability proportional to the product
    of the slots' weights, and the cards left over (in random order)."""
    pool = list(unseen)
    rng.shuffle(pool)
    slots = sorted(weights)
    rng.shuffle(slots)
    dealt: dict[int, Card] = {}
    for slot in slots:
        dealt[slot] = pool.pop(_pick(pool, weights[slot], rng))
    # Drawing slot by slot only approximates the joint weights (earlier slots deplete the
    # ranks later ones want); a Metropolis chain over swaps corrects it.
    for _ in range(_SWEEPS * len(slots)):
        a = slots[rng.randrange(len(slots))]
        wa = weights[a]
        ca = dealt[a]
        if pool and rng.random() < 0.5:
            k = rng.randrange(len(pool))
            ck = pool[k]
            old, new = wa[int(ca.rank)], wa[int(ck.rank)]
            if new > 0 and (old <= 0 or rng.random() * old < new):
                dealt[a], pool[k] = ck, ca
        else:
            b = slots[rng.randrange(len(slots))]
            wb, cb = weights[b], dealt[b]
            old = wa[int(ca.rank)] * wb[int(cb.rank)]
            new = wa[int(cb.rank)] * wb[int(ca.rank)]
            if new > 0 and (old <= 0 or rng.random() * old < new):
                dealt[a], dealt[b] = cb, ca
    rng.shuffle(pool)
    return dealt, pool


class CuckooSampler(Sampler):
    """Deals the others' cards, the card put aside and the rest of the pack from what a seat
    knows."""

    def sample(self, knowledge: Knowledge, count: int, rng: random.Random) -> list[State]:
        """`count` states of the deal in progress (or between deals: the next deal is dealt
        from the state's own rng, so nothing is hidden then)."""
        belief = CuckooBelief.read(knowledge)
        weights = belief.weights() if knowledge.view.phase is Phase.PLAY else {}
        taken = set(belief.bound.values()) if knowledge.view.phase is Phase.PLAY else set()
        unseen = [c for c in PACK if c not in taken]
        return [self._state(knowledge, belief, weights, unseen, rng) for _ in range(count)]

    def playout_over(self, state: State) -> bool:
        """A playout may stop at the end of the deal: what a turn changes is who pays then."""
        assert isinstance(state, CuckooState)
        return state.phase is not Phase.PLAY

    def _state(self, knowledge: Knowledge, belief: CuckooBelief,
               weights: dict[int, list[float]], unseen: list[Card],
               rng: random.Random) -> CuckooState:
        view: CuckooView = knowledge.view
        params = knowledge.params
        assert isinstance(params, CuckooParams)
        state = object.__new__(CuckooState)
        State.__init__(state)
        state.params = params
        state.seats = knowledge.players
        state.rng = random.Random(rng.getrandbits(64))
        state.stacks = {}
        state.limit = view.deal_limit
        state.chips = list(view.chips)
        state.out_deal = list(belief.out_deal)
        state.active = [s for s in range(knowledge.players) if view.chips[s] > 0]
        state.deal_no = view.deal
        state.dealer = view.dealer
        state.phase = view.phase
        state.order = view.order
        state.pos = view.order.index(view.turn) if view.turn is not None else 0
        state.skipped = {seat for seat, turn in view.turns if turn is Turn.KING}
        state.drew_king = False  # the dealer draws last: no decision follows a draw
        state.kings = list(view.kings)
        state.turns = list(view.turns)
        state.shown = view.shown
        state.rounds = []  # the summary of past deals: not needed to play on
        state.end = None
        state.hands, state.aside, state.stock = {}, [], list(PACK)
        if view.phase is Phase.PLAY:
            dealt, rest = deal_slots(weights, unseen, rng)
            cards = {**belief.bound, **dealt}
            state.hands = {seat: cards[slot] for seat, slot in belief.held.items()}
            state.aside = [cards[belief.aside]] if belief.aside is not None else []
            state.stock = rest
        return state
