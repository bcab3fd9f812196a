"""Comparing two runs: mu and rank changes with their intervals and significance, edges that
changed, new and gone bots and pools, the note on different deals, outputs."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

from arena.errors import VariantError
from arena.ratings.comparison import Comparison, Presence, compare, format_comparison
from arena.ratings.output import ReportFormat
from arena.ratings.tables import BotRow, HeadToHead, PoolRatings, Ratings, rate
from arena.ratings.verdicts import Z95, t_quantile


def bot(rank: int, name: str, mu: float, sigma: float = 1.0) -> BotRow:
    return BotRow(rank, str(rank), name, mu, sigma, mu - 3 * sigma, None, 10, 5, 0, 5, 1.5, 10.0,
                  0.5, 0)


def pool(variant: str, *bots: BotRow, game: str = "concentration",
         cross: tuple[HeadToHead, ...] = ()) -> PoolRatings:
    return PoolRatings(game, variant, 10, 0, tuple(bots), cross)


def edge(a: str, b: str, value: float, ci95: float, deals: int = 20) -> HeadToHead:
    return HeadToHead(a, b, 2 * deals, deals, 10, 0, 10, value, ci95, 0.5, 0.5, False)


BEFORE = Ratings((
    pool("standard", bot(1, "a", 30.0), bot(2, "b", 25.0), bot(3, "c", 20.0)),
    pool("zebra", bot(1, "a", 26.0)),
))
AFTER = Ratings((
    pool("standard", bot(1, "c", 31.0), bot(2, "a", 29.5), bot(3, "d", 22.0)),
    pool("two-decks", bot(1, "b", 27.0)),
))


def changes(comparison: Comparison, variant: str) -> dict[str, Any]:
    found = next(p for p in comparison.pools if p.variant == variant)
    return {b.bot: b for b in found.bots}


def test_bots_in_both_runs_have_deltas_and_rank_changes() -> None:
    result = compare(BEFORE, AFTER)
    standard = changes(result, "standard")
    a, c = standard["a"], standard["c"]
    assert (a.status, a.mu_before, a.mu_after, a.delta) == (Presence.BOTH, 30.0, 29.5, -0.5)
    assert (a.rank_before, a.rank_after, a.rank_change) == (1, 2, -1)
    assert (c.delta, c.rank_before, c.rank_after, c.rank_change) == (11.0, 3, 1, 2)


def test_new_and_gone_bots() -> None:
    standard = changes(compare(BEFORE, AFTER), "standard")
    d, b = standard["d"], standard["b"]
    assert (d.status, d.mu_before, d.mu_after, d.rank_after, d.delta) == (
        Presence.NEW, None, 22.0, 3, None)
    assert (b.status, b.mu_before, b.mu_after, b.rank_before, b.rank_change) == (
        Presence.GONE, 25.0, None, 2, None)
    assert list(standard) == ["c", "a", "d", "b"]  # later order first, then the gone


def test_pools_in_one_run_only() -> None:
    result = compare(BEFORE, AFTER)
    status = {p.variant: p.status for p in result.pools}
    assert status == {"standard": Presence.BOTH, "two-decks": Presence.NEW,
                      "zebra": Presence.GONE}
    assert [p.variant for p in result.pools] == ["standard", "two-decks", "zebra"]
    assert changes(result, "zebra")["a"].status is Presence.GONE
    assert changes(result, "two-decks")["b"].status is Presence.NEW


def test_comparing_a_run_with_itself_changes_nothing() -> None:
    records = [{"task": t, "game": "concentration", "variant": "zebra", "seed": t,
                "seats": ["a", "b"], "scores": [2, 1], "ranks": [1, 2], "faults": []}
               for t in range(3)]
    ratings = rate(records)
    result = compare(ratings, ratings)
    assert all(b.delta == 0 and b.rank_change == 0 for p in result.pools for b in p.bots)


def test_table_and_markdown() -> None:
    result = compare(BEFORE, AFTER)
    text = format_comparison(result, "table")
    lines = text.splitlines()
    assert "concentration / standard" in lines
    assert "concentration / two-decks (new pool)" in lines
    assert "concentration / zebra (gone)" in lines
    assert "-0.50" in text and "+11.00" in text and "+2" in text
    for column in ("mu before", "mu after", "delta (95%)", "rank before", "rank after",
                   "rank change"):
        assert column in text
    assert "## concentration / standard" in format_comparison(result, ReportFormat.MARKDOWN)


def test_csv_and_json_parse() -> None:
    result = compare(BEFORE, AFTER)
    rows = list(csv.DictReader(io.StringIO(format_comparison(result, "csv"))))
    assert len(rows) == 6
    d = next(r for r in rows if r["bot"] == "d")
    assert (d["pool_status"], d["status"], d["mu_before"], d["mu_after"], d["significant"]) == (
        "both", "new", "", "22.0", "")
    c = next(r for r in rows if r["bot"] == "c")
    assert (c["delta"], c["significant"]) == ("11.0", "True")
    assert float(c["delta_ci95"]) == pytest.approx(Z95 * 2 ** 0.5, abs=1e-6)
    doc = json.loads(format_comparison(result, "json"))
    standard = doc["pools"][0]
    assert (standard["variant"], standard["status"]) == ("standard", "both")
    gone = next(b for b in standard["bots"] if b["bot"] == "b")
    assert (gone["status"], gone["mu_after"], gone["rank_before"]) == ("gone", None, 2)
    assert gone["significant"] is None
    a = next(b for b in standard["bots"] if b["bot"] == "a")
    assert a["significant"] is False
    assert (doc["same_deals"], doc["deals"], standard["edges"]) == (True, None, [])
    assert format_comparison(compare(BEFORE, AFTER), "json") == format_comparison(result, "json")


def test_variant_filter() -> None:
    result = compare(BEFORE, AFTER)
    assert "zebra" not in format_comparison(result, "table", variant="standard")
    with pytest.raises(VariantError, match="known: standard, two-decks, zebra"):
        format_comparison(result, "table", variant="nope")


def test_a_move_is_significant_only_outside_its_interval() -> None:
    before = Ratings((pool("standard", bot(1, "a", 30.0, 0.5), bot(2, "b", 25.0, 2.0)),))
    after = Ratings((pool("standard", bot(1, "a", 31.5, 0.5), bot(2, "b", 27.0, 2.0)),))
    moved = changes(compare(before, after), "standard")
    assert moved["a"].delta_ci95 == pytest.approx(Z95 * 0.5 * 2 ** 0.5)
    assert moved["a"].significant  # 1.5 > 1.39
    assert not moved["b"].significant  # 2.0 < 5.54
    text = format_comparison(compare(before, after), "table")
    assert "+1.50 ± 1.39 *" in text and "+2.00 ± 5.54" in text and "+2.00 ± 5.54 *" not in text


def test_edges_that_changed_significantly_are_listed_once() -> None:
    rows = (bot(1, "a", 30.0), bot(2, "b", 25.0), bot(3, "c", 20.0))
    old = (edge("a", "b", 1.0, 0.5), edge("b", "a", -1.0, 0.5), edge("a", "c", 3.0, 0.5),
           edge("c", "a", -3.0, 0.5))
    new = (edge("a", "b", 4.0, 0.5), edge("b", "a", -4.0, 0.5), edge("a", "c", 3.2, 0.5),
           edge("c", "a", -3.2, 0.5))
    result = compare(Ratings((pool("standard", *rows, cross=old),)),
                     Ratings((pool("standard", *rows, cross=new),)))
    (changed,) = result.pools[0].edges
    se = 0.5 / t_quantile(19)
    assert (changed.bot, changed.opponent, changed.edge_before, changed.edge_after) == (
        "a", "b", 1.0, 4.0)
    assert changed.delta_ci95 == pytest.approx(Z95 * se * 2 ** 0.5)
    text = format_comparison(result, "table")
    assert "head to head: edges that changed significantly" in text
    assert "+3.00 ±" in text


def test_runs_on_different_deals_are_said_to_be() -> None:
    note = "the runs were played on different deals: different seeds"
    result = compare(BEFORE, AFTER, note)
    assert format_comparison(result, "table").splitlines()[0] == f"note: {note}"
    doc = json.loads(format_comparison(result, "json"))
    assert (doc["same_deals"], doc["deals"]) == (False, note)
    assert "note:" not in format_comparison(compare(BEFORE, AFTER), "table")
