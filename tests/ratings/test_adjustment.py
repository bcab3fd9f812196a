"""The luck adjustment of paired per-deal differences: cross-fitted and predictable slopes."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from arena.ratings.adjustment import (
    FOLDS,
    MIN_DEALS,
    cross_fitted,
    fold_of,
    predictable,
    slope,
)
from arena.ratings.verdicts import paired_mean


def synthetic(rng: random.Random, deals: int, edge: float = 0.3, share: float = 0.75,
              true_beta: float = 1.0) -> tuple[list[int], list[float], list[float]]:
    """Per-deal differences of mean `edge` whose variance is `share` luck (variance 1 in all):
    D = edge + true_beta * L + noise, L of mean zero."""
    luck = [rng.gauss(0.0, (share ** 0.5) / true_beta) for _ in range(deals)]
    noise = [rng.gauss(0.0, (1 - share) ** 0.5) for _ in range(deals)]
    differences = [edge + true_beta * x + e for x, e in zip(luck, noise, strict=True)]
    return list(range(deals)), differences, luck


def test_folds_split_the_deals_stably_and_evenly() -> None:
    folds = [fold_of(d) for d in range(2000)]
    assert folds == [fold_of(d) for d in range(2000)]
    assert set(folds) == set(range(FOLDS))
    assert abs(folds.count(0) - 1000) < 100
    assert fold_of(7) != fold_of("7") or fold_of(8) != fold_of("8")  # the type is part of it


def test_the_slope_is_least_squares_and_zero_without_enough_deals() -> None:
    assert slope([1.0, 3.0, 5.0, 7.0], [0.0, 1.0, 2.0, 3.0]) == pytest.approx(2.0)
    assert slope([1.0, 3.0, 5.0], [0.0, 1.0, 2.0]) == 0.0  # below MIN_DEALS
    assert MIN_DEALS == 4
    assert slope([1.0, 2.0, 3.0, 4.0], [1.0, 1.0, 1.0, 1.0]) == 0.0  # luck that never varies


def test_adjusted_interval_is_narrower_where_luck_explains_most_of_the_variance() -> None:
    deals, d, luck = synthetic(random.Random(1), 400)
    raw = paired_mean(d)
    adjusted = cross_fitted(deals, d, luck)
    assert all(b == pytest.approx(1.0, abs=0.15) for b in adjusted.betas)
    # a quarter of the variance left: the interval about half as wide
    assert adjusted.mean().ci95 < 0.6 * raw.ci95
    assert adjusted.mean().mean == pytest.approx(0.3, abs=3 * adjusted.mean().ci95)


def test_adjusted_intervals_keep_their_coverage() -> None:
    """Over 1,000 synthetic pools of 30 deals, the adjusted 95% interval covers the true edge
    93-97% of the time (the binomial spread of 1,000 is 0.7%)."""
    rng = random.Random(7)
    covered = 0
    for _ in range(1000):
        deals, d, luck = synthetic(rng, 30, edge=0.3)
        found = cross_fitted(deals, d, luck).mean()
        covered += abs(found.mean - 0.3) <= found.ci95
    assert 930 <= covered <= 970


def test_each_fold_is_adjusted_with_the_slope_of_the_other_fold_alone() -> None:
    """Changing the deals of fold 0 (their differences made to follow the luck far more
    steeply) leaves the slope that adjusts fold 0 as it was, and changes fold 1's: fitted on
    all deals, both would move."""
    deals, d, luck = synthetic(random.Random(3), 200)
    before = cross_fitted(deals, d, luck)
    steeper = [y + 5.0 * x if fold_of(deal) == 0 else y
               for deal, y, x in zip(deals, d, luck, strict=True)]
    after = cross_fitted(deals, steeper, luck)
    assert after.betas[0] == before.betas[0]
    assert after.betas[1] == pytest.approx(before.betas[1] + 5.0, abs=0.5)
    for deal, y, x, value in zip(deals, steeper, luck, after.values, strict=True):
        assert value == pytest.approx(y - after.betas[fold_of(deal)] * x)


def test_the_adjustment_does_not_depend_on_the_order_of_the_deals() -> None:
    deals, d, luck = synthetic(random.Random(4), 50)
    order = list(range(50))
    random.Random(5).shuffle(order)
    shuffled = cross_fitted([deals[i] for i in order], [d[i] for i in order],
                            [luck[i] for i in order])
    assert shuffled.betas == pytest.approx(cross_fitted(deals, d, luck).betas, abs=1e-12)


def test_predictable_slopes_use_only_the_blocks_before() -> None:
    _, d, luck = synthetic(random.Random(6), 96)
    found = predictable(d, luck, 32)
    assert found.betas[0] == 0.0  # nothing before the first block: raw
    assert found.values[:32] == tuple(d[:32])
    assert found.betas[1] == slope(d[:32], luck[:32])
    assert found.betas[2] == slope(d[:64], luck[:64])
    later = d[:64] + [y + 10 * x for y, x in zip(d[64:], luck[64:], strict=True)]
    assert predictable(later, luck, 32).betas == found.betas  # the future changes nothing


def test_lengths_must_agree() -> None:
    with pytest.raises(ValueError):
        cross_fitted([1, 2], [0.0], [0.0, 1.0])
    with pytest.raises(ValueError):
        predictable([0.0], [0.0], 0)


def _flag_rate(luck: list[float], noise: Callable[[random.Random, float], float],
               draws: int) -> float:
    """The share of `draws` pools with true edge 0 (D = L + noise) whose adjusted edge is
    significant, the luck held fixed."""
    rng = random.Random(11)
    deals = list(range(len(luck)))
    flagged = 0
    for _ in range(draws):
        d = [x + noise(rng, x) for x in luck]
        flagged += cross_fitted(deals, d, luck).mean().significant
    return flagged / draws


def test_the_interval_counts_the_slopes_error_where_the_folds_luck_is_far_from_zero() -> None:
    """Luck whose mean in each fold is far from 0 (a lucky fold): the slopes' estimation error
    then moves the adjusted mean, and an interval over the adjusted values alone (as if the
    slopes were known) flags a third of equal pools; counting it keeps 5% (2,000 draws: ±
    0.5%)."""
    rng = random.Random(3)
    luck = []
    for deal in range(24):
        lean = 1.5 if fold_of(deal) == 0 else -1.5
        luck.append(lean + rng.gauss(0.0, 1.0))
    assert _flag_rate(luck, lambda r, x: r.gauss(0.0, 1.0), 2000) <= 0.055


def test_the_adjusted_mean_has_deals_less_two_a_fold_degrees_of_freedom() -> None:
    deals, d, luck = synthetic(random.Random(5), 40)
    found = cross_fitted(deals, d, luck).mean()
    assert found.df == 40 - 2 * FOLDS
    assert paired_mean(d).df is None  # raw: deals - 1
    few = cross_fitted(deals[:6], d[:6], luck[:6])  # a fold below MIN_DEALS: as the values
    assert few.mean() == paired_mean(few.values)
