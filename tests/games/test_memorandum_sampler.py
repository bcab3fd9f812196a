"""Memorandum's sampler (`arena/games/memorandum/sampler.py`): it reads only what the seat
knows (its own hand and the calls, never another hand or the order of the calls to come), and
what it deals agrees with the table."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from arena.engine import Knowledge, State, find_game
from arena.games.memorandum import MemorandumState, Say
from arena.games.memorandum.sampler import MemorandumSampler
from bots.search_memorandum import memorandum_owner

Sample = Callable[[MemorandumState, int], list[State]]


def advance(seed: int, calls: int, players: int = 3, preset: str = "standard") -> MemorandumState:
    """A game answered at random until `calls` calls more have been answered, the next called."""
    variant = find_game("memorandum").variant(preset)
    state = variant.game.new_state(variant.params, players, random.Random(f"deal:{seed}"))
    assert isinstance(state, MemorandumState)
    rng = random.Random(seed)
    answered = 0
    while True:
        seats = state.to_act()
        if state.legal(seats[0]) == (Say.DEAL,):
            state.apply(seats[0], Say.DEAL)
        elif answered == calls:
            return state
        else:
            state.apply_joint({s: rng.choice(state.legal(s)) for s in seats})
            answered += 1


def knowledge(state: MemorandumState, seat: int) -> Knowledge:
    """What `seat` knows of `state`: the events it was shown and its view."""
    return Knowledge(state.params, state.seats, seat, state.seen_by(seat, 0, len(state.log)),
                     state.view(seat))


def honest(state: MemorandumState, seat: int) -> list[State]:
    """The game's sampler, told what the seat knows."""
    return MemorandumSampler().sample(knowledge(state, seat), 4, random.Random(7))


def peeking(state: MemorandumState, seat: int) -> list[State]:
    """A sampler that knows the other hands as they are."""
    samples = honest(state, seat)
    for sampled in samples:
        assert isinstance(sampled, MemorandumState)
        sampled.hands = list(state.hands)
    return samples


def hidden_swapped(state: MemorandumState, seat: int) -> MemorandumState:
    """A twin of `state` that differs only in what `seat` cannot see: the calls to come in
    reverse order, and where another seat's hand is not the rest of the pack, a card of it
    traded with one of a third hand or of the cards set aside."""
    twin = MemorandumSampler().clone(state)
    assert isinstance(twin, MemorandumState)
    twin.to_call = list(reversed(twin.to_call))
    others = [s for s in twin.holders if s != seat]
    first = list(twin.hands[others[0]])
    if len(others) > 1:
        second = list(twin.hands[others[1]])
        first[0], second[0] = second[0], first[0]
        twin.hands[others[1]] = tuple(second)
    elif twin.set_aside:
        aside = list(twin.set_aside)
        first[0], aside[0] = aside[0], first[0]
        twin.set_aside = tuple(aside)
    twin.hands[others[0]] = tuple(first)
    return twin


def agree(state: MemorandumState, seat: int, sample: Sample) -> bool:
    """Whether `sample` deals the same from `state` and from its twin with other hidden cards."""
    twin = hidden_swapped(state, seat)
    assert twin.view(seat) == state.view(seat)
    assert twin.seen_by(seat, 0, len(twin.log)) == state.seen_by(seat, 0, len(state.log))
    assert (twin.hands, twin.to_call) != (state.hands, state.to_call)
    digests = [[(s.hands, s.set_aside, s.to_call) for s in sample(real, seat)]  # type: ignore[attr-defined]
               for real in (state, twin)]
    return digests[0] == digests[1]


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("calls", [3, 40, 70])
def test_the_sampler_reads_nothing_the_seat_cannot_see(players: int, calls: int) -> None:
    state = advance(calls + players, calls, players)
    for seat in range(players):
        assert agree(state, seat, honest)


def test_the_check_catches_a_sampler_that_peeks() -> None:
    assert not agree(advance(5, 10), 0, peeking)  # the dealer of the first deal


@pytest.mark.parametrize("preset", sorted(find_game("memorandum").presets))
@pytest.mark.parametrize("calls", [0, 17, 45])
def test_samples_show_the_table_as_it_is(preset: str, calls: int) -> None:
    state = advance(calls, calls, 3, preset)
    for seat in range(3):
        for sampled in MemorandumSampler().sample(knowledge(state, seat), 3, random.Random(seat)):
            assert isinstance(sampled, MemorandumState)
            assert sampled.view(seat) == state.view(seat)
            assert sampled.to_act() == state.to_act()
            assert sampled.legal(seat) == state.legal(seat)
            assert sorted(map(str, sampled.inventory())) == sorted(map(str, state.inventory()))
            assert [len(h) for h in sampled.hands] == [len(h) for h in state.hands]
            if seat in state.holders:
                assert sampled.hands[seat] == state.hands[seat]


def test_samples_differ_and_a_playout_stops_at_the_end_of_the_deal() -> None:
    state = advance(2, 5)
    sampler = MemorandumSampler()
    samples = sampler.sample(knowledge(state, 1), 5, random.Random(3))
    assert len({tuple(s.to_call) for s in samples}) == 5  # type: ignore[attr-defined]
    played = samples[0]
    assert isinstance(played, MemorandumState)
    while not sampler.playout_over(played):
        played.apply_joint({s: memorandum_owner(played, s, random.Random(0))
                            for s in played.to_act()})
    assert played.deal_no == state.deal_no + 1
    assert played.totals != state.totals


def test_the_playout_policy_claims_its_own_cards_only() -> None:
    state = advance(4, 2)
    for seat in state.holders:
        said = memorandum_owner(state, seat, random.Random(0))
        assert said == (Say.MINE if state.called in state.hands[seat] else Say.PASS)
