"""Bots near the edge (issue 39, 5): a bot last in all but a few deals gets an interval at least
as wide as the delete-one-deal jackknife over those deals, in every figure, deterministically."""

from __future__ import annotations

import itertools
import json
import math
import random
from typing import Any

import numpy as np
import pytest

import arena.ratings.jackknife as jackknife
from arena.ratings.evidence import Evidence, faded_floor
from arena.ratings.formats import format_ratings
from arena.ratings.jackknife import MAX_REFITS, jackknife_bounds, off_edge_deals
from arena.ratings.pools import rating_pools
from arena.ratings.posterior import posterior
from arena.ratings.separation import widened
from arena.ratings.settings import TrueSkillSettings
from arena.ratings.tables import Ratings, intervals, rate
from arena.ratings.verdicts import t_quantile
from arena.viewer.report_page import PoolSection, ReportPage, report_html

DEALS = 30


def near_last(off: tuple[int, ...], seed: int = 11, deals: int = DEALS) -> list[dict[str, Any]]:
    """Three bots of close skill and `w`, last in every three-seat game on `deals` deals but one
    game of each deal in `off`, where it swaps places with the seat above it."""
    rng = random.Random(seed)
    out = []
    for deal in range(deals):
        tables = [t for t in itertools.permutations(("a", "b", "c", "w"), 3) if "w" in t]
        for n, order in enumerate(tables):
            perf = {bot: rng.gauss(0, 1) for bot in order if bot != "w"}
            ranks = [1 + sum(perf[o] > perf[bot] for o in perf) if bot != "w" else 3
                     for bot in order]
            if deal in off and n == 0:
                ranks = [3 if r == 2 else 2 if r == 3 else r for r in ranks]
            out.append({"task": len(out), "game": "g", "variant": "v", "seed": deal,
                        "seats": list(order), "scores": [3 - r for r in ranks],
                        "ranks": ranks, "faults": []})
    return out


def relative(ratings: dict[str, tuple[float, float]], bot: str) -> float:
    return ratings[bot][0] - float(np.mean([mu for mu, _ in ratings.values()]))


def refitted(records: list[dict[str, Any]], off: tuple[int, ...], deals: int = DEALS) -> float:
    """The jackknife of w over the deals in `off` (of `deals`), computed here by hand."""
    settings = TrueSkillSettings()
    full = relative(posterior(rating_pools(records)[0].matches, settings).ratings, "w")
    total = 0.0
    for deal in off:
        (pool,) = rating_pools([r for r in records if r["seed"] != deal])
        total += (relative(posterior(pool.matches, settings).ratings, "w") - full) ** 2
    return math.sqrt((deals - 1) / deals * total)


def test_a_bot_off_last_in_one_deal_gets_at_least_the_jackknife_s_interval() -> None:
    """Off last in one game of one deal of 12: the deal-clustered covariance sees that game's
    linearized influence and understates what leaving the deal out moves (goldfish-small in
    Memorandum really played: A/A z spread 1.54-1.69). Its sigma is now at least the jackknife,
    and the table, the history's intervals and the JSON say the same."""
    deals = 12  # any number of deals where one is at most a third (four ratings of them below)
    records = near_last((4,), deals=deals)
    bound = refitted(records, (4,), deals)
    ratings = rate(records)
    (pool,) = ratings.pools
    w = next(r for r in pool.bots if r.bot == "w")
    assert w.sigma >= bound * (1 - 1e-9)
    assert w.mu_ci95 == pytest.approx(t_quantile(deals - 1) * w.sigma)
    assert pool.edges == ()  # not at the edge: off it once
    history = intervals(rating_pools(records)[0].matches, TrueSkillSettings())
    assert history["w"] == pytest.approx((w.mu, w.mu_ci95))
    doc = json.loads(format_ratings(ratings, "json"))["pools"][0]
    (row,) = [r for r in doc["bots"] if r["bot"] == "w"]
    assert row["mu_ci95"] == pytest.approx(w.mu_ci95, abs=1e-6)


def test_the_table_says_which_bots_are_near_their_edge_and_why() -> None:
    """w is last in every game but those of 2 of its 30 deals: the text table names it in a
    line of its own and says why its interval is as wide as it is (as it does for a bot at the
    edge), the JSON lists it under near_edges, the report page marks it; a bot off its edge
    in many deals is not named."""
    (pool,) = rate(near_last((2, 9))).pools
    assert pool.near_edges == (("w", "last", 2, DEALS),)
    text = format_ratings(Ratings((pool,)), "table")
    line = next(t for t in text.splitlines() if t.startswith("w finished"))
    assert line.startswith(f"w finished last in every game but those of 2 of its {DEALS} deals: ")
    assert "leaving one of them out" in line and "bots near the edge" in line
    doc = json.loads(format_ratings(Ratings((pool,)), "json"))["pools"][0]
    assert doc["near_edges"] == [["w", "last", 2, DEALS]] and doc["edges"] == []
    html = report_html(ReportPage("t", "intro", (PoolSection(pool),)))
    assert 'title="last in every game but those of 2 of its 30 deals' in html
    (many,) = rate(near_last(tuple(range(0, DEALS, 2)))).pools
    assert many.near_edges == ()
    assert "every game but" not in format_ratings(Ratings((many,)), "table")


def test_the_bounds_are_the_jackknife_over_the_deals_off_the_edge() -> None:
    records = near_last((2, 9, 17))
    (pool,) = rating_pools(records)
    assert off_edge_deals(pool.matches) == {"w": tuple(("int", str(d)) for d in (17, 2, 9))}
    settings = TrueSkillSettings()
    found = posterior(pool.matches, settings)
    bounds = jackknife_bounds(pool.matches, found.ratings, DEALS, settings)
    assert bounds == {"w": pytest.approx(refitted(records, (2, 9, 17)))}
    # off last in more than a third of its deals: the sandwich has enough deals, no refits
    many = near_last(tuple(range(0, DEALS, 2)))
    assert off_edge_deals(rating_pools(many)[0].matches) == {}


def test_the_figures_do_not_depend_on_the_records_order() -> None:
    records = near_last((3, 21))
    shuffled = list(records)
    random.Random(5).shuffle(shuffled)
    assert format_ratings(rate(records), "json") == format_ratings(rate(shuffled), "json")


def test_the_refits_are_capped_per_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """Off last in ten deals of 30 (a third): MAX_REFITS refits, the same deals whatever the
    matches' order (a pure function of their set), and the bound a partial sum (below the
    full jackknife, above none)."""
    off = tuple(range(0, DEALS, 3))
    assert len(off) > MAX_REFITS
    records = near_last(off)
    settings = TrueSkillSettings()
    left_out: list[list[frozenset[Any]]] = []
    real = jackknife.posterior

    def counting(matches: Any, chosen: TrueSkillSettings, **given: Any) -> Any:
        left_out[-1].append(frozenset(m.deal for m in matches))
        return real(matches, chosen, **given)

    monkeypatch.setattr(jackknife, "posterior", counting)
    bounds = []
    (pool,) = rating_pools(records)
    found = real(pool.matches, settings)
    for order in (pool.matches, list(reversed(pool.matches))):
        left_out.append([])
        bounds.append(jackknife_bounds(order, found.ratings, DEALS, settings)["w"])
    assert len(left_out[0]) == MAX_REFITS and left_out[0] == left_out[1]
    assert bounds[0] == bounds[1]
    assert 0 < bounds[0] <= refitted(records, off) * (1 + 1e-9)


def test_widened_reaches_the_bound_where_the_floor_fades() -> None:
    """Where the deals' spread is below the model's and the floor fades, the variance the
    verdicts use is between the two; widening must raise that one to the bound (raising only
    the larger of the two matrices' fell short of it)."""
    covariance = np.array([[0.5, -0.5], [-0.5, 0.5]]) * 0.2
    model = np.array([[0.5, -0.5], [-0.5, 0.5]]) * 2.0
    evidence = Evidence(("a", "b"), covariance, model, 30)
    assert evidence.sigma("a") ** 2 == pytest.approx(faded_floor(0.1, 1.0, 30))
    assert evidence.sigma("a") < 1.1
    raised = widened(evidence, {"a": 1.1})
    assert raised.sigma("a") == pytest.approx(1.1)
    assert widened(evidence, {"a": 0.1}).sigma("a") == pytest.approx(evidence.sigma("a"))
