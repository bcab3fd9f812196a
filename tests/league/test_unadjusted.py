"""`--luck off` for a league's standings, compare and report: the raw edges recomputed from a
pool's records, only while they are the records the round was rated from.

The league is played once for the module (`lucky`): read it, or change a copy."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.league.folder import DEALS, League, LeagueError, new_league, parse_game
from arena.league.rounds import compare_rounds, read_round, standings, update
from arena.league.submissions import submit
from arena.tournament.rating import run_ratings
from arena.tournament.records.results import RunDirectory
from tests.helpers import run
from tests.league.conftest import passing

POOL = "concentration-standard-2p"


@pytest.fixture(scope="module")
def lucky(tmp_path_factory: pytest.TempPathFactory) -> League:
    """A league of Concentration on eight deals, three bots, one round: records with luck."""
    league = new_league(tmp_path_factory.mktemp("lucky") / "class",
                        [parse_game("concentration:standard:2")], deals=8)
    # the same deals every time: on a new league's random key, one run in a few dozen dealt
    # deals whose adjusted intervals came out as the raw ones, and the first test failed
    RunDirectory(league.file(DEALS)).set_key("5eed" * 8)
    for bot in ("greedy", "random", "tracker"):
        submit(league, bot, validator=passing)
    update(league, isolation="none")
    return league


def _crosstable(shown: str) -> list[dict[str, object]]:
    return json.loads(shown)["pools"][0]["crosstable"]


def test_standings_with_the_luck_off_show_the_pools_raw_edges(lucky: League) -> None:
    adjusted = json.loads(standings(lucky, fmt="json"))["pools"][0]
    raw = json.loads(standings(lucky, fmt="json", luck=False))["pools"][0]
    assert adjusted["luck_model"] == "concentration-minimax/1" and raw["luck_model"] is None
    assert raw["luck_note"].startswith("edges raw (--luck off)")
    expected = run_ratings(lucky.path / "pools" / POOL, luck=False).pools[0]
    assert [(h["bot"], h["opponent"], h["edge"], h["edge_ci95"]) for h in raw["crosstable"]] \
        == [(h.bot, h.opponent, round(h.edge, 6), round(h.edge_ci95, 6))
            for h in expected.crosstable]
    assert [h["edge_ci95"] for h in raw["crosstable"]] != \
        [h["edge_ci95"] for h in adjusted["crosstable"]]
    assert raw["bots"] == adjusted["bots"]  # the ratings take no luck
    assert "edges raw (--luck off)" in standings(lucky, luck=False)
    assert read_round(lucky)["pools"][0]["ratings"]["pools"][0]["luck_model"]  # kept as it was


def test_compare_with_the_luck_off_tests_the_raw_edges(lucky: League) -> None:
    assert compare_rounds(lucky, 1, 1).pools[0].luck_after == "concentration-minimax/1"
    assert compare_rounds(lucky, 1, 1, luck=False).pools[0].luck_after is None


def test_a_round_whose_records_moved_on_says_it_cannot_show_raw_edges(
        lucky: League, tmp_path: Path) -> None:
    league = League(tmp_path / lucky.path.name, lucky.config)  # a copy, to play a round more
    shutil.copytree(lucky.path, league.path)
    submit(league, "forgetful", validator=passing)
    update(league, isolation="none")
    with pytest.raises(LeagueError, match=f"round 1, pool {POOL}: its records"):
        standings(league, 1, luck=False)
    assert "edges raw (--luck off)" in standings(league, 2, luck=False)


def test_the_league_commands_take_luck_on_or_off(lucky: League, runner: CliRunner) -> None:
    for command in (["standings", str(lucky.path)], ["compare", str(lucky.path), "1", "1"]):
        off = run(runner, "league", *command, "--luck", "off")
        assert off.exit_code == 0, off.stderr
        assert off.stdout.count("edges raw (--luck off)") == 1
        bad = run(runner, "league", *command, "--luck", "maybe")
        assert bad.exit_code == 2 and "--luck" in bad.stderr
