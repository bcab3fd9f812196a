"""Memorandum's hidden cards dealt again from one seat's knowledge: the other players' hands,
the cards set aside, and the order of the calls still to come.

What the seat knows: its own hand, shown once in a `HandDealt` (a bot may remember it
perfectly, and the sampler assumes it does: the event is in its knowledge); every card called
so far and who claimed it; the size of the hands and how many cards were set aside. The calls
to come are the dealer's pack less the cards called, in an unknown order. The other cards of
the playing pack lie in the other hands or are set aside; a claim says what a player thinks it
holds, so a card another player claimed is dealt to that player more often than not: each
player is taken to claim its own cards with chance `OWN` and others' with chance `FALSE`
(the priors of `chancer`), and the cards are dealt one at a time, each to a hand (or the
cards set aside) with a chance proportional to how well that explains the claims made on it,
times the room left there.
"""

from __future__ import annotations

import random

from arena.cards import Card
from arena.engine import Knowledge, Sampler, State
from arena.games.memorandum.state import MemorandumState
from arena.games.memorandum.table import (
    Called,
    DealStarted,
    HandDealt,
    MemorandumView,
    Phase,
    Resolved,
)
from arena.games.memorandum.variants import MemorandumParams, pack_cards

OWN = 0.9
"""The chance, as the sampler models players, that a player claims a card of its own."""
FALSE = 0.05
"""The chance that a player claims a card that is not its own."""


class MemorandumSampler(Sampler):
    """Deals the other hands and the set-aside cards weighted by the claims, and shuffles the
    calls to come."""

    def sample(self, knowledge: Knowledge, count: int, rng: random.Random) -> list[State]:
        """`count` states of the deal in progress as the seat knows it."""
        params = knowledge.params
        assert isinstance(params, MemorandumParams)
        view: MemorandumView = knowledge.view
        if view.phase is not Phase.CALL:
            return [self._between(knowledge, params, rng) for _ in range(count)]
        me = knowledge.seat
        events = knowledge.events
        begun = max(i for i, e in enumerate(events) if isinstance(e, DealStarted))
        started = events[begun]
        assert isinstance(started, DealStarted)
        own: tuple[Card, ...] = ()
        called: list[Card] = []
        claims: dict[Card, tuple[int, ...]] = {}
        for event in events[begun:]:
            if isinstance(event, HandDealt) and event.seat == me:
                own = event.cards
            elif isinstance(event, Called):
                called.append(event.card)
            elif isinstance(event, Resolved):
                claims[event.card] = event.claimants
        holders = tuple(sorted(started.holders))
        others = [s for s in holders if s != me]
        pack = pack_cards(params.pack)
        mine = set(own)
        unknown = [c for c in pack if c not in mine]
        gone = set(called)
        to_come = [c for c in pack if c not in gone]
        groups = [*others, -1]  # -1: set aside
        room0 = [started.hand_size] * len(others) + [started.set_aside]
        weights = {c: _weights(claims.get(c, ()), others) for c in unknown}
        out: list[State] = []
        for _ in range(count):
            state = MemorandumState(params, knowledge.players,
                                    random.Random(rng.getrandbits(64)))
            hands: list[list[Card]] = [[] for _ in range(knowledge.players)]
            aside: list[Card] = []
            room = list(room0)
            order = list(unknown)
            rng.shuffle(order)
            # the claimed cards first: their weights matter most while there is room
            order.sort(key=lambda c: c not in claims)
            for card in order:
                w = weights[card]
                chances = [w[g] * room[g] for g in range(len(groups))]
                pick = _choose(chances, rng)
                room[pick] -= 1
                (aside if groups[pick] == -1 else hands[groups[pick]]).append(card)
            hands[me] = list(own)
            rng.shuffle(to_come)
            key = state.order.__getitem__
            state.deal_no, state.dealer = view.deal, view.dealer
            state.totals = list(view.totals)
            state.phase = Phase.CALL
            state.holders = holders
            state.hands = [tuple(sorted(h, key=key)) for h in hands]
            state.set_aside = tuple(sorted(aside, key=key))
            state.to_call = list(to_come)  # the next call is the last
            state.called = view.called
            state.number = view.number
            state.called_cards = list(called)
            state.received = [list(r) for r in view.received]
            state.unclaimed, state.disputed = list(view.unclaimed), list(view.disputed)
            state.undealt = ([], [])
            state.shown = ()
            state._to_act = holders
            state._view = None
            out.append(state)
        return out

    def playout_over(self, state: State) -> bool:
        """A playout stops when the deal in progress is scored: the next deals are dealt afresh
        whatever is decided now."""
        assert isinstance(state, MemorandumState)
        return state.phase is not Phase.CALL

    def _between(self, knowledge: Knowledge, params: MemorandumParams,
                 rng: random.Random) -> MemorandumState:
        """A state waiting for the next deal (nothing hidden yet: the deal is still to come)."""
        view: MemorandumView = knowledge.view
        state = MemorandumState(params, knowledge.players, random.Random(rng.getrandbits(64)))
        state.deal_no, state.dealer = view.deal, view.dealer
        state.totals = list(view.totals)
        state.phase = view.phase
        state._to_act = (view.dealer,) if view.phase is Phase.DEAL else ()
        state._view = None
        return state


def _weights(claimants: tuple[int, ...], others: list[int]) -> list[float]:
    """How well each owner (each other player, then the set-aside cards) explains who claimed a
    card: the chance of those claims given that owner, up to a common factor."""
    base = 1.0
    for s in others:
        base *= FALSE if s in claimants else 1.0 - FALSE
    out = []
    for s in others:
        ratio = OWN / FALSE if s in claimants else (1.0 - OWN) / (1.0 - FALSE)
        out.append(base * ratio)
    out.append(base)
    return out


def _choose(chances: list[float], rng: random.Random) -> int:
    """An index drawn with probability proportional to `chances` (some positive)."""
    total = sum(chances)
    x = rng.random() * total
    for i, c in enumerate(chances):
        x -= c
        if x < 0 and c > 0:
            return i
    return max(i for i, c in enumerate(chances) if c > 0)
