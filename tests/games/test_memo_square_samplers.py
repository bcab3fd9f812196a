"""The samplers of Memorandum and Cribbage Square read only what the seat knows, and what they
deal agrees with it (the checks of test_samplers.py, for games of simultaneous decisions)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from arena.engine import Knowledge, Sampler, State, Variant, find_game
from arena.games.memorandum import MemorandumState, Phase, Say

Sample = Callable[[State, int], list[State]]


def knowledge(variant: Variant, state: State, seat: int, players: int) -> Knowledge:
    """What `seat` knows of `state`: the events it was shown and its view."""
    return Knowledge(variant.params, players, seat, state.seen_by(seat, 0, len(state.log)),
                     state.view(seat))


def advance(variant: Variant, players: int, seed: int, turns: int,
            policy: Callable[[Any, int, random.Random], Any] | None = None) -> State:
    """A game played `turns` joint decisions on: random answers, or `policy`'s."""
    rng = random.Random(seed)
    state = variant.game.new_state(variant.params, players, random.Random(f"deal:{seed}"))
    for _ in range(turns):
        seats = state.to_act()
        choose = policy or (lambda s, seat, r: r.choice(s.legal(seat)))
        state.apply_joint({s: choose(state, s, rng) for s in seats})
    return state


def elephant(state: Any, seat: int, rng: random.Random) -> Any:
    """Claims exactly the seat's own cards (deals when dealing)."""
    if state.called is None:
        return Say.DEAL
    return Say.MINE if state.called in state.hands[seat] else Say.PASS


def digest(states: list[State], players: int) -> list[Any]:
    """What tells sampled states apart: every card where it lies, and every seat's view."""
    out = []
    for s in states:
        hidden = (tuple(map(tuple, s.hands)), s.set_aside, tuple(s.to_call)) \
            if isinstance(s, MemorandumState) else tuple(s.pack)  # type: ignore[attr-defined]
        out.append((hidden, tuple(s.view(i) for i in range(players))))
    return out


def honest(variant: Variant, players: int) -> Sample:
    """The game's sampler, told what the seat knows."""
    sampler = variant.game.sampler()
    assert sampler is not None
    return lambda state, seat: sampler.sample(knowledge(variant, state, seat, players), 4,
                                              random.Random(7))


def memo_twin(state: State, sampler: Sampler, seat: int) -> State:
    """`state` with another seat's card traded for a set-aside one, and two calls to come
    traded: all hidden from `seat`."""
    twin: Any = sampler.clone(state)
    other = next(s for s in twin.holders if s != seat)
    hand = list(twin.hands[other])
    hand[0], aside = twin.set_aside[0], [hand[0], *twin.set_aside[1:]]
    twin.hands[other], twin.set_aside = tuple(hand), tuple(aside)
    twin.to_call[0], twin.to_call[1] = twin.to_call[1], twin.to_call[0]
    return twin


def square_twin(state: State, sampler: Sampler, seat: int) -> State:
    """`state` with two cards still to come traded."""
    twin: Any = sampler.clone(state)
    twin.pack[twin.next], twin.pack[-1] = twin.pack[-1], twin.pack[twin.next]
    return twin


CASES = {  # game: (variant, players, turns, twin)
    "memorandum": ("six-jokers", 3, 8, memo_twin),
    "cribbage-square": ("standard", 2, 6, square_twin),
}


def agree(game: str, state: State, seat: int, sample: Sample) -> bool:
    """Whether `sample` deals the same from `state` and from its twin with other hidden cards."""
    name, players, _, twin_of = CASES[game]
    variant = find_game(game).variant(name)
    sampler = variant.game.sampler()
    assert sampler is not None
    twin = twin_of(state, sampler, seat)
    assert twin.view(seat) == state.view(seat)
    assert twin.seen_by(seat, 0, len(twin.log)) == state.seen_by(seat, 0, len(state.log))
    return digest(sample(state, seat), players) == digest(sample(twin, seat), players)


def real(game: str, seed: int) -> tuple[Variant, int, State, int]:
    """A game in progress, its variant, table size and a seat to act."""
    name, players, turns, _ = CASES[game]
    variant = find_game(game).variant(name)
    state = advance(variant, players, seed, turns)
    return variant, players, state, state.to_act()[0]


@pytest.mark.parametrize("game", sorted(CASES))
@pytest.mark.parametrize("seed", [1, 2])
def test_a_sampler_reads_nothing_the_seat_cannot_see(game: str, seed: int) -> None:
    variant, players, state, seat = real(game, seed)
    assert agree(game, state, seat, honest(variant, players))


@pytest.mark.parametrize("game", sorted(CASES))
def test_the_check_catches_a_sampler_that_peeks(game: str) -> None:
    variant, players, state, seat = real(game, 3)

    def leaky(truth: State, at: int) -> list[State]:
        samples = honest(variant, players)(truth, at)
        for sampled in samples:
            if isinstance(sampled, MemorandumState):  # another hand as it really is
                other = next(s for s in sampled.holders if s != at)
                sampled.hands[other] = truth.hands[other]  # type: ignore[attr-defined]
            else:  # the next card as it really is
                sampled.pack = list(truth.pack)  # type: ignore[attr-defined]
        return samples

    assert not agree(game, state, seat, leaky)


@pytest.mark.parametrize("game", sorted(CASES))
@pytest.mark.parametrize("seed", [4, 5, 6])
def test_samples_agree_with_what_the_seat_sees(game: str, seed: int) -> None:
    variant, players, state, seat = real(game, seed)
    sampler = variant.game.sampler()
    assert sampler is not None
    for sampled in sampler.sample(knowledge(variant, state, seat, players), 5,
                                  random.Random(seed)):
        assert sampled.view(seat) == state.view(seat)
        assert sampled.to_act() == state.to_act()
        assert sampled.legal(seat) == state.legal(seat)
        assert sorted(map(str, sampled.inventory())) == sorted(map(str, state.inventory()))
        if game == "memorandum":  # the seat remembers its own hand
            assert sampled.hands[seat] == state.hands[seat]  # type: ignore[attr-defined]
        else:  # the cards turned up stay in the order they came
            assert sampled.pack[:state.next] == state.pack[:state.next]  # type: ignore[attr-defined]


def test_memorandum_a_card_claimed_alone_is_dealt_to_its_claimant() -> None:
    variant = find_game("memorandum").variant("six-jokers")
    state: Any = advance(variant, 3, 9, 21, elephant)  # the deal, then 20 calls
    assert state.phase is Phase.CALL
    seat, other = state.holders
    claimed = [c for c in state.called_cards[:-1] if c in state.hands[other]]
    assert len(claimed) >= 2  # claimed by `other` alone, as it holds them
    sampler = variant.game.sampler()
    assert sampler is not None
    samples = sampler.sample(knowledge(variant, state, seat, 3), 40, random.Random(1))
    placed = sum(c in s.hands[other] for s in samples for c in claimed)  # type: ignore[attr-defined]
    # dealt blindly, a card would be in that hand 9 times in 45; the claims make it most times
    assert placed / (len(samples) * len(claimed)) > 0.7


def test_memorandum_a_playout_stops_when_the_deal_is_scored() -> None:
    variant = find_game("memorandum").variant("six-jokers")
    state: Any = advance(variant, 3, 2, 3)
    sampler = variant.game.sampler()
    assert sampler is not None
    assert not sampler.playout_over(state)
    while state.phase is Phase.CALL:
        state.apply_joint({s: Say.PASS for s in state.to_act()})
    assert sampler.playout_over(state)
