"""Ratings tables: the TrueSkill posterior over a pool's records, shared ranks, per-bot tallies,
crosstables paired by deal, outputs."""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import random
from collections.abc import Sequence
from typing import Any

import pytest
import trueskill

from arena.errors import ArenaError, VariantError
from arena.ratings.formats import format_crosstable, format_ratings
from arena.ratings.output import ReportFormat
from arena.ratings.pools import RecordError, disqualified, rating_pools
from arena.ratings.posterior import Posterior, posterior
from arena.ratings.separation import at_the_edge
from arena.ratings.settings import RatingSettingsError, TrueSkillSettings
from arena.ratings.tables import Ratings, rate
from arena.ratings.verdicts import Z95, t_quantile

GAME = "concentration"


def rec(task: int, seats: Sequence[str], scores: Sequence[float], ranks: Sequence[int], *,
        seed: int | None = None, variant: str = "zebra", faults: Sequence[int] = (),
        teams: list[list[int]] | None = None) -> dict[str, Any]:
    """A hand-written record in the games.jsonl shape; `faults` lists faulting seats."""
    clones = [i for i, s in enumerate(seats) if s in seats[:i]]
    out: dict[str, Any] = {
        "task": task, "game": GAME, "variant": variant, "table": sorted(set(seats)),
        "seed": task if seed is None else seed, "seats": list(seats), "clones": clones,
        "scores": list(scores), "ranks": list(ranks), "turns": 40,
        "faults": [{"seat": s, "decision": 3, "kind": "illegal", "detail": "x"} for s in faults],
        "final": {}, "duration": 0.001}
    if teams is not None:
        out["teams"] = teams
    return out


def solo(task: int, bot: str, turns: int, seed: int, faulted: bool = False) -> dict[str, Any]:
    """A solitaire record: one seat, score = turns, rank 1."""
    return rec(task, [bot], [turns], [1], seed=seed, variant="solitaire",
               faults=[0] if faulted else [])


def row(ratings: Ratings, bot: str, variant: str = "zebra") -> Any:
    pool = ratings.pool(GAME, variant)
    assert pool is not None
    return next(r for r in pool.bots if r.bot == bot)


def h2h(ratings: Ratings, a: str, b: str, variant: str = "zebra") -> Any:
    pool = ratings.pool(GAME, variant)
    assert pool is not None
    return next(h for h in pool.crosstable if (h.bot, h.opponent) == (a, b))


ENV = trueskill.TrueSkill(25.0, 25 / 3, 25 / 6, 0.0, 0.10)
"""One match's posterior is one TrueSkill update with no drift (tau 0)."""


def fresh() -> trueskill.Rating:
    return ENV.create_rating()


def tied_update(bots: str, ranks: Sequence[int]) -> dict[str, tuple[float, float]]:
    """One match from the priors, with tied units rated in each of their orders and the
    messages averaged (TrueSkill's chain would otherwise favour one of them slightly)."""
    prior_pi, prior_tau = (25 / 3) ** -2, 25.0 * (25 / 3) ** -2
    orders = [order for order in itertools.permutations(range(len(bots)))
              if [ranks[i] for i in order] == sorted(ranks)]
    pi = dict.fromkeys(bots, 0.0)
    tau = dict.fromkeys(bots, 0.0)
    for order in orders:
        rated = ENV.rate([(fresh(),) for _ in order], ranks=[ranks[i] for i in order])
        for i, (rating,) in zip(order, rated, strict=True):
            pi[bots[i]] += (rating.sigma ** -2 - prior_pi) / len(orders)
            tau[bots[i]] += (rating.mu * rating.sigma ** -2 - prior_tau) / len(orders)
    return {bot: ((tau[bot] + prior_tau) / (pi[bot] + prior_pi), (pi[bot] + prior_pi) ** -0.5)
            for bot in bots}


def two_player() -> list[dict[str, Any]]:
    """'a' wins 10 of 10 (alternating seats), then one draw in which 'b' faults."""
    records = [rec(t, ["a", "b"] if t % 2 else ["b", "a"],
                   [14, 12] if t % 2 else [12, 14], [1, 2] if t % 2 else [2, 1], seed=t // 2)
               for t in range(10)]
    records.append(rec(10, ["a", "b"], [13, 13], [1, 1], faults=[1, 1]))
    return records


# ------------------------------------------------------------------------------- settings

def test_default_settings_are_the_trueskill_defaults() -> None:
    s = TrueSkillSettings()
    assert (s.mu, s.sigma, s.beta, s.tau, s.draw_probability) == pytest.approx(
        (25.0, 25 / 3, 25 / 6, 25 / 300, 0.10))
    s.validate()


@pytest.mark.parametrize(("field", "value"), [
    ("sigma", 0.0), ("sigma", -1.0), ("beta", 0.0), ("tau", -0.1), ("draw_probability", 1.0),
    ("draw_probability", -0.01), ("mu", math.nan), ("sigma", math.nan)])
def test_bad_settings_name_the_field(field: str, value: float) -> None:
    with pytest.raises(RatingSettingsError, match=field) as info:
        TrueSkillSettings(**{field: value}).validate()
    assert info.value.field == field
    assert isinstance(info.value, ArenaError)


def test_rate_validates_settings_and_uses_them_per_game() -> None:
    records = [rec(1, ["a", "b"], [2, 1], [1, 2])]
    with pytest.raises(RatingSettingsError, match="beta"):
        rate(records, {GAME: TrueSkillSettings(beta=0)})
    moved = rate(records, {GAME: TrueSkillSettings(mu=100.0, sigma=10.0)})
    expected = trueskill.TrueSkill(100.0, 10.0, 25 / 6, 0.0, 0.1).rate(
        [(trueskill.Rating(100, 10),), (trueskill.Rating(100, 10),)], ranks=[0, 1])
    assert row(moved, "a").mu == pytest.approx(expected[0][0].mu)
    assert rate(records, {"other-game": TrueSkillSettings(mu=100.0)}) == rate(records)


# ------------------------------------------------------------------------ two-player pool

def test_ten_wins_put_the_winner_on_top() -> None:
    ratings = rate(two_player())
    a, b = row(ratings, "a"), row(ratings, "b")
    assert [r.bot for r in ratings.pools[0].bots] == ["a", "b"]
    # on six deals, the one deal whose draw keeps a off its edge weighs what leaving it out
    # moves (the jackknife, `arena.ratings.jackknife`): a is not told apart, as with its ten
    # wins alone (bounded at the edge)
    assert (a.rank, b.rank) == (1, 1)
    assert rate(two_player()[:10]).pools[0].bots[1].rank == 1
    assert a.mu > 25 > b.mu
    assert a.sigma < 25 / 3
    assert a.mu_ci95 == pytest.approx(t_quantile(5) * a.sigma)  # six deals: t on 5 df
    assert (a.games, a.wins, a.draws, a.losses) == (11, 10, 1, 0)
    assert (b.games, b.wins, b.draws, b.losses) == (11, 0, 1, 10)
    assert (a.faults, b.faults) == (0, 2)
    assert a.mean_place == 1.0
    assert b.mean_place == pytest.approx(21 / 11)


def test_mean_score_has_a_student_t_95_percent_interval() -> None:
    b = row(rate(two_player()), "b")
    scores = [12] * 10 + [13]
    mean = sum(scores) / 11
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / 10)
    assert b.mean_score == pytest.approx(mean)
    # clustered by deal: deals 0-4 hold two games each (12 and 12), deal 10 one game (13)
    residuals = [24 - 2 * mean] * 5 + [13 - mean]
    variance = 6 / 5 * sum(e * e for e in residuals) / 11 ** 2
    assert b.score_ci95 == pytest.approx(t_quantile(5) * math.sqrt(variance))
    assert b.score_ci95 != pytest.approx(t_quantile(10) * sd / math.sqrt(11))  # not per game
    one = row(rate([rec(1, ["a", "b"], [2, 1], [1, 2])]), "a")
    assert (one.mean_score, one.score_ci95) == (2.0, 0.0)


def test_the_table_is_the_posterior_of_all_matches_at_once() -> None:
    records = [*two_player(), rec(20, ["b", "c"], [3, 1], [1, 2]),
               rec(21, ["c", "a"], [2, 1], [1, 2])]
    ratings = rate(records)
    (pool,) = rating_pools(records)
    found = posterior(pool.matches, TrueSkillSettings())
    evidence, _, _ = at_the_edge(pool.matches, found, TrueSkillSettings())
    assert evidence is not None
    for bot in "abc":
        assert row(ratings, bot).mu == pytest.approx(found.ratings[bot][0])
        assert row(ratings, bot).sigma == pytest.approx(evidence.sigma(bot))


def test_a_win_and_a_loss_leave_two_bots_level_whatever_came_first() -> None:
    """One pass would rate the later game higher; the posterior weighs both alike."""
    for first, second in ((1, 2), (2, 1)):
        ratings = rate([rec(first, ["a", "b"], [2, 1], [1, 2]),
                        rec(second, ["a", "b"], [1, 2], [2, 1])])
        a, b = row(ratings, "a"), row(ratings, "b")
        assert a.mu == pytest.approx(b.mu, abs=1e-9) and a.mu == pytest.approx(25.0, abs=1e-9)
        assert (a.rank, b.rank, a.rank_label, b.rank_label) == (1, 1, "=1", "=1")
        assert a.p_above_next == pytest.approx(0.5) and b.p_above_next is None


def test_bots_told_apart_get_ranks_of_their_own() -> None:
    ratings = rate([rec(t, ["a", "b"], [2, 1], [1, 2], seed=t) for t in range(40)])
    a, b = row(ratings, "a"), row(ratings, "b")
    assert a.p_above_next is not None and a.p_above_next > 0.95
    assert (a.rank, a.rank_label, b.rank, b.rank_label) == (1, "1", 2, "2")


def test_a_draw_keeps_equal_bots_equal() -> None:
    ratings = rate([rec(1, ["a", "b"], [13, 13], [1, 1])])
    a, b = row(ratings, "a"), row(ratings, "b")
    assert a.mu == pytest.approx(b.mu)
    assert (a.wins, a.draws, a.losses) == (0, 1, 0)
    assert h2h(ratings, "a", "b").draws == 1


def test_crosstable_counts_and_paired_edge() -> None:
    ratings = rate(two_player())
    ab, ba = h2h(ratings, "a", "b"), h2h(ratings, "b", "a")
    assert (ab.games, ab.wins, ab.draws, ab.losses) == (11, 10, 1, 0)
    assert (ba.games, ba.wins, ba.draws, ba.losses) == (11, 0, 1, 10)
    # deals 0-4 hold two games each (a +2 in both), the last game is a deal of its own (0)
    diffs = [2] * 5 + [0]
    mean = sum(diffs) / 6
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / 5)
    assert ab.deals == 6
    assert ab.edge == pytest.approx(mean)
    assert ba.edge == pytest.approx(-mean)
    assert ab.edge_ci95 == pytest.approx(t_quantile(5) * sd / math.sqrt(6))
    assert ab.significant and ab.p_value < 0.05
    assert ab.los == pytest.approx(0.5 * math.erfc(-math.sqrt(10) / math.sqrt(2)))
    assert ba.los == pytest.approx(1 - ab.los)


def test_the_games_of_one_deal_are_one_paired_observation() -> None:
    # two deals, each played in both seatings: a wins by 4 and by 0 on deal 1, by 2 twice on 2
    records = [rec(1, ["a", "b"], [6, 2], [1, 2], seed=1), rec(2, ["b", "a"], [3, 3], [1, 1],
                                                                 seed=1),
               rec(3, ["a", "b"], [3, 1], [1, 2], seed=2), rec(4, ["b", "a"], [1, 3], [2, 1],
                                                                 seed=2)]
    ab = h2h(rate(records), "a", "b")
    assert (ab.games, ab.deals, ab.edge) == (4, 2, 2.0)
    assert ab.edge_ci95 == 0.0  # both deals +2: no spread
    assert ab.p_value == 0.0 and ab.significant


def test_edge_is_positive_for_the_better_bot_when_lower_scores_win() -> None:
    records = [rec(t, ["a", "b"], [3, 7], [1, 2]) for t in range(4)]
    records.append(rec(9, ["a", "b"], [2, 1], [2, 1], faults=[0]))  # a fault: no evidence
    ratings = rate(records)
    assert h2h(ratings, "a", "b").edge == pytest.approx((4 * 4 - 1) / 5)
    assert row(ratings, "a").mean_score == pytest.approx(14 / 5)


# ------------------------------------------------------------------------- multi-player

def test_three_player_free_for_all_with_a_tie() -> None:
    ratings = rate([rec(1, ["a", "b", "c"], [5, 5, 2], [1, 1, 3])])
    for bot, expected in tied_update("abc", [0, 0, 2]).items():
        got = row(ratings, bot)
        assert got.mu == pytest.approx(expected[0])
    # tied: alike, not by seat order (to the last bits, which the BLAS kernel the machine
    # picks sums in its own order: 27.554502189568847 and ...84 with OpenBLAS 0.3.31)
    assert row(ratings, "a").mu == pytest.approx(row(ratings, "b").mu, rel=1e-12)
    assert [(row(ratings, x).wins, row(ratings, x).draws, row(ratings, x).losses)
            for x in "abc"] == [(0, 1, 0), (0, 1, 0), (0, 0, 1)]
    assert row(ratings, "c").mean_place == 3.0
    assert (h2h(ratings, "a", "c").wins, h2h(ratings, "c", "b").losses) == (1, 1)
    assert h2h(ratings, "a", "b").edge == 0.0
    assert h2h(ratings, "a", "c").edge == 3.0


def test_a_sole_winner_is_a_win_for_it_and_a_loss_for_the_rest() -> None:
    ratings = rate([rec(1, ["a", "b", "c"], [9, 5, 5], [1, 2, 2])])
    assert (row(ratings, "a").wins, row(ratings, "b").losses, row(ratings, "c").losses) == (
        1, 1, 1)
    assert h2h(ratings, "b", "c").draws == 1


def test_clones_take_the_evidence_of_each_seat() -> None:
    ratings = rate([rec(1, ["a", "b", "a"], [9, 5, 1], [1, 2, 3])])
    (a0,), (b,), (a2,) = ENV.rate([(fresh(),), (fresh(),), (fresh(),)], ranks=[0, 1, 2])
    a = row(ratings, "a")
    prior = 1 / (25 / 3) ** 2
    pi = 1 / a0.sigma ** 2 + 1 / a2.sigma ** 2 - prior  # both seats' messages on the prior
    tau = a0.mu / a0.sigma ** 2 + a2.mu / a2.sigma ** 2 - 25.0 * prior
    assert a.mu == pytest.approx(tau / pi)
    assert row(ratings, "b").mu == pytest.approx(b.mu)
    assert (a.games, a.wins, a.losses, a.mean_place) == (2, 1, 1, 2.0)
    # head to head: one game, a's mean place (2.0) equals b's: a draw; edge 5 - 5
    ab = h2h(ratings, "a", "b")
    assert (ab.games, ab.draws, ab.edge) == (1, 1, 0.0)


def test_a_match_of_one_bot_only_changes_nothing_but_counts() -> None:
    ratings = rate([rec(1, ["a", "a"], [2, 1], [1, 2])])
    a = row(ratings, "a")
    assert (a.mu, a.sigma, a.games) == (25.0, 25 / 3, 2)
    assert ratings.pools[0].skipped == 0
    assert ratings.pools[0].crosstable == ()


def test_teams_are_rated_as_teams() -> None:
    records = [rec(1, ["a", "b", "c", "d"], [10, 4, 10, 4], [1, 3, 1, 3],
                   teams=[[0, 2], [1, 3]])]
    ratings = rate(records)
    (a, c), (b, d) = ENV.rate([(fresh(), fresh()), (fresh(), fresh())], ranks=[0, 2])
    for bot, expected in (("a", a), ("b", b), ("c", c), ("d", d)):
        assert row(ratings, bot).mu == pytest.approx(expected.mu)
    assert [(row(ratings, x).wins, row(ratings, x).losses) for x in "abcd"] == [
        (1, 0), (0, 1), (1, 0), (0, 1)]
    pool = ratings.pools[0]
    met = {(h.bot, h.opponent) for h in pool.crosstable}
    assert ("a", "b") in met and ("a", "c") not in met and ("b", "d") not in met
    assert h2h(ratings, "a", "d").edge == 6.0


def test_teams_tied_for_first_are_draws() -> None:
    ratings = rate([rec(1, ["a", "b", "c", "d"], [5, 5, 5, 5], [1, 1, 1, 1],
                        teams=[[0, 2], [1, 3]])])
    assert all((row(ratings, x).wins, row(ratings, x).draws) == (0, 1) for x in "abcd")


# -------------------------------------------------------------------------- solitaire

def test_a_solitaire_deal_is_one_ranked_match() -> None:
    records = [solo(7, "x", 40, seed=5), solo(3, "y", 38, seed=5), solo(5, "z", 40, seed=5)]
    ratings = rate(records)
    pool = ratings.pool(GAME, "solitaire")
    assert pool is not None and pool.matches == 1
    # fewer turns win; x and z tie, and are rated alike whatever their tasks
    for bot, expected in tied_update("yxz", [0, 1, 1]).items():
        assert row(ratings, bot, "solitaire").mu == pytest.approx(expected[0])
    assert row(ratings, "x", "solitaire").mu == pytest.approx(row(ratings, "z", "solitaire").mu,
                                                              rel=1e-12)  # to the last bits
    ys, xs = row(ratings, "y", "solitaire"), row(ratings, "x", "solitaire")
    assert (ys.wins, ys.mean_place, ys.mean_score) == (1, 1.0, 38.0)
    assert (xs.losses, xs.mean_place) == (1, 2.0)
    yx = h2h(ratings, "y", "x", "solitaire")
    assert (yx.wins, yx.edge) == (1, 2.0)  # two turns fewer: positive means y did better
    assert h2h(ratings, "x", "z", "solitaire").draws == 1


def test_a_solitaire_deal_ranks_by_the_order_its_records_carry() -> None:
    records = [solo(1, "x", 40, seed=2), solo(2, "y", 38, seed=2)]
    for record in records:
        record["order"] = "higher"  # points, as in Cribbage Square: more is better
    ratings = rate(records)
    x, y = row(ratings, "x", "solitaire"), row(ratings, "y", "solitaire")
    assert (x.wins, y.losses) == (1, 1) and x.mu > y.mu
    assert h2h(ratings, "x", "y", "solitaire").edge == 2.0
    lower = rate([{**r, "order": "lower"} for r in records])
    assert row(lower, "y", "solitaire").wins == 1


def test_an_unknown_score_order_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="unknown score order 'sideways'"):
        rate([{**solo(1, "x", 40, seed=2), "order": "sideways"}])


def test_a_faulted_solitaire_game_ranks_last() -> None:
    records = [solo(1, "x", 30, seed=1, faulted=True), solo(2, "y", 50, seed=1)]
    ratings = rate(records)
    x, y = row(ratings, "x", "solitaire"), row(ratings, "y", "solitaire")
    assert (x.losses, x.faults, y.wins) == (1, 1, 1)
    assert y.mu > x.mu
    assert h2h(ratings, "y", "x", "solitaire").wins == 1


def test_each_solitaire_deal_is_one_match_whatever_its_tasks() -> None:
    # x wins deal 1, y wins deal 2: level, however the tasks are numbered
    records = [solo(1, "x", 30, seed=1), solo(4, "y", 40, seed=1),
               solo(2, "x", 50, seed=2), solo(3, "y", 20, seed=2)]
    ratings = rate(records)
    x, y = row(ratings, "x", "solitaire"), row(ratings, "y", "solitaire")
    assert x.mu == pytest.approx(y.mu, abs=1e-9)
    assert ratings.pools[0].matches == 2
    assert h2h(ratings, "x", "y", "solitaire").deals == 2


def test_a_deal_played_by_one_bot_is_counted_but_not_rated() -> None:
    ratings = rate([solo(1, "x", 30, seed=1)])
    x = row(ratings, "x", "solitaire")
    assert (x.mu, x.games, x.wins) == (25.0, 1, 1)


# ----------------------------------------------------------------------- purity, guard

def mixed() -> list[dict[str, Any]]:
    records = two_player()
    records += [rec(20 + t, ["a", "b", "c"], [t % 3, 2, 1], [1 + t % 3, 2, 3], variant="dup")
                for t in range(6)]
    records += [solo(40 + t, bot, 30 + (t * 7) % 5, seed=t // 3)
                for t, bot in enumerate(["x", "y", "z"] * 3)]
    return records


def test_ratings_are_a_function_of_the_set_of_records() -> None:
    records = mixed()
    rated = rate(records)
    expected = {fmt: format_ratings(rated, fmt) for fmt in ReportFormat}
    rng = random.Random(1)
    for _ in range(3):
        rng.shuffle(records)
        shuffled = rate(iter(records))  # rated once a shuffle, shown in every format
        for fmt in ReportFormat:
            assert format_ratings(shuffled, fmt) == expected[fmt]


def test_unratable_matches_are_counted_in_every_format(monkeypatch: pytest.MonkeyPatch) -> None:
    """The posterior skips what neither TrueSkill backend can rate (tested in test_posterior);
    the table says how many."""

    def failing(matches: Any, settings: TrueSkillSettings) -> Posterior:
        return Posterior({}, len(matches), 1, True)

    monkeypatch.setattr("arena.ratings.tables.posterior", failing)
    ratings = rate(two_player())
    pool = ratings.pools[0]
    assert (pool.skipped, pool.matches) == (11, 11)
    assert row(ratings, "a").mu == 25.0
    assert row(ratings, "a").wins == 10
    assert "11 of 11 matches left unrated" in format_ratings(ratings)
    assert json.loads(format_ratings(ratings, "json"))["pools"][0]["skipped"] == 11


def test_extreme_ratings_survive() -> None:
    # 200 straight wins drive the float backend towards its limits; nothing may raise
    records = [rec(t, ["a", "b"], [2, 1], [1, 2]) for t in range(200)]
    records.append(rec(200, ["a", "b"], [1, 2], [2, 1]))
    ratings = rate(records)
    assert row(ratings, "a").mu > row(ratings, "b").mu


# ------------------------------------------------------------------------------- records

def test_a_repeated_task_is_an_error() -> None:
    with pytest.raises(RecordError, match="task 1 appears twice"):
        rate([rec(1, ["a", "b"], [2, 1], [1, 2]), rec(1, ["a", "b"], [2, 1], [1, 2])])


def test_a_task_repeated_across_pools_is_an_error() -> None:
    with pytest.raises(RecordError, match="task 4 appears twice"):
        rate([rec(4, ["a", "b"], [2, 1], [1, 2]), solo(4, "a", 30, seed=1)])


def test_records_are_held_compact_with_equal_parts_shared() -> None:
    from arena.ratings.pools import _lean

    shared: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    first, second = (_lean(rec(task, ["a", "b"], [2, 1], [1, 2]), shared) for task in (1, 2))
    assert first.task == 1 and second.task == 2
    for part in ("seats", "scores", "ranks", "faults", "units"):
        assert getattr(first, part) is getattr(second, part), part  # one tuple for both
    assert not hasattr(first, "__dict__")  # slots: no dictionary per record


@pytest.mark.parametrize("key", ["task", "game", "seats", "scores", "ranks"])
def test_a_record_missing_a_field_is_an_error(key: str) -> None:
    record = rec(1, ["a", "b"], [2, 1], [1, 2])
    del record[key]
    with pytest.raises(RecordError, match=repr(key) if key != "task" else "task"):
        rate([record])


def test_inconsistent_lengths_are_an_error() -> None:
    with pytest.raises(RecordError, match="task 1"):
        rate([rec(1, ["a", "b"], [2, 1, 0], [1, 2])])


@pytest.mark.parametrize(("change", "message"), [
    ({"faults": [{"seat": 5}]}, "a fault names no seat"),
    ({"teams": [[0, 7]]}, "names no seat"),
    ({"scores": ["many", 1]}, "malformed"),
    ({"seats": []}, "empty"),
    ({"task": "7"}, "not an integer"),
])
def test_malformed_records_are_errors(change: dict[str, Any], message: str) -> None:
    record = rec(1, ["a", "b"], [2, 1], [1, 2]) | change
    with pytest.raises(RecordError, match=message):
        rate([record])


def test_no_records_no_pools() -> None:
    assert rate([]) == Ratings(())
    assert format_ratings(rate([]), "table") == ""
    assert json.loads(format_ratings(rate([]), "json")) == {"pools": []}


# -------------------------------------------------------------------------------- output

def test_table_output_has_a_heading_and_columns_per_pool() -> None:
    text = format_ratings(rate(mixed()), "table")
    for head in ("concentration / zebra", "concentration / dup", "concentration / solitaire"):
        assert head in text.splitlines()
    for column in ("rank", "bot", "mu vs pool (95%)", "sigma", "P(> next)", "games", "W", "D", "L",
                   "mean place", "mean score (95%)", "faults", "opponent", "deals", "edge (95%)",
                   "LOS", "=n: a rank shared"):
        assert column in text
    assert "13.91 ± " in text  # a: 14 ten times, 13 once


def test_markdown_output_is_github_tables() -> None:
    text = format_ratings(rate(mixed()), ReportFormat.MARKDOWN)
    assert "## concentration / zebra" in text
    assert "| rank" in text.replace("|   rank", "| rank")
    assert "|--" in text


def test_csv_outputs_parse() -> None:
    ratings = rate(mixed())
    rows = list(csv.DictReader(io.StringIO(format_ratings(ratings, "csv"))))
    assert list(rows[0])[:5] == ["game", "variant", "rank", "rank_label", "bot"]
    assert {"mu_ci95", "p_above_next", "fault_kinds", "flagged", "beats_above"} <= set(rows[0])
    assert "conservative" not in rows[0]
    assert {(r["variant"], r["bot"]) for r in rows} >= {("zebra", "a"), ("solitaire", "x")}
    a = next(r for r in rows if (r["variant"], r["bot"]) == ("zebra", "a"))
    assert (int(a["wins"]), float(a["mu"])) == (10, round(row(ratings, "a").mu, 6))
    cross = list(csv.DictReader(io.StringIO(format_crosstable(ratings, "csv"))))
    assert list(cross[0])[:4] == ["game", "variant", "bot", "opponent"]
    assert len(cross) == sum(len(p.crosstable) for p in ratings.pools)


def test_json_output_is_stable_and_rounded() -> None:
    ratings = rate(mixed())
    text = format_ratings(ratings, "json")
    doc = json.loads(text)
    assert [(p["game"], p["variant"]) for p in doc["pools"]] == sorted(
        (p["game"], p["variant"]) for p in doc["pools"])
    zebra = next(p for p in doc["pools"] if p["variant"] == "zebra")
    assert set(zebra) == {"game", "variant", "matches", "skipped", "bots", "crosstable",
                          "deals", "sweeps", "converged", "edges", "near_edges", "luck_model",
                          "luck_note"}
    assert zebra["converged"] is True
    assert zebra["bots"][0]["bot"] == "a"
    assert zebra["bots"][0]["mu"] == round(row(ratings, "a").mu, 6)
    assert {"bot", "opponent", "games", "deals", "wins", "draws", "losses", "edge", "edge_ci95",
            "p_value", "los", "significant", "edge_df"} == set(zebra["crosstable"][0])
    assert {"rank", "rank_label", "p_above_next", "mu_ci95", "beats_above"} <= set(
        zebra["bots"][0])
    assert format_ratings(rate(mixed()), "json") == text


def test_other_crosstable_formats() -> None:
    ratings = rate(mixed())
    assert "edge (95%)" in format_crosstable(ratings, "table")
    assert "| bot" in format_crosstable(ratings, "markdown")
    doc = json.loads(format_crosstable(ratings, "json", variant="zebra"))
    assert [p["variant"] for p in doc["pools"]] == ["zebra"]


def test_variant_filter() -> None:
    ratings = rate(mixed())
    text = format_ratings(ratings, "table", variant="dup")
    assert "concentration / dup" in text and "zebra" not in text
    assert ratings.variants() == ("dup", "solitaire", "zebra")
    with pytest.raises(VariantError, match=r"'zebr'.*known: dup, solitaire, zebra"):
        format_ratings(ratings, "table", variant="zebr")


def test_unknown_format_is_an_error() -> None:
    with pytest.raises(ArenaError, match="known: table, markdown, csv, json"):
        format_ratings(rate(mixed()), "html")


def test_faults_are_counted_by_kind_and_frequent_faulters_flagged() -> None:
    def faulty(task: int, kind: str) -> dict[str, Any]:
        record = rec(task, ["a", "b"], [0, 5], [2, 1])
        record["faults"] = [{"seat": 0, "decision": 3, "kind": kind, "detail": "x"}]
        return record

    records = [faulty(1, "timeout"), faulty(2, "crash"), faulty(3, "timeout"),
               rec(4, ["a", "b"], [5, 0], [1, 2])]
    ratings = rate(records)
    assert row(ratings, "a").fault_kinds == (("crash", 1), ("timeout", 2))
    text = format_ratings(ratings)
    assert "a !" in text and "timeout" in text and "crash" in text
    assert "more than 25% of its games" in text
    assert "b !" not in format_ratings(ratings)
    doc = json.loads(format_ratings(ratings, "json"))
    a = next(r for r in doc["pools"][0]["bots"] if r["bot"] == "a")
    assert a["flagged"] and a["fault_kinds"] == {"crash": 1, "timeout": 2}
    assert not json.loads(format_ratings(ratings, "json", fault_share=0.9))["pools"][0]["bots"][0][
        "flagged"]


def test_one_variant_at_two_table_sizes_makes_two_pools() -> None:
    ratings = rate([rec(1, ["a", "b"], [2, 1], [1, 2]), rec(2, ["a", "b", "c"], [1, 2, 3],
                                                           [3, 2, 1])])
    assert ratings.variants() == ("zebra (2 players)", "zebra (3 players)")


def test_disqualification_forfeits_every_later_game_of_a_faulting_bot() -> None:
    first = rec(1, ["a", "b"], [9, 1], [1, 2])
    faulted = rec(2, ["a", "b"], [0, 5], [2, 1])
    faulted["faults"] = [{"seat": 0, "decision": 4, "kind": "timeout", "detail": "x"}]
    later = rec(3, ["b", "a"], [1, 9], [2, 1])  # a wins on the board, but is out by now
    records = disqualified([later, faulted, first])
    assert [r["task"] for r in records] == [1, 2, 3]
    assert records[0]["ranks"] == [1, 2] and records[2]["ranks"] == [1, 2]
    assert records[2]["faults"][0]["kind"] == "disqualified"
    a = row(rate([first, faulted, later], disqualify=True), "a")
    assert (a.wins, a.losses, dict(a.fault_kinds)) == (1, 2, {"disqualified": 1, "timeout": 1})
    assert row(rate([first, faulted, later]), "a").wins == 2


# ------------------------------------------------------------------------ bots at the edge

def _always_last(turned: int = 0) -> list[dict[str, Any]]:
    """Three bots of close skill and `w`, last in every three-seat game on 30 deals but in
    `turned` of them (where it swaps places with the next seat)."""
    rng = random.Random(11)
    out = []
    for deal in range(30):
        for order in itertools.permutations(("a", "b", "w")):
            perf = {bot: rng.gauss(0, 1) for bot in ("a", "b")}
            ranks = [1 + sum(perf[o] > perf[bot] for o in perf) if bot != "w" else 3
                     for bot in order]
            if len(out) < turned:
                ranks = [3 if r == 2 else 2 if r == 3 else r for r in ranks]
            out.append({"task": len(out), "game": GAME, "variant": "standard", "seed": deal,
                        "seats": list(order), "scores": [3 - r for r in ranks], "ranks": ranks,
                        "faults": []})
    return out


def test_a_bot_last_in_every_game_gets_an_interval_that_one_game_does_not_break() -> None:
    """Issue 39 (5): goldfish, last in all 360 games, got sigma 0.13-0.16 where a run in which
    it once avoided last place gave 0.5-0.9: re-dealt runs' z spread was 4. Now its sigma is at
    least how far one game ending otherwise moves it, and the table says why."""
    separated, once = rate(_always_last()), rate(_always_last(turned=1))
    (pool,) = separated.pools
    assert pool.edges == (("w", "last"),)
    assert not once.pools[0].edges

    def relative(ratings: Ratings, bot: str) -> tuple[float, float]:
        rows = ratings.pools[0].bots
        mean = sum(r.mu for r in rows) / len(rows)
        found = next(r for r in rows if r.bot == bot)
        return found.mu - mean, found.sigma

    (mu, sigma), (mu_once, sigma_once) = relative(separated, "w"), relative(once, "w")
    assert abs(mu - mu_once) <= Z95 * math.hypot(sigma, sigma_once)
    assert "w finished last in every game it played" in format_ratings(separated)
    assert json.loads(format_ratings(separated, "json"))["pools"][0]["edges"] == [["w", "last"]]


# luck-adjusted edges: records carrying a synthetic luck (in score units, per seat)

MODEL = "concentration-minimax/1"


def lucky_pool(deals: int = 60, edge: float = 0.5, seed: int = 11) -> list[dict[str, Any]]:
    """Two bots on `deals` deals, both seat orders each: a's score advantage is `edge` plus
    its luck advantage (most of the spread) plus a little noise; ranks follow the scores."""
    rng = random.Random(seed)
    out = []
    for deal in range(deals):
        for order in (("a", "b"), ("b", "a")):
            luck_a = rng.gauss(0.0, 2.0)
            score_a = 10 + edge / 2 + luck_a + rng.gauss(0.0, 0.7)
            score_b = 10 - edge / 2
            scores = [score_a, score_b] if order[0] == "a" else [score_b, score_a]
            luck = [luck_a, -0.0] if order[0] == "a" else [-0.0, luck_a]
            ranks = [1, 2] if scores[0] > scores[1] else [2, 1]
            record = rec(len(out), order, [round(s, 6) for s in scores], ranks, seed=deal)
            record["luck"] = [round(x, 9) for x in luck]
            record["luck_model"] = MODEL
            out.append(record)
    return out


def stripped(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in ("luck", "luck_model")} for r in records]


def test_edges_of_a_pool_with_luck_are_adjusted_and_narrower() -> None:
    records = lucky_pool(edge=0.3, seed=22)
    adjusted, raw = rate(records), rate(stripped(records))
    pool = adjusted.pool(GAME, "zebra")
    assert pool is not None and pool.luck_model == MODEL and pool.luck_note is None
    assert h2h(adjusted, "a", "b").edge_ci95 < 0.5 * h2h(raw, "a", "b").edge_ci95
    assert h2h(adjusted, "a", "b").edge == pytest.approx(0.3, abs=h2h(adjusted, "a", "b").edge_ci95)
    assert h2h(adjusted, "a", "b").significant and not h2h(raw, "a", "b").significant
    # the ratings themselves take no margins: the same with or without the luck
    assert row(adjusted, "a").mu == row(raw, "a").mu
    text = format_ratings(adjusted)
    assert f"edges adjusted for luck ({MODEL})" in text
    assert "luck" not in format_ratings(raw)
    doc = json.loads(format_ratings(adjusted, "json"))["pools"][0]
    assert (doc["luck_model"], doc["luck_note"]) == (MODEL, None)
    cross = list(csv.DictReader(io.StringIO(format_crosstable(adjusted, "csv"))))
    assert cross[0]["luck_model"] == MODEL
    deals = h2h(adjusted, "a", "b").deals
    assert (cross[0]["edge_df"], h2h(raw, "a", "b").edge_df) == (str(deals - 4), None)
    assert json.loads(format_crosstable(adjusted, "json"))["pools"][0]["luck_model"] == MODEL


def test_luck_off_shows_the_raw_edges_and_says_so() -> None:
    records = lucky_pool()
    off, raw = rate(records, luck=False), rate(stripped(records))
    assert off.pools[0].crosstable == raw.pools[0].crosstable
    assert off.pools[0].luck_model is None
    assert off.pools[0].luck_note == f"edges raw (--luck off); the records carry luck from {MODEL}"
    assert "edges raw (--luck off)" in format_crosstable(off, "table")


def test_an_edge_adjusted_for_luck_is_a_verdict_the_table_draws_on() -> None:
    """b is listed above a (it wins more games) but a has the better edge once its bad luck is
    taken out: `beats_above` follows the adjusted edge."""
    rng = random.Random(5)
    records = []
    for deal in range(80):
        for order in (("a", "b"), ("b", "a")):
            luck_a = rng.gauss(0.0, 3.0)
            margin = 0.4 + luck_a + rng.gauss(0.0, 0.5)
            won = margin > 1.0  # a game a wins only by a wide margin: b wins more of them
            scores = [10 + margin, 10.0] if order[0] == "a" else [10.0, 10 + margin]
            a_seat = order.index("a")
            ranks = [1, 2] if (won == (a_seat == 0)) else [2, 1]
            record = rec(len(records), order, [round(s, 6) for s in scores], ranks, seed=deal)
            luck = [0.0, 0.0]
            luck[a_seat] = round(luck_a, 9)
            record["luck"], record["luck_model"] = luck, MODEL
            records.append(record)
    adjusted = rate(records)
    pool = adjusted.pool(GAME, "zebra")
    assert pool is not None and [r.bot for r in pool.bots] == ["b", "a"]
    assert h2h(adjusted, "a", "b").significant
    assert row(adjusted, "a").beats_above == ("b",)
    assert not h2h(rate(records, luck=False), "a", "b").significant
    assert row(rate(records, luck=False), "a").beats_above == ()


@pytest.mark.parametrize(("change", "says"), [
    (lambda r: r.pop("luck_model"), "task 7 (deal 3) cannot be adjusted for luck: its luck names"),
    (lambda r: r.pop("luck"), "task 7 (deal 3) cannot be adjusted for luck: its luck is not"),
    (lambda r: (r.pop("luck"), r.pop("luck_model")),
     "task 7 (deal 3) cannot be adjusted for luck: it has no luck while other games"),
    (lambda r: r.update(luck=[1.0]), "its luck is not 2 finite numbers"),
    (lambda r: r.update(luck=[1.0, "x"]), "its luck is not 2 finite numbers"),
    (lambda r: r.update(luck=[1.0, float("nan")]), "its luck is not 2 finite numbers"),
    (lambda r: r.update(luck=[True, 1.0]), "its luck is not 2 finite numbers"),
    (lambda r: r.update(luck_model=7), "its luck names no model"),
    (lambda r: r.update(luck_model="concentration-minimax/2"),
     "two models, concentration-minimax/1 (task 0, deal 0) and concentration-minimax/2 (task 7, "
     "deal 3)"),
])
def test_a_pool_whose_luck_cannot_be_used_falls_back_to_raw_edges_with_a_note(
        change: Any, says: str) -> None:
    records = lucky_pool()
    change(records[7])
    found = rate(records)
    pool = found.pool(GAME, "zebra")
    assert pool is not None and pool.luck_model is None
    assert pool.luck_note is not None and says in pool.luck_note
    assert pool.luck_note.startswith("concentration / zebra: ")
    assert pool.luck_note.endswith("the pool's edges are raw")
    assert pool.crosstable == rate(stripped(records)).pools[0].crosstable  # nothing lost
    assert pool.luck_note in format_ratings(found)
    assert json.loads(format_ratings(found, "json"))["pools"][0]["luck_note"] == pool.luck_note


def test_luck_adjusted_edges_are_a_function_of_the_set_of_records() -> None:
    records = lucky_pool(30)
    shuffled = list(records)
    random.Random(2).shuffle(shuffled)
    assert rate(shuffled).pools[0].luck_model == MODEL
    assert format_ratings(rate(shuffled), "json") == format_ratings(rate(records), "json")


def test_solitaire_pools_carry_their_luck_per_record() -> None:
    records = []
    rng = random.Random(9)
    for deal in range(40):
        for bot in ("x", "y"):
            luck = rng.gauss(0.0, 3.0)
            record = solo(len(records), bot, round(30 + (2 if bot == "x" else 0) + luck, 6),
                          deal)
            record["luck"], record["luck_model"] = [round(luck, 9)], MODEL
            records.append(record)
    found = rate(records)
    assert found.pool(GAME, "solitaire").luck_model == MODEL  # type: ignore[union-attr]
    adjusted = h2h(found, "y", "x", "solitaire")
    raw = h2h(rate(stripped(records)), "y", "x", "solitaire")
    assert adjusted.edge_ci95 < 0.1 * raw.edge_ci95
    assert adjusted.edge == pytest.approx(2.0, abs=1e-6)
