"""Paved with Gold's luck model: one finite luck a seat, reproducible, the exact expectation
equal to the mean over the cards nobody has seen, mean zero, no luck between bots that claim only
what they know, and a smaller variance of the score difference against a bot that does not."""

from __future__ import annotations

import pytest

from arena.api import Action
from arena.engine import find_game
from arena.games.paved_with_gold.luck import PavedLuck
from arena.games.paved_with_gold.state import PavedState
from arena.luck.model import Values
from arena.record import GameRecord
from tests.luck.games import assert_reproducible, difference_ratio, played_with
from tests.luck.helpers import assert_each_mean_zero, assert_mean_zero, audit, bot_luck

GAME = find_game("paved-with-gold")
SPECS = ["prospector", "random"]
"""The bots the mean-zero and narrowing checks seat."""


def test_a_game_has_one_finite_luck_a_seat_and_the_same_again() -> None:
    assert_reproducible(GAME.name, ["prospector", "random", "random"], 4, "paved-claims/1")


@pytest.mark.parametrize("specs", [["random", "prospector"], ["random", "random", "assayer"]])
def test_the_exact_expectation_is_the_mean_over_the_cards_nobody_has_seen(
        specs: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Every turn-up of a place nobody has seen, the claim's last card or not."""
    made = audit(monkeypatch, GAME)
    records = list(played_with(GAME.name, "standard", {}, specs, range(3)))
    assert all(r.luck is not None for r in records)
    assert sum(m.checked for m in made) > 30


@pytest.fixture(scope="module")
def prospector_games() -> list[GameRecord]:
    """prospector against random on the first 200 deals, played once for the mean-zero and the
    narrowing checks."""
    return list(played_with(GAME.name, "standard", {}, SPECS, range(200)))


def test_the_luck_has_mean_zero(prospector_games: list[GameRecord]) -> None:
    """Over 200 deals: 3.5 standard errors are a chance of 1 in 2000 for a model of mean zero at
    any number of deals, and catch a biased model over 40 (below); 300 deals under slow."""
    assert_each_mean_zero(prospector_games, SPECS)


@pytest.mark.slow  # a long statistical run
def test_the_luck_has_mean_zero_over_300_deals() -> None:
    assert_each_mean_zero(list(played_with(GAME.name, "standard", {}, SPECS, range(300))),
                          SPECS)


def test_bots_that_claim_only_what_they_know_have_no_luck() -> None:
    for record in played_with(GAME.name, "standard", {}, ["assayer", "prospector"], range(6)):
        assert record.luck == (0.0, 0.0)


def test_taking_the_luck_out_narrows_the_score_difference(prospector_games: list[GameRecord]
                                                          ) -> None:
    """prospector against random, whose claims are guesses: var(difference less the luck
    difference) / var(difference) is about 0.77."""
    assert difference_ratio(prospector_games, "prospector", "random") < 0.9


def test_a_biased_chance_of_a_claim_fails_the_mean_zero_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: with every claim expected to come good, the luck drifts."""

    def hopeful(self: PavedLuck, state: PavedState, seat: int, action: Action
                ) -> Values | None:
        alternatives = self.reveals(state, seat, action)
        if alternatives is None:
            return None
        values = []
        for _, twin in alternatives:
            twin.apply(seat, action)
            values.append(self.value(twin))
        return max(values, key=lambda v: v[seat])

    monkeypatch.setattr(PavedLuck, "expected", hopeful)
    records = list(played_with(GAME.name, "standard", {}, ["prospector", "random"], range(40)))
    with pytest.raises(AssertionError, match="mean luck"):
        assert_mean_zero(bot_luck(records, "random"), "random")
