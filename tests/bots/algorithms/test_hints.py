"""Search hints: each game with a sampler tells the generic search its own, found by the game's
name through the `arena.search_hints` entry points; a game without them is searched plainly."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

import bots.algorithms.hints as hints_module
from arena.engine import all_games
from bots.algorithms.hints import (
    DEFAULT_SAMPLES,
    NO_HINTS,
    Playout,
    SearchHints,
    hinted_games,
    hints_for,
)


def test_every_game_with_a_sampler_registers_its_hints() -> None:
    sampled = {g.name for g in all_games() if g.sampler() is not None}
    assert set(hinted_games()) == sampled
    for game in sampled:
        hints = hints_for(game)
        assert isinstance(hints, SearchHints) and hints is not NO_HINTS, game
        # a policy the hints name is one they give
        assert (hints.playout is not Playout.GREEDY or hints.greedy is not None), game
        assert (hints.playout is not Playout.SIMPLE or hints.simple is not None), game


def test_the_hints_are_the_measured_ones() -> None:
    """The values the generic search held in its tables before the games gave them."""
    assert hints_for("cuckoo").samples == 100 and hints_for("cribbage-square").samples == 8
    assert hints_for("dig").samples == DEFAULT_SAMPLES
    assert hints_for("old-mans-bundle").depth == 8 and hints_for("animals").depth == 2
    assert hints_for("frogs-in-the-pond").playout is Playout.SIMPLE
    assert [g for g in hinted_games() if hints_for(g).policy_breaks_ties] == ["animals"]
    assert [g for g in hinted_games() if hints_for(g).ties_to_last] == ["memorandum"]


def test_a_game_without_hints_gets_none() -> None:
    assert hints_for("concentration") is NO_HINTS
    assert NO_HINTS.playout is Playout.RANDOM and NO_HINTS.samples == DEFAULT_SAMPLES


def test_what_is_registered_must_be_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = EntryPoint("dig", "bots.algorithms.hints:DEFAULT_SAMPLES", hints_module.HINTS_GROUP)
    monkeypatch.setitem(hints_module._REGISTERED, "dig", wrong)
    with pytest.raises(TypeError, match="is not a SearchHints"):
        hints_for("dig")
