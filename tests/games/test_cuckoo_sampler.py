"""Cuckoo's sampler (`arena/games/cuckoo/sampler.py`): it reads only what the seat knows, and
what it deals agrees with it: the seat's view, where the cards it held went, the kings shown,
the swaps that no king refused, and the turns the others took."""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable

import pytest

from arena.cards import Card, Rank
from arena.engine import Knowledge, State, Variant, find_game
from arena.games.cuckoo import CardDealt, Changed, CuckooState, Phase, Received, Turn
from arena.games.cuckoo.sampler import CuckooSampler

SEATS = 6
Sample = Callable[[CuckooState, int], list[State]]


def variant() -> Variant:
    """Cuckoo's standard game."""
    return find_game("cuckoo").variant()


def knowledge(state: CuckooState, seat: int) -> Knowledge:
    """What `seat` knows of `state`: the events it was shown and its view."""
    return Knowledge(state.params, SEATS, seat, state.seen_by(seat, 0, len(state.log)),
                     state.view(seat))


def advance(seed: int, deals: int = 0, turns: int = 2) -> CuckooState:
    """A game played by threshold players (with a little noise) until, after `deals` deals,
    a seat is to stand or change with at least `turns` turns taken in the deal."""
    rng = random.Random(seed)
    state = CuckooState(variant().params, SEATS, random.Random(f"deal:{seed}"))  # type: ignore[arg-type]
    while state.to_act():
        (who,) = state.to_act()
        legal = state.legal(who)
        if state.phase is Phase.PLAY and state.deal_no >= deals and len(state.turns) >= turns:
            return state
        if len(legal) == 1:
            state.apply(who, legal[0])
            continue
        low = int(state.hands[who].rank) < 7
        state.apply(who, legal[1] if low != (rng.random() < 0.1) else legal[0])
    raise AssertionError("the game ended first")


def honest(state: CuckooState, seat: int) -> list[State]:
    """The sampler, told what the seat knows."""
    return CuckooSampler().sample(knowledge(state, seat), 4, random.Random(7))


def digest(states: list[State]) -> list[object]:
    """What tells sampled states apart: every hand, the card put aside, the rest of the pack."""
    out: list[object] = []
    for s in states:
        assert isinstance(s, CuckooState)
        out.append((sorted(s.hands.items()), list(s.aside), list(s.stock)))
    return out


def hidden_swapped(state: CuckooState, seat: int) -> CuckooState:
    """A twin of `state` differing only in what `seat` cannot see: the card of a player still to
    play (neither the seat nor its neighbours, so no swap of the seat's concerns it) traded with
    the top of the rest of the pack."""
    twin = CuckooSampler().clone(state)
    assert isinstance(twin, CuckooState)
    later = [s for s in twin.order[twin.pos + 1:] if s != seat]
    other = later[-1] if later else next(s for s in twin.order if s != seat)
    twin.hands[other], twin.stock[0] = twin.stock[0], twin.hands[other]
    return twin


def samples_agree(state: CuckooState, seat: int, sample: Sample) -> bool:
    """Whether `sample` deals the same from `state` and from its twin."""
    twin = hidden_swapped(state, seat)
    assert twin.view(seat) == state.view(seat)
    assert twin.seen_by(seat, 0, len(twin.log)) == state.seen_by(seat, 0, len(state.log))
    assert sorted(twin.hands.items()) != sorted(state.hands.items())
    return digest(sample(state, seat)) == digest(sample(twin, seat))


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_sampler_reads_nothing_the_seat_cannot_see(seed: int) -> None:
    state = advance(seed, deals=seed % 3)
    (seat,) = state.to_act()
    assert samples_agree(state, seat, honest)


def test_the_check_catches_a_sampler_that_peeks() -> None:
    state = advance(5, deals=1)
    (seat,) = state.to_act()

    def leaky(real: CuckooState, seat: int) -> list[State]:
        samples = honest(real, seat)
        for sampled in samples:  # the others' cards as they really are
            sampled.hands = dict(real.hands)  # type: ignore[attr-defined]
        return samples

    assert not samples_agree(state, seat, leaky)


@pytest.mark.parametrize("seed", range(6))
def test_samples_show_the_seat_its_view_and_its_choices(seed: int) -> None:
    state = advance(seed, deals=seed)
    (seat,) = state.to_act()
    for sampled in CuckooSampler().sample(knowledge(state, seat), 5, random.Random(seed)):
        assert sampled.view(seat) == state.view(seat)
        assert sampled.to_act() == state.to_act()
        assert sampled.legal(seat) == state.legal(seat)
        assert sorted(map(str, sampled.inventory())) == sorted(map(str, state.inventory()))
        assert sampled.outcome().scores == state.outcome().scores  # chips, who is out


def _held_by_the_seat(state: CuckooState, seat: int) -> list[Card]:
    """Every card the seat has held this deal: dealt to it, or received."""
    known = knowledge(state, seat).events
    start = max(i for i, e in enumerate(known) if e.kind == "deal-started")
    return [e.card for e in known[start:]
            if isinstance(e, CardDealt | Received) and e.seat == seat]


def _place(state: CuckooState, card: Card) -> object:
    for holder, held in state.hands.items():
        if held == card:
            return holder
    return "aside" if card in state.aside else "pack"


def test_every_card_the_seat_held_is_where_the_swaps_took_it() -> None:
    followed = 0
    for seed in range(30):
        state = advance(seed, deals=seed % 4)
        (seat,) = state.to_act()
        cards = _held_by_the_seat(state, seat)
        followed += len(cards) > 1
        for sampled in CuckooSampler().sample(knowledge(state, seat), 6, random.Random(seed)):
            assert isinstance(sampled, CuckooState)
            for card in cards:
                assert _place(sampled, card) == _place(state, card)
    assert followed >= 5  # some seats received a card, so something was followed


def test_kings_shown_stay_put_and_a_player_who_was_not_refused_holds_no_king() -> None:
    kings = swaps = 0
    for seed in range(60):
        state = advance(seed, deals=seed % 3, turns=4)
        (seat,) = state.to_act()
        known = knowledge(state, seat)
        start = max(i for i, e in enumerate(known.events) if e.kind == "deal-started")
        askers = [e.seat for e in known.events[start:]
                  if isinstance(e, Changed) and e.seat != seat]
        kings += len(state.kings)
        swaps += len(askers)
        for sampled in CuckooSampler().sample(known, 8, random.Random(seed)):
            assert isinstance(sampled, CuckooState)
            for holder, king in state.kings:
                assert sampled.hands[holder] == king
            for asker in askers:  # it got its neighbour's card, which was no king
                assert sampled.hands[asker].rank is not Rank.KING
    assert kings >= 2 and swaps >= 10


def test_a_player_who_stood_is_dealt_the_high_cards_players_stand_on() -> None:
    stood: list[int] = []
    for seed in range(40):
        state = advance(seed)
        (seat,) = state.to_act()
        turns = dict(state.turns)
        right = dict(zip(state.order[1:], state.order, strict=False))
        for sampled in CuckooSampler().sample(knowledge(state, seat), 10, random.Random(seed)):
            assert isinstance(sampled, CuckooState)
            for who, turn in turns.items():
                if who != seat and right.get(who) != seat and turn is Turn.STOOD:
                    stood.append(int(sampled.hands[who].rank))
    assert len(stood) >= 100
    assert statistics.fmean(stood) > 8.5  # the unseen cards average about seven


def test_the_sampler_is_deterministic_given_its_rng() -> None:
    state = advance(3, deals=2)
    (seat,) = state.to_act()
    assert digest(honest(state, seat)) == digest(honest(state, seat))
