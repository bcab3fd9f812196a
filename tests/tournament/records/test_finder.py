"""Finding a run's games: each filter, the orders, and bad input as one clear error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.tournament.records.finder import (
    FinderError,
    GameQuery,
    Order,
    Outcome,
    find_games,
    found_lines,
)
from arena.tournament.records.results import GAMES


def _record(task: int, seats: list[str], scores: list[float], ranks: list[int], **more: Any
            ) -> dict[str, Any]:
    return {"task": task, "game": more.pop("game", "dig"),
            "variant": more.pop("variant", "standard"), "seed": more.pop("seed", 100 + task),
            "seats": seats, "scores": scores, "ranks": ranks,
            "order": more.pop("order", "higher"), "turns": 10, "faults": more.pop("faults", []),
            "final": {}, **more}


RECORDS = [
    _record(0, ["ada", "bob"], [3, 9], [2, 1]),  # ada lost by 6
    _record(1, ["bob", "ada"], [5, 5], [1, 1]),  # drawn
    _record(2, ["ada", "bob"], [12, 2], [1, 2], seed=100),  # won by 10, on deal 100
    _record(3, ["ada", "cy", "bob"], [1, 4, 7], [3, 2, 1], game="memorandum",
            variant="short-pack"),  # lost by 6 to the best of two
    _record(4, ["ada", "bob"], [20, 31], [1, 2], game="cuckoo", order="lower"),  # won by 11
    _record(5, ["ada", "bob"], [4, 0], [2, 1],
            faults=[{"seat": 0, "decision": 3, "kind": "timeout", "detail": "slow\u202e"}]),
    _record(6, ["ada", "ada"], [2, 8], [2, 1]),  # self-play: one row a seat
    _record(7, ["ada"], [30], [1], game="cribbage-square", variant="standard"),  # alone
    _record(8, ["ada", "bob", "cy", "dee"], [6, 2, 6, 2], [1, 2, 1, 2],
            game="memorandum", teams=[[0, 2], [1, 3]]),  # partners: won by 4
]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("finder") / "run"
    path.mkdir()
    (path / GAMES).write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    return path


def _found(run: Path, **query: Any) -> list[tuple[int, int | None]]:
    return [(g.task, g.seat) for g in find_games(run, GameQuery(**query)).games]


def test_results_and_margins_from_the_bots_seat(run: Path) -> None:
    rows = {(g.task, g.seat): g for g in find_games(run, GameQuery(bot="ada")).games}
    assert [(k, rows[k].outcome, rows[k].margin) for k in sorted(rows)] == [
        ((0, 0), Outcome.LOST, -6), ((1, 1), Outcome.DRAWN, 0), ((2, 0), Outcome.WON, 10),
        ((3, 0), Outcome.LOST, -6), ((4, 0), Outcome.WON, 11), ((5, 0), Outcome.LOST, 4),
        ((6, 0), Outcome.LOST, -6), ((6, 1), Outcome.WON, 6), ((7, 0), Outcome.ALONE, None),
        ((8, 0), Outcome.WON, 4)]


def test_each_filter(run: Path) -> None:
    assert _found(run, bot="ada", outcomes=frozenset({Outcome.LOST})) == [
        (0, 0), (3, 0), (5, 0), (6, 0)]
    assert _found(run, bot="ada", outcomes=frozenset({Outcome.DRAWN, Outcome.WON})) == [
        (1, 1), (2, 0), (4, 0), (6, 1), (8, 0)]
    assert _found(run, bot="ada", opponent="cy") == [(3, 0), (8, 0)]
    assert _found(run, bot="ada", opponent="ada") == [(6, 0), (6, 1)]
    assert _found(run, bot="ada", max_margin=-6) == [(0, 0), (3, 0), (6, 0)]
    assert _found(run, bot="ada", min_margin=10) == [(2, 0), (4, 0)]
    assert _found(run, bot="ada", fault="timeout") == [(5, 0)]
    assert _found(run, bot="bob", fault="any") == []  # the fault is ada's
    assert _found(run, fault="any") == [(5, None)]
    assert _found(run, game="cuckoo") == [(4, None)]
    assert _found(run, variant="short-pack") == [(3, None)]
    assert _found(run, deal=100) == [(0, None), (2, None)]
    assert _found(run, bot="ada", game="dig", deal=100) == [(0, 0), (2, 0)]


def test_orders_and_limits(run: Path) -> None:
    assert _found(run, bot="ada", order=Order.WORST, limit=3) == [(0, 0), (3, 0), (6, 0)]
    assert _found(run, bot="ada", order=Order.BEST, limit=2) == [(4, 0), (2, 0)]
    worst = find_games(run, GameQuery(bot="ada", order=Order.WORST))
    assert worst.games[-1].task == 7 and worst.matching == 10 and worst.total == len(RECORDS)
    assert _found(run, limit=2) == [(0, None), (1, None)]


def test_the_table_and_the_replay_command(run: Path) -> None:
    found = find_games(run, GameQuery(bot="ada", outcomes=frozenset({Outcome.LOST}),
                                      order=Order.WORST, limit=1))
    lines = found_lines(found, run)
    assert lines[0].split() == ["task", "deal", "game", "/", "variant", "seat", "result",
                                "margin", "scores", "faults"]
    assert lines[1].split()[:8] == ["0", "100", "dig", "/", "standard", "0", "lost", "-6"]
    assert lines[-1] == (f"1 of 4 matching games (of {len(RECORDS)} in the run); to see one: "
                         f"arena replay {run} 0 --seat 0")
    assert found.games[0].to_json(run)["replay"] == ["arena", "replay", str(run), "0",
                                                     "--seat", "0"]
    assert found_lines(find_games(run, GameQuery(deal=1)), run) == [
        f"no game of the run's {len(RECORDS)} matches"]


@pytest.mark.parametrize(("query", "message"), [
    (GameQuery(bot="adda"), r"--bot 'adda': not in this run \(did you mean 'ada'\?"),
    (GameQuery(bot="ada", opponent="zed"), "--opponent 'zed': not in this run"),
    (GameQuery(game="dug"), "--game 'dug': not in this run"),
    (GameQuery(variant="nope"), "--variant 'nope': not in this run"),
    (GameQuery(outcomes=frozenset({Outcome.LOST})), "name it with --bot"),
    (GameQuery(order=Order.WORST), "--worst/--best is about one bot's games"),
    (GameQuery(fault="timout"), r"not a kind of fault \(did you mean 'timeout'\?"),
    (GameQuery(bot="ada", min_margin=3, max_margin=1), "no game can match"),
    (GameQuery(bot="ada", min_margin=float("nan")), "not a finite number"),
])
def test_bad_queries(run: Path, query: GameQuery, message: str) -> None:
    with pytest.raises(FinderError, match=message):
        find_games(run, query)


def test_the_command(run: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    done = runner.invoke(app, ["games-of", str(run), "--bot", "ada", "--lost", "--worst", "2",
                               "--json"])
    assert done.exit_code == 0, done.output
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["task"], r["result"], r["margin"]) for r in rows] == [(0, "lost", -6),
                                                                      (3, "lost", -6)]
    faulted = runner.invoke(app, ["games-of", str(run), "--fault", "any", "--json"])
    assert json.loads(faulted.stdout)["faults"][0]["detail"] == "slow\u202e"
    assert "\u202e" not in faulted.stdout  # a crafted record cannot steer the terminal
    text = runner.invoke(app, ["games-of", str(run), "--bot", "ada", "--won"])
    assert text.exit_code == 0 and "to see one: arena replay" in text.stdout
    for args, message in (([str(tmp_path / "none"), "--bot", "ada"], "no such run directory"),
                          ([str(tmp_path)], "not a run directory"),
                          ([str(run), "--bot", "zed"], "--bot 'zed': not in this run"),
                          ([str(run), "--bot", "ada", "--worst", "1", "--limit", "2"],
                           "give one of --worst, --best and --limit"),
                          ([str(run), "--deal", "x"], "Invalid value for '--deal'")):
        wrong = runner.invoke(app, ["games-of", *args])
        assert wrong.exit_code == 2, (args, wrong.output)
        assert message in wrong.output and len(wrong.output.strip().splitlines()) == 1
