"""The statistics of the verdicts: quantiles and p-values against known values, the likelihood
of superiority, intervals whose coverage is what they claim."""

from __future__ import annotations

import math
import random
import subprocess
import sys

import mpmath
import pytest

from arena.ratings.verdicts import (
    Z95,
    difference,
    likelihood_of_superiority,
    normal_cdf,
    paired_mean,
    probability_above,
    t_cdf,
    t_quantile,
    t_test_p,
    welch_difference,
)


@pytest.mark.parametrize(("df", "expected"), [(1, 12.706205), (2, 4.302653), (5, 2.570582),
                                              (10, 2.228139), (30, 2.042272), (100, 1.983972)])
def test_t_quantiles_match_the_tables(df: int, expected: float) -> None:
    assert t_quantile(df) == pytest.approx(expected, abs=1e-6)


def test_the_t_quantile_tends_to_the_normal_one() -> None:
    assert t_quantile(5000) == pytest.approx(Z95)
    assert normal_cdf(Z95) == pytest.approx(0.975)


def test_p_values_are_consistent_with_the_quantiles() -> None:
    for df in (1, 3, 9, 40, 2000):
        assert t_test_p(t_quantile(df), 1.0, df) == pytest.approx(0.05, abs=1e-4)
    assert t_test_p(0.0, 1.0, 10) == pytest.approx(1.0)
    assert t_test_p(1.0, 0.0, 10) == 0.0
    assert t_test_p(1.0, 1.0, 0) == 1.0


def test_likelihood_of_superiority() -> None:
    assert likelihood_of_superiority(0, 0) == 0.5
    assert likelihood_of_superiority(10, 10) == 0.5
    assert likelihood_of_superiority(10, 0) == pytest.approx(normal_cdf(math.sqrt(10)))
    assert likelihood_of_superiority(3, 7) == pytest.approx(1 - likelihood_of_superiority(7, 3))


def test_probability_above_is_symmetric_and_calibrated() -> None:
    assert probability_above(30, 1, 30, 1) == 0.5
    assert probability_above(32, 1, 30, 1) == pytest.approx(normal_cdf(2 / math.sqrt(2)))
    assert probability_above(28, 1, 30, 1) == pytest.approx(1 - probability_above(32, 1, 30, 1))
    assert probability_above(1, 0, 0, 0) == 1.0


def test_a_paired_mean_with_one_or_no_value_has_no_interval() -> None:
    assert paired_mean([]).n == 0
    one = paired_mean([3.0])
    assert (one.mean, one.ci95, one.p_value, one.significant) == (3.0, 0.0, 1.0, False)


def test_paired_mean_intervals_cover_the_truth_95_percent_of_the_time() -> None:
    rng = random.Random(2026)
    covered = significant = 0
    trials = 2000
    for _ in range(trials):
        found = paired_mean(rng.gauss(1.5, 4.0) for _ in range(8))
        covered += abs(found.mean - 1.5) <= found.ci95
        significant += paired_mean(rng.gauss(0.0, 4.0) for _ in range(8)).significant
    assert 0.93 <= covered / trials <= 0.97
    assert 0.03 <= significant / trials <= 0.07  # false alarms at the 5% level


def test_a_difference_of_two_estimates() -> None:
    moved = difference(31.0, 1.0, 30.0, 1.0)
    assert moved.delta == 1.0
    assert moved.ci95 == pytest.approx(Z95 * math.sqrt(2))
    assert not moved.significant
    assert difference(35.0, 1.0, 30.0, 1.0).significant
    assert difference(35.0, 1.0, 30.0, 1.0).p_value < 0.05 < moved.p_value


def test_welch_s_difference_uses_the_satterthwaite_degrees_of_freedom() -> None:
    # errors 1 (on 4 df) and 2 (on 9 df): df = 25 / (1/4 + 16/9) = 12.3288...
    found = welch_difference(3.0, 1.0, 4, 0.0, 2.0, 9)
    assert found is not None
    assert found.df == pytest.approx(25 / (1 / 4 + 16 / 9))
    assert t_quantile(12) * math.sqrt(5) > found.ci95 > t_quantile(13) * math.sqrt(5)
    at_edge = welch_difference(found.ci95, 1.0, 4, 0.0, 2.0, 9)
    assert at_edge is not None and at_edge.p_value == pytest.approx(0.05, abs=1e-9)
    equal = welch_difference(1.0, 0.5, 9, 0.0, 0.5, 9)
    assert equal is not None and equal.df == pytest.approx(18)
    assert equal.ci95 == pytest.approx(t_quantile(18) * 0.5 * math.sqrt(2))
    # one edge without spread: its error adds nothing, the other's df remain
    one = welch_difference(1.0, 0.5, 2, 0.0, 0.0, 2)
    assert one is not None and one.df == pytest.approx(2)
    assert welch_difference(1.0, 0.0, 2, 0.0, 0.0, 2) is None
    assert welch_difference(1.0, 0.5, 0, 0.0, 0.5, 2) is None


def _exact_two_sided(t: float, df: int) -> mpmath.mpf:
    """P(|T| >= t) by mpmath at 40 digits: I_x(df/2, 1/2), x = df / (df + t^2)."""
    with mpmath.workdps(40):
        x = mpmath.mpf(df) / (df + mpmath.mpf(t) ** 2)
        return mpmath.betainc(mpmath.mpf(df) / 2, mpmath.mpf(1) / 2, 0, x, regularized=True)


DFS = (*range(1, 13), 29, 30, 99, 100, 499, 500, 999, 1000)
T_VALUES = (0.0001, 0.004, 0.1, 0.7, 1.0, 1.3, 1.9, 2.6, 4.0, 9.0, 35.0, 400.0, 1e5, 1e12)


@pytest.mark.parametrize("df", DFS)
def test_t_p_values_and_distribution_equal_mpmath_s_to_twelve_digits(df: int) -> None:
    """The closed-form t (A&S 26.7.3/26.7.4, the continued fraction in the tail) against
    mpmath at 40 digits, relative error, far tails included (p down to 1e-290)."""
    for t in T_VALUES:
        exact = _exact_two_sided(t, df)
        if exact < 1e-290:
            continue
        assert t_test_p(t, 1.0, df) == pytest.approx(float(exact), rel=1e-12, abs=0), t
        assert t_test_p(-t, 1.0, df) == pytest.approx(float(exact), rel=1e-12, abs=0), t
        assert t_cdf(-t, df) == pytest.approx(float(exact / 2), rel=1e-12, abs=0), t
        assert t_cdf(t, df) == pytest.approx(float(1 - exact / 2), rel=1e-12, abs=0), t


@pytest.mark.parametrize("df", DFS)
def test_t_quantiles_equal_mpmath_s_to_twelve_digits(df: int) -> None:
    """Each quantile's tail equals its level (mpmath at 40 digits), at 95% and farther out."""
    for level in (0.5, 0.9, 0.95, 0.999, 0.999999):
        tail = _exact_two_sided(t_quantile(df, level), df)
        assert float(tail) == pytest.approx(1 - level, rel=1e-12)


def test_integer_degrees_of_freedom_need_no_mpmath() -> None:
    """A rating's p-values, quantiles and P(> next) (integer df) are computed without mpmath,
    which took a quarter of a league update's rating; only a fractional df (Welch) uses it."""
    code = ("import sys; from arena.ratings import verdicts as v; "
            "v.t_test_p(1.5, 1.0, 7); v.t_quantile(3); v.t_quantile(40); v.t_cdf(-2.0, 12); "
            "v.paired_mean([1.0, 2.0, 4.0]); print('mpmath' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"
