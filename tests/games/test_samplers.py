"""The samplers of hidden states (`Game.sampler()`): they read only what the seat knows, and what
they deal agrees with it: the seat's view, the whole pack, and what the others' actions showed."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from arena.api import Event
from arena.engine import Knowledge, Sampler, State, Variant, find_game
from arena.games.dig import Dug, Named, Passed, Played, Started, Target
from arena.games.frogs_in_the_pond import Phase as FrogsPhase
from arena.games.frogs_in_the_pond import Played as FrogPlayed
from arena.games.frogs_in_the_pond import TrickWon

SAMPLED = ("dig", "old-mans-bundle", "frogs-in-the-pond")


def knowledge(variant: Variant, state: State, seat: int) -> Knowledge:
    """What `seat` knows of `state`: the events it was shown and its view."""
    return Knowledge(variant.params, 2, seat, state.seen_by(seat, 0, len(state.log)),
                     state.view(seat))


def advance(variant: Variant, seed: int, seat: int, plays: int) -> State:
    """A two-player game played at random until `seat` is to act after at least `plays` turns
    (with more than one choice)."""
    rng = random.Random(seed)
    state = variant.game.new_state(variant.params, 2, random.Random(f"deal:{seed}"))
    done = 0
    while state.to_act():
        (who,) = state.to_act()
        legal = state.legal(who)
        if who == seat and done >= plays and len(legal) > 1 and _hidden(state, seat):
            return state
        state.apply(who, legal[rng.randrange(len(legal))])
        done += 1
    raise AssertionError("the game ended first")


def _hidden(state: Any, seat: int) -> bool:
    """Whether the other hand and the stock (or pond) both hold cards."""
    rest = state.pond if hasattr(state, "pond") else state.stock
    return bool(state.hands[1 - seat]) and bool(rest)


def hidden_swapped(state: State, sampler: Sampler, seat: int) -> State:
    """A twin of `state` that differs only in what `seat` cannot see: one card of the other
    hand traded with one of the stock (or the pond)."""
    twin: Any = sampler.clone(state)
    other = twin.hands[1 - seat]
    rest = twin.pond if hasattr(twin, "pond") else twin.stock
    other[0], rest[0] = rest[0], other[0]
    return twin


def digest(states: list[State]) -> list[Any]:
    """What tells sampled states apart: every card where it lies, and every seat's view."""
    return [(tuple(s.inventory() or ()), tuple(s.view(i) for i in range(2))) for s in states]


def samples_agree(variant: Variant, state: State, seat: int,
                  sample: Callable[[State, int], list[State]]) -> bool:
    """Whether `sample` deals the same from `state` and from its twin with other hidden cards."""
    sampler = variant.game.sampler()
    assert sampler is not None
    twin = hidden_swapped(state, sampler, seat)
    assert twin.view(seat) == state.view(seat)
    assert twin.seen_by(seat, 0, len(twin.log)) == state.seen_by(seat, 0, len(state.log))
    assert twin.inventory() != state.inventory()
    return digest(sample(state, seat)) == digest(sample(twin, seat))


def honest(variant: Variant) -> Callable[[State, int], list[State]]:
    """The game's sampler, told what the seat knows."""
    sampler = variant.game.sampler()
    assert sampler is not None
    return lambda state, seat: sampler.sample(knowledge(variant, state, seat), 4,
                                              random.Random(7))


@pytest.mark.parametrize("game", SAMPLED)
@pytest.mark.parametrize("seat", [0, 1])
def test_a_sampler_reads_nothing_the_seat_cannot_see(game: str, seat: int) -> None:
    variant = find_game(game).variant()
    state = advance(variant, 11 + seat, seat, 6)
    assert samples_agree(variant, state, seat, honest(variant))


@pytest.mark.parametrize("game", SAMPLED)
def test_the_check_catches_a_sampler_that_peeks(game: str) -> None:
    variant = find_game(game).variant()
    sampler = variant.game.sampler()
    assert sampler is not None
    state = advance(variant, 5, 0, 6)

    def leaky(real: State, seat: int) -> list[State]:
        samples = honest(variant)(real, seat)
        for sampled in samples:  # the other hand as it really is
            sampled.hands[1 - seat] = list(real.hands[1 - seat])  # type: ignore[attr-defined]
        return samples

    assert not samples_agree(variant, state, 0, leaky)


@pytest.mark.parametrize("game", SAMPLED)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_samples_agree_with_what_the_seat_sees(game: str, seed: int) -> None:
    variant = find_game(game).variant()
    seat = seed % 2
    state = advance(variant, seed, seat, 4 + 3 * seed)
    sampler = variant.game.sampler()
    assert sampler is not None
    for sampled in sampler.sample(knowledge(variant, state, seat), 5, random.Random(seed)):
        assert sampled.view(seat) == state.view(seat)
        assert sampled.to_act() == state.to_act()
        assert sampled.legal(seat) == state.legal(seat)
        assert sorted(map(str, sampled.inventory() or ())) == sorted(
            map(str, state.inventory() or ()))
        if game == "old-mans-bundle":  # public: rebuilt card by card from the events
            assert sampled.bundles == state.bundles  # type: ignore[attr-defined]


def test_a_sampler_is_deterministic_given_its_rng() -> None:
    variant = find_game("dig").variant()
    state = advance(variant, 3, 0, 5)
    assert digest(honest(variant)(state, 0)) == digest(honest(variant)(state, 0))


def _target_of_last_opponent_dig(events: tuple[Event, ...], seat: int) -> Target | None:
    """The target the opponent last dug for, if it dug and then played the dug card and did
    nothing else since."""
    target, dug_for, since = None, None, 0
    for event in events:
        if isinstance(event, Started):
            target = Target.of(event.upcard)
        elif isinstance(event, Played):
            target = Target.of(event.card)
            since += 1
        elif isinstance(event, Named):
            target = Target(event.suit, event.rank)
        elif isinstance(event, Dug | Passed) and event.seat != seat:
            dug_for, since = (target if isinstance(event, Dug) else None), 0
    return dug_for if since == 1 else None


def test_dig_after_a_dig_the_opponent_holds_nothing_that_followed() -> None:
    variant = find_game("dig").variant()
    sampler = variant.game.sampler()
    assert sampler is not None
    found = 0
    for seed in range(40):
        state = advance(variant, seed, 0, 4)
        known = knowledge(variant, state, 0)
        failed = _target_of_last_opponent_dig(known.events, 0)
        if failed is None:
            continue
        found += 1
        assert not any(failed.accepts(c) for c in state.hands[1])  # type: ignore[attr-defined]
        for sampled in sampler.sample(known, 10, random.Random(seed)):
            assert not any(failed.accepts(c) for c in sampled.hands[1])  # type: ignore[attr-defined]
    assert found >= 2


def test_frogs_a_player_who_showed_out_is_dealt_none_of_the_suit() -> None:
    variant = find_game("frogs-in-the-pond").variant()
    sampler = variant.game.sampler()
    assert sampler is not None
    found = 0
    for seed in range(30):
        state = advance(variant, seed, 0, 12)
        if state.view(0).phase is not FrogsPhase.PLAY:  # type: ignore[attr-defined]
            continue
        known = knowledge(variant, state, 0)
        voids: set[Any] = set()
        led = None
        for event in known.events:
            if isinstance(event, FrogPlayed):
                if led is None:
                    led = event.card.suit
                elif event.seat == 1 and event.card.suit is not led:
                    voids.add(led)
            elif isinstance(event, TrickWon):
                led = None
            elif event.kind == "deal-started":
                voids, led = set(), None
        if not voids:
            continue
        found += 1
        for sampled in sampler.sample(known, 10, random.Random(seed)):
            assert not any(c.suit in voids for c in sampled.hands[1])  # type: ignore[attr-defined]
    assert found >= 2
