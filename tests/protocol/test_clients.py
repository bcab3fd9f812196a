"""The reference clients (clients/): each plays every game, and its Concentration strategy equals
the bundled `greedy`'s results on the same deals, sandboxed."""

from __future__ import annotations

import pytest

from arena.engine import all_games, find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.sandbox import Limits, sandboxed

CLIENTS = ["python_bot", "c_bot", "js_bot"]
DEALS = range(3)


@pytest.mark.parametrize("client", CLIENTS)
def test_each_client_plays_every_game_with_legal_moves(client: str,
                                                       request: pytest.FixtureRequest) -> None:
    spec = request.getfixturevalue(client)
    for game in all_games():
        variant = game.variant()
        allowed = variant.params.players_allowed()
        players = max(allowed.start, 2) if allowed.stop > 2 else allowed.start
        bots = [resolve_bot(spec, game.name).make()] + [
            resolve_bot("random", game.name).make() for _ in range(players - 1)]
        record = play_game(variant, bots, [f"s{i}" for i in range(players)], 0)
        assert not record.faults, (game.name, record.faults)


@pytest.mark.parametrize("client", CLIENTS)
def test_each_clients_greedy_equals_the_bundled_greedy_sandboxed(
        client: str, request: pytest.FixtureRequest) -> None:
    spec = request.getfixturevalue(client)
    variant = find_game("concentration").variant("standard")
    # limits no load reaches: this is about the moves (the node client's start ran out of 2 s
    # at a load of 20)
    bot = sandboxed(spec, "concentration", Limits(move_seconds=30.0, start_seconds=60.0,
                                                  memory_mb=512))
    try:
        for seed in DEALS:
            played = play_game(variant, [bot.make(), resolve_bot("greedy").make()],
                               ["client", "greedy"], seed)
            bundled = play_game(variant, [resolve_bot("greedy").make(),
                                          resolve_bot("greedy").make()], ["a", "b"], seed)
            assert not played.faults
            assert (played.scores, played.ranks, played.turns, dict(played.final)) == (
                bundled.scores, bundled.ranks, bundled.turns, dict(bundled.final))
    finally:
        bot.close()
