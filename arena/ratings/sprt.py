"""Sequential duels: the generalised sequential probability ratio test (GSPRT) on game pairs.

A duel plays each deal twice with the seats swapped; each such pair scores 0, 1/4, 1/2, 3/4 or
1 for the first bot (the mean of its two game scores): the five cells of the pentanomial model
that fishtest uses. Hypotheses are logistic Elo differences, elo = -400 log10(1/s - 1) of the
expected score s. The log-likelihood ratio of H1 (elo1) against H0 (elo0) is that of the two
maximum-likelihood pentanomial distributions whose expected score is s1 and s0 (Van den Bergh,
"A practical introduction to the GSPRT", and "Computing the maximum likelihood estimate of a
multinomial distribution with given expectation value", Proposition 1.1). See docs/ratings.md,
"Sequential duels (SPRT)".
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass

from arena.errors import ArenaError
from arena.ratings.verdicts import Z95, PairedMean, paired_mean

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's score for the first bot in each pentanomial cell: LL, LD+DL, LW+DD+WL, DW+WD, WW."""

EMPTY_CELL = 1e-3
"""What an empty cell counts as in the test (fishtest's regularisation): without it a duel whose
pairs all fall in one or two cells could not weigh hypotheses outside their scores."""


class SprtError(ArenaError):
    """SPRT settings that make no test: alpha or beta outside (0, 1), elo1 not above elo0."""


class Verdict(enum.Enum):
    """How a sequential duel ended."""

    H1 = "H1 accepted"
    H0 = "H0 accepted"
    INCONCLUSIVE = "inconclusive"


@dataclass(frozen=True)
class SprtSettings:
    """The hypotheses (logistic Elo of the first bot over the second) and the error rates."""

    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05

    def validate(self) -> None:
        """Raise SprtError naming the first setting that makes no test."""
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 1:
                raise SprtError(f"--{name}: must be between 0 and 1 (both excluded), not {value}")
        for name, value in (("elo0", self.elo0), ("elo1", self.elo1)):
            if not math.isfinite(value) or abs(value) >= 2000:
                raise SprtError(f"--{name}: must be a finite Elo difference below 2000 in size, "
                                f"not {value}")
        if self.elo1 <= self.elo0:
            raise SprtError(f"--elo1: must be above --elo0 ({self.elo0}), not {self.elo1}")

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds on the LLR: log(beta/(1-alpha)) accepts H0, log((1-beta)/alpha) H1."""
        return bounds(self.alpha, self.beta)


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's stopping bounds of the log-likelihood ratio (lower: H0, upper: H1)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def score_of_elo(elo: float) -> float:
    """The expected score of a logistic Elo difference."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of_score(score: float) -> float:
    """The logistic Elo difference of an expected score (infinite at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: no -0.0


def pair_cell(first: float, second: float) -> int:
    """The pentanomial cell of a pair from the first bot's two game scores (0, 0.5 or 1 each)."""
    return round(2 * (first + second))


def _constrained(freqs: Sequence[float], score: float) -> list[float]:
    """The distribution on PAIR_SCORES closest in likelihood to `freqs` (summing to 1) whose
    expected score is `score`: p_i = f_i / (1 + x (a_i - s)), x the root of the secular
    equation sum f_i (a_i - s) / (1 + x (a_i - s)) = 0 (decreasing in x), found by bisection."""
    held = [a for a, f in zip(PAIR_SCORES, freqs, strict=True) if f > 0]
    if not min(held) < score < max(held):
        raise ValueError(f"no distribution on the observed cells has expected score {score}")
    low, high = -1 / (max(held) - score), 1 / (score - min(held))

    def secular(x: float) -> float:
        return sum(f * (a - score) / (1 + x * (a - score))
                   for a, f in zip(PAIR_SCORES, freqs, strict=True) if f > 0)

    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if secular(middle) > 0:
            low = middle
        else:
            high = middle
    x = (low + high) / 2
    return [f / (1 + x * (a - score)) for a, f in zip(PAIR_SCORES, freqs, strict=True)]


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of elo1 against elo0 for pentanomial pair counts (as
    given: no regularisation; the observed cells must straddle both hypotheses' scores)."""
    total = sum(counts)
    if total <= 0:
        return 0.0
    freqs = [n / total for n in counts]
    p0 = _constrained(freqs, score_of_elo(elo0))
    p1 = _constrained(freqs, score_of_elo(elo1))
    return sum(n * math.log(a / b) for n, a, b in zip(counts, p1, p0, strict=True) if n > 0)


def regularised(counts: Sequence[int]) -> list[float]:
    """Counts with each empty cell counted as EMPTY_CELL pairs."""
    return [float(n) if n > 0 else EMPTY_CELL for n in counts]


@dataclass(frozen=True)
class EloEstimate:
    """A logistic Elo difference and its 95% interval (infinite ends where the score is 0 or 1)."""

    elo: float
    low: float
    high: float


def elo_estimate(counts: Sequence[int]) -> EloEstimate:
    """The Elo difference of the mean pair score, with the normal 95% interval of that mean from
    the pentanomial variance (the pairs' scores' variance over their number), mapped to Elo."""
    pairs = sum(counts)
    if pairs == 0:
        return EloEstimate(0.0, -math.inf, math.inf)
    mean = sum(n * a for n, a in zip(counts, PAIR_SCORES, strict=True)) / pairs
    variance = sum(n * (a - mean) ** 2 for n, a in zip(counts, PAIR_SCORES, strict=True)) / pairs
    return _elo_interval(mean, variance, pairs)


def _elo_interval(mean: float, variance: float, pairs: int) -> EloEstimate:
    half = Z95 * math.sqrt(variance / pairs)
    return EloEstimate(elo_of_score(mean), elo_of_score(mean - half), elo_of_score(mean + half))


@dataclass(frozen=True)
class SprtState:
    """Where a duel's test stands after some pairs: counts, LLR, bounds, verdict, Elo."""

    counts: tuple[int, int, int, int, int]
    llr: float
    bounds: tuple[float, float]
    verdict: Verdict
    elo: EloEstimate

    @property
    def pairs(self) -> int:
        """Deal pairs counted."""
        return sum(self.counts)

    @property
    def games(self) -> int:
        """Games counted: two a pair."""
        return 2 * self.pairs


def sprt(counts: Sequence[int], settings: SprtSettings) -> SprtState:
    """The test on pentanomial counts: H1 once the LLR (of the regularised counts) reaches the
    upper bound, H0 once it reaches the lower one, else inconclusive."""
    if len(counts) != 5 or any(n < 0 for n in counts):
        raise ValueError(f"pentanomial counts are five counts of 0 or more, not {counts}")
    value = llr(regularised(counts), settings.elo0, settings.elo1) if sum(counts) else 0.0
    return _state(counts, value, settings, elo_estimate(counts))


def _state(counts: Sequence[int], value: float, settings: SprtSettings,
           elo: EloEstimate) -> SprtState:
    """The test's state at LLR `value`: H1 at the upper bound, H0 at the lower, else
    inconclusive."""
    lower, upper = settings.bounds
    verdict = (Verdict.H1 if value >= upper else Verdict.H0 if value <= lower
               else Verdict.INCONCLUSIVE)
    five = (counts[0], counts[1], counts[2], counts[3], counts[4])
    return SprtState(five, value, (lower, upper), verdict, elo)


def normal_llr(values: Sequence[float], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of elo1 against elo0 for pair scores taken as normal with
    their sample variance: n ((m - s0)^2 - (m - s1)^2) / (2 var) (Van den Bergh, "A practical
    introduction to the GSPRT", the normal approximation; fishtest's normalised test); 0 where
    the scores do not vary (the normal model then says nothing)."""
    n = len(values)
    if n == 0:
        return 0.0
    mean = math.fsum(values) / n
    variance = math.fsum((x - mean) ** 2 for x in values) / n
    if variance <= 0:
        return 0.0
    s0, s1 = score_of_elo(elo0), score_of_elo(elo1)
    return n * ((mean - s0) ** 2 - (mean - s1) ** 2) / (2 * variance)


def score_estimate(values: Sequence[float]) -> EloEstimate:
    """The Elo difference of the mean pair score, with the normal 95% interval of that mean
    from the pair scores' variance, mapped to Elo (as `elo_estimate`, for any pair scores)."""
    n = len(values)
    if n == 0:
        return EloEstimate(0.0, -math.inf, math.inf)
    mean = math.fsum(values) / n
    return _elo_interval(mean, math.fsum((x - mean) ** 2 for x in values) / n, n)


def sprt_scores(values: Sequence[float], counts: Sequence[int],
                settings: SprtSettings) -> SprtState:
    """The test on pair scores that are not pentanomial (adjusted for luck): the normal GSPRT,
    with the Elo of their mean; `counts` are the raw pentanomial counts, shown beside. Where
    every pair's score is the same (copies that mirror each other, one bot winning every game:
    no luck moved any pair), a normal model has no spread to weigh, and the pentanomial test
    on the counts is made, as without the luck."""
    if len(counts) != 5 or sum(counts) != len(values):
        raise ValueError("the pentanomial counts do not count the pair scores")
    if not values or max(values) - min(values) <= 1e-12:
        return sprt(counts, settings)
    value = normal_llr(values, settings.elo0, settings.elo1)
    return _state(counts, value, settings, score_estimate(values))


@dataclass(frozen=True)
class Margin:
    """The mean margin of the first bot over the second per deal pair, in the game's units (its
    score in both games less the other's), with the 95% interval of that mean (Student's t on
    the pairs less one; no interval below two pairs)."""

    pairs: int
    mean: float
    low: float
    high: float


def margin_estimate(margins: Sequence[float]) -> Margin:
    """The mean of the pairs' margins with its Student's t interval."""
    return margin_of(paired_mean(margins))


def margin_of(found: PairedMean) -> Margin:
    """A margin from a paired mean of the pairs' margins (raw, or adjusted for luck)."""
    if found.n < 2:
        return Margin(found.n, found.mean, -math.inf, math.inf)
    return Margin(found.n, found.mean, found.mean - found.ci95, found.mean + found.ci95)


def _elo(x: float) -> str:
    return f"{x:+.1f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def _units(x: float) -> str:
    return f"{x:+.2f}" if abs(x) < 10 else f"{x:+.1f}"


def margin_text(margin: Margin, unit: str) -> str:
    """'+1.9 sets a deal pair [+0.8, +3.0]'."""
    where = (f" [{_units(margin.low)}, {_units(margin.high)}]"
             if math.isfinite(margin.low) else "")
    return f"{_units(margin.mean)} {unit} a deal pair{where}"


def summary(state: SprtState, first: str, second: str, settings: SprtSettings, margin: Margin,
            unit: str, mirrored: bool = False) -> str:
    """The duel's outcome in one sentence that reads right: H1 as 'better', H0 as 'not shown
    to be elo1 better' (never 'worse'), and copies that replay each other's games as such."""
    if mirrored:
        return (f"{first} and {second} played mirror images of each other's games on all "
                f"{state.pairs:,} deals: from each seat, each got exactly what the other got "
                f"there (as copies of one bot, seeded by deal and seat, replay each other's "
                f"games), so these deals cannot tell them apart")
    elo = state.elo
    interval = f"[{_elo(elo.low)}, {_elo(elo.high)}]"
    if state.verdict is Verdict.H1:
        return (f"{first} is better than {second}: {_elo(elo.elo)} Elo {interval}, "
                f"{margin_text(margin, unit)}")
    between = (f"the difference lies between {_elo(elo.low)} and {_elo(elo.high)} Elo "
               f"({margin_text(margin, unit)})")
    if state.verdict is Verdict.H0:
        return (f"{first} is not shown to be {settings.elo1:g} Elo better than {second}; "
                f"{between}")
    return (f"no verdict after {state.games:,} games between {first} and {second}; {between}; "
            f"a higher --max-games lets the duel play on")
