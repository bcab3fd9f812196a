"""Every game x preset x bundled bot: a game played sandboxed gives the same record as in-process
(the action encoding of every game crosses the sandbox, both ways)."""

from __future__ import annotations

import functools

import pytest

from arena.engine import Game, all_games
from arena.errors import ArenaError
from arena.loader import BUNDLED_DISTRIBUTION, registered_bots, resolve_bot
from arena.match import play_game
from arena.sandbox import Limits, sandboxed
from tests.helpers import slow_unless

SEEDS = (1,)

CHEAP = {"search": "samples=1", "dig-search": "samples=2", "bundle-search": "samples=2",
         "frogs-search": "samples=2", "paved-search": "samples=2", "square-pimc": "samples=2"}
"""The search bots with as few samples as they take: what crosses the sandbox is the same, and
at their defaults they think for minutes over every preset of a game."""


@functools.cache
def bundled_bots(game: str) -> tuple[str, ...]:
    """The bundled bots that play `game`: its own, and `random`."""
    names = []
    for bot in registered_bots():
        if bot.distribution != BUNDLED_DISTRIBUTION or bot.name == "human":
            continue
        try:
            resolve_bot(bot.name, game)
        except ArenaError:
            continue
        names.append(bot.name)
    return tuple(names)


def table_size(game: Game, preset: str) -> int:
    """The smallest table of the preset, of two seats at least where two may play."""
    allowed = game.variant(preset).params.players_allowed()
    return max(allowed.start, 2) if allowed.stop > 2 else allowed.start


# every game in the default run, with its first bundled bot; with every bot, slow
CASES = [slow_unless(bot == bundled_bots(game.name)[0], game, bot, id=f"{game.name}-{bot}")
         for game in all_games() for bot in bundled_bots(game.name)]


@pytest.mark.parametrize(("game", "bot"), CASES)
def test_a_game_played_sandboxed_gives_the_same_record_as_in_process(game: Game,
                                                                      bot: str) -> None:
    spec = f"{bot}:{CHEAP[bot]}" if bot in CHEAP else bot
    in_process = resolve_bot(spec, game.name)
    entry = sandboxed(spec, game.name, Limits())  # one host for every preset of the game
    try:
        for preset in game.presets:
            variant = game.variant(preset)
            players = table_size(game, preset)
            names = [bot] * players
            for seed in SEEDS:
                # no luck: the arena reckons it from the states, in-process or not (for
                # Concentration's presets, 3 CPU-s of solving layouts); the record is the moves
                expected = play_game(variant, [in_process.make() for _ in names], names, seed,
                                     luck=False)
                got = play_game(variant, [entry.make() for _ in names], names, seed, luck=False)
                assert not expected.faults, (preset, seed, expected.faults)
                assert got.to_json() == expected.to_json(), (preset, seed, got.faults)
    finally:
        entry.close()


def test_every_game_is_covered() -> None:
    covered = {case.values[0].name for case in CASES}  # type: ignore[union-attr]
    assert covered == {game.name for game in all_games()}
    assert all(len(bundled_bots(game.name)) >= 2 for game in all_games())
