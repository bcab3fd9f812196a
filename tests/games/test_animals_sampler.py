"""Animals' sampler (`arena/games/animals/sampler.py`): it reads only the public events and the
view, and what it deals agrees with them: every card ever faced lies where the events took it
(so a pack turned over keeps its known order), a card seen on top of an up-pile stays there,
and only never-seen cards move between samples."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from arena.cards import Card
from arena.engine import Knowledge, State, find_game
from arena.games.animals import QUIET, AnimalsState, Faced, Paid, Source, call, partners
from arena.games.animals.sampler import AnimalsSampler

Sample = Callable[[AnimalsState, int], list[State]]


def knowledge(state: AnimalsState, seat: int) -> Knowledge:
    """What `seat` knows of `state`: the events it was shown and its view."""
    return Knowledge(state.params, state.seats, seat, state.seen_by(seat, 0, len(state.log)),
                     state.view(seat))


def advance(seed: int, players: int, faces: int) -> AnimalsState:
    """A game of alert callers (who now and then miss a match or call wrongly) played until
    `faces` cards have been faced (or it ends first)."""
    variant = find_game("animals").variant()
    rng = random.Random(seed)
    state = variant.game.new_state(variant.params, players, random.Random(f"deal:{seed}"))
    assert isinstance(state, AnimalsState)
    while state.faces < faces and state.to_act():
        joint = {}
        for seat in state.to_act():
            found = partners(state.tops(), seat, state.places)
            if rng.random() < 0.05:
                joint[seat] = rng.choice(state.legal(seat))
            else:
                joint[seat] = call(found[0]) if found and rng.random() < 0.7 else QUIET
        state.apply_joint(joint)
    return state


def faced(state: AnimalsState) -> set[Card]:
    """Every card faced so far in the game."""
    return {e.card for e in state.log if isinstance(e, Faced)}


def honest(state: AnimalsState, seat: int) -> list[State]:
    """The sampler, told what the seat knows."""
    return AnimalsSampler().sample(knowledge(state, seat), 4, random.Random(7))


def digest(states: list[State]) -> list[object]:
    """Every pack and up-pile, card by card."""
    out: list[object] = []
    for s in states:
        assert isinstance(s, AnimalsState)
        out.append((s.packs, s.piles))
    return out


def hidden_swapped(state: AnimalsState) -> AnimalsState:
    """A twin of `state` differing only in two cards nobody has seen, traded between two
    packs."""
    twin = AnimalsSampler().clone(state)
    assert isinstance(twin, AnimalsState)
    seen = faced(state)
    places = [(seat, i) for seat, pack in enumerate(twin.packs)
              for i, card in enumerate(pack) if card not in seen]
    (a, i), (b, j) = places[0], places[-1]
    assert a != b
    twin.packs[a][i], twin.packs[b][j] = twin.packs[b][j], twin.packs[a][i]
    return twin


def samples_agree(state: AnimalsState, seat: int, sample: Sample) -> bool:
    """Whether `sample` deals the same from `state` and from its twin."""
    twin = hidden_swapped(state)
    assert twin.view(seat) == state.view(seat)
    assert twin.seen_by(seat, 0, len(twin.log)) == state.seen_by(seat, 0, len(state.log))
    assert twin.packs != state.packs
    return digest(sample(state, seat)) == digest(sample(twin, seat))


@pytest.mark.parametrize(("players", "seat"), [(3, 0), (4, 2), (6, 5)])
def test_the_sampler_reads_nothing_the_seat_cannot_see(players: int, seat: int) -> None:
    state = advance(players, players, 20)
    assert samples_agree(state, seat, honest)


def test_the_check_catches_a_sampler_that_peeks() -> None:
    state = advance(3, 3, 20)

    def leaky(real: AnimalsState, seat: int) -> list[State]:
        samples = honest(real, seat)
        for sampled in samples:  # the packs as they really are
            sampled.packs = [list(p) for p in real.packs]  # type: ignore[attr-defined]
        return samples

    assert not samples_agree(state, 0, leaky)


def positions(players: int, faces: int) -> list[AnimalsState]:
    """Games still in progress after `faces` cards, from a few seeds."""
    found = []
    for seed in range(12):
        state = advance(seed, players, faces)
        if state.to_act():
            found.append(state)
    return found


@pytest.mark.parametrize(("players", "faces"), [(3, 5), (3, 60), (4, 100), (5, 70), (6, 60)])
def test_samples_show_the_seat_its_view_and_its_choices(players: int, faces: int) -> None:
    state = positions(players, faces)[0]
    seat = state.to_act()[-1]
    for sampled in AnimalsSampler().sample(knowledge(state, seat), 5, random.Random(faces)):
        assert sampled.view(seat) == state.view(seat)
        assert sampled.to_act() == state.to_act()
        assert sampled.legal(seat) == state.legal(seat)
        assert sorted(map(str, sampled.inventory())) == sorted(map(str, state.inventory()))
        assert sampled.outcome().scores == state.outcome().scores


@pytest.mark.parametrize(("players", "faces"), [(3, 20), (4, 35), (6, 30)])
def test_every_card_faced_lies_where_the_events_took_it(players: int, faces: int) -> None:
    state = positions(players, faces)[0]
    seen = faced(state)
    assert any(e.kind in ("took", "paid") for e in state.log)  # cards moved between seats
    samples = AnimalsSampler().sample(knowledge(state, 0), 6, random.Random(faces))
    moved = 0
    for sampled in samples:
        assert isinstance(sampled, AnimalsState)
        for real, dealt in [*zip(state.packs, sampled.packs, strict=True),
                            *zip(state.piles, sampled.piles, strict=True)]:
            for card, other in zip(real, dealt, strict=True):
                if card in seen:
                    assert other == card
                else:
                    moved += other != card
    assert moved > 0  # the unseen cards are dealt afresh


@pytest.mark.parametrize(("players", "faces"), [(3, 70), (4, 100), (6, 90)])
def test_once_every_card_was_faced_the_samples_are_the_table_itself(players: int,
                                                                      faces: int) -> None:
    state = next(s for s in positions(players, faces) if len(faced(s)) == 52)
    assert any(e.kind == "turned-over" for e in state.log)  # packs of a known order
    for sampled in AnimalsSampler().sample(knowledge(state, 1), 3, random.Random(faces)):
        assert isinstance(sampled, AnimalsState)
        assert (sampled.packs, sampled.piles) == (state.packs, state.piles)


def test_a_card_paid_from_a_pack_onto_an_empty_pile_is_seen_there() -> None:
    variant = find_game("animals").variant()
    state = variant.game.new_state(variant.params, 3, random.Random(4))
    assert isinstance(state, AnimalsState)
    # seat 0 faced the first card; seat 1 (no up-pile yet) calls seat 2 (none either): wrong
    state.apply_joint({0: QUIET, 1: call(2), 2: QUIET})
    paid = [e for e in state.log if isinstance(e, Paid)]
    assert paid and paid[0].source is Source.PACK
    top = state.piles[2][-1]
    assert top not in faced(state)
    for sampled in AnimalsSampler().sample(knowledge(state, 0), 8, random.Random(1)):
        assert isinstance(sampled, AnimalsState)
        assert sampled.piles[2] == [top]
