"""Luck-adjusted paired means: a per-deal difference less a cross-fitted multiple of its luck.

Each deal d gives a paired difference D_d (a bot's score advantage over another on that deal)
and the matching luck difference L_d (what the chance events of the deal's games gave the one
seat over the other, by the game's value function: AIVAT's chance correction, Burch et al.,
AAAI 2018). The luck has mean zero whatever the bots do, so D_d - beta * L_d has the mean of
D_d for any beta fixed apart from deal d; the beta that narrows the interval most is the slope
of D on L. That slope is **cross-fitted** (Chernozhukov et al., 2018): the deals are split in
two folds by a hash of the deal, and each fold is adjusted with the slope measured on the other
fold alone, so no deal's adjustment is tuned on that deal. See docs/ratings.md, "Luck".

The interval of the adjusted mean counts the slopes' own estimation error, as regression
adjustment does (Lin, 2013, "Agnostic notes on regression adjustments to experimental data"):
with D_d = theta + beta L_d + e_d, the adjusted mean less theta is a fixed weighting of the
e_d given the luck (`Adjusted.weights`): sum(w_d e_d) / n. Its variance is estimated with the
heteroskedasticity-consistent HC3 sandwich (MacKinnon & White, 1985; the small-sample choice of
Long & Ervin, 2000): sum(w_d^2 r_d^2 / (1 - h_d)^2) / n^2, r_d and h_d the residual and leverage
of deal d in a line fitted within its fold, on Student's t with deals less two a fold degrees
of freedom. (Measured on Concentration's copies, a homoskedastic variance flagged 5.3% of
equal-bot runs at 20, 40 and 100 deals alike; HC3 3.4%, 3.9%, 4.7%: docs/ratings.md, Luck.)
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from arena.ratings.verdicts import PairedMean, paired_mean, t_quantile, t_test_p

FOLDS = 2
"""The folds the deals are split into; each fold's slope is measured on the others."""

MIN_DEALS = 4
"""The fewest deals a slope is measured on; a fold whose others hold fewer is not adjusted."""


def fold_of(deal: Hashable) -> int:
    """The fold of a deal: a hash of its text (stable across runs, processes and orders)."""
    digest = hashlib.sha256(f"{type(deal).__name__}:{deal!r}".encode()).digest()
    return digest[0] % FOLDS


def slope(differences: Sequence[float], luck: Sequence[float]) -> float:
    """The least-squares slope of the differences on the luck (with an intercept); 0 below
    MIN_DEALS deals or where the luck does not vary."""
    n = len(differences)
    if n < MIN_DEALS:
        return 0.0
    mean_d = math.fsum(differences) / n
    mean_l = math.fsum(luck) / n
    spread = math.fsum((x - mean_l) ** 2 for x in luck)
    if spread <= 1e-12 * max(1.0, math.fsum(x * x for x in luck)):
        return 0.0
    return math.fsum((x - mean_l) * (y - mean_d)
                     for x, y in zip(luck, differences, strict=True)) / spread


def _spread(luck: Sequence[float]) -> float:
    """The sum of squares of the luck about its mean; 0 below MIN_DEALS or without variation
    (where `slope` gives 0)."""
    if len(luck) < MIN_DEALS:
        return 0.0
    mean = math.fsum(luck) / len(luck)
    spread = math.fsum((x - mean) ** 2 for x in luck)
    return 0.0 if spread <= 1e-12 * max(1.0, math.fsum(x * x for x in luck)) else spread


@dataclass(frozen=True)
class Adjusted:
    """Per-deal differences adjusted for luck: the values, the slope each fold was adjusted
    with (measured on the other folds alone), and what the interval needs (the raw differences,
    the luck, each deal's fold; empty for the duel's predictable adjustment)."""

    values: tuple[float, ...]
    betas: tuple[float, ...]
    differences: tuple[float, ...] = ()
    luck: tuple[float, ...] = ()
    folds: tuple[int, ...] = ()

    def mean(self) -> PairedMean:
        """The adjusted mean with its 95% interval and p-value: Student's t on deals less two a
        fold degrees of freedom, its standard error counting the slopes' estimation error
        (module docstring); Student's t over the values where no slope was fitted or a fold
        has fewer than MIN_DEALS deals."""
        n = len(self.values)
        sizes = [self.folds.count(k) for k in range(FOLDS)]
        if not any(self.betas) or min(sizes) < MIN_DEALS:
            return paired_mean(self.values)
        df = n - 2 * FOLDS
        mean = math.fsum(self.values) / n
        weights = self.weights()
        se = math.sqrt(math.fsum((weights[i] * r / (1 - h)) ** 2
                                 for i, r, h in self.residuals() if h < 1 - 1e-9)) / n
        if se <= 0:
            return PairedMean(n, mean, 0.0, 0.0, 1.0 if mean == 0 else 0.0, df)
        return PairedMean(n, mean, t_quantile(df) * se, se, t_test_p(mean, se, df), df)

    def weights(self) -> list[float]:
        """w_d with adjusted mean - theta = sum(w_d e_d) / n given the luck: 1, less what e_d
        moves, through the slope it helps measure, the adjustment of the other folds."""
        weights = [1.0] * len(self.values)
        for k in range(len(self.betas)):
            inside = [i for i, f in enumerate(self.folds) if f == k]
            outside = [i for i, f in enumerate(self.folds) if f != k]
            spread = _spread([self.luck[i] for i in outside])
            if not inside or spread <= 0:
                continue  # that fold's slope is 0 by rule, not measured
            luck_in = math.fsum(self.luck[i] for i in inside)  # n_k times fold k's mean luck
            mean_out = math.fsum(self.luck[i] for i in outside) / len(outside)
            for i in outside:
                weights[i] -= luck_in * (self.luck[i] - mean_out) / spread
        return weights

    def residuals(self) -> list[tuple[int, float, float]]:
        """(deal index, residual, leverage) of every deal in the line of D on L fitted within
        its own fold."""
        out = []
        for k in range(FOLDS):
            inside = [i for i, f in enumerate(self.folds) if f == k]
            d = [self.differences[i] for i in inside]
            x = [self.luck[i] for i in inside]
            b, spread = slope(d, x), _spread(x)
            mean_d, mean_x = math.fsum(d) / len(d), math.fsum(x) / len(x)
            for i, y, u in zip(inside, d, x, strict=True):
                lever = 1 / len(d) + ((u - mean_x) ** 2 / spread if spread > 0 else 0.0)
                out.append((i, y - mean_d - b * (u - mean_x), lever))
        return out


def cross_fitted(deals: Sequence[Hashable], differences: Sequence[float],
                 luck: Sequence[float]) -> Adjusted:
    """D_d - beta_k * L_d for every deal d, beta_k the slope of D on L over the deals outside
    d's fold k (`fold_of`)."""
    if not len(deals) == len(differences) == len(luck):
        raise ValueError("deals, differences and luck differ in length")
    folds = [fold_of(deal) for deal in deals]
    betas = []
    for k in range(FOLDS):
        others = [i for i, f in enumerate(folds) if f != k]
        betas.append(slope([differences[i] for i in others], [luck[i] for i in others]))
    values = tuple(d - betas[f] * x for d, x, f in zip(differences, luck, folds, strict=True))
    return Adjusted(values, tuple(betas), tuple(differences), tuple(luck), tuple(folds))


def predictable(differences: Sequence[float], luck: Sequence[float],
                block: int) -> Adjusted:
    """D_k - beta_b * L_k for a sequence looked at every `block` items: the items of block b
    adjusted with the slope of the blocks before it alone (0 for the first), so that each
    adjustment is fixed before its items are seen, as a sequential test needs."""
    if len(differences) != len(luck) or block < 1:
        raise ValueError("differences and luck differ in length, or the block is empty")
    values, betas = [], []
    for start in range(0, len(differences), block):
        beta = slope(differences[:start], luck[:start])
        betas.append(beta)
        values += [d - beta * x for d, x in zip(differences[start:start + block],
                                                 luck[start:start + block], strict=True)]
    return Adjusted(tuple(values), tuple(betas))
