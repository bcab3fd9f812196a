"""Memorandum's hidden cards dealt again from one seat's knowledge, during the calls of a deal:
the other players' hands, the cards set aside, and the order of the dealer's pack still to call.

A player saw its own hand once (the `HandDealt` event); the dealer sees none. Every called card
is public, and so is the pile it went to. The other players' hands and the cards set aside are
the rest of the playing pack, dealt at random; the cards still to call are the rest of the
dealer's pack, in a random order. Who claimed what is not used: a claim says what a player
believes it holds, which depends on how it plays (a forgetful or bluffing bot claims cards it
does not hold), and the hands are shown at the end of the deal anyway.
"""

from __future__ import annotations

import random

from arena.cards import Card
from arena.engine import Knowledge, Sampler, State
from arena.games.common import HandDealt
from arena.games.memorandum.dealing import holders_of
from arena.games.memorandum.state import MemorandumState
from arena.games.memorandum.table import Called, DealStarted, MemorandumView, Phase
from arena.games.memorandum.variants import MemorandumParams, pack_cards


class MemorandumSampler(Sampler):
    """Deals the other hands, the cards set aside and the calls to come from what a seat
    knows."""

    def sample(self, knowledge: Knowledge, count: int, rng: random.Random) -> list[State]:
        """`count` states of the deal in progress, each playable to the end of the game."""
        view: MemorandumView = knowledge.view
        params = knowledge.params
        assert isinstance(params, MemorandumParams)
        if view.phase is not Phase.CALL:
            raise ValueError("nothing is hidden that matters before a deal's calls")
        own, called = _this_deal(knowledge)
        pack = pack_cards(params.pack)
        holders = holders_of(view.dealer, view.players)
        others = [s for s in holders if s != knowledge.seat]
        hidden = [c for c in pack if c not in set(own)]
        calls_left = [c for c in pack if c not in set(called)]
        out: list[State] = []
        for _ in range(count):
            playing, to_call = list(hidden), list(calls_left)
            rng.shuffle(playing)
            rng.shuffle(to_call)
            hands: list[tuple[Card, ...]] = [() for _ in range(view.players)]
            if knowledge.seat in holders:
                hands[knowledge.seat] = own
            for i, seat in enumerate(others):
                hands[seat] = tuple(playing[i * view.hand_size:(i + 1) * view.hand_size])
            aside = tuple(playing[len(others) * view.hand_size:])
            out.append(_state(params, view, holders, hands, aside, called, to_call,
                              random.Random(rng.getrandbits(64))))
        return out

    def playout_over(self, state: State) -> bool:
        """A playout may stop once the deal in progress is scored: what one answer changes is
        in the totals by then, and later deals are dealt afresh."""
        assert isinstance(state, MemorandumState)
        return state.phase is not Phase.CALL


def _this_deal(knowledge: Knowledge) -> tuple[tuple[Card, ...], list[Card]]:
    """The seat's own hand in the deal in progress (empty for the dealer) and the cards called
    in it so far, the current one last."""
    own: tuple[Card, ...] = ()
    called: list[Card] = []
    for event in knowledge.events:
        if isinstance(event, DealStarted):
            own, called = (), []
        elif isinstance(event, HandDealt) and event.seat == knowledge.seat:
            own = event.cards
        elif isinstance(event, Called):
            called.append(event.card)
    return own, called


def _state(params: MemorandumParams, view: MemorandumView, holders: tuple[int, ...],
           hands: list[tuple[Card, ...]], aside: tuple[Card, ...], called: list[Card],
           to_call: list[Card], rng: random.Random) -> MemorandumState:
    """The deal in progress as `view` shows it, with these hidden cards."""
    state = object.__new__(MemorandumState)
    State.__init__(state)
    state.params = params
    state.seats = view.players
    state.rng = rng
    state.stacks = {}
    state.pack = pack_cards(params.pack)
    state.order = {card: i for i, card in enumerate(state.pack)}
    state.hand_size = view.hand_size
    state.totals = list(view.totals)
    state.summaries = []
    state.calls_total = 0
    state.deal_no = view.deal
    state.dealer = view.dealer
    state.phase = Phase.CALL
    state.holders = tuple(sorted(holders))
    state.hands = hands
    state.set_aside = aside
    state.to_call = to_call
    state.called = view.called
    state.number = view.number
    state.called_cards = list(called)
    state.received = [list(r) for r in view.received]
    state.unclaimed = list(view.unclaimed)
    state.disputed = list(view.disputed)
    state.undealt = ([], [])
    state.shown = ()
    state._to_act = state.holders
    state._view = None
    return state
