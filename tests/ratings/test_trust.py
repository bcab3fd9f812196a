"""Ratings you can trust, end to end on real tournaments: the order of the bots in a config
changes nothing, twins are rated alike, the ratings agree with significant head-to-head edges,
and two runs on different deals show no significant move."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.ratings.comparison import Presence, compare
from arena.ratings.tables import Ratings
from arena.tournament.planning.config import load_config
from arena.tournament.rating import run_ratings
from arena.tournament.run import run_tournament

BOTS = {
    "g1": 'spec = "greedy"\nname = "g1"',
    "g2": 'spec = "greedy"\nname = "g2"',
    "forgetful": 'spec = "forgetful"',
    "optimal": 'spec = "optimal"',
    "random": 'spec = "random"',
}

CONFIG = """
name = "trust"
[deals]
count = {deals}
base = {base}
{bots}
[[games]]
game = "concentration"
players = 2
variants = ["standard", "one-flip"]
"""


def _run(tmp_path: Path, name: str, order: list[str], deals: int = 10, base: int = 1) -> Ratings:
    bots = "\n".join(f"[[bots]]\n{BOTS[bot]}" for bot in order)
    path = tmp_path / f"{name}.toml"
    path.write_text(CONFIG.format(deals=deals, base=base, bots=bots))
    out = tmp_path / name
    run_tournament(load_config(path), out)
    return run_ratings(out)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ratings]:
    tmp = tmp_path_factory.mktemp("trust")
    return {"forward": _run(tmp, "forward", ["g1", "g2", "forgetful", "optimal", "random"]),
            "backward": _run(tmp, "backward", ["random", "optimal", "forgetful", "g2", "g1"]),
            "other deals": _run(tmp, "other", ["g1", "g2", "forgetful", "optimal", "random"],
                                base=5001)}


def test_bot_order_in_the_config_changes_no_rating(runs: dict[str, Ratings]) -> None:
    forward, backward = runs["forward"], runs["backward"]
    assert [(p.game, p.variant) for p in forward.pools] == [
        (p.game, p.variant) for p in backward.pools]
    for pool in forward.pools:
        other = backward.pool(pool.game, pool.variant)
        assert other is not None
        theirs = {row.bot: row for row in other.bots}
        for row in pool.bots:
            assert abs(row.mu - theirs[row.bot].mu) < 1e-6, (pool.variant, row.bot)
            assert abs(row.sigma - theirs[row.bot].sigma) < 1e-6, (pool.variant, row.bot)
            assert row.rank_label == theirs[row.bot].rank_label


def test_twins_are_rated_alike_and_share_a_rank(runs: dict[str, Ratings]) -> None:
    for pool in runs["forward"].pools:
        rows = {row.bot: row for row in pool.bots}
        assert rows["g1"].mu == pytest.approx(rows["g2"].mu, abs=1e-9)
        assert rows["g1"].sigma == pytest.approx(rows["g2"].sigma, abs=1e-9)
        assert rows["g1"].rank == rows["g2"].rank
        assert rows["g1"].rank_label.startswith("=")


def test_significant_edges_agree_with_the_rating_order(runs: dict[str, Ratings]) -> None:
    checked = 0
    for ratings in runs.values():
        for pool in ratings.pools:
            mu = {row.bot: row.mu for row in pool.bots}
            for pair in pool.crosstable:
                if pair.significant:
                    checked += 1
                    assert (pair.edge > 0) == (mu[pair.bot] > mu[pair.opponent]), (
                        pool.variant, pair.bot, pair.opponent, pair.edge)
    assert checked >= 20  # the check is not empty: most pairs here are far apart


def test_the_table_tells_apart_what_the_data_separate(runs: dict[str, Ratings]) -> None:
    pool = runs["forward"].pools[0]
    rows = {row.bot: row for row in pool.bots}
    assert rows["random"].rank == len(pool.bots)  # last, alone
    assert rows["random"].rank_label == str(len(pool.bots))
    assert pool.bots[-1].p_above_next is None
    assert all(row.p_above_next is not None for row in pool.bots[:-1])


def test_two_runs_on_different_deals_show_no_significant_move(runs: dict[str, Ratings]) -> None:
    """The same five bots on deals 1-10 and on deals 5001-5010: whatever moves is chance, and
    with these fixed seeds no move of a bot reaches significance (expected: none of ten)."""
    comparison = compare(runs["forward"], runs["other deals"])
    moves = [b for p in comparison.pools for b in p.bots if b.status is Presence.BOTH]
    assert len(moves) == 10
    assert not [b.bot for b in moves if b.significant]
    assert all(b.delta_ci95 is not None and b.delta_ci95 > 0 for b in moves)


def test_a_comparison_of_a_run_with_itself_moves_nothing(runs: dict[str, Ratings]) -> None:
    comparison = compare(runs["forward"], runs["forward"])
    for pool in comparison.pools:
        assert all(b.delta == 0 and not b.significant for b in pool.bots)
        assert pool.edges == ()
