"""Frogs in the Pond's hidden cards dealt again from one seat's knowledge: the other hands, the
pond, and the frogs the others took face down.

What the seat knows of the deal in progress: its own hand and frogs, the cards out of play,
every card played (the trick in progress and the tricks won), and which players showed out of a
suit (a player who did not follow the suit led holds none of it until the deal ends). The sample
deals the unseen cards to the other hands (the most void first, never a card of a suit they
showed out of), then to the others' frogs and the pond, which nobody's play constrains.
"""

from __future__ import annotations

import random

from arena.cards import Card, Suit, standard_deck
from arena.engine import Knowledge, Sampler, State
from arena.games.frogs_in_the_pond.state import FrogsState
from arena.games.frogs_in_the_pond.table import (
    DealStarted,
    FrogSeen,
    FrogsView,
    Phase,
    Played,
    TrickWon,
)
from arena.games.frogs_in_the_pond.variants import REMOVED, FrogsParams, hand_size

_TRIES = 20


class FrogsBelief:
    """What a seat's events say of the deal in progress: cards won, plays and voids by seat."""

    def __init__(self, knowledge: Knowledge) -> None:
        """Read the events of the deal in progress."""
        seats = knowledge.players
        self.won: list[list[Card]] = [[] for _ in range(seats)]
        self.played = [0] * seats
        self.voids: list[set[Suit]] = [set() for _ in range(seats)]
        self.frogs: list[Card] = []
        led: Suit | None = None
        for event in knowledge.events:
            if isinstance(event, DealStarted):
                self.won = [[] for _ in range(seats)]
                self.played = [0] * seats
                self.voids = [set() for _ in range(seats)]
                self.frogs = []
                led = None
            elif isinstance(event, Played):
                self.played[event.seat] += 1
                if led is None:
                    led = event.card.suit
                elif event.card.suit is not led and led is not None:
                    self.voids[event.seat].add(led)
            elif isinstance(event, TrickWon):
                self.won[event.seat] += event.cards
                led = None
            elif isinstance(event, FrogSeen) and event.seat == knowledge.seat:
                self.frogs.append(event.card)


class FrogsSampler(Sampler):
    """Deals the other hands, the others' frogs and the pond from what a seat knows."""

    def sample(self, knowledge: Knowledge, count: int, rng: random.Random) -> list[State]:
        """`count` states of the deal in progress, voids respected."""
        view: FrogsView = knowledge.view
        params = knowledge.params
        assert isinstance(params, FrogsParams)
        seats, me = knowledge.players, knowledge.seat
        belief = FrogsBelief(knowledge)
        seen = set(view.hand) | set(view.frogs) | set(REMOVED[seats])
        seen.update(c for _, c in view.trick)
        for cards in belief.won:
            seen.update(cards)
        unseen = [c for c in standard_deck() if c not in seen]
        size = hand_size(seats)
        others = sorted((s for s in range(seats) if s != me),
                        key=lambda s: len(belief.voids[s]), reverse=True)
        needs = {s: size - belief.played[s] for s in others}
        frogs_of = {s: view.tricks_won[s] for s in others}
        return [self._deal(knowledge, belief, unseen, others, needs, frogs_of, rng)
                for _ in range(count)]

    def playout_over(self, state: State) -> bool:
        """A playout stops when the deal ends: its points are then in the totals."""
        assert isinstance(state, FrogsState)
        return state.phase is not Phase.PLAY

    def _deal(self, knowledge: Knowledge, belief: FrogsBelief, unseen: list[Card],
              others: list[int], needs: dict[int, int], frogs_of: dict[int, int],
              rng: random.Random) -> FrogsState:
        view: FrogsView = knowledge.view
        seats, me = knowledge.players, knowledge.seat
        hands: dict[int, list[Card]] = {}
        pool: list[Card] = []
        for _ in range(_TRIES):
            pool = list(unseen)
            rng.shuffle(pool)
            hands = {}
            for seat in others:
                void = belief.voids[seat]
                fit = [c for c in pool if c.suit not in void][:needs[seat]]
                if len(fit) < needs[seat]:
                    break
                hands[seat] = fit
                taken = set(fit)
                pool = [c for c in pool if c not in taken]
            if len(hands) == len(others):
                break
        else:  # the voids could not be met: deal freely
            pool = list(unseen)
            rng.shuffle(pool)
            for seat in others:
                hands[seat], pool = pool[:needs[seat]], pool[needs[seat]:]
        state = object.__new__(FrogsState)
        State.__init__(state)
        params = knowledge.params
        assert isinstance(params, FrogsParams)
        state.params = params
        state.seats = seats
        state.rng = random.Random(rng.getrandbits(64))
        state.stacks = {}
        state.sides = view.sides
        state.removed = REMOVED[seats]
        state.pack = [c for c in standard_deck() if c not in state.removed]
        state.hand_size = hand_size(seats)
        state.totals = [view.totals[side[0]] for side in view.sides]
        state.summaries = []
        state.plays_total = 0
        state.end = None
        state.winners = ()
        state.deal_no = view.deal
        state.dealer = view.dealer
        state.phase = view.phase
        state.undealt = []
        state.hands = [list(view.hand) if s == me else hands[s] for s in range(seats)]
        frogs: list[list[Card]] = [[] for _ in range(seats)]
        frogs[me] = list(view.frogs)
        for seat in others:
            frogs[seat], pool = pool[:frogs_of[seat]], pool[frogs_of[seat]:]
        state.frogs = frogs
        state.pond = pool[:view.frogs_left]
        state.won = [list(w) for w in belief.won]
        state.trick = list(view.trick)
        state.last_trick = view.last_trick
        state.last_winner = view.last_winner
        state.number = view.number
        state.leader = view.leader
        state.to_play = me
        state.shown = state.removed
        state._legal = None
        state._views = {}
        return state
