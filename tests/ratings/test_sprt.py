"""The sequential duel's statistics against values worked out by hand: bounds, LLR, Elo, the
margin in the game's units, and the closing sentence."""

from __future__ import annotations

import math
import random

import pytest

from arena.ratings.sprt import (
    PAIR_SCORES,
    SprtError,
    SprtSettings,
    Verdict,
    bounds,
    elo_estimate,
    elo_of_score,
    llr,
    margin_estimate,
    margin_text,
    pair_cell,
    score_of_elo,
    sprt,
    summary,
)


def test_bounds_are_walds() -> None:
    lower, upper = bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944439, abs=1e-6)
    assert upper == pytest.approx(2.944439, abs=1e-6)
    assert bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))


def test_logistic_elo_and_score_are_inverse() -> None:
    assert score_of_elo(0) == 0.5
    assert elo_of_score(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert elo_of_score(score_of_elo(20)) == pytest.approx(20)
    assert elo_of_score(1.0) == math.inf and elo_of_score(0.0) == -math.inf


def test_pair_cells() -> None:
    assert [pair_cell(0, 0), pair_cell(0.5, 0), pair_cell(1, 0), pair_cell(0.5, 0.5),
            pair_cell(1, 0.5), pair_cell(1, 1)] == [0, 1, 2, 2, 3, 4]


def test_llr_of_pairs_in_two_cells_is_a_bernoulli_ratio() -> None:
    # only LL and WW pairs: the closest distribution with score s puts s on WW, 1 - s on LL,
    # so with s0 = 0.5 and s1 = 0.6 the LLR of 7 WW and 3 LL is 7 log(1.2) + 3 log(0.8)
    value = llr([3, 0, 0, 0, 7], elo0=0, elo1=elo_of_score(0.6))
    assert value == pytest.approx(7 * math.log(1.2) + 3 * math.log(0.8))
    assert value == pytest.approx(0.606820, abs=1e-6)


def test_llr_is_the_likelihood_ratio_of_the_best_distributions_of_given_score() -> None:
    counts = [2, 5, 9, 6, 3]
    s0, s1 = score_of_elo(0), score_of_elo(30)
    # brute force: the best distribution of score s maximises sum n_i log p_i on a fine grid
    # of the two free directions around the empirical one; the closed form must beat them all
    total = sum(counts)
    freqs = [n / total for n in counts]

    def loglik(p: list[float]) -> float:
        return sum(n * math.log(q) for n, q in zip(counts, p, strict=True))

    def best_on_grid(s: float) -> float:
        rng = random.Random(7)
        best = -math.inf
        for _ in range(20000):
            p = [f * math.exp(rng.gauss(0, 0.3)) for f in freqs]
            z = sum(p)
            p = [q / z for q in p]
            # move the mean to s along the straight line to the two end cells
            mean = sum(q * a for q, a in zip(p, PAIR_SCORES, strict=True))
            t = s - mean
            if t > 0 and p[0] > t:
                p[0] -= t
                p[4] += t
            elif t <= 0 and p[4] > -t:
                p[4] += t
                p[0] -= t
            else:
                continue
            best = max(best, loglik(p))
        return best

    exact = llr(counts, 0, 30)
    grid = best_on_grid(s1) - best_on_grid(s0)
    assert exact == pytest.approx(grid, abs=0.05)


def test_llr_is_close_to_the_normal_approximation_for_small_differences() -> None:
    # Van den Bergh: LLR ~ N (s1 - s0) (2 mean - s0 - s1) / (2 var) per pair
    counts = [5, 20, 40, 25, 10]
    n = sum(counts)
    mean = sum(k * a for k, a in zip(counts, PAIR_SCORES, strict=True)) / n
    var = sum(k * (a - mean) ** 2 for k, a in zip(counts, PAIR_SCORES, strict=True)) / n
    s0, s1 = score_of_elo(0), score_of_elo(5)
    assert llr(counts, 0, 5) == pytest.approx(n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var),
                                              rel=0.02)


def test_elo_and_its_interval_from_the_pentanomial_variance() -> None:
    # counts 1 2 4 2 1: mean 0.5, variance (2 * 0.25^2 * 1 + 2 * 0.0625 * 2 ... ) = 0.075,
    # standard error sqrt(0.075 / 10), interval 0.5 +- 1.96 * 0.0866 = [0.3303, 0.6697]
    estimate = elo_estimate([1, 2, 4, 2, 1])
    assert estimate.elo == 0.0
    half = 1.959964 * math.sqrt(0.075 / 10)
    assert estimate.high == pytest.approx(-400 * math.log10(1 / (0.5 + half) - 1))
    assert estimate.high == pytest.approx(122.818, abs=1e-3)
    assert estimate.low == pytest.approx(-estimate.high)
    assert elo_estimate([0, 0, 0, 0, 4]).elo == math.inf


def test_verdicts() -> None:
    settings = SprtSettings(0, 20)
    assert sprt([0, 0, 0, 0, 0], settings).verdict is Verdict.INCONCLUSIVE
    assert sprt([0, 0, 0, 0, 80], settings).verdict is Verdict.H1
    assert sprt([0, 0, 40, 0, 0], settings).verdict is Verdict.INCONCLUSIVE
    assert sprt([20, 60, 400, 60, 20], settings).verdict is Verdict.H0
    state = sprt([0, 0, 0, 0, 80], settings)
    assert state.llr >= state.bounds[1] and state.games == 160


@pytest.mark.parametrize(("settings", "message"), [
    (SprtSettings(alpha=0), "--alpha: must be between 0 and 1"),
    (SprtSettings(beta=1.5), "--beta: must be between 0 and 1"),
    (SprtSettings(elo0=10, elo1=10), "--elo1: must be above --elo0"),
    (SprtSettings(elo0=math.nan), "--elo0: must be a finite"),
])
def test_settings_that_make_no_test_are_refused(settings: SprtSettings, message: str) -> None:
    with pytest.raises(SprtError, match=message):
        settings.validate()


def test_the_margin_is_a_mean_per_deal_pair_with_a_t_interval() -> None:
    margin = margin_estimate([2.0, 4.0, 0.0, 2.0])
    # mean 2, sd sqrt(8/3), t(3) = 3.182446
    half = 3.182446 * math.sqrt(8 / 3 / 4)
    assert (margin.pairs, margin.mean) == (4, 2.0)
    assert (margin.low, margin.high) == pytest.approx((2 - half, 2 + half), abs=1e-6)
    assert margin_text(margin, "sets") == "+2.00 sets a deal pair [-0.60, +4.60]"
    assert margin_estimate([3.0]).low == -math.inf
    assert margin_text(margin_estimate([3.0]), "points") == "+3.00 points a deal pair"


def test_the_summary_reads_right() -> None:
    settings = SprtSettings(0, 20)
    win = sprt([0, 2, 20, 40, 20], settings)
    assert win.verdict is Verdict.H1
    text = summary(win, "v3", "v2", settings, margin_estimate([2.0, 1.0, 3.0]), "sets")
    assert text.startswith("v3 is better than v2: +")
    assert text.endswith("Elo [" + text.split("Elo [")[1].split("]")[0] + "], +2.00 sets a deal "
                         "pair [-0.48, +4.48]")
    lose = sprt([20, 60, 400, 60, 20], settings)
    assert lose.verdict is Verdict.H0
    text = summary(lose, "v3", "dig-sharp", settings, margin_estimate([0.0, -1.0]), "cards")
    assert text.startswith("v3 is not shown to be 20 Elo better than dig-sharp; the difference "
                           "lies between -")
    assert "worse" not in text and "H0" not in text
    open_ = sprt([0, 0, 40, 0, 0], settings)
    assert summary(open_, "a", "b", settings, margin_estimate([0.0, 0.0]), "sets").startswith(
        "no verdict after 80 games between a and b; the difference lies between")


def test_copies_that_mirror_each_other_are_said_to_be() -> None:
    settings = SprtSettings(0, 20)
    state = sprt([0, 0, 64, 0, 0], settings)
    text = summary(state, "greedy", "greedy-2", settings, margin_estimate([0.0] * 64), "sets",
                   mirrored=True)
    assert text.startswith("greedy and greedy-2 played mirror images of each other's games on "
                           "all 64 deals")
    assert "Elo 0" not in text and "H0" not in text
