"""The `search` bot: legal, deterministic play in every game with a sampler, and its parameters."""

from __future__ import annotations

import pytest

from arena.api import GameInfo
from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import bot_rng, play_game
from bots.algorithms.search import SEARCH_GAMES, SearchBot
from bots.algorithms.search_base import params_of

VARIANTS = {"dig": ("standard", {}), "old-mans-bundle": ("standard", {}),
            "frogs-in-the-pond": ("standard", {"target": "15"}), "cuckoo": ("one-chip", {}),
            "animals": ("standard", {"limit": "40"}),
            "paved-with-gold": ("standard", {"max-turns": "12"}),
            "cribbage-square": ("standard", {}), "memorandum": ("short-pack", {})}
"""A short game of each (frogs to 15 points, cuckoo with one chip each, animals stopped after
40 cards, Paved with Gold 12 turns), so a whole game takes a fraction of a second."""

PLAYERS = {"cuckoo": 6, "animals": 3, "memorandum": 3}
"""The table of a game that seats more than two (the others are played by two)."""


@pytest.mark.parametrize("game", SEARCH_GAMES)
def test_search_plays_whole_games_without_fault_and_replays_them(game: str) -> None:
    preset, overrides = VARIANTS[game]
    variant = find_game(game).variant(preset, overrides)
    spec = resolve_bot("search:samples=2", game)
    other = resolve_bot("random", game)
    others = PLAYERS.get(game, 2) - 1
    records = [play_game(variant, [spec.make(), *[other.make() for _ in range(others)]],
                         ["search", *["random"] * others], 4)
               for _ in range(2)]
    assert records[0].faults == ()
    assert records[0].to_json() == records[1].to_json()


def test_every_game_with_a_sampler_is_searched() -> None:
    from arena.engine import all_games

    assert {g.name for g in all_games() if g.sampler() is not None} == set(SEARCH_GAMES)


def test_search_refuses_a_game_without_a_sampler() -> None:
    bot = SearchBot()
    with pytest.raises(ValueError, match="no sampler"):
        bot.start(GameInfo("concentration", "standard", {}, 0, 2, bot_rng(1, 0)))


@pytest.mark.parametrize("params", [{"samples": 0}, {"samples": -2}, {"rollouts": 0},
                                    {"budget": -1.0}, {"depth": -2}, {"policy": "clever"}])
def test_search_rejects_parameters_out_of_range(params: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        SearchBot(**params)  # type: ignore[arg-type]


def test_the_variant_is_read_back_from_its_label() -> None:
    variant = find_game("dig").variant("suit-only", {"max-turns": "50"})
    info = GameInfo("dig", variant.label, variant.params_view, 0, 2, bot_rng(1, 0))
    assert params_of(info) == variant.params

