"""Paved with Gold's sampler: it reads only what the seat knows, and what it deals agrees with
it: the seat's view and legal actions, the cards it looked at, and the places others looked at."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena.engine import Knowledge, Variant, find_game
from arena.games.paved_with_gold import Phase
from arena.games.paved_with_gold.sampler import PavedSample, PavedSampler
from arena.games.paved_with_gold.state import PavedState


def variant() -> Variant:
    """The standard game."""
    return find_game("paved-with-gold").variant()


def knowledge(state: PavedState, seat: int) -> Knowledge:
    """What `seat` knows of `state`: the events it was shown and its view."""
    return Knowledge(state.params, state.players, seat, state.seen_by(seat, 0, len(state.log)),
                     state.view(seat))


def advance(seed: int, seat: int, turns: int, players: int = 2,
            phase: Phase | None = None) -> PavedState:
    """A game played by looking at random places (claims now and then, some of them false)
    until `seat` is to act after at least `turns` turns, in `phase` if given."""
    rng = random.Random(seed)
    state = PavedState(variant().params, players, random.Random(f"deal:{seed}"))
    while state.to_act():
        (who,) = state.to_act()
        legal = state.legal(who)
        ready = who == seat and state.turns >= turns and len(legal) > 1 and state.stock
        if ready and (phase is None or state.phase is phase):
            return state
        looks = [a for a in legal if a[0] in ("look", "put-back", "turn-up", "bonus-to")]
        pool = looks if looks and rng.random() < 0.9 else list(legal)
        if state.phase is Phase.LOOK and rng.random() < 0.15:
            pool = [a for a in legal if a[0] == "claim"] or pool
        state.apply(who, pool[rng.randrange(len(pool))])
    raise AssertionError("the game ended first")


def unknown_places(state: PavedState, seat: int) -> list[int]:
    """Face-down places whose card `seat` has not seen since it was dealt there."""
    sampler = PavedSampler()
    sample: Any = sampler.sample(knowledge(state, seat), 1, random.Random(0))[0]
    return [p for p, card in enumerate(state.square)
            if card is not None and p not in sample.known[seat]]


def swapped(state: PavedState, seat: int) -> PavedState:
    """A twin of `state` that differs only in what `seat` cannot see: the card of a place it
    does not know traded with one of the stock."""
    twin: Any = PavedSampler().clone(state)
    p = unknown_places(state, seat)[0]
    twin.square[p], twin.stock[0] = twin.stock[0], twin.square[p]
    return twin


def digest(states: list[Any]) -> list[Any]:
    """What tells sampled states apart: every card where it lies, and every seat's view."""
    return [(tuple(s.square), tuple(s.stock), tuple(s.view(i) for i in range(s.players)))
            for s in states]


def honest(state: PavedState, seat: int) -> list[Any]:
    """The sampler, told what the seat knows."""
    return PavedSampler().sample(knowledge(state, seat), 4, random.Random(7))


def agree(state: PavedState, seat: int, sample: Any) -> bool:
    """Whether `sample` deals the same from `state` and from its twin with other hidden cards."""
    twin = swapped(state, seat)
    assert twin.view(seat) == state.view(seat)
    assert twin.seen_by(seat, 0, len(twin.log)) == state.seen_by(seat, 0, len(state.log))
    assert (twin.square, twin.stock) != (state.square, state.stock)
    return bool(digest(sample(state, seat)) == digest(sample(twin, seat)))


def test_the_game_supplies_its_sampler() -> None:
    assert isinstance(variant().game.sampler(), PavedSampler)


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("phase", [Phase.LOOK, Phase.HOLD, Phase.TURN_UP])
def test_the_sampler_reads_nothing_the_seat_cannot_see(seat: int, phase: Phase) -> None:
    state = advance(20 + seat, seat, 8, phase=phase)
    assert agree(state, seat, honest)


def test_the_check_catches_a_sampler_that_peeks() -> None:
    state = advance(5, 0, 8)

    def leaky(real: PavedState, seat: int) -> list[Any]:
        samples = honest(real, seat)
        for sampled in samples:  # the square as it really is
            sampled.square = list(real.square)
            sampled.stock = list(real.stock)
        return samples

    assert not agree(state, 0, leaky)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_samples_agree_with_what_the_seat_sees(players: int, seed: int) -> None:
    seat = seed % players
    phase = (Phase.LOOK, Phase.HOLD, Phase.TURN_UP, Phase.HOLD)[seed - 1]
    state = advance(seed, seat, 3 + 3 * seed, players, phase)
    for sampled in PavedSampler().sample(knowledge(state, seat), 5, random.Random(seed)):
        assert sampled.view(seat) == state.view(seat)
        assert sampled.to_act() == state.to_act()
        assert sampled.legal(seat) == state.legal(seat)
        assert sorted(map(str, sampled.inventory())) == sorted(map(str, state.inventory()))
        assert sampled.outcome().scores == state.outcome().scores


def test_a_bonus_choice_is_sampled_with_the_claim_pending() -> None:
    found = 0
    for seed in range(60):
        try:
            state = advance(seed, seed % 3, 2, 3, Phase.BONUS_TO)
        except AssertionError:
            continue
        found += 1
        seat = seed % 3
        for sampled in PavedSampler().sample(knowledge(state, seat), 3, random.Random(seed)):
            assert sampled.view(seat) == state.view(seat)
            for action in state.legal(seat):  # the cards go where the choice says
                twin, real = PavedSampler().clone(sampled), PavedSampler().clone(state)
                twin.apply(seat, action)
                real.apply(seat, action)
                assert twin.view(seat).bonus == real.view(seat).bonus
                assert twin.phase is real.phase and twin.seat == real.seat
        if found >= 3:
            break
    assert found >= 3


@pytest.mark.parametrize("seed", [6, 7, 8])
def test_every_sample_keeps_the_cards_the_seat_saw_and_deals_the_rest(seed: int) -> None:
    seat = seed % 2
    state = advance(seed, seat, 10)
    unknown = set(unknown_places(state, seat))
    seen = {p for p, card in enumerate(state.square) if card is not None} - unknown
    assert seen and unknown
    samples: list[Any] = PavedSampler().sample(knowledge(state, seat), 30, random.Random(seed))
    for sampled in samples:
        assert all(sampled.square[p] == state.square[p] for p in seen)
        assert len(sampled.stock) == len(state.stock)
    # the hidden cards are dealt afresh, differently from one sample to the next
    assert any(any(s.square[p] != state.square[p] for p in unknown) for s in samples)
    assert len({(tuple(s.square), tuple(s.stock)) for s in samples}) > 1


def test_what_each_seat_knows_follows_its_looks() -> None:
    state = advance(9, 0, 10)
    seen_by_other = {p for p in range(25)
                     if state.square[p] is not None and p in _looked_at(state, 1)}
    assert seen_by_other
    for sampled in PavedSampler().sample(knowledge(state, 0), 3, random.Random(1)):
        assert isinstance(sampled, PavedSample)
        assert sampled.known[1] == seen_by_other
        twin: Any = PavedSampler().clone(sampled)
        place = next(a[1] for a in twin.legal(0) if a[0] == "look")
        twin.apply(0, ("look", place))
        assert place in twin.known[0] and place not in sampled.known[0]


def _looked_at(state: PavedState, seat: int) -> set[int]:
    """The places `seat` looked at whose card has not left the square since (the real log)."""
    places: set[int] = set()
    for event in state.log:
        if event.kind == "look" and event.seat == seat:
            places.add(event.position)  # type: ignore[attr-defined]
        elif event.kind in ("won", "bonus"):
            places -= set(event.positions)  # type: ignore[attr-defined]
    return places


def test_a_sample_is_deterministic_given_its_rng() -> None:
    state = advance(3, 0, 5)
    assert digest(honest(state, 0)) == digest(honest(state, 0))
