"""`bundle-search`: its rank-level position plays as the engine does, its last-round solver is
exact, it plays the solver's move once the stock is out, and whole games replay exactly."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena.api import GameInfo, Observation
from arena.engine import ScoreOrder, find_game
from arena.games.old_mans_bundle import BundleState, Verb
from arena.games.old_mans_bundle import actions as bundle_actions
from arena.games.old_mans_bundle.sampler import BundleSampler
from arena.loader import resolve_bot
from arena.match import bot_rng, play_game
from bots.old_mans_bundle.search import (
    STEAL,
    TAKE,
    TRAIL,
    BundleSearchBot,
    Move,
    from_state,
    margin,
    moves,
    play,
    reply_aware,
    solve,
    solve_moves,
)
from tests.helpers import slow_unless

VERBS = {Verb.STEAL: STEAL, Verb.TAKE: TAKE, Verb.TRAIL: TRAIL}
PRESETS = ("standard", "last-taker", "single-take")


def move_of(action: Any) -> Move:
    """An engine action as a rank-level move."""
    read = bundle_actions.read(action)
    return VERBS[read.verb], read.card.rank.value


def new_game(seed: int, preset: str = "standard") -> BundleState:
    """A fresh game on `seed`."""
    variant = find_game("old-mans-bundle").variant(preset)
    state = variant.game.new_state(variant.params, 2, random.Random(f"deal:{seed}"))
    assert isinstance(state, BundleState)
    return state


def engine_margin(state: BundleState, seat: int) -> float:
    """The seat's bundle less the other's, by the engine's own outcome."""
    scores = state.outcome().scores
    assert state.outcome().order is ScoreOrder.HIGHER_WINS
    return scores[seat] - scores[1 - seat]


def last_round(seed: int, preset: str = "standard") -> BundleState:
    """A game played at random until the stock is out and seat 0, with three cards left (so
    that the engine's own exhaustive minimax is quick), has a choice to make."""
    rng = random.Random(seed)
    state = new_game(seed, preset)
    while (state.stock or state.seat != 0 or len(state.hands[0]) > 3
           or len({move_of(a) for a in state.legal(0)}) < 2):
        (seat,) = state.to_act()
        legal = state.legal(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
        assert state.to_act(), "the game ended first"
    return state


def engine_minimax(state: BundleState, sampler: BundleSampler) -> float:
    """Seat 0's exact margin with best play, over the engine's own states and every action."""
    if not state.to_act():
        return engine_margin(state, 0)
    (seat,) = state.to_act()
    values = []
    for action in state.legal(seat):
        twin = sampler.clone(state)
        assert isinstance(twin, BundleState)
        twin.apply(seat, action)
        values.append(engine_minimax(twin, sampler))
    return max(values) if seat == 0 else min(values)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("preset", PRESETS)
def test_the_position_plays_as_the_engine_does(seed: int, preset: str) -> None:
    rng = random.Random(seed)
    state = new_game(seed, preset)
    pos = from_state(state)
    while state.to_act():
        (seat,) = state.to_act()
        assert pos.seat == seat
        legal = state.legal(seat)
        assert moves(pos) == list(dict.fromkeys(move_of(a) for a in legal))
        action = legal[rng.randrange(len(legal))]
        state.apply(seat, action)
        play(pos, move_of(action))
        if state.to_act():
            mirror = from_state(state)
            assert (pos.hands, pos.table, pos.sizes, pos.tops, pos.stock, pos.last) == (
                mirror.hands, mirror.table, mirror.sizes, mirror.tops, mirror.stock,
                mirror.last)
    assert pos.seat == -1
    assert margin(pos, 0) == engine_margin(state, 0)


SOLVED_HERE = 2
"""Last rounds of each preset the default run solves against the engine's own exhaustive
minimax (which takes up to a second a round): every preset's rules, on two deals each;
`pytest -m slow` solves six of each."""


@pytest.mark.parametrize(("preset", "seed"), [
    slow_unless(seed < SOLVED_HERE, preset, seed, id=f"{preset}-{seed}")
    for preset in PRESETS for seed in range(6)])
def test_the_last_round_is_solved_exactly(seed: int, preset: str) -> None:
    state = last_round(seed, preset)
    sampler = BundleSampler()
    assert solve(from_state(state)) == engine_minimax(state, sampler)
    values = solve_moves(from_state(state))
    for action in state.legal(0):
        twin = sampler.clone(state)
        assert isinstance(twin, BundleState)
        twin.apply(0, action)
        assert values[move_of(action)] == engine_minimax(twin, sampler)


@pytest.mark.parametrize("seed", range(8))
def test_with_the_stock_out_it_plays_the_solvers_best_move(seed: int) -> None:
    state = last_round(seed)
    bot = BundleSearchBot(samples=2)
    bot.start(GameInfo("old-mans-bundle", "standard", {}, 0, 2, bot_rng(seed, 0)))
    chosen = bot.act(Observation(0, state.legal(0), state.seen_by(0, 0, len(state.log)),
                                 state.view(0)))
    values = solve_moves(from_state(state))
    assert values[move_of(chosen)] == max(values.values())


def test_the_playout_policy_weighs_the_opponents_best_reply() -> None:
    pos = from_state(last_round(3))
    # taking the two fives gains most at once, but tops seat 0's bundle of 13 with a five the
    # opponent holds; trailing the four gives the opponent least
    pos.seat, pos.hands = 0, [[4, 5], [2, 5]]
    pos.table = [0] * 14
    pos.table[5] = 2
    pos.sizes, pos.tops = [10, 0], [7, 0]
    assert reply_aware(pos, random.Random(0)) == (TRAIL, 4)


def test_whole_games_play_without_fault_and_replay_exactly() -> None:
    variant = find_game("old-mans-bundle").variant()
    spec, other = resolve_bot("bundle-search:samples=3", "old-mans-bundle"), resolve_bot(
        "bundle-sharp", "old-mans-bundle")
    records = [play_game(variant, [spec.make(), other.make()], ["search", "sharp"], 7)
               for _ in range(2)]
    assert records[0].faults == ()
    assert records[0].to_json() == records[1].to_json()


def test_parameters_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError, match="policy"):
        BundleSearchBot(policy="clever")
