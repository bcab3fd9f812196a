"""`search` in Animals (bots/animals/search.py and the joint step of bots/algorithms/search.py):
its playout policy is `animals-sharp`'s rule, the others' calls come from it when all decide at
once, and search takes a big up-pile it matches."""

from __future__ import annotations

import random

from arena.api import GameInfo, Observation
from arena.engine import find_game
from arena.games.animals import QUIET, AnimalsState, Took, call, partners
from arena.match import bot_rng
from bots.algorithms.search import SearchBot
from bots.animals.heuristic import AnimalsSharpBot
from bots.animals.search import animals_caller


def game(seed: int, players: int = 3) -> AnimalsState:
    """A new game of Animals."""
    variant = find_game("animals").variant()
    state = variant.game.new_state(variant.params, players, random.Random(seed))
    assert isinstance(state, AnimalsState)
    return state


def sharp_positions(seed: int, players: int, faces: int) -> list[AnimalsState]:
    """Every position of a game of `animals-sharp` players, up to `faces` cards faced."""
    state = game(seed, players)
    found = []
    rng = random.Random(seed)
    while state.to_act() and state.faces < faces:
        found.append(find_game("animals").sampler().clone(state))  # type: ignore[union-attr]
        state.apply_joint({s: animals_caller(state, s, rng) for s in state.to_act()})
    return found


def search_bot(seat: int, players: int, samples: int = 8) -> SearchBot:
    """A started `search` bot in `seat`."""
    variant = find_game("animals").variant()
    bot = SearchBot(samples=samples)
    bot.start(GameInfo("animals", variant.label, variant.params_view, seat, players,
                       bot_rng(5, seat)))
    return bot


def test_the_playout_policy_is_the_sharp_bots_rule() -> None:
    sharp = AnimalsSharpBot()
    sharp.start(GameInfo("animals", "standard", {}, 0, 4, bot_rng(1, 0)))
    calls = 0
    for state in sharp_positions(2, 4, 150):
        for seat in state.to_act():
            obs = Observation(seat, state.legal(seat), (), state.view(seat))
            chosen = animals_caller(state, seat, random.Random(0))
            assert chosen == sharp.act(obs)
            calls += chosen != QUIET
    assert calls >= 5


def test_when_all_decide_at_once_the_others_call_by_the_policy() -> None:
    for state in sharp_positions(3, 3, 200):
        matched = [s for s in state.to_act() if partners(state.tops(), s, state.places)]
        if len(matched) >= 2 and 0 not in matched:
            break
    else:
        raise AssertionError("no match between the others")
    bot = search_bot(0, 3)
    start = len(state.log)
    bot.step(state, 0, QUIET)
    assert any(isinstance(e, Took) for e in state.log[start:])  # the others raced


def test_search_takes_a_big_up_pile_it_matches() -> None:
    checked = 0
    for seed in range(6):
        for state in sharp_positions(seed, 3, 120):
            found = partners(state.tops(), 0, state.places)
            if not found or max(len(state.piles[s]) for s in found) < 4:
                continue
            bot = search_bot(0, 3)
            obs = Observation(0, state.legal(0), state.seen_by(0, 0, len(state.log)),
                              state.view(0))
            assert bot.act(obs) in [call(s) for s in found]
            checked += 1
    assert checked >= 3
