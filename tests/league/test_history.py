"""The league's history: every round of a pool on one scale (fixed by the unchanged bots or
the league's anchors), with the standings' own interval and the significant moves marked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.league.folder import League, new_league, parse_game
from arena.league.history import format_history, league_history
from arena.league.rounds import compare_rounds, read_round, update
from arena.league.submissions import submit
from arena.ratings.comparison import Presence
from tests.league.conftest import passing


@pytest.fixture(scope="module")
def grown(tmp_path_factory: pytest.TempPathFactory) -> League:
    """Round 1: random and forgetful; round 2: greedy and tracker join (stronger bots)."""
    league = new_league(tmp_path_factory.mktemp("h") / "class",
                        [parse_game("concentration:standard:2")], deals=6)
    for bot in ("random", "forgetful"):
        submit(league, bot, validator=passing)
    update(league, isolation="none")
    for bot in ("greedy", "tracker"):
        submit(league, bot, validator=passing)
    update(league, isolation="none")
    return league


def test_an_unchanged_bot_moves_in_the_history_only_as_far_as_compare_moves_it(
        grown: League) -> None:
    """Issue 39 (3): when strong bots joined, the history showed every unchanged bot's mu
    falling with the pool's mean (random 17.43 -> 10.68); on one scale its line moves by its
    move against the unchanged bots, the move `compare` judges."""
    (change,) = compare_rounds(grown, 1, 2).pools
    (pool,) = league_history(grown).pools
    for b in change.bots:
        if b.status is Presence.BOTH:
            cells = pool.cells[b.bot]
            assert cells[2].mu - cells[1].mu == pytest.approx(b.delta, abs=1e-6)
            assert cells[2].moved == b.significant
    raw = {b.bot: b.raw_delta for b in change.bots if b.status is Presence.BOTH}
    assert max(abs(d) for d in raw.values()) > 1.0  # the pool's mean did move


def test_the_last_round_of_the_history_is_the_standings(grown: League) -> None:
    (pool,) = league_history(grown).pools
    rows = read_round(grown, 2)["pools"][0]["ratings"]["pools"][0]["bots"]
    for row in rows:
        assert pool.cells[row["bot"]][2].mu == pytest.approx(row["mu"])


def test_the_history_shows_the_standings_interval(grown: League) -> None:
    """Issue 39 (4): the standings said ± 4.26 (t on deals - 1), the history ± 3.53 (1.96
    sigma) for the same bot and round; now one interval everywhere."""
    shown = format_history(league_history(grown))
    data = json.loads(format_history(league_history(grown), "json"))
    for n in (1, 2):
        for row in read_round(grown, n)["pools"][0]["ratings"]["pools"][0]["bots"]:
            assert f"± {row['mu_ci95']:.2f} ({row['rank_label']})" in shown
            cell = data["pools"][0]["bots"][row["bot"]][str(n)]
            assert cell["mu_ci95"] == pytest.approx(row["mu_ci95"])
            assert cell["raw_mu"] == pytest.approx(row["mu"])


def test_anchors_in_league_toml_fix_the_scale(tmp_path: Path, grown: League) -> None:
    """`anchors = ["random"]` in league.toml: random's line does not move at all."""
    toml = grown.file("league.toml")
    text = toml.read_text()
    try:
        toml.write_text('anchors = ["random"]\n' + text)
        from arena.league.folder import open_league

        anchored = open_league(grown.path)
        assert anchored.config.anchors == ("random",)
        (pool,) = league_history(anchored).pools
        assert pool.cells["random"][1].mu == pytest.approx(pool.cells["random"][2].mu)
        assert pool.scale[2] == "anchors: random"
        (change,) = compare_rounds(anchored, 1, 2).pools
        assert change.reference.bots == ("random",)
    finally:
        toml.write_text(text)
