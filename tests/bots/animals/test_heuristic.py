"""The Animals bots through the real match loop: who beats whom over seat-rotated deals, and
what each calls in a stacked position."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest

from arena.api import GameInfo, Observation
from arena.engine import find_game
from arena.errors import BotSpecError
from arena.games.animals import PRESETS, QUIET, AnimalsState, Stack, call
from arena.loader import resolve_bot
from arena.match import bot_rng, play_game
from arena.session import EntrySummary, SeriesTally, play_series
from bots.animals.heuristic import AnimalsSharpBot, AnimalsSimpleBot

GAME = find_game("animals")
SHARP = "bots.animals.heuristic:AnimalsSharpBot"
SIMPLE = "bots.animals.heuristic:AnimalsSimpleBot"


def series(specs: Sequence[str], deals: int, preset: str = "standard",
           seed: int = 700) -> list[EntrySummary]:
    """Per-entry summaries over `deals` deals, each played in every rotation of the seats."""
    variant = GAME.variant(preset)
    bots = [resolve_bot(spec, "animals") for spec in specs]
    tally = SeriesTally([b.name for b in bots])
    for game in play_series(variant, bots, seed, deals, rotate=True):
        assert not game.record.faults
        tally.add(game)
    return tally.summary()


@pytest.mark.parametrize("specs", [[SHARP, SIMPLE, "random"], [SHARP, SIMPLE, "random", SIMPLE]])
def test_sharp_beats_simple_and_simple_beats_random(specs: list[str]) -> None:
    sharp, simple, rand, *_ = series(specs, deals=6)
    assert sharp.mean_rank < simple.mean_rank - 0.4 and sharp.wins > simple.wins
    assert simple.mean_rank < rand.mean_rank - 0.4
    assert sharp.wins >= 0.6 * sharp.games


def test_sharp_never_calls_wrongly() -> None:
    variant = GAME.variant("standard")
    for seed in range(4):
        bots = [AnimalsSharpBot(), AnimalsSimpleBot(), AnimalsSharpBot(), AnimalsSimpleBot()]
        record = play_game(variant, bots, ["a", "b", "c", "d"], seed)
        wrong = record.final["wrong_calls"]
        assert wrong[0] == wrong[2] == 0
        assert record.final["races_won"][0] + record.final["races_won"][2] > 0


def observe(state: AnimalsState, seat: int) -> Observation[object]:
    """The observation `seat` gets now (with no events)."""
    return Observation(seat, state.legal(seat), (), state.view(seat))


def started(bot: AnimalsSharpBot | AnimalsSimpleBot, seat: int, seed: int = 0) -> None:
    """Start a bot in `seat` of a three-seat game."""
    bot.start(GameInfo("animals", "standard", {}, seat, 3, bot_rng(seed, seat)))


def stacked(packs: Mapping[int, str], piles: Mapping[int, str]) -> AnimalsState:
    """A stacked three-seat game: seat 0 has just faced the top card of its pack."""
    return AnimalsState(PRESETS["standard"], 3, random.Random(0), Stack(packs, piles))


def test_sharp_calls_the_match_with_the_biggest_pile_and_keeps_quiet_without_one() -> None:
    state = stacked({0: "7H 2C", 1: "3D", 2: "5S"}, {1: "7C", 2: "9S 8S 7D"})
    bots = [AnimalsSharpBot() for _ in range(3)]
    for seat, bot in enumerate(bots):
        started(bot, seat)
    assert bots[0].act(observe(state, 0)) == call(2)  # 7D's pile is the bigger
    assert bots[1].act(observe(state, 1)) == call(2)
    assert bots[2].act(observe(state, 2)) == call(0)
    state = stacked({0: "7H 2C", 1: "3D", 2: "5S"}, {1: "7C", 2: "7D"})
    assert bots[1].act(observe(state, 1)) == call(2)  # piles alike: the nearer on its left
    assert bots[2].act(observe(state, 2)) == call(0)
    state = stacked({0: "KH 2C", 1: "3D", 2: "5S"}, {1: "7C", 2: "7D"})
    assert bots[0].act(observe(state, 0)) == QUIET  # the 7s match each other, not the king


def test_simple_notices_matches_by_its_alertness_and_slips_by_its_slip() -> None:
    match = stacked({0: "7H 2C", 1: "3D", 2: "5S"}, {1: "7C", 2: "KD"})
    quiet = stacked({0: "QH 2C", 1: "3D", 2: "5S"}, {1: "7C", 2: "KD"})
    counts = {QUIET: 0, call(1): 0}
    for seed in range(200):
        bot = AnimalsSimpleBot(alertness=0.5, slip=0.0)
        started(bot, 0, seed)
        counts[bot.act(observe(match, 0))] += 1  # type: ignore[index]
    assert 70 < counts[call(1)] < 130
    always = AnimalsSimpleBot(alertness=1.0, slip=0.0)
    started(always, 0)
    assert all(always.act(observe(match, 0)) == call(1) for _ in range(20))
    assert all(always.act(observe(quiet, 0)) == QUIET for _ in range(20))
    slips = AnimalsSimpleBot(alertness=0.0, slip=1.0)
    started(slips, 0)
    assert {slips.act(observe(quiet, 0)) for _ in range(40)} == {call(1), call(2)}
    assert slips.act(observe(match, 0)) == QUIET  # a match it misses is not a slip


@pytest.mark.parametrize("params", ["alertness=1.5", "slip=-0.1"])
def test_simple_rejects_bad_parameters(params: str) -> None:
    with pytest.raises(BotSpecError, match=params.split("=")[0]):
        resolve_bot(f"{SIMPLE}:{params}")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_bot_plays_every_preset_without_faults(preset: str) -> None:
    variant = GAME.variant(preset)
    kinds = [AnimalsSharpBot, AnimalsSimpleBot, lambda: AnimalsSimpleBot(0.9, 0.1)]
    for players in (3, 6):
        bots = [kinds[s % len(kinds)]() for s in range(players)]
        record = play_game(variant, bots, [f"b{s}" for s in range(players)], seed=players)
        assert record.faults == ()
