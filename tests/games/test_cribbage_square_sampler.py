"""Cribbage Square's sampler (`arena/games/cribbage_square/sampler.py`): it reads only what the
seat knows (the squares and the card to lay, never the order of the rest of the pack), and what
it deals agrees with the table."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from arena.engine import Knowledge, State, Variant, find_game
from arena.games.cribbage_square import SquareState
from arena.games.cribbage_square.sampler import SquareSampler

Sample = Callable[[SquareState, int], list[State]]


def variant(preset: str = "standard") -> Variant:
    """A preset of Cribbage Square."""
    return find_game("cribbage-square").variant(preset)


def advance(seed: int, cards: int, players: int = 2, preset: str = "standard") -> SquareState:
    """A game laid at random until `cards` cards more have been laid."""
    chosen = variant(preset)
    state = chosen.game.new_state(chosen.params, players, random.Random(f"deal:{seed}"))
    assert isinstance(state, SquareState)
    rng = random.Random(seed)
    for _ in range(cards):
        state.apply_joint({s: state.legal(s)[rng.randrange(len(state.legal(s)))]
                           for s in state.to_act()})
    return state


def knowledge(state: SquareState, seat: int) -> Knowledge:
    """What `seat` knows of `state`: the events it was shown and its view."""
    return Knowledge(state.params, state.players, seat, state.seen_by(seat, 0, len(state.log)),
                     state.view(seat))


def honest(state: SquareState, seat: int) -> list[State]:
    """The game's sampler, told what the seat knows."""
    return SquareSampler().sample(knowledge(state, seat), 4, random.Random(7))


def peeking(state: SquareState, seat: int) -> list[State]:
    """A sampler that knows the next card off the real pack."""
    samples = honest(state, seat)
    for sampled in samples:
        assert isinstance(sampled, SquareState)
        real = state.pack[state.next]
        at = sampled.pack.index(real)
        sampled.pack[state.next], sampled.pack[at] = sampled.pack[at], sampled.pack[state.next]
    return samples


def rest_reordered(state: SquareState) -> SquareState:
    """A twin of `state` whose cards still to come lie in another order."""
    twin = SquareSampler().clone(state)
    assert isinstance(twin, SquareState)
    twin.pack[twin.next:] = list(reversed(twin.pack[twin.next:]))
    return twin


def agree(state: SquareState, seat: int, sample: Sample) -> bool:
    """Whether `sample` deals the same from `state` and from a twin with another order to
    come."""
    twin = rest_reordered(state)
    assert twin.view(seat) == state.view(seat)
    assert twin.pack != state.pack
    packs = [[s.pack for s in sample(real, seat)] for real in (state, twin)]  # type: ignore[attr-defined]
    return packs[0] == packs[1]


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("cards", [0, 5, 12])
def test_the_sampler_reads_nothing_of_the_order_to_come(seat: int, cards: int) -> None:
    assert agree(advance(cards + seat, cards), seat, honest)


def test_the_check_catches_a_sampler_that_peeks() -> None:
    assert not agree(advance(4, 6), 0, peeking)


@pytest.mark.parametrize("preset", sorted(find_game("cribbage-square").presets))
@pytest.mark.parametrize("players", [1, 2, 3])
def test_samples_show_the_table_as_it_is(preset: str, players: int) -> None:
    state = advance(players, 7, players, preset)
    for seat in range(players):
        for sampled in SquareSampler().sample(knowledge(state, seat), 3, random.Random(seat)):
            assert isinstance(sampled, SquareState)
            for each in range(players):
                assert sampled.view(each) == state.view(each)
                assert sampled.legal(each) == state.legal(each)
            assert sampled.to_act() == state.to_act()
            assert sorted(map(str, sampled.pack)) == sorted(map(str, state.pack))
            assert sampled.pack[:state.next] == state.pack[:state.next]


def test_the_order_to_come_is_shuffled_and_plays_to_the_end() -> None:
    state = advance(9, 3)
    samples = SquareSampler().sample(knowledge(state, 0), 6, random.Random(1))
    assert len({tuple(map(str, s.pack[state.next:])) for s in samples}) == 6  # type: ignore[attr-defined]
    played = samples[0]
    while played.to_act():
        played.apply_joint({s: played.legal(s)[0] for s in played.to_act()})
    assert len(played.outcome().scores) == 2
