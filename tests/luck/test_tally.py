"""The match loop's luck tally: the record carries each seat's luck where the game has a model,
the same seed gives the same luck, and a value function that fails leaves the record without luck
and one line in the log naming the game and the deal, never taking the game down."""

from __future__ import annotations

import logging
import math
from typing import Any

import pytest

from arena.api import Action
from arena.engine import Params, find_game
from arena.games.concentration import Concentration, ConcentrationState
from arena.games.concentration.luck import ConcentrationLuck
from arena.luck.model import LuckModel, Values, detached
from arena.luck.tally import LuckTally
from arena.match import play_game
from bots.concentration.greedy import GreedyBot
from bots.concentration.tracker import TrackerBot

GAME = find_game("concentration")
STANDARD = GAME.variant("standard")


def _game(seed: int = 4, luck: bool = True) -> Any:
    return play_game(STANDARD, [GreedyBot(), TrackerBot()], ["greedy", "tracker"], seed,
                     luck=luck)


def test_a_game_with_a_model_carries_each_seats_luck_and_the_models_id() -> None:
    record = _game()
    assert record.luck_model == "concentration-minimax/1"
    assert record.luck is not None and len(record.luck) == 2
    assert all(math.isfinite(v) for v in record.luck)
    assert record.luck != (0.0, 0.0)
    out = record.to_json()
    assert out["luck"] == list(record.luck) and out["luck_model"] == "concentration-minimax/1"
    assert list(out)[-2:] == ["luck", "luck_model"]


def test_luck_is_rounded_to_a_billionth() -> None:
    for value in _game().luck or ():
        assert value == round(value, 9)


def test_the_same_seed_gives_the_same_record_luck_included() -> None:
    assert _game(7).to_line() == _game(7).to_line()
    assert _game(7).luck != _game(8).luck


def test_without_luck_or_without_a_model_the_record_has_no_luck_fields() -> None:
    off = _game(luck=False)
    assert off.luck is None and "luck" not in off.to_json() and "luck_model" not in off.to_json()
    on = _game()
    assert (off.scores, off.ranks, off.final) == (on.scores, on.ranks, on.final)
    three = play_game(STANDARD, [GreedyBot(), GreedyBot(), GreedyBot()], ["a", "b", "c"], 1)
    assert GAME.luck_model(STANDARD.params, 3) is None
    assert three.luck is None and "luck" not in three.to_json()


class Failing(LuckModel[ConcentrationState]):
    """Concentration's model with a value function broken in one of several ways."""

    name = "failing"
    version = 1

    def __init__(self, how: str, after: int = 5) -> None:
        self.model = ConcentrationLuck(STANDARD.params)  # type: ignore[arg-type]
        self.how = how
        self.after = after  # values given before it breaks
        self.calls = 0

    def value(self, state: ConcentrationState) -> Values:
        """The true value, until it breaks."""
        self.calls += 1
        if self.calls <= self.after:
            return self.model.value(state)
        if self.how == "raise":
            raise ZeroDivisionError("the value function divided by zero\nsecond line")
        if self.how == "nan":
            return (math.nan, 1.0)
        if self.how == "inf":
            return (math.inf, -math.inf)
        if self.how == "short":
            return (1.0,)
        return ("1", 2.0)  # type: ignore[return-value]

    def expected(self, state: ConcentrationState, seat: int, action: Action) -> Values | None:
        """The true expectation."""
        return self.model.expected(state, seat, action)


@pytest.mark.parametrize("how", ["raise", "nan", "inf", "short", "string"])
def test_a_failing_value_function_leaves_the_record_without_luck_and_says_so(
        how: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(Concentration, "luck_model",
                        lambda self, params, players: Failing(how))
    with caplog.at_level(logging.WARNING, logger="arena.luck"):
        record = _game(4)
    assert record.luck is None and record.luck_model is None
    assert "luck" not in record.to_json()
    assert record.scores == _game(4, luck=False).scores  # the game itself is whole
    lines = [r.getMessage() for r in caplog.records if r.name == "arena.luck"]
    assert len(lines) == 1, lines
    assert lines[0].startswith("no luck for concentration / standard, deal 4: value function "
                               "failing/1 failed"), lines[0]
    assert "\n" not in lines[0]


def test_a_model_that_cannot_be_made_is_told_and_the_game_plays(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def broken(self: Concentration, params: Params, players: int) -> None:
        raise RuntimeError("no tables")

    monkeypatch.setattr(Concentration, "luck_model", broken)
    with caplog.at_level(logging.WARNING, logger="arena.luck"):
        record = _game(4)
    assert record.luck is None
    assert [r.getMessage() for r in caplog.records if r.name == "arena.luck"] == [
        "no luck for concentration / standard, deal 4: its luck model could not be made "
        "(RuntimeError: no tables); its record is judged on the raw scores"]


def test_the_deal_term_starts_the_luck_at_the_value_after_the_deal_less_its_expectation(
        ) -> None:
    """A model with a deal expectation: the deal's luck is its value after the deal less it."""

    class Dealt(ConcentrationLuck):
        def deal_expectation(self) -> Values | None:
            return (1.0, 2.5)

    state = GAME.new_state(STANDARD.params, 2, __import__("random").Random(1))
    tally = LuckTally(Dealt(STANDARD.params), 2, "here")  # type: ignore[arg-type]
    tally.dealt(state)
    start = ConcentrationLuck(STANDARD.params).value(state)  # type: ignore[arg-type]
    assert tally.luck == [start[0] - 1.0, start[1] - 2.5]


def test_the_tally_leaves_the_state_it_looks_at_as_it_was() -> None:
    """The default expectation plays the action on copies, never on the game itself."""
    import random

    state = GAME.new_state(STANDARD.params, 2, random.Random(2))
    before = detached(state)
    model = ConcentrationLuck(STANDARD.params)  # type: ignore[arg-type]
    LuckModel.expected(model, state, 0, 5)
    assert (state.cards, state.seen, state.up, state.log) == (
        before.cards, before.seen, before.up, before.log)
