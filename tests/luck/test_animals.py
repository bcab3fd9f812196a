"""Animals' luck model: one finite luck a seat, reproducible, only the lots between right calls
counted (each right caller winning in turn), mean zero, and a smaller variance of the score
difference once the luck is taken out."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from arena.api import Action
from arena.engine import find_game
from arena.games.animals import Stack, call
from arena.games.animals.luck import AnimalsLuck, lot_entrants
from arena.games.animals.state import AnimalsState
from arena.luck.model import Values
from arena.record import GameRecord
from tests.luck.games import (
    assert_reproducible,
    difference_ratio,
    one_finite_value_a_seat,
    played_with,
)
from tests.luck.helpers import assert_each_mean_zero, assert_mean_zero, audit, bot_luck

GAME = find_game("animals")
TABLE = ["animals-sharp", "animals-simple:alertness=0.9", "animals-simple"]


def test_a_game_has_one_finite_luck_a_seat_and_the_same_again() -> None:
    specs = ["animals-sharp", "animals-simple", "random", "animals-simple"]
    assert_reproducible(GAME.name, specs, 7, "animals-lots/1")


def test_a_lot_is_drawn_only_between_two_or_more_right_calls() -> None:
    """Seats 0 and 1 match (7H faced on 7C): both calling right makes a lot; one right call,
    or a wrong one beside it, does not."""
    table = AnimalsState(GAME.presets["standard"], 3, random.Random(0),
                         Stack(packs={0: "7H 2S", 1: "3D", 2: "4C"},
                               piles={1: "9S 7C", 2: "KD"}))
    quiet = {1: "quiet", 2: "quiet"}
    assert lot_entrants(table, {0: call(1), 1: call(0), 2: "quiet"}) == (0, 1)
    assert lot_entrants(table, {0: call(1), **quiet}) == ()
    assert lot_entrants(table, {0: call(1), 1: "quiet", 2: call(0)}) == ()
    model = AnimalsLuck()
    alternatives = model.joint_reveals(table, {0: call(1), 1: call(0), 2: "quiet"})
    assert alternatives is not None and [p for p, _ in alternatives] == [0.5, 0.5]
    winners = []
    for _, twin in alternatives:
        twin.apply_joint({0: call(1), 1: call(0), 2: "quiet"})
        winners.append(max(range(3), key=lambda s: twin.held(s)))
    assert winners == [0, 1]


def test_the_expectations_are_the_means_over_the_lots(monkeypatch: pytest.MonkeyPatch) -> None:
    made = audit(monkeypatch, GAME)
    records = list(played_with(GAME.name, "standard", {}, TABLE, range(3)))
    assert all(one_finite_value_a_seat(r) for r in records)
    assert sum(m.checked for m in made) > 10


@pytest.fixture(scope="module")
def table_games() -> list[GameRecord]:
    """TABLE's first 150 deals, played once for the mean-zero and the narrowing checks."""
    return list(played_with(GAME.name, "standard", {}, TABLE, range(150)))


def test_the_luck_has_mean_zero(table_games: list[GameRecord]) -> None:
    """Over 150 deals: 3.5 standard errors are a chance of 1 in 2000 for a model of mean zero at
    any number of deals, and catch a biased model over 40 (below); 300 deals under slow."""
    assert_each_mean_zero(table_games, TABLE)


@pytest.mark.slow  # a long statistical run
def test_the_luck_has_mean_zero_over_300_deals() -> None:
    assert_each_mean_zero(list(played_with(GAME.name, "standard", {}, TABLE, range(300))),
                          TABLE)


@pytest.mark.parametrize(("specs", "bound"), [
    (TABLE, 0.85),
    (["animals-sharp", "animals-simple", "random"], 1.0),
])
def test_taking_the_luck_out_narrows_the_score_difference(specs: list[str], bound: float,
                                                          request: pytest.FixtureRequest
                                                          ) -> None:
    """The first two bots' score difference: var(difference less the luck difference) /
    var(difference) is about 0.7 for close bots, whose races the lots settle, and 0.9 for
    far ones."""
    records = (request.getfixturevalue("table_games") if specs == TABLE
               else list(played_with(GAME.name, "standard", {}, specs, range(150))))
    assert difference_ratio(records, specs[0], specs[1]) < bound


def test_a_biased_lot_fails_the_mean_zero_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: with every player expecting to win every lot it is in, the luck
    drifts below zero."""

    def hopeful(self: AnimalsLuck, state: AnimalsState, actions: Mapping[int, Action]
                ) -> Values | None:
        alternatives = self.joint_reveals(state, actions)
        if alternatives is None:
            return None
        values = []
        for _, twin in alternatives:
            twin.apply_joint(actions)
            values.append(self.value(twin))
        return tuple(max(v[seat] for v in values) for seat in range(len(values[0])))

    monkeypatch.setattr(AnimalsLuck, "expected_joint", hopeful)
    records = list(played_with(GAME.name, "standard", {}, TABLE, range(40)))
    with pytest.raises(AssertionError, match="mean luck"):
        assert_mean_zero(bot_luck(records, "animals-sharp"), "animals-sharp")
