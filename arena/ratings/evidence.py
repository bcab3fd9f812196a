"""The deal as the unit of evidence: the covariance of the bots' skills, clustered by deal.

The TrueSkill posterior counts every game as independent evidence. The games of one deal are not
independent: a deal replayed in every rotation or seat order, the tables that share it, a bot's
several seats in one game, all share the luck of that deal. Its covariance here is the
cluster-robust (sandwich) covariance of the posterior mean, with deals as clusters:

    V = c J⁻¹ B J⁻ᵀ,    c = G / (G - 1)

where s_m is the score of match m (per bot, the gradient of the match's log-likelihood at the
posterior mean: tau - pi · mu of its EP message), B = Σ_d (Σ_{m in d} s_m)(Σ_{m in d} s_m)ᵀ
the outer products of the deals' summed scores, G the number of deals, and J the derivative of
the posterior's estimating equations (prior + Σ_m s_m = 0) in the skills, from EP's linear
response (P - W, see `posterior._Model.response`). When the games of a deal are independent
and the model right, V is close to the posterior covariance; when the games of a deal repeat
one another, B grows with the games while the evidence grows only with the deals, and V says
so. Liang and Zeger (1986), Cameron and Miller (2015), and for a posterior,
Müller (2013); see docs/ratings.md, "The deal as the unit of evidence".
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

DealLabel = tuple[str, str]
"""A deal as a sortable label: its seed's type and its repr."""


def deal_label(deal: Any) -> DealLabel | None:
    """A deal's label; None for a match without a deal, which is a cluster of its own."""
    return None if deal is None else (type(deal).__name__, repr(deal))


@dataclass(frozen=True)
class Evidence:
    """The deal-clustered covariance of a pool's skills, relative to the pool's mean skill."""

    bots: tuple[str, ...]
    covariance: np.ndarray = field(compare=False, repr=False)
    """Per pair of bots (in `bots` order), the deal-clustered covariance of their skills minus
    the pool's mean."""
    model: np.ndarray = field(compare=False, repr=False)
    """The same from the model alone (every game independent evidence, prior included): a
    floor, so that a few deals that happen to agree do not claim more than the games hold."""
    deals: int
    """How many clusters (deals) the evidence comes from."""

    @property
    def df(self) -> int | None:
        """Degrees of freedom of the t distribution the verdicts use: deals - 1 (None: fewer
        than two deals, where the spread between deals cannot be measured)."""
        return self.deals - 1 if self.deals >= 2 else None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form (bots, both covariances as nested lists, deals), read back by
        `from_json`: kept with a league's round so that its moves can be measured later."""
        return {"bots": list(self.bots), "covariance": self.covariance.tolist(),
                "model": self.model.tolist(), "deals": self.deals}

    @classmethod
    def from_json(cls, data: Any) -> Evidence:
        """The evidence from its JSON form; ValueError where it is not that (it may come from
        elsewhere: square finite matrices over distinct bot names, a whole number of deals)."""
        if not isinstance(data, dict):
            raise ValueError("evidence that is not an object")
        bots, deals = data.get("bots"), data.get("deals")
        if (not isinstance(bots, list) or not all(isinstance(b, str) for b in bots)
                or len(set(bots)) != len(bots)):
            raise ValueError("evidence without a list of distinct bot names")
        if not isinstance(deals, int) or isinstance(deals, bool) or deals < 0:
            raise ValueError("evidence without a whole number of deals")
        matrices = []
        for key in ("covariance", "model"):
            try:
                matrix = np.array(data.get(key), dtype=float)
            except (TypeError, ValueError):
                raise ValueError(f"evidence whose {key} is not a matrix of numbers") from None
            if matrix.shape != (len(bots), len(bots)) or not np.isfinite(matrix).all():
                raise ValueError(f"evidence whose {key} is not a finite square matrix over "
                                 f"its bots")
            matrices.append(matrix)
        return cls(tuple(bots), matrices[0], matrices[1], deals)

    def sigma(self, bot: str) -> float | None:
        """The standard error of the bot's skill relative to the pool's mean skill: clustered by
        deal, never below the model's own."""
        i = self._index().get(bot)
        if i is None:
            return None
        return math.sqrt(self._combine(float(self.covariance[i, i]), float(self.model[i, i])))

    def spread(self, bot: str, other: str) -> float | None:
        """The standard error of the difference of two bots' skills: clustered by deal, never
        below the model's own."""
        found = self.variance({bot: 1.0, other: -1.0})
        return None if found is None else math.sqrt(found)

    def variance(self, weights: Mapping[str, float]) -> float | None:
        """The variance of a weighted sum of the bots' skills (weights summing to 0 make it
        independent of the pool's mean): clustered by deal, never below the model's own. None
        when a weighted bot is not in the pool."""
        where = self._index()
        if any(bot not in where for bot in weights):
            return None
        a = np.zeros(len(self.bots))
        for bot, weight in weights.items():
            a[where[bot]] += weight
        return self._combine(float(a @ self.covariance @ a), float(a @ self.model @ a))

    def _combine(self, robust: float, model: float) -> float:
        """A variance clustered by deal, floored at the model's own, a floor that fades as the
        deals measure more (see `faded_floor`)."""
        return max(robust, faded_floor(robust, model, self.deals), 0.0)

    @cached_property
    def _where(self) -> dict[str, int]:
        return {bot: i for i, bot in enumerate(self.bots)}

    def _index(self) -> dict[str, int]:
        return self._where


FLOOR_DEALS = 15
"""What the model's covariance weighs against the deals' spread, in deals (see `faded_floor`)."""


def faded_floor(robust: float, model: float, deals: int) -> float:
    """The model's variance as a floor worth FLOOR_DEALS deals of evidence, pooled with the
    deal-clustered variance's G - 1 degrees of freedom: (d robust + d0 model) / (d + d0).

    With few deals, a spread measured from a handful of numbers can be small by chance (copies of
    a bot whose games mirror each other would be told apart after four deals), and the model's
    own variance holds; with many, the deals' spread is measured well and it holds, where it is
    below the model's because the format takes luck out (each deal in every rotation of the
    seats: really played Memorandum's short pack, every bot's interval at the model's, A/A z
    spread 0.6-0.9). The pooling of an estimated variance with a prior one on its degrees of
    freedom is that of Smyth's moderated variance (G. K. Smyth, "Linear models and empirical
    Bayes methods for assessing differential expression in microarray experiments", Statistical
    Applications in Genetics and Molecular Biology 3 (1), 2004); see docs/ratings.md."""
    if deals < 2 or robust >= model:
        return model
    d = deals - 1
    return (d * robust + FLOOR_DEALS * model) / (d + FLOOR_DEALS)


Seats = tuple[np.ndarray, np.ndarray, np.ndarray]
"""Every distinct match's seats, matches in their number's order: per match its number of
seats, and per seat (flat) its bot's index and its score."""


Entries = tuple[Sequence[DealLabel | None], np.ndarray, np.ndarray]
"""Per (deal, distinct match) met: the deal's label (None: a match without a deal), the
match's number and how often it was played on that deal."""


def clustered(names: Sequence[str], seats_of: Seats, entries: Entries,
              response: np.ndarray, prior_pi: float) -> Evidence:
    """The deal-clustered covariance of the skills of `names`, from the distinct matches'
    seats and scores, their (deal, match number, count) entries, and EP's linear response of
    the skills `response` (the bread: the derivative of the posterior's estimating equations,
    prior included)."""
    k = len(names)
    lengths, seat_bots, seat_scores = seats_of
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.intp)
    labels, numbers, counts = entries
    named = sorted({label for label in labels if label is not None})
    code = {label: i for i, label in enumerate(named)}
    deal_of = np.fromiter((-1 if label is None else code[label] for label in labels), np.int64,
                          len(labels))
    order = np.lexsort((counts, numbers, deal_of))  # by deal, then match: a canonical order
    deal_of, numbers, counts = deal_of[order], numbers[order], counts[order]
    loose = deal_of < 0
    clusters = int(counts[loose].sum()) + len(named)
    spread = np.zeros((k, k))
    if loose.any():  # each match without a deal is a cluster of its own: its own outer product
        rows = numbers[loose]
        seats = lengths[rows]
        take = np.repeat(starts[rows], seats) + counting(seats)
        spread += _outer(np.repeat(np.arange(len(rows)), seats), seat_bots[take],
                         seat_scores[take], np.repeat(counts[loose], seats), k)
    if named:  # a deal's scores summed first, then its outer product
        rows = numbers[~loose]
        seats = lengths[rows]
        take = np.repeat(starts[rows], seats) + counting(seats)
        cells = np.repeat(deal_of[~loose], seats) * k + seat_bots[take]
        unique, inverse = np.unique(cells, return_inverse=True)
        totals = np.bincount(inverse, np.repeat(counts[~loose], seats) * seat_scores[take])
        spread += _outer(unique // k, (unique % k).astype(np.intp), totals,
                         np.ones(len(unique)), k)
    model = np.linalg.inv((response + response.T) / 2)
    if clusters >= 2:
        bread = np.linalg.inv(response)
        robust = clusters / (clusters - 1) * bread @ spread @ bread.T
        robust = (robust + robust.T) / 2
    else:  # one deal: its luck cannot be measured, the model's own covariance
        robust = model
    active = np.diag(response) > prior_pi * (1 + 1e-12)
    if active.any():  # relative to the mean skill of the bots that played a rated match
        weights = active / active.sum()
        model, robust = _centred(model, weights), _centred(robust, weights)
    return Evidence(tuple(names), robust, model, clusters)


def _centred(covariance: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The covariance of x - w.x (each skill minus the pool's weighted mean), in O(k^2)."""
    row = covariance @ weights
    return covariance - row[:, None] - row[None, :] + float(weights @ row)


def counting(sizes: np.ndarray) -> np.ndarray:
    """0, 1, ..., size - 1 for each size, concatenated."""
    total = int(sizes.sum())
    return np.arange(total) - np.repeat(np.cumsum(sizes) - sizes, sizes)


def _outer_rows(rows: np.ndarray, weights: np.ndarray, lengths: np.ndarray, starts: np.ndarray,
                bots: np.ndarray, scores: np.ndarray, k: int) -> np.ndarray:
    """Σ weight · s sᵀ over the given distinct matches (each its own cluster)."""
    seats = lengths[rows]
    take = np.repeat(starts[rows], seats) + counting(seats)
    groups = np.repeat(np.arange(len(rows)), seats)
    return _outer(groups, bots[take], scores[take], np.repeat(weights, seats), k)


def _outer(groups: np.ndarray, bots: np.ndarray, values: np.ndarray, weights: np.ndarray,
           k: int) -> np.ndarray:
    """Σ over groups of weight · g gᵀ, g the group's values summed per bot (k x k); entries
    come sorted by group, each entry carrying its group's weight."""
    if not len(groups):
        return np.zeros((k, k))
    _, first, size = np.unique(groups, return_index=True, return_counts=True)
    sizes = np.repeat(size, size)
    firsts = np.repeat(first, size)
    left = np.repeat(np.arange(len(groups)), sizes)
    right = np.repeat(firsts, sizes) + counting(sizes)
    cells = bots[left] * k + bots[right]
    return np.bincount(cells, weights[left] * values[left] * values[right],
                       k * k).reshape(k, k)
