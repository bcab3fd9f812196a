"""Luck-adjusted paired means: a per-deal difference less a cross-fitted multiple of its luck.

Each deal d gives a paired difference D_d (a bot's score advantage over another on that deal)
and the matching luck difference L_d (what the chance events of the deal's games gave the one
seat over the other, by the game's value function: AIVAT's chance correction, Burch et al.,
AAAI 2018). The luck has mean zero whatever the bots do, so D_d - beta * L_d has the mean of
D_d for any beta fixed apart from deal d; the beta that narrows the interval most is the slope
of D on L. That slope is **cross-fitted** (Chernozhukov et al., 2018): the deals are split in
two folds by a hash of the deal, and each fold is adjusted with the slope measured on the other
fold alone, so no deal's adjustment is tuned on that deal. See docs/ratings.md, "Luck".
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from arena.ratings.verdicts import PairedMean, paired_mean

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


@dataclass(frozen=True)
class Adjusted:
    """Per-deal differences adjusted for luck: the values, and the slope each fold was
    adjusted with (measured on the other folds alone)."""

    values: tuple[float, ...]
    betas: tuple[float, ...]

    def mean(self) -> PairedMean:
        """The adjusted mean with its 95% interval and p-value (Student's t over deals)."""
        return paired_mean(self.values)


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
    return Adjusted(values, tuple(betas))


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
