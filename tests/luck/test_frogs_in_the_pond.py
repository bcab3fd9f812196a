"""Frogs in the Pond's luck model: one finite luck a seat, reproducible, the exact expectations
equal to the means over the alternatives, mean zero, and a smaller variance of the score
difference once the luck is taken out."""

from __future__ import annotations

import pytest

from arena.engine import find_game
from arena.games.frogs_in_the_pond import luck
from arena.games.frogs_in_the_pond.state import FrogsState
from arena.games.frogs_in_the_pond.variants import hand_size
from arena.luck.model import Alternatives, LuckModel
from tests.luck.games import (
    assert_reproducible,
    difference_ratio,
    one_finite_value_a_seat,
    played_with,
)
from tests.luck.helpers import assert_mean_zero, audit, bot_luck

GAME = find_game("frogs-in-the-pond")
ONE_DEAL = {"target": "1", "max-deals": "1"}


def test_a_game_has_one_finite_luck_a_seat_and_the_same_again() -> None:
    assert_reproducible(GAME.name, ["frogs-sharp", "frogs-simple", "random"], 5, "frogs-points/1")


@pytest.mark.parametrize(("preset", "specs"), [
    ("standard", ["frogs-sharp", "random"]),
    ("standard", ["frogs-sharp", "frogs-simple", "random", "frogs-simple"]),
    ("tadpole", ["frogs-sharp", "frogs-simple", "random"]),
    ("four-individual", ["frogs-sharp", "frogs-simple", "random", "frogs-sharp"]),
])
def test_the_exact_expectations_are_the_means_over_the_alternatives(
        preset: str, specs: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Every deal (its exact expectation) and every frog (one a trick), against the mean over
    `reveals`."""
    made = audit(monkeypatch, GAME)
    records = list(played_with(GAME.name, preset, ONE_DEAL, specs, range(2)))
    assert all(one_finite_value_a_seat(r) for r in records)
    assert sum(m.checked for m in made) == len(records) * (1 + hand_size(len(specs)))


@pytest.mark.parametrize(("preset", "specs", "deals"), [
    ("standard", ["frogs-sharp", "random"], 300),
    ("standard", ["frogs-sharp", "frogs-simple", "random", "frogs-simple"], 160),
])
def test_the_luck_has_mean_zero(preset: str, specs: list[str], deals: int) -> None:
    records = list(played_with(GAME.name, preset, ONE_DEAL, specs, range(deals)))
    for spec in sorted(set(specs)):
        assert_mean_zero(bot_luck(records, spec), f"{spec} in {preset}")


def test_taking_the_luck_out_narrows_the_score_difference() -> None:
    """frogs-sharp against frogs-simple, two seats, whole games to 100: var(difference less the
    luck difference) / var(difference) is about 0.6."""
    records = list(played_with(GAME.name, "standard", {}, ["frogs-sharp", "frogs-simple"],
                               range(80)))
    assert difference_ratio(records, "frogs-sharp", "frogs-simple") < 0.8


def test_a_biased_set_of_frogs_fails_the_mean_zero_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: with the frog expected as the worst of the pond, the luck drifts."""

    every_frog = luck.frog_alternatives

    def worst_frog(state: FrogsState) -> Alternatives[FrogsState]:
        alternatives = every_frog(state)
        worst = min(alternatives, key=lambda a: state.params.points(a[1].pond[-1]))
        return [(1.0, worst[1])]

    monkeypatch.setattr(luck, "frog_alternatives", worst_frog)
    monkeypatch.setattr(luck.FrogsLuck, "expected", LuckModel.expected)
    records = list(played_with(GAME.name, "standard", ONE_DEAL, ["frogs-sharp", "random"],
                               range(40)))
    with pytest.raises(AssertionError, match="mean luck"):
        assert_mean_zero(bot_luck(records, "frogs-sharp"), "frogs-sharp")
