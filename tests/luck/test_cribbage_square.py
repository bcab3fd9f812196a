"""Cribbage Square's luck model: one finite luck a seat, reproducible, the exact expectations
equal to the means over the cards not turned up, mean zero, and a smaller variance of the score
difference once the luck is taken out."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping

import pytest

from arena.api import Action
from arena.cards import standard_deck
from arena.engine import find_game
from arena.games.cribbage_square.luck import SquareLuck, Starters
from arena.games.cribbage_square.scoring import hand_points
from arena.games.cribbage_square.state import SquareState
from arena.luck.model import Alternatives, LuckModel
from arena.record import GameRecord
from tests.luck.games import (
    assert_reproducible,
    difference_ratio,
    one_finite_value_a_seat,
    played_with,
)
from tests.luck.helpers import assert_each_mean_zero, assert_mean_zero, audit, bot_luck

GAME = find_game("cribbage-square")
SPECS = ["square-greedy", "random"]
"""The bots the mean-zero and narrowing checks seat."""


def test_a_game_has_one_finite_luck_a_seat_and_the_same_again() -> None:
    specs = ["square-greedy", "random", "square-greedy"]
    assert_reproducible(GAME.name, specs, 3, "square-last-cards/1")


@pytest.mark.parametrize(("preset", "specs"), [
    ("standard", ["square-greedy"]),
    ("standard", ["square-greedy", "random"]),
    ("grid", ["random", "square-greedy", "random"]),
])
def test_the_exact_expectations_are_the_means_over_the_cards_not_turned_up(
        preset: str, specs: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The last card and the starter of every game, against the mean over `joint_reveals`."""
    made = audit(monkeypatch, GAME)
    records = list(played_with(GAME.name, preset, {}, specs, range(2)))
    assert all(one_finite_value_a_seat(r) for r in records)
    assert sum(m.checked for m in made) == 2 * len(records)


@pytest.fixture(scope="module")
def greedy_games() -> list[GameRecord]:
    """square-greedy against random on the first 150 deals, played once for the mean-zero and
    the narrowing checks."""
    return list(played_with(GAME.name, "standard", {}, SPECS, range(150)))


def test_the_luck_has_mean_zero(greedy_games: list[GameRecord]) -> None:
    """Over 150 deals: 3.5 standard errors are a chance of 1 in 2000 for a model of mean zero at
    any number of deals, and catch a biased model over 8 (below); 200 deals under slow."""
    assert_each_mean_zero(greedy_games, SPECS)


@pytest.mark.slow  # a long statistical run
def test_the_luck_has_mean_zero_over_200_deals() -> None:
    assert_each_mean_zero(list(played_with(GAME.name, "standard", {}, SPECS, range(200))),
                          SPECS)


def test_taking_the_luck_out_narrows_the_score_difference(greedy_games: list[GameRecord]
                                                          ) -> None:
    """square-greedy against random: var(difference less the luck difference) / var(difference)
    is about 0.5."""
    assert difference_ratio(greedy_games, "square-greedy", "random") < 0.7


def test_a_biased_set_of_cards_fails_the_mean_zero_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: with the card to come expected as the one worst for the square,
    the luck drifts, 5.8 standard errors from zero over 8 deals (as over 15)."""
    every_card = SquareLuck.joint_reveals

    def worst(self: SquareLuck, state: SquareState, actions: Mapping[int, Action]
              ) -> Alternatives[SquareState] | None:
        alternatives = every_card(self, state, actions)
        if alternatives is None:
            return None

        def value(alternative: SquareState) -> float:
            played = copy.deepcopy(alternative)
            played.apply_joint(actions)
            return self.value(played)[0]

        return [(1.0, min((a for _, a in alternatives), key=value))]

    monkeypatch.setattr(SquareLuck, "expected", LuckModel.expected)
    monkeypatch.setattr(SquareLuck, "joint_reveals", worst)
    records = list(played_with(GAME.name, "standard", {}, ["square-greedy"], range(8)))
    with pytest.raises(AssertionError, match="mean luck"):
        assert_mean_zero(bot_luck(records, "square-greedy"), "square-greedy")


def test_a_lines_points_over_a_set_of_starters_add_up_as_one_by_one() -> None:
    """`Starters.total` (rank part by rank, flush and nob by suit) against `hand_points` summed
    over each starter, on lines of every kind: flushes, jacks, runs, pairs."""
    rng = random.Random(3)
    for _ in range(300):
        pack = standard_deck()
        rng.shuffle(pack)
        line = pack[:4]
        if rng.random() < 0.3:
            line = [c for c in pack if c.suit is line[0].suit][:4]
        rest = [c for c in pack if c not in line][:rng.randrange(1, 48)]
        assert Starters(rest).total(line) == sum(hand_points(line, s) for s in rest)
