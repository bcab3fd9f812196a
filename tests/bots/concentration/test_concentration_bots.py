"""The bundled bots and the documented example bot, played through the real match loop."""

from __future__ import annotations

import math
import statistics
from pathlib import Path
from typing import Any

import pytest

from arena.api import Action, Bot, GameInfo, Observation, Recall
from arena.engine import find_game
from arena.errors import BotSpecError
from arena.games.concentration import PRESETS, MatchRule, cards_match
from arena.loader import BotSpec, resolve_bot
from arena.session import SeriesTally, play_series

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "first_bot.py"


def mean_scores(preset: str, specs: list[str], deals: int, seed: int = 1000) -> list[float]:
    """Mean score per entry over `deals` deals, each played in every rotation of the seats."""
    variant = find_game("concentration").variant(preset)
    bots = [resolve_bot(spec, "concentration") for spec in specs]
    tally = SeriesTally([b.name for b in bots])
    for game in play_series(variant, bots, seed, deals, rotate=True):
        assert not game.record.faults
        tally.add(game)
    return [row.mean_score for row in tally.summary()]


def test_the_documented_example_bot_plays_every_pair_variant() -> None:
    for preset in ("standard", "zebra", "any-color", "two-decks"):
        mine, greedy = mean_scores(preset, [f"{EXAMPLE}:FirstBot", "greedy"], deals=3)
        assert mine > 0 and greedy > 0


@pytest.mark.slow  # a long statistical run
def test_optimal_beats_greedy_with_seats_swapped() -> None:
    optimal, greedy = mean_scores("standard", ["optimal", "greedy"], deals=150)
    assert optimal - greedy > 1.0  # the exact expectation at 26 pairs is 3.20 (docs/strategy.md)


@pytest.mark.slow  # a long statistical run
@pytest.mark.parametrize("preset", sorted(set(PRESETS) - {"standard", "duel"}))
@pytest.mark.parametrize("players", [2, 3])
def test_optimal_plays_at_least_as_well_as_greedy(preset: str, players: int) -> None:
    scores = mean_scores(preset, ["optimal"] + ["greedy"] * (players - 1), deals=30)
    assert scores[0] >= statistics.mean(scores[1:]) - 0.25


def test_optimal_holds_its_own_in_the_duel() -> None:
    optimal, greedy = mean_scores("duel", ["optimal", "greedy"], deals=60)
    assert optimal >= greedy - 0.25


@pytest.mark.slow  # a long statistical run
def test_optimal_solitaire_takes_the_known_expected_number_of_turns() -> None:
    variant = find_game("concentration").variant("standard")
    optimal = resolve_bot("optimal")
    turns = [g.record.scores[0] for g in play_series(variant, [optimal], 0, 1500)]
    mean, error = statistics.mean(turns), statistics.stdev(turns) / math.sqrt(len(turns))
    assert abs(mean - 41.4435) < 4 * error


def test_optimal_turns_a_known_card_second_when_the_plan_says_so() -> None:
    deliberate: list[int] = []

    class Watching(Bot):
        """Wraps `optimal`, noting second flips that turn a known non-mate after a new card."""

        def __init__(self) -> None:
            self.inner = resolve_bot("optimal").make()
            self.recall = Recall()

        def start(self, info: GameInfo) -> None:
            super().start(info)
            self.inner.start(info)

        def act(self, obs: Observation[Any]) -> Action:
            before = dict(self.recall.cards)
            self.recall.update(obs.events)
            choice = self.inner.act(obs)
            up = obs.view.face_up
            if len(up) == 1 and up[0] not in before and choice in before:
                first = obs.view.cells[up[0]]
                if not cards_match(first, before[choice], MatchRule.RANK_COLOUR):
                    deliberate.append(choice)
            return choice

    spec = BotSpec("watching", "watching", Watching)
    variant = find_game("concentration").variant("standard")
    for game in play_series(variant, [spec, resolve_bot("greedy")], 0, 20):
        assert not game.record.faults
    assert deliberate, "optimal never turned a known card second in 20 games"


@pytest.mark.slow  # a long statistical run
def test_tracker_beats_greedy_when_cards_move() -> None:
    tracker, greedy = mean_scores("moving", ["tracker", "greedy"], deals=150)
    assert tracker - greedy > 0.5  # about 1.5 over 1,200 games


def test_forgetful_strength_follows_its_memory() -> None:
    weak, _ = mean_scores("standard", ["forgetful:recall=0.3,capacity=4", "greedy"], deals=40)
    strong, _ = mean_scores("standard", ["forgetful:recall=0.95,capacity=0", "greedy"], deals=40)
    assert weak + 3 < strong


@pytest.mark.parametrize("params", ["recall=1.5", "capacity=-1"])
def test_forgetful_rejects_parameters_out_of_range(params: str) -> None:
    with pytest.raises(BotSpecError, match="forgetful"):
        resolve_bot(f"forgetful:{params}")
