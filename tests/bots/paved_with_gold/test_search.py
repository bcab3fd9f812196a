"""Paved with Gold's playout policy for `search`: each seat plays from its own known places, and
every action tried on one sample is played out with the same chances."""

from __future__ import annotations

import random
from typing import Any

from arena.engine import Knowledge, find_game
from arena.games.paved_with_gold import Failed, PavedState, Won
from arena.games.paved_with_gold.sampler import PavedSampler
from bots.paved_with_gold.search import paved_greedy

GAME = find_game("paved-with-gold")


def sampled(seed: int, looks: int = 6, horizon: int = 0) -> Any:
    """A sample of a game in which the seats looked at a few places each (seat 0 to act)."""
    state = PavedState(GAME.variant().params, 2, random.Random(seed))
    rng = random.Random(seed)
    for _ in range(looks):
        (who,) = state.to_act()
        for _ in range(2):
            state.apply(who, rng.choice([a for a in state.legal(who) if a[0] == "look"]))
        state.apply(who, ("put-back",))
    known = Knowledge(state.params, 2, 0, state.seen_by(0, 0, len(state.log)), state.view(0))
    return PavedSampler(horizon).sample(known, 1, random.Random(seed))[0]


def play_out(state: Any, rng: random.Random | None = None) -> Any:
    """`state` played to its end by the playout policy."""
    rng = rng or random.Random(0)
    while state.to_act():
        (who,) = state.to_act()
        state.apply(who, paved_greedy(state, who, rng))
    return state


def test_each_seat_claims_only_what_it_knows() -> None:
    claims = 0
    for seed in range(6):
        state = play_out(sampled(seed))
        assert not any(isinstance(e, Failed) for e in state.log)
        claims += sum(isinstance(e, Won) for e in state.log)
    assert claims >= 30


def test_every_clone_of_a_sample_plays_out_alike() -> None:
    sample = sampled(3)
    sampler = PavedSampler()
    shared = random.Random(0)  # the policy's chance comes from the sample, not from here
    first, second = play_out(sampler.clone(sample), shared), play_out(sampler.clone(sample), shared)
    assert first.outcome().scores == second.outcome().scores
    assert first.log == second.log


def test_a_playout_stops_at_the_horizon() -> None:
    sample = sampled(4, horizon=3)
    sampler = PavedSampler()
    twin = sampler.clone(sample)
    turns = twin.turns
    while twin.to_act() and not sampler.playout_over(twin):
        (who,) = twin.to_act()
        twin.apply(who, paved_greedy(twin, who, random.Random(0)))
    assert twin.turns == turns + 3


def test_a_seat_that_knows_nothing_looks_rather_than_claims() -> None:
    for seed in range(5):
        state = sampled(seed, looks=0)
        state.known = [set(), set()]
        rng = random.Random(seed)
        for _ in range(2):  # a peeking policy would claim five of a colour it cannot know
            action = paved_greedy(state, 0, rng)
            assert action[0] == "look"
            state.apply(0, action)
