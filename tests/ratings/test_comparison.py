"""Comparing two runs: moves measured against a reference both runs share (the unchanged bots
or the anchors), with their intervals and significance; edges that changed (Welch's t test);
new and gone bots and pools, what changed in the field, the note on different deals, outputs."""

from __future__ import annotations

import csv
import io
import json
import math
import random
from typing import Any

import pytest

from arena.errors import VariantError
from arena.ratings.comparison import (
    Code,
    Comparison,
    ComparisonError,
    Presence,
    ReferenceKind,
    compare,
    format_comparison,
)
from arena.ratings.output import ReportFormat
from arena.ratings.tables import BotRow, HeadToHead, PoolRatings, Ratings, rate
from arena.ratings.verdicts import Z95, paired_mean, t_quantile
from tests.helpers import slow_unless


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
    result = compare(BEFORE, AFTER, code={"a": None, "c": "c.py differs"})
    standard = changes(result, "standard")
    a, c = standard["a"], standard["c"]
    assert (a.status, a.mu_before, a.mu_after, a.raw_delta) == (Presence.BOTH, 30.0, 29.5, -0.5)
    assert (a.rank_before, a.rank_after, a.rank_change) == (1, 2, -1)
    assert (c.raw_delta, c.rank_before, c.rank_after, c.rank_change) == (11.0, 3, 1, 2)
    # a is the reference (the one bot in both runs with unchanged code): c moved 11.5 against it
    assert (a.delta, a.reference, a.code, c.delta, c.code) == (0.0, True, Code.SAME, 11.5,
                                                               Code.CHANGED)


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
    result = compare(BEFORE, AFTER, code={"a": None, "c": "c.py differs"})
    text = format_comparison(result, "table")
    lines = text.splitlines()
    assert "concentration / standard" in lines
    assert "concentration / two-decks (new pool)" in lines
    assert "concentration / zebra (gone)" in lines
    assert "0 (the reference)" in text and "+11.50 ±" in text and "+2" in text
    assert lines[0] == "note: code changed: c: c.py differs"
    assert ("field: joined: d; left: b; code changed: c. Moves are measured against the "
            "unchanged bot a (its change of mu -0.50 ± 2.77)") in lines
    for column in ("code", "mu before", "mu after", "move (95%)", "rank before", "rank after",
                   "rank change"):
        assert column in text
    assert "## concentration / standard" in format_comparison(result, ReportFormat.MARKDOWN)


def test_csv_and_json_parse() -> None:
    result = compare(BEFORE, AFTER, code={"a": None, "c": "c.py differs"})
    rows = list(csv.DictReader(io.StringIO(format_comparison(result, "csv"))))
    assert len(rows) == 6
    d = next(r for r in rows if r["bot"] == "d")
    assert (d["pool_status"], d["status"], d["mu_before"], d["mu_after"], d["significant"]) == (
        "both", "new", "", "22.0", "")
    c = next(r for r in rows if r["bot"] == "c")
    assert (c["delta"], c["raw_delta"], c["significant"], c["code"], c["reference"]) == (
        "11.5", "11.0", "True", "changed", "False")
    # c's own two sigmas, and the reference's (a's) two: four unit variances
    assert float(c["delta_ci95"]) == pytest.approx(Z95 * 2, abs=1e-6)
    doc = json.loads(format_comparison(result, "json"))
    standard = doc["pools"][0]
    assert (standard["variant"], standard["status"]) == ("standard", "both")
    gone = next(b for b in standard["bots"] if b["bot"] == "b")
    assert (gone["status"], gone["mu_after"], gone["rank_before"]) == ("gone", None, 2)
    assert gone["significant"] is None
    a = next(b for b in standard["bots"] if b["bot"] == "a")
    assert a["significant"] is False
    assert (doc["same_deals"], doc["deals"], standard["edges"]) == (True, None, [])
    assert standard["reference"]["kind"] == "unchanged" and standard["reference"]["bots"] == ["a"]
    assert doc["notes"] == ["code changed: c: c.py differs"]
    again = compare(BEFORE, AFTER, code={"a": None, "c": "c.py differs"})
    assert format_comparison(again, "json") == format_comparison(result, "json")


def test_variant_filter() -> None:
    result = compare(BEFORE, AFTER)
    assert "zebra" not in format_comparison(result, "table", variant="standard")
    with pytest.raises(VariantError, match="known: standard, two-decks, zebra"):
        format_comparison(result, "table", variant="nope")


def test_a_move_is_significant_only_outside_its_interval() -> None:
    before = Ratings((pool("standard", bot(1, "a", 30.0, 0.5), bot(2, "b", 25.0, 2.0)),))
    after = Ratings((pool("standard", bot(1, "a", 31.5, 0.5), bot(2, "b", 27.0, 2.0)),))
    # no bot's code is known to be unchanged: moves are plain changes of mu, as the pool's mean
    moved = changes(compare(before, after, code={}), "standard")
    assert moved["a"].delta_ci95 == pytest.approx(Z95 * 0.5 * 2 ** 0.5)
    assert moved["a"].significant  # 1.5 > 1.39
    assert not moved["b"].significant  # 2.0 < 5.54
    result = compare(before, after, code={})
    assert result.pools[0].reference.kind is ReferenceKind.POOL
    text = format_comparison(result, "table")
    assert "+1.50 ± 1.39 *" in text and "+2.00 ± 5.54" in text and "+2.00 ± 5.54 *" not in text
    assert "code not recorded: a, b" in text


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
    # Welch-Satterthwaite: two equal errors on 19 df each give 38 df
    assert changed.df == pytest.approx(38)
    assert changed.delta_ci95 == pytest.approx(t_quantile(38) * se * 2 ** 0.5)
    text = format_comparison(result, "table")
    assert "head to head: edges that changed significantly" in text
    assert "+3.00 ±" in text


def test_runs_on_different_deals_are_said_to_be() -> None:
    note = "the runs were played on different deals: different seeds"
    result = compare(BEFORE, AFTER, note)
    assert format_comparison(result, "table").splitlines()[0] == f"note: {note}"
    doc = json.loads(format_comparison(result, "json"))
    assert (doc["same_deals"], doc["deals"]) == (False, note)
    assert "note:" not in format_comparison(compare(BEFORE, AFTER, code={}), "table")


# --- moves measured against what did not move ---------------------------------------------------

FIELD = ("a", "b", "c", "d", "e")


def field(mus: dict[str, float], sigma: float = 0.2) -> Ratings:
    order = sorted(mus, key=lambda b: -mus[b])
    return Ratings((pool("standard", *(bot(i + 1, b, mus[b], sigma)
                                       for i, b in enumerate(order))),))


def test_a_bot_that_did_not_change_is_not_flagged_for_the_field_s_change() -> None:
    """a improves by 4; the pool's mean is pinned, so a's mu rises 3.2 and every other bot's
    drops 0.8: against the unchanged bots, a moved 4 and nobody else moved."""
    before = field({"a": 30.0, "b": 28.0, "c": 26.0, "d": 24.0, "e": 22.0})
    after = field({"a": 33.2, "b": 27.2, "c": 25.2, "d": 23.2, "e": 21.2})
    code = {"a": "a.py differs", **{b: None for b in FIELD[1:]}}
    moved = changes(compare(before, after, code=code), "standard")
    assert moved["a"].delta == pytest.approx(4.0) and moved["a"].significant
    assert [b for b in FIELD[1:] if moved[b].significant] == []
    assert all(moved[b].delta == pytest.approx(0.0, abs=1e-9) for b in FIELD[1:])
    assert all(moved[b].reference and not moved["a"].reference for b in FIELD[1:])
    # the four references' mean change is known to 0.2 * sqrt(2) / 2: it widens a's interval
    assert moved["a"].delta_ci95 == pytest.approx(Z95 * math.sqrt(0.08 + 0.08 / 4))
    assert moved["b"].delta_ci95 == pytest.approx(Z95 * math.sqrt(0.08 - 0.08 / 4))


def test_a_bot_that_joins_does_not_move_the_others() -> None:
    """z joins above everyone: the others' mus drop 1 and they lose a rank, which the field's
    line explains; measured against the unchanged bots, none of them moved."""
    before = field({"a": 30.0, "b": 28.0, "c": 26.0, "d": 24.0})
    after = field({"z": 33.0, "a": 29.0, "b": 27.0, "c": 25.0, "d": 23.0})
    result = compare(before, after, code={b: None for b in FIELD[:4]})
    moved = changes(result, "standard")
    assert not [b for b in "abcd" if moved[b].significant]
    assert moved["z"].status is Presence.NEW
    assert result.pools[0].field_text().startswith("field: joined: z. Moves are measured "
                                                   "against the unchanged bots a, b, c, d")


def test_anchors_are_what_moves_are_measured_against() -> None:
    before = field({"a": 30.0, "b": 28.0, "c": 26.0})
    after = field({"a": 31.0, "b": 27.5, "c": 25.5})
    result = compare(before, after, code={"a": None, "b": None, "c": None}, anchors=["c"])
    moved = changes(result, "standard")
    assert result.pools[0].reference.kind is ReferenceKind.ANCHORS
    assert (moved["a"].delta, moved["b"].delta, moved["c"].delta) == pytest.approx(
        (1.5, 0.0, 0.0))
    assert moved["c"].delta_ci95 == 0.0 and not moved["c"].significant
    assert "Moves are measured against the anchor c" in format_comparison(result)
    assert "same, anchor" in format_comparison(result)


@pytest.mark.parametrize(("code", "anchor", "message"), [
    ({"a": None, "b": "b.py differs"}, "b",
     "--anchor b: its code changed between the runs (b.py differs); an anchor must be unchanged"),
    (None, "a", "--anchor a: its code is not recorded in both runs"),
    ({"a": None}, "zz", "--anchor zz: no bot of that name is in neither run"),
])
def test_an_anchor_must_be_in_both_runs_with_unchanged_code(
        code: dict[str, str | None] | None, anchor: str, message: str) -> None:
    before = field({"a": 30.0, "b": 28.0})
    with pytest.raises(ComparisonError, match="^" + message.replace("(", r"\(").replace(
            ")", r"\)").replace("is in neither", "is in neither")):
        compare(before, field({"a": 30.0, "b": 29.0}), code=code, anchors=[anchor])


def test_with_every_bot_changed_moves_are_against_the_pool_mean_and_said_to_be() -> None:
    before = field({"a": 30.0, "b": 28.0})
    result = compare(before, field({"a": 31.0, "b": 27.0}),
                     code={"a": "a.py differs", "b": "b.py differs"})
    assert result.pools[0].reference.kind is ReferenceKind.POOL
    assert changes(result, "standard")["a"].delta == 1.0
    assert ("against the pool's mean (which the prior pins): no bot plays in both runs with "
            "unchanged code") in result.pools[0].field_text()


def _simulated_run(skills: dict[str, float], games: int, rng: random.Random) -> Ratings:
    """A two-player run: random pairings, performance = skill + N(0, beta^2), the higher
    performance wins (a draw within 0.5)."""
    names = sorted(skills)
    records = []
    for task in range(games):
        x, y = rng.sample(names, 2)
        px, py = rng.gauss(skills[x], 25 / 6), rng.gauss(skills[y], 25 / 6)
        ranks = [1, 1] if abs(px - py) < 0.5 else [1, 2] if px > py else [2, 1]
        records.append({"task": task, "game": "concentration", "variant": "standard",
                        "seed": task, "seats": [x, y], "scores": [3 - ranks[0], 3 - ranks[1]],
                        "ranks": ranks, "faults": []})
    return rate(records)


@pytest.mark.slow  # a long statistical run
def test_in_simulated_runs_unchanged_bots_stay_unflagged_when_one_bot_improves() -> None:
    """Five bots, 1,000 games a run, fixed seeds; the strongest gains 8 skill points. Plain
    changes of mu flag most unchanged bots (every one drops about 1.6); against the unchanged
    bots about one in twenty is flagged."""
    rng = random.Random(20261126)
    skills = {"a": 30.0, "b": 27.0, "c": 25.0, "d": 23.0, "e": 20.0}
    code = {"a": "a.py differs", **{b: None for b in FIELD[1:]}}
    flagged = plain = total = 0
    for _ in range(10):
        before = _simulated_run(skills, 1000, rng)
        after = _simulated_run({**skills, "a": 38.0}, 1000, rng)
        moved = changes(compare(before, after, code=code), "standard")
        unchanged = changes(compare(before, after, code={}), "standard")
        flagged += sum(moved[b].significant for b in FIELD[1:])
        plain += sum(unchanged[b].significant for b in FIELD[1:])
        total += 4
        assert moved["a"].significant
    assert plain / total > 0.5
    assert flagged / total <= 0.125


def _edge(deals: int, rng: random.Random) -> HeadToHead:
    found = paired_mean(rng.gauss(0.0, 1.0) for _ in range(deals))
    return HeadToHead("a", "b", 2 * deals, deals, 1, 0, 1, found.mean, found.ci95,
                      found.p_value, 0.5, found.significant)


def _level_bound(pairs: int) -> float:
    """The most a 5% test may flag over `pairs` pairs of runs: 5% and three standard errors of
    a share of `pairs` (sqrt(0.05 * 0.95 / pairs)), rounded up to a tenth of a percent."""
    return math.ceil(1000 * (0.05 + 3 * math.sqrt(0.05 * 0.95 / pairs))) / 1000


@pytest.mark.parametrize(("deals", "old", "pairs"), [
    slow_unless(pairs < 2000, deals, old, pairs, id=f"{deals}-{old}-{pairs}")
    for deals, old, pairs in [(3, 0.138, 500), (5, 0.091, 1100), (3, 0.138, 2000),
                              (5, 0.091, 2000)]])
def test_the_changed_edge_test_keeps_five_percent_with_few_deals(deals: int, old: float,
                                                                 pairs: int) -> None:
    """Two runs of equal edges on few deals (normal per-deal differences): the normal 1.96 on
    t-derived errors flagged 13.8% and 9.1% of them at 3 and 5 deals; Welch's t keeps 5%
    (fixed seed; 2,000 pairs of runs under slow, a standard error of 0.5%). The default run
    takes 500 and 1,100 pairs (25 expected flags at least, so the normal bound holds), whose
    bounds, 8.0% and 7.0%, still lie more than 2% below the old shares."""
    rng = random.Random(deals)
    rows = (bot(1, "a", 30.0), bot(2, "b", 25.0))
    hits = 0
    for _ in range(pairs):
        old_pool = pool("standard", *rows, cross=(_edge(deals, rng),))
        new_pool = pool("standard", *rows, cross=(_edge(deals, rng),))
        hits += bool(compare(Ratings((old_pool,)), Ratings((new_pool,))).pools[0].edges)
    assert hits / pairs <= _level_bound(pairs) < old - 0.02


def test_a_move_s_interval_is_the_contrast_s_variance_from_each_run_s_covariance() -> None:
    """A pool's skills are measured relative to its mean, so they are correlated: the variance of
    a bot's move against the reference is that of the contrast (the bot less the reference's
    weighted mean) from each run's deal-clustered covariance, not the sum of the variances."""
    rng = random.Random(7)
    skills = {"a": 30.0, "b": 27.0, "c": 25.0, "d": 23.0, "e": 20.0}
    before, after = _simulated_run(skills, 400, rng), _simulated_run(skills, 400, rng)
    found = changes(compare(before, after), "standard")
    old, new = before.pool("concentration", "standard"), after.pool("concentration", "standard")
    assert old is not None and new is not None and old.evidence and new.evidence
    sigma = {r.bot: math.hypot(r.sigma, s.sigma) for r, s in zip(
        sorted(old.bots, key=lambda r: r.bot), sorted(new.bots, key=lambda r: r.bot), strict=True)}
    weights = {b: 1 / sigma[b] ** 2 for b in skills}
    total = sum(weights.values())
    for bot in skills:
        contrast = {b: (b == bot) - w / total for b, w in weights.items()}
        variance = old.evidence.variance(contrast) + new.evidence.variance(contrast)
        assert found[bot].delta_ci95 == pytest.approx(
            t_quantile(min(old.deals, new.deals) - 1) * math.sqrt(variance))


@pytest.mark.slow  # a long statistical run
def test_in_simulated_a_a_runs_unchanged_bots_are_flagged_about_five_percent() -> None:
    """Two runs of the same six bots (every bot the reference): the moves' z keep their level.
    Summing the variances as if the skills were independent flagged 9-10% here."""
    rng = random.Random(20261127)
    skills = {"a": 30.0, "b": 27.0, "c": 25.0, "d": 23.0, "e": 20.0, "f": 18.0}
    flagged = total = 0
    for _ in range(40):
        found = changes(compare(_simulated_run(skills, 600, rng),
                                _simulated_run(skills, 600, rng)), "standard")
        flagged += sum(found[b].significant for b in skills)
        total += len(skills)
    assert flagged / total <= 0.075


def test_two_identical_runs_move_by_exactly_nothing() -> None:
    """Issue 39 (7): compare of two identical rounds printed `+0.00 ± 4.71` for each bot, an
    interval on a move that cannot be anything but 0 (the same games, not two samples)."""
    rng = random.Random(3)
    ratings = _simulated_run({"a": 30.0, "b": 25.0, "c": 20.0}, 200, rng)
    result = compare(ratings, ratings, code={"a": None, "b": None, "c": None})
    text = format_comparison(result)
    assert "±" not in text.split("move (95%)")[1].split("head to head")[0]
    assert "0 (same games)" in text and "The same games as before" in text
    assert result.pools[0].same_games
    assert all(b.delta == 0 and b.significant is False for b in result.pools[0].bots)


def test_compare_prints_ranks_as_the_standings_do() -> None:
    """Issue 39 (7): ranks shared in the tables (`=1`) were printed bare by compare."""
    before = Ratings((pool("standard", BotRow(1, "=1", "a", 30.0, 1.0, 2.0, 0.6, 10, 5, 0, 5,
                                              1.5, 10.0, 0.5, 0),
                           BotRow(1, "=1", "b", 29.0, 1.0, 2.0, None, 10, 5, 0, 5, 1.5, 10.0,
                                  0.5, 0)),))
    after = Ratings((pool("standard", bot(1, "a", 31.0), bot(2, "b", 25.0)),))
    text = format_comparison(compare(before, after, code={"a": None, "b": None}))
    row = next(line for line in text.splitlines() if line.startswith("b "))
    assert row.split()[-3:] == ["=1", "2", "-1"]
    data = json.loads(format_comparison(compare(before, after), "json"))
    assert data["pools"][0]["bots"][1]["rank_label_before"] == "=1"


def test_without_the_code_a_bot_that_moved_is_left_out_of_the_reference() -> None:
    """Issue 39 (5): without the bots' code (a run without bots.json) every bot was taken as
    unchanged, the improved one included, and the unchanged bots were flagged as often as
    plain changes of mu flag them. Now the reference is the bots whose moves agree, the pool's
    line says which, and the unchanged bots keep about the stated rate."""
    rng = random.Random(20261129)
    skills = {"a": 30.0, "b": 27.0, "c": 25.0, "d": 23.0, "e": 20.0}
    flagged = total = 0
    for _ in range(10):
        before = _simulated_run(skills, 1000, rng)
        after = _simulated_run({**skills, "a": 38.0}, 1000, rng)
        result = compare(before, after)
        (found,) = result.pools
        moved = {b.bot: b for b in found.bots}
        assert moved["a"].significant and "a" not in found.reference.bots
        assert found.reference.guessed and "a" in found.reference.left_out
        flagged += sum(bool(moved[b].significant) for b in FIELD[1:])
        total += 4
    assert flagged / total <= 0.125
    assert "the bots taken as unchanged" in found.field_text()
    assert "--anchor NAME" in found.field_text()


def test_without_the_code_two_bots_that_moved_apart_get_no_verdict() -> None:
    """With two bots and no code, which one changed cannot be told: no move is starred, and the
    pool's line asks for --anchor."""
    rng = random.Random(5)
    before = _simulated_run({"a": 25.0, "b": 25.0}, 400, rng)
    after = _simulated_run({"a": 35.0, "b": 25.0}, 400, rng)
    (found,) = compare(before, after).pools
    assert found.reference.undecided
    assert all(b.significant is None for b in found.bots)
    assert "--anchor NAME" in found.field_text()


def _lucky_run(edge_a: float, seed: int, model: str = "concentration-minimax/1",
               deals: int = 60) -> list[dict[str, Any]]:
    """Two bots on `deals` deals in both seat orders: a's score advantage is `edge_a` plus its
    luck advantage (most of the spread) plus a little noise."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for deal in range(deals):
        for order in (("a", "b"), ("b", "a")):
            luck = rng.gauss(0.0, 2.0)
            margin = edge_a + luck + rng.gauss(0.0, 0.5)
            first = order[0] == "a"
            scores = [10 + margin, 10.0] if first else [10.0, 10 + margin]
            out.append({"task": len(out), "game": "concentration", "variant": "standard",
                        "seed": deal, "seats": list(order), "scores": scores,
                        "ranks": [1, 2] if (margin > 0) == first else [2, 1],
                        "luck": [luck, 0.0] if first else [0.0, luck], "luck_model": model})
    return out


def _raw(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if not k.startswith("luck")} for r in records]


def test_changed_edges_are_tested_on_the_luck_adjusted_edges() -> None:
    before, after = _lucky_run(0.0, 1), _lucky_run(0.6, 2)
    adjusted = compare(rate(before), rate(after))
    raw = compare(rate(before, luck=False), rate(after, luck=False))
    pool_adjusted, pool_raw = adjusted.pools[0], raw.pools[0]
    assert [(e.bot, e.opponent) for e in pool_adjusted.edges] == [("a", "b")]
    assert pool_raw.edges == ()
    assert (pool_adjusted.luck_before, pool_adjusted.luck_after) == (
        "concentration-minimax/1", "concentration-minimax/1")
    text = format_comparison(adjusted)
    assert "edges adjusted for luck (concentration-minimax/1) in both runs" in text
    assert "edges raw (--luck off)" in format_comparison(raw)
    doc = json.loads(format_comparison(adjusted, "json"))["pools"][0]
    assert (doc["luck_before"], doc["luck_after"], doc["luck_notes"]) == (
        "concentration-minimax/1", "concentration-minimax/1", [])


def test_a_run_adjusted_against_a_raw_one_is_said_to_be() -> None:
    found = compare(rate(_raw(_lucky_run(0.0, 1))), rate(_lucky_run(0.0, 2)))
    text = format_comparison(found)
    assert ("the earlier run's edges are raw; the later run's edges are adjusted for luck "
            "(concentration-minimax/1): each is an unbiased estimate") in text
