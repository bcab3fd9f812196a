"""The statistics behind every verdict a user reads: intervals, p-values, the likelihood of
superiority, the probability that one rating is really above another.

The methods and their references are in docs/ratings.md, "Verdicts and their uncertainty".
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from statistics import NormalDist
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # mpmath is imported where a fractional df needs it (a Welch test)
    import mpmath

LEVEL = 0.95
"""The confidence of every interval and the level of every significance verdict."""

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

SEPARATION = 1 - (1 - LEVEL) / 2
"""The probability one bot must be above another for them to be told apart at LEVEL: 0.975,
the two-sided test at 5% (the data choose which bot is on top, so each side gets half)."""


def normal_cdf(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


@cache
def t_quantile(df: int, level: float = LEVEL) -> float:
    """The two-sided `level` quantile of Student's t with `df` degrees of freedom (normal for
    df above 1,000, where the two differ by less than 0.1%): Newton's method on the closed-form
    tail (`t_two_sided`), from the normal quantile."""
    if df < 1:
        raise ValueError("Student's t needs at least one degree of freedom")
    if df > 1000:
        return Z95 if level == LEVEL else NormalDist().inv_cdf((1 + level) / 2)
    target = math.log1p(-level)  # the log of the two-sided tail to reach
    # the density's constant, Gamma((df + 1) / 2) / (sqrt(df pi) Gamma(df / 2)), for the slope
    constant = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    t, low, high = NormalDist().inv_cdf((1 + level) / 2), 0.0, math.inf
    for _ in range(100):
        p = t_two_sided(t, df)
        if p > 1 - level:
            low = t
        else:
            high = t
        # Newton on log p(t), whose slope is -2 f(t) / p(t), f the density
        slope = -2 * constant * math.exp(-(df + 1) / 2 * math.log1p(t * t / df)) / p
        step = (math.log(p) - target) / slope
        following = t - step
        if not low < following < high:  # outside what is known of the root: halve instead
            following = (low + high) / 2 if high < math.inf else 2 * t
        if abs(following - t) <= 4 * math.ulp(t):
            return following
        t = following
    return t


def t_two_sided(t: float, df: int) -> float:
    """P(|T| >= |t|) for Student's t on an integer number `df` of degrees of freedom, in
    closed form: with theta = arctan(t / sqrt(df)), one minus the finite series in sin and cos
    of theta of Abramowitz & Stegun 26.7.3 (odd df) and 26.7.4 (even df); in the tail, where
    that difference would lose the digits of a small p-value, the continued fraction of the
    incomplete beta function I_x(df/2, 1/2), x = cos^2 theta (26.5.8; Numerical Recipes'
    betacf), whose leading factor is the first term that series leaves out."""
    if df < 1:
        raise ValueError("Student's t needs at least one degree of freedom")
    t = abs(t)
    if t == 0:
        return 1.0
    if math.isinf(t):
        return 0.0
    if df == 1:  # Cauchy: 1 - 2 theta / pi
        return 2 / math.pi * math.atan2(1.0, t)
    root = math.sqrt(df)
    h = math.hypot(root, t)
    sin, cos = t / h, root / h
    x = df / (df + t * t) if t < 1e150 else 0.0  # cos^2 theta, to the last digit
    half = df / 2
    if x < (half + 1) / (half + 2.5):  # the tail: the continued fraction converges fast
        if x == 0.0:
            return 0.0
        power = math.exp(-half * math.log1p(t * t / df))  # x^(df/2), without cos's rounding
        return sin * power * _t_tail_factor(df) * _beta_fraction(half, 0.5, x)
    terms = [1.0]
    if df % 2 == 0:  # 26.7.4: sin theta (1 + 1/2 cos^2 + 1.3/(2.4) cos^4 + ...)
        for k in range(1, df // 2):
            terms.append(terms[-1] * x * (2 * k - 1) / (2 * k))
        return 1 - sin * math.fsum(terms)
    for k in range(1, (df - 1) // 2):  # 26.7.3: 2/pi (theta + sin cos (1 + 2/3 cos^2 + ...))
        terms.append(terms[-1] * x * (2 * k) / (2 * k + 1))
    central = 2 / math.pi * (math.atan2(t, root) + sin * cos * math.fsum(terms))
    return 1 - central


@cache
def _t_tail_factor(df: int) -> float:
    """1 / (a B(a, 1/2)) for a = df / 2 over sin theta's factor: the coefficient of the first
    term of 26.7.3/26.7.4's series that the sum leaves out, 1.3...(2n - 1) / (2.4...2n) for
    df = 2n, and 2/pi cos theta 2.4...2n / (3.5...(2n + 1)) for df = 2n + 1 (cos theta is
    kept in x^(df/2))."""
    factor = 1.0
    if df % 2 == 0:
        for k in range(1, df // 2 + 1):
            factor *= (2 * k - 1) / (2 * k)
        return factor
    for k in range(1, (df - 1) // 2 + 1):
        factor *= (2 * k) / (2 * k + 1)
    return 2 / math.pi * factor


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function I_x(a, b) = x^a
    (1 - x)^b / (a B(a, b)) times this (Abramowitz & Stegun 26.5.8), by the modified Lentz
    method (Numerical Recipes, 2nd ed., 6.4, betacf); it converges fast where x < (a + 1) /
    (a + b + 2)."""
    tiny = 1e-300
    c = 1.0
    d = 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 1000):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return h


def _normal_quantile(p: float) -> mpmath.mpf:
    import mpmath

    return mpmath.sqrt(2) * mpmath.erfinv(2 * p - 1)


def _t_cdf(t: mpmath.mpf, df: float) -> mpmath.mpf:
    """P(T <= t) for Student's t on a real number of degrees of freedom, through the
    regularised incomplete beta function (mpmath)."""
    import mpmath

    x = df / (df + t * t)
    tail = mpmath.betainc(df / 2.0, 0.5, 0, x, regularized=True) / 2
    return 1 - tail if t > 0 else tail


def t_test_p(mean: float, se: float, df: int) -> float:
    """The two-sided p-value of a mean of `mean` with standard error `se` against 0 (Student's t
    with `df` degrees of freedom); 1.0 where there is no spread or no freedom to measure it."""
    if df < 1:
        return 1.0
    if se <= 0:
        return 1.0 if mean == 0 else 0.0
    t = abs(mean) / se
    if df > 1000:
        return math.erfc(t / math.sqrt(2.0))
    return t_two_sided(t, df)


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """The probability that A is really the stronger of two bots given A's wins and losses
    against B (draws carry no information): Phi((W - L) / sqrt(W + L)); 0.5 with no decisive
    game."""
    decisive = wins + losses
    if decisive == 0:
        return 0.5
    return normal_cdf((wins - losses) / math.sqrt(decisive))


def probability_above(mu: float, sigma: float, other_mu: float, other_sigma: float) -> float:
    """The probability that a skill N(mu, sigma^2) is above an independent N(other_mu,
    other_sigma^2)."""
    spread = math.hypot(sigma, other_sigma)
    if spread == 0:
        return 0.5 if mu == other_mu else float(mu > other_mu)
    return normal_cdf((mu - other_mu) / spread)


def t_cdf(x: float, df: int | None) -> float:
    """P(T <= x) for Student's t with `df` degrees of freedom (normal when None or above
    1,000)."""
    if df is None or df > 1000:
        return normal_cdf(x)
    if df < 1:
        raise ValueError("Student's t needs at least one degree of freedom")
    tail = t_two_sided(x, df) / 2
    return 1 - tail if x > 0 else tail


def probability_greater(difference: float, spread: float, df: int | None) -> float:
    """The probability that a difference estimated as `difference` with standard error
    `spread` is really above 0 (Student's t on `df` degrees of freedom, normal when None)."""
    if spread <= 0:
        return 0.5 if difference == 0 else float(difference > 0)
    return t_cdf(difference / spread, df)


@dataclass(frozen=True)
class PairedMean:
    """The mean of paired differences (one per deal), its 95% interval and its test against 0."""

    n: int
    mean: float
    ci95: float
    """Half-width of the 95% interval (Student's t); 0 when n < 2."""
    se: float
    p_value: float
    df: int | None = None
    """Degrees of freedom of the t interval; None: n - 1."""

    @property
    def significant(self) -> bool:
        """Whether the mean differs from 0 at 95%."""
        return self.n >= 2 and self.p_value < 1 - LEVEL


def paired_mean(values: Iterable[float]) -> PairedMean:
    """The mean of the values, its 95% interval and p-value (Student's t on n - 1 degrees of
    freedom)."""
    data = list(values)
    n = len(data)
    if n == 0:
        return PairedMean(0, 0.0, 0.0, 0.0, 1.0)
    mean = math.fsum(data) / n
    if n < 2:
        return PairedMean(n, mean, 0.0, 0.0, 1.0)
    variance = math.fsum((x - mean) ** 2 for x in data) / (n - 1)
    se = math.sqrt(variance / n)
    return PairedMean(n, mean, t_quantile(n - 1) * se, se, t_test_p(mean, se, n - 1))


@dataclass(frozen=True)
class Difference:
    """A difference of two independent estimates, its 95% interval and whether it is
    significant (a z-test, both estimates taken as normal)."""

    delta: float
    ci95: float

    @property
    def significant(self) -> bool:
        """Whether the difference is outside its 95% interval around 0."""
        return abs(self.delta) > self.ci95

    @property
    def p_value(self) -> float:
        """The two-sided p-value of the difference against 0."""
        if self.ci95 <= 0:
            return 1.0 if self.delta == 0 else 0.0
        return math.erfc(abs(self.delta) / (self.ci95 / Z95) / math.sqrt(2.0))


def difference(after: float, after_se: float, before: float, before_se: float) -> Difference:
    """after - before, with the 95% interval of two independent normal estimates."""
    return Difference(after - before, Z95 * math.hypot(after_se, before_se))


@dataclass(frozen=True)
class WelchDifference:
    """A difference of two independent means, each known by its standard error and the degrees
    of freedom of that error, with its two-sided p-value and 95% interval from Student's t on
    the Welch-Satterthwaite degrees of freedom `df`."""

    delta: float
    se: float
    df: float
    p_value: float

    @property
    def significant(self) -> bool:
        """Whether the difference is significant at 95% (p below 5%)."""
        return self.p_value < 1 - LEVEL

    @property
    def ci95(self) -> float:
        """Half-width of the 95% interval (worked out on demand: a t quantile at a fractional
        df costs a root search)."""
        return _real_t_quantile(round(self.df, 9)) * self.se


def welch_difference(after: float, after_se: float, after_df: int, before: float,
                     before_se: float, before_df: int) -> WelchDifference | None:
    """after - before, for two means with standard errors on `after_df` and `before_df` degrees
    of freedom (Welch, 1947; Satterthwaite, 1946): df = (a + b)^2 / (a^2/df_a + b^2/df_b) with
    a, b the squared standard errors. None when neither mean has a spread or a freedom to
    measure it: no test can be made."""
    a = after_se ** 2 if after_df >= 1 else 0.0
    b = before_se ** 2 if before_df >= 1 else 0.0
    if a + b <= 0 or min(after_df, before_df) < 1:
        return None
    df = (a + b) ** 2 / ((a * a / after_df if a else 0.0) + (b * b / before_df if b else 0.0))
    se = math.sqrt(a + b)
    delta = after - before
    t = abs(delta) / se
    import mpmath

    p = float(mpmath.betainc(df / 2.0, 0.5, 0, df / (df + t * t), regularized=True))
    return WelchDifference(delta, se, df, p)


@cache
def _real_t_quantile(df: float) -> float:
    """The two-sided 95% quantile of Student's t on `df` (a real number of) degrees of
    freedom."""
    if df > 1000:
        return Z95
    import mpmath

    target = (1 + LEVEL) / 2
    return float(mpmath.findroot(lambda t: _t_cdf(t, df) - target, _normal_quantile(target)))
