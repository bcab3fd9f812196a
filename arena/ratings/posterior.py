"""The TrueSkill posterior of a run: all its matches rated at once, as simultaneous evidence, by
expectation propagation (EP), so the result does not depend on the order of the matches.

Each match is one factor on the skills of its bots. A factor's message to a bot is the TrueSkill
update (tau = 0) of the bot's cavity (its marginal without this factor's last message) divided by
that cavity. All factors are updated in parallel from the same marginals (a Jacobi sweep, each
followed by a linear correction of the means, or damped), until no bot's (mu, sigma) moves by
more than the tolerance: each sweep is a function of the set of matches only. Identical matches
(same bots in the same places) carry identical messages, so each distinct match is computed once
and its message counted as often as it occurs.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import trueskill

from arena.ratings.evidence import Evidence, Seats, clustered, counting, deal_label
from arena.ratings.pools import Match
from arena.ratings.settings import TrueSkillSettings

GAME_MIN_DELTA = trueskill.DELTA
"""trueskill's in-game stopping rule: iterate the chain until no message moves more than this."""
GAME_ITERATIONS = 10
"""trueskill's cap on in-game iterations of the chain."""
_SQRT2 = math.sqrt(2)
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
DAMPING = 0.5
"""Each sweep moves every message half way to its new value (see `_Model.run`)."""
PLAIN_SWEEPS = 3
"""Damped sweeps without correction after a sweep that moved the means more than the last."""
MAX_SOLVE = 3000
"""Bots above which the correction (a dense linear solve) is not made: damped sweeps only, and
no deal-clustered covariance (the ratings keep EP's own sigmas)."""
MAX_SWEEPS = 5000
"""EP sweeps made at most before a pool is reported as not converged (a four-seat pool in every
seat order needs about 800)."""
_NEGATIVE_SLACK = 1e-12
"""A message precision below zero by at most this share of the cavity's is rounding: made 0."""

_Unit = tuple[int, tuple[str, ...]]
"""One competitor of a match: its TrueSkill rank (0 = best) and its seats' bots, sorted."""


@dataclass(frozen=True)
class Posterior:
    """The TrueSkill posterior of a set of matches, taken together, and how EP reached it."""

    ratings: dict[str, tuple[float, float]]
    """Per bot, (mu, sigma) of its posterior skill; the prior if it played no rated match."""
    skipped: int
    """Matches that neither backend could rate (their message stays uniform)."""
    sweeps: int
    """EP sweeps made."""
    converged: bool
    """Whether the last sweep moved no bot's mu or sigma by more than the tolerance."""
    evidence: Evidence | None = None
    """The deal-clustered covariance of the bots' skills (None: no rated match, too many bots
    for a dense solve, or not asked for); see `arena/ratings/evidence.py`."""


def posterior(matches: Sequence[Match], settings: TrueSkillSettings,
              tolerance: float = 1e-9, max_sweeps: int | None = None,
              evidence: bool = True) -> Posterior:
    """The TrueSkill posterior of every bot given all `matches` at once (no drift: tau unused),
    by parallel EP sweeps until the largest change of a bot's mu or sigma is below `tolerance`
    (at most `max_sweeps`, MAX_SWEEPS unless given), with the covariance of the skills
    clustered by deal (`Evidence`; left out without `evidence`: a refit needs only ratings)."""
    counts = Counter((m.bots, m.ranks, m.units, m.deal) for m in matches)
    names = sorted({bot for m in matches for bot in m.bots})
    index = {name: i for i, name in enumerate(names)}
    keys: Counter[tuple[_Unit, ...]] = Counter()
    entries = []
    known: dict[tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]],
                tuple[_Unit, ...] | None] = {}
    for (bots, ranks, units, deal), count in counts.items():
        seen = (bots, ranks, units)
        if seen not in known:  # one game on many deals: made canonical once
            known[seen] = _canonical(bots, ranks, units) if len(set(bots)) > 1 else None
        key = known[seen]
        if key is not None:
            keys[key] += count
            # a match without a deal is a cluster of its own: label None
            entries.append((deal_label(deal), key, count))
    ordered = sorted(keys.items())
    model = _Model(settings, len(names))
    model.load(ordered, index)
    sweeps, converged = model.run(tolerance, MAX_SWEEPS if max_sweeps is None else max_sweeps)
    mu, sigma = model.mu_sigma()
    ratings = {name: (float(mu[i]), float(sigma[i])) for i, name in enumerate(names)}
    found = None
    if evidence and keys and len(names) <= MAX_SOLVE:
        number = {key: i for i, (key, _) in enumerate(ordered)}
        labels = [label for label, _, _ in entries]
        rows = np.fromiter((number[key] for _, key, _ in entries), np.intp, len(entries))
        counts = np.fromiter((count for _, _, count in entries), float, len(entries))
        del entries
        found = clustered(names, model.scores(mu, number), (labels, rows, counts),
                          model.response(), model.prior_pi)
    return Posterior(ratings, model.skipped, sweeps, converged, found)


def _canonical(bots: tuple[str, ...], ranks: tuple[int, ...],
               units: tuple[int, ...]) -> tuple[_Unit, ...]:
    """A match as TrueSkill sees it, in a canonical order: its units (rank = worst seat rank - 1,
    as `Rater.rate` builds them) sorted by rank, tied units by their bots' names, so that the same
    game always gives the same factor whatever its seat order in a solitaire deal."""
    members: dict[int, list[str]] = {}
    worst: dict[int, int] = {}
    for bot, rank, unit in zip(bots, ranks, units, strict=True):
        members.setdefault(unit, []).append(bot)
        worst[unit] = max(worst.get(unit, rank), rank)
    return tuple(sorted((worst[u] - 1, tuple(sorted(members[u]))) for u in members))


MAX_TIE_ORDERS = 24
"""How many orders of its tied units a match is rated in at most (all of them up to four tied
units; beyond, each run of ties reversed, and rotated)."""


def _tie_orders(ranks: list[int]) -> list[list[int]]:
    """Orders of a row's seats (sorted by rank) that permute only seats of equal rank, the row's
    own order first: every permutation of the tied runs when there are at most MAX_TIE_ORDERS,
    else each run rotated and reversed (every seat at every place of its run as often)."""
    runs: list[list[int]] = []
    for seat, rank in enumerate(ranks):
        if runs and ranks[runs[-1][0]] == rank:
            runs[-1].append(seat)
        else:
            runs.append([seat])
    if math.prod(math.factorial(len(run)) for run in runs) <= MAX_TIE_ORDERS:
        choices = [list(itertools.permutations(run)) for run in runs]
    else:
        choices = [[tuple(run[i:] + run[:i])[::step] for step in (1, -1)
                    for i in range(len(run))] for run in runs]
        choices = [list(dict.fromkeys(c)) for c in choices]
    combos = itertools.islice(itertools.product(*choices), 4 * MAX_TIE_ORDERS)  # never a flood
    return [[seat for part in combo for seat in part] for combo in combos]


class _Fixed:
    """Distinct matches of one shape: n units of one seat each, as arrays (rows, n) in
    canonical order, with per seat the natural parameters of the match's message to its bot."""

    def __init__(self, keys: list[tuple[tuple[_Unit, ...], int]],
                 index: dict[str, int]) -> None:
        self.keys = [key for key, _ in keys]
        self.bots = np.array([[index[u[1][0]] for u in key] for key, _ in keys], dtype=np.intp)
        self.ranks = np.array([[u[0] for u in key] for key, _ in keys], dtype=np.intp)
        self.count = np.array([count for _, count in keys], dtype=float)
        self.tie = self.ranks[:, 1:] == self.ranks[:, :-1]
        # TrueSkill chains tied units in an order, which rates them slightly differently: a row
        # with a tie is also rated in the other orders of its tied units (see `_tie_orders`) and
        # the messages averaged, so that bots tied with each other are rated alike
        pairs = [(row, order) for row in np.flatnonzero(self.tie.any(axis=1))
                 for order in _tie_orders(self.ranks[row].tolist())[1:]]
        self.other_rows = np.array([row for row, _ in pairs], dtype=np.intp)
        self.other_orders = np.array([order for _, order in pairs], dtype=np.intp).reshape(
            len(pairs), self.bots.shape[1])
        self.orders = 1.0 + np.bincount(self.other_rows, minlength=len(keys))
        # the rows in their own order and, below them, the rows with a tie in their other
        # orders are rated in one `chain` (each row is rated on its own: the same messages)
        self.stacked_tie = np.concatenate((self.tie, self.tie[self.other_rows]))
        # each message of another order back to its own seat
        self.back = (np.arange(len(pairs))[:, None], np.argsort(self.other_orders, axis=1))
        self.pi = np.zeros(self.bots.shape)
        self.tau = np.zeros(self.bots.shape)
        same = self.bots[:, :, None] == self.bots[:, None, :]
        self.clone_rows = np.flatnonzero(same.sum(axis=(1, 2)) > self.bots.shape[1])
        self.same = same[self.clone_rows].astype(float)

    def rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per row its seats' bots and message precisions, and its count."""
        return self.bots, self.pi, self.count

    @functools.cached_property
    def neighbours(self) -> list[tuple[int, int, float]]:
        """(seat, seat, weight): the seats next in rank, whose means a seat's message follows."""
        n = self.bots.shape[1]
        out = []
        for i in range(n):
            near = [j for j in (i - 1, i + 1) if 0 <= j < n]
            out.extend((i, j, 1 / len(near)) for j in near)
        return out

    def own(self, values: np.ndarray) -> np.ndarray:
        """Per seat, the sum of `values` over the seats of its bot in its row (clones)."""
        if not len(self.clone_rows):
            return values
        out = values.copy()
        out[self.clone_rows] = np.einsum("rij,rj->ri", self.same, values[self.clone_rows])
        return out


class _Free:
    """One distinct match of any other shape (teams), rated per match by the trueskill package."""

    def __init__(self, key: tuple[_Unit, ...], count: int, index: dict[str, int]) -> None:
        self.keys = [key]
        self.ranks = [rank for rank, _ in key]
        self.groups: list[list[int]] = []
        bots: list[int] = []
        for _, members in key:
            self.groups.append(list(range(len(bots), len(bots) + len(members))))
            bots.extend(index[b] for b in members)
        self.bots = np.array(bots, dtype=np.intp)
        self.count = float(count)
        self.pi = np.zeros(len(bots))
        self.tau = np.zeros(len(bots))

    def rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Its seats' bots and message precisions as one row, and its count."""
        return self.bots[None, :], self.pi[None, :], np.array([self.count])

    @functools.cached_property
    def neighbours(self) -> list[tuple[int, int, float]]:
        """(seat, seat, weight): the seats of the other units, whose means a seat's message
        follows."""
        out = []
        for group in self.groups:
            others = [j for other in self.groups if other is not group for j in other]
            out.extend((i, j, 1 / len(others)) for i in group for j in others)
        return out

    def own(self, values: np.ndarray) -> np.ndarray:
        """Per seat, the sum of `values` over the seats of its bot in this match (clones)."""
        same = self.bots[:, None] == self.bots[None, :]
        return same.astype(float) @ values


class _Model:
    """The EP state: per distinct match its messages, per bot its marginal (natural parameters)."""

    def __init__(self, settings: TrueSkillSettings, bots: int) -> None:
        self.settings = settings
        self.prior_pi = settings.sigma ** -2
        self.prior_tau = settings.mu * self.prior_pi
        self.beta2 = settings.beta ** 2
        self.envs: dict[str | None, trueskill.TrueSkill] = {}
        self.margin = trueskill.calc_draw_margin(settings.draw_probability, 2, self.env(None))
        self.size = bots
        self.fixed: list[_Fixed] = []
        self.free: list[_Free] = []
        self.skipped = 0
        self.pi = np.full(bots, self.prior_pi)
        self.tau = np.full(bots, self.prior_tau)

    def load(self, keys: list[tuple[tuple[_Unit, ...], int]], index: dict[str, int]) -> None:
        """Split the distinct matches into fixed shapes (n single-seat units) and the rest."""
        shapes: dict[int, list[tuple[tuple[_Unit, ...], int]]] = {}
        for key, count in keys:
            if all(len(members) == 1 for _, members in key):
                shapes.setdefault(len(key), []).append((key, count))
            else:
                self.free.append(_Free(key, count, index))
        self.fixed = [_Fixed(shapes[n], index) for n in sorted(shapes)]

    def env(self, backend: str | None) -> trueskill.TrueSkill:
        """The trueskill environment of `backend` (None: floats), made when first asked for: the
        mpmath one imports mpmath (about 0.1 s in a fresh process), which only a match the float
        backend cannot rate needs."""
        if backend not in self.envs:
            s = self.settings
            self.envs[backend] = trueskill.TrueSkill(s.mu, s.sigma, s.beta, 0.0,
                                                     s.draw_probability, backend=backend)
        return self.envs[backend]

    def marginals(self) -> tuple[np.ndarray, np.ndarray]:
        """Every bot's marginal: the prior times every match's message, counted per occurrence."""
        pi = np.full(self.size, self.prior_pi)
        tau = np.full(self.size, self.prior_tau)
        for part in [*self.fixed, *self.free]:
            count = part.count[:, None] if isinstance(part, _Fixed) else part.count
            flat = part.bots.ravel()
            pi += np.bincount(flat, (count * part.pi).ravel(), self.size)
            tau += np.bincount(flat, (count * part.tau).ravel(), self.size)
        return pi, tau

    def mu_sigma(self) -> tuple[np.ndarray, np.ndarray]:
        """Every bot's (mu, sigma) from its marginal."""
        return self.tau / self.pi, 1 / np.sqrt(self.pi)

    def run(self, tolerance: float, max_sweeps: int) -> tuple[int, bool]:
        """Parallel sweeps, each followed by a linear correction of the means, until converged
        or `max_sweeps`; (sweeps, converged). A sweep that moves the means more than the one
        before turns the correction off for a few damped sweeps, and halves it after."""
        mu, sigma = self.mu_sigma()
        last, plain, gain = math.inf, 0, 1.0
        solvable = self.size <= MAX_SOLVE
        for sweep in range(1, max_sweeps + 1):
            fast = solvable and plain == 0
            step = 1.0 if fast else DAMPING
            self.sweep(step)
            self.pi, self.tau = self.marginals()
            new_mu, new_sigma = self.mu_sigma()
            move = float(np.max(np.abs(new_mu - mu), initial=0.0))
            if max(move, float(np.max(np.abs(new_sigma - sigma), initial=0.0))) < tolerance:
                return sweep, True
            move /= step  # as an undamped sweep would have moved
            if move > last:
                plain, gain = PLAIN_SWEEPS, max(gain / 2, 1 / 16)
            else:
                plain, gain = max(plain - 1, 0), min(gain * 1.25, 1.0)
            last = move
            if fast and plain == 0:
                self.correct(new_mu - mu, gain)
            mu, sigma = self.mu_sigma()
        return max_sweeps, False

    def correct(self, moved: np.ndarray, gain: float) -> None:
        """Jump to where the sweeps are heading, by a linear model of how a match's message
        follows its other seats' means (with weights summing to one, so a common shift of all
        skills, the mode only the weak prior pins and that sweeps alone close slowly, is exact):
        solve (P - W) delta = P moved for the bots' mean changes, P their precisions, W their
        coupling through the matches, then move every message's mean by `gain` of that."""
        system = self.response()
        try:
            delta = np.linalg.solve(system, self.pi * moved)
        except np.linalg.LinAlgError:
            return
        if not np.all(np.isfinite(delta)):
            return
        delta *= gain
        for part in self.parts():
            bots, _, _ = part.rows()
            shift = np.zeros(bots.shape)
            for i, j, weight in part.neighbours:
                shift[:, i] += weight * delta[bots[:, j]]
            part.tau = part.tau + part.pi * shift.reshape(part.pi.shape)
        self.pi, self.tau = self.marginals()

    def response(self) -> np.ndarray:
        """P - W: how the bots' means answer a shift of their neighbours' (the linear model of
        `correct`): P the marginal precisions, W their coupling through the matches."""
        coupling = np.zeros(self.size * self.size)
        for part in self.parts():
            bots, pi, count = part.rows()
            for i, j, weight in part.neighbours:
                coupling += np.bincount(bots[:, i] * self.size + bots[:, j],
                                        weight * count * pi[:, i], self.size * self.size)
        return np.diag(self.pi) - coupling.reshape(self.size, self.size)

    def scores(self, mu: np.ndarray, number: dict[tuple[_Unit, ...], int]) -> Seats:
        """Every distinct match's seats, in the order of its `number`: per match its number of
        seats, and per seat its bot and its score, the gradient of the match's log-likelihood
        in the seat's skill: tau - pi * mu of its message at the posterior mean (at EP's fixed
        point, the derivative of the match's evidence in its cavity mean)."""
        order, lengths, bots_of, scores_of = [], [], [], []
        for part in self.parts():
            bots, pi, _ = part.rows()
            score = part.tau.reshape(pi.shape) - pi * mu[bots]
            order.append(np.array([number[key] for key in part.keys], dtype=np.intp))
            lengths.append(np.full(len(bots), bots.shape[1], dtype=np.intp))
            bots_of.append(bots)
            scores_of.append(score)
        rows = np.concatenate(order)
        sort = np.argsort(rows, kind="stable")
        size = np.concatenate(lengths)
        flat_bots = np.concatenate([b.ravel() for b in bots_of])
        flat_scores = np.concatenate([x.ravel() for x in scores_of])
        starts = np.concatenate(([0], np.cumsum(size)[:-1]))
        take = np.repeat(starts[sort], size[sort]) + counting(size[sort])
        return size[sort], flat_bots[take], flat_scores[take]

    def parts(self) -> list[_Fixed | _Free]:
        """Every distinct match's state, fixed shapes first."""
        return [*self.fixed, *self.free]

    def sweep(self, step: float) -> None:
        """New messages of every distinct match from the current marginals, damped by `step`."""
        self.skipped = 0
        for part in self.fixed:
            cav_pi = self.pi[part.bots] - part.own(part.pi)
            cav_tau = self.tau[part.bots] - part.own(part.tau)
            if len(part.other_rows):
                new_pi, new_tau, bad = self.symmetric(part, cav_pi, cav_tau)
            else:
                new_pi, new_tau, bad = chain(cav_pi, cav_tau, part.tie, self.beta2, self.margin)
            failed = np.zeros(len(part.count), dtype=bool)
            for row in np.flatnonzero(bad):
                groups = [[seat] for seat in range(part.bots.shape[1])]
                message = self.rate_tied(cav_pi[row], cav_tau[row], groups,
                                         part.ranks[row].tolist())
                if message is None:
                    failed[row] = True
                    self.skipped += int(part.count[row])
                else:
                    new_pi[row], new_tau[row] = message
            part.pi += step * (new_pi - part.pi)
            part.tau += step * (new_tau - part.tau)
            part.pi[failed] = 0.0
            part.tau[failed] = 0.0
        for free in self.free:
            cav_pi = self.pi[free.bots] - free.own(free.pi)
            cav_tau = self.tau[free.bots] - free.own(free.tau)
            message = self.rate_tied(cav_pi, cav_tau, free.groups, free.ranks)
            if message is None:
                self.skipped += int(free.count)
                free.pi[:] = 0.0
                free.tau[:] = 0.0
            else:
                free.pi += step * (message[0] - free.pi)
                free.tau += step * (message[1] - free.tau)

    def symmetric(self, part: _Fixed, cav_pi: np.ndarray, cav_tau: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every row's messages, those of the rows with a tie averaged over the orders of their
        tied units (see `_Fixed`); a row fails if any order fails."""
        rows, size = part.other_rows, len(part.count)
        pick = (rows[:, None], part.other_orders)
        every_pi, every_tau, every_bad = chain(np.concatenate((cav_pi, cav_pi[pick])),
                                               np.concatenate((cav_tau, cav_tau[pick])),
                                               part.stacked_tie, self.beta2, self.margin)
        sum_pi, sum_tau = every_pi[:size], every_tau[:size]
        np.add.at(sum_pi, rows, every_pi[size:][part.back])
        np.add.at(sum_tau, rows, every_tau[size:][part.back])
        bad = every_bad[:size]
        bad[rows[every_bad[size:]]] = True
        return sum_pi / part.orders[:, None], sum_tau / part.orders[:, None], bad

    def rate_tied(self, cav_pi: np.ndarray, cav_tau: np.ndarray, groups: list[list[int]],
                  ranks: list[int]) -> tuple[np.ndarray, np.ndarray] | None:
        """`rate_one` averaged over the orders of the tied units (see `_Fixed`); None if any
        order fails."""
        orders = _tie_orders(ranks)
        total_pi, total_tau = np.zeros_like(cav_pi), np.zeros_like(cav_tau)
        for order in orders:
            message = self.rate_one(cav_pi, cav_tau, [groups[u] for u in order],
                                    [ranks[u] for u in order])
            if message is None:
                return None
            total_pi += message[0]
            total_tau += message[1]
        return total_pi / len(orders), total_tau / len(orders)

    def rate_one(self, cav_pi: np.ndarray, cav_tau: np.ndarray, groups: list[list[int]],
                 ranks: list[int]) -> tuple[np.ndarray, np.ndarray] | None:
        """Per seat, the message (updated / cavity) of one match rated by the trueskill package:
        float backend, then mpmath; None if both fail (an arithmetic error, a domain error, or
        a result that is not finite or would widen a rating)."""
        sigmas = 1 / np.sqrt(cav_pi)
        mus = cav_tau / cav_pi
        rating_groups = [tuple(trueskill.Rating(float(mus[s]), float(sigmas[s])) for s in group)
                         for group in groups]
        for backend in (None, "mpmath"):
            try:
                rated = self.env(backend).rate(rating_groups, ranks=ranks)
            except (ArithmeticError, ValueError):
                continue
            new = [r for group in rated for r in group]
            seats = [s for group in groups for s in group]
            pi, tau = np.zeros_like(cav_pi), np.zeros_like(cav_tau)
            pi[seats] = np.array([float(r.sigma) ** -2 for r in new]) - cav_pi[seats]
            tau[seats] = (np.array([float(r.mu) * float(r.sigma) ** -2 for r in new])
                          - cav_tau[seats])
            if not (np.all(np.isfinite(pi)) and np.all(np.isfinite(tau))):
                continue
            if np.any(pi < -_NEGATIVE_SLACK * cav_pi):
                continue
            return np.maximum(pi, 0.0), tau
        return None


def erfc(x: np.ndarray) -> np.ndarray:
    """The complementary error function, elementwise, by the rational approximation that
    trueskill's float backend uses (fractional error below 1.2e-7), so both paths agree."""
    z = np.abs(x)
    t = z / 2.0
    t += 1.0
    np.reciprocal(t, out=t)
    poly = t * 0.17087277
    for coefficient in (-0.82215223, 1.48851587, -1.13520398, 0.27886807, -0.18628806,
                        0.09678418, 0.37409196, 1.00002368):
        poly += coefficient
        poly *= t
    z *= z
    np.negative(z, out=z)
    z -= 1.26551223
    z += poly
    np.exp(z, out=z)
    z *= t
    return np.where(x < 0, 2.0 - z, z)


def _cdf(x: np.ndarray) -> np.ndarray:
    return 0.5 * erfc(-x / _SQRT2)


def _pdf(x: np.ndarray) -> np.ndarray:
    return _INV_SQRT_2PI * np.exp(-(x ** 2 / 2))


def _v_w(x: np.ndarray, margin: np.ndarray,
         tie: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """trueskill's v and w (win where not `tie`, draw where `tie`), and where they are usable:
    finite with 0 < w < 1 (elsewhere trueskill raises, or would return a wider rating)."""
    if tie.any():
        v, w, ok = np.empty_like(x), np.empty_like(x), np.empty(x.shape, dtype=bool)
        win = ~tie
        v[win], w[win], ok[win] = _v_w_win(x[win], margin[win])
        v[tie], w[tie], ok[tie] = _v_w_draw(x[tie], margin[tie])
        return v, w, ok
    return _v_w_win(x, margin)


def _v_w_win(x: np.ndarray, margin: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lead = x - margin
    denom = _cdf(lead)
    v = np.where(denom != 0, _pdf(lead) / denom, -lead)
    w = v * (v + lead)
    return v, w, np.isfinite(v) & (w > 0) & (w < 1)


def _v_w_draw(x: np.ndarray, margin: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    gap = np.abs(x)
    a, b = margin - gap, -margin - gap
    both = np.concatenate((a, b))  # elementwise: one call for both ends
    pdf, cdf = _pdf(both), _cdf(both)
    pdf_a, pdf_b = pdf[:len(a)], pdf[len(a):]
    between = cdf[:len(a)] - cdf[len(a):]
    v_abs = np.where(between != 0, (pdf_b - pdf_a) / between, a)
    w = v_abs ** 2 + (a * pdf_a - b * pdf_b) / between
    v = v_abs * np.where(x < 0, -1.0, 1.0)
    return v, w, np.isfinite(v) & np.isfinite(w) & (w > 0) & (w < 1) & (between != 0)


def chain(pi: np.ndarray, tau: np.ndarray, tie: np.ndarray, beta2: float,
          margin: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """trueskill's update of many free-for-all matches at once, each row one match of n
    single-seat units sorted by rank (`tie[:, j]`: units j and j + 1 drew), from the seats'
    natural parameters: per seat the message (updated / prior) and per row whether it failed.

    The factor graph and schedule are trueskill's: performances, their differences between
    adjacent ranks with a truncation factor each, swept forward then backward until no
    truncation message moves by more than GAME_MIN_DELTA, at most GAME_ITERATIONS times.
    Each row is rated on its own (rows may be stacked: the same messages)."""
    if pi.shape[1] == 2:
        return _chain_of_two(pi, tau, tie, beta2, margin)
    return chain_loop(pi, tau, tie, beta2, margin)


def chain_loop(pi: np.ndarray, tau: np.ndarray, tie: np.ndarray, beta2: float,
               margin: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`chain` for any number of seats, by trueskill's schedule of sweeps."""
    rows, n = pi.shape
    k = n - 1
    with np.errstate(all="ignore"):
        # one array per seat or per difference (row j = seat or difference j), each contiguous
        scale = 1.0 / (1.0 + beta2 * pi.T)
        perf_pi, perf_tau = scale * pi.T, scale * tau.T
        left_pi, left_tau = np.zeros((k, rows)), np.zeros((k, rows))    # diff j -> perf j
        right_pi, right_tau = np.zeros((k, rows)), np.zeros((k, rows))  # diff j -> perf j + 1
        trunc_pi, trunc_tau = np.zeros((k, rows)), np.zeros((k, rows))
        ties = np.ascontiguousarray(tie.T)
        ok = np.ones(rows, dtype=bool)

        def above(idx: slice | np.ndarray, j: int) -> tuple[np.ndarray, np.ndarray]:
            """Message from performance j to difference j."""
            if j == 0:
                return perf_pi[0, idx], perf_tau[0, idx]
            return perf_pi[j, idx] + right_pi[j - 1, idx], perf_tau[j, idx] + right_tau[j - 1, idx]

        def below(idx: slice | np.ndarray, j: int) -> tuple[np.ndarray, np.ndarray]:
            """Message from performance j + 1 to difference j."""
            if j + 1 == k:
                return perf_pi[k, idx], perf_tau[k, idx]
            return (perf_pi[j + 1, idx] + left_pi[j + 1, idx],
                    perf_tau[j + 1, idx] + left_tau[j + 1, idx])

        def truncate(idx: slice | np.ndarray, j: int) -> np.ndarray:
            """Difference j down, then its truncation factor up; the move of its marginal."""
            a_pi, a_tau = above(idx, j)
            b_pi, b_tau = below(idx, j)
            d_pi = 1.0 / (1.0 / a_pi + 1.0 / b_pi)
            d_tau = d_pi * (a_tau / a_pi - b_tau / b_pi)
            root = np.sqrt(d_pi)
            v, w, good = _v_w(d_tau / root, margin * root, ties[j, idx])
            ok[idx] &= good
            new_pi = d_pi / (1.0 - w)
            new_tau = (d_tau + root * v) / (1.0 - w)
            moved = np.maximum(np.abs(new_tau - (d_tau + trunc_tau[j, idx])),
                               np.sqrt(np.abs(new_pi - (d_pi + trunc_pi[j, idx]))))
            trunc_pi[j, idx] = new_pi - d_pi
            trunc_tau[j, idx] = new_tau - d_tau
            return moved

        def send(idx: slice | np.ndarray, j: int, to_left: bool) -> None:
            """Difference j up to performance j (`to_left`) or j + 1."""
            t_pi, t_tau = trunc_pi[j, idx], trunc_tau[j, idx]
            if to_left:
                o_pi, o_tau = below(idx, j)
                mean = t_tau / t_pi + o_tau / o_pi
            else:
                o_pi, o_tau = above(idx, j)
                mean = o_tau / o_pi - t_tau / t_pi
            out_pi = 1.0 / (1.0 / o_pi + 1.0 / t_pi)
            if to_left:
                left_pi[j, idx], left_tau[j, idx] = out_pi, out_pi * mean
            else:
                right_pi[j, idx], right_tau[j, idx] = out_pi, out_pi * mean

        active: slice | np.ndarray = slice(None)  # rows still iterating (all, at first)
        for _ in range(GAME_ITERATIONS if k > 1 else 1):
            moved = np.zeros(rows if isinstance(active, slice) else len(active))
            for j in range(k - 1):
                moved = np.maximum(moved, truncate(active, j))
                send(active, j, to_left=False)
            for j in range(k - 1, 0, -1):
                moved = np.maximum(moved, truncate(active, j))
                send(active, j, to_left=True)
            if k == 1:
                truncate(active, 0)
            # a row stops once its largest move is small, as trueskill's loop breaks
            going = ~(moved <= GAME_MIN_DELTA) & ok[active]
            active = np.flatnonzero(going) if isinstance(active, slice) else active[going]
            if not len(active):
                break
        every = slice(None)
        send(every, 0, to_left=True)
        send(every, k - 1, to_left=False)
        up_pi, up_tau = np.zeros((n, rows)), np.zeros((n, rows))
        up_pi[:k] += left_pi
        up_tau[:k] += left_tau
        up_pi[1:] += right_pi
        up_tau[1:] += right_tau
        scale = 1.0 / (1.0 + beta2 * up_pi)
        out_pi, out_tau = (scale * up_pi).T, (scale * up_tau).T
        ok &= np.all(np.isfinite(out_pi) & np.isfinite(out_tau) & (out_pi >= 0), axis=1)
    return np.where(ok[:, None], out_pi, 0.0), np.where(ok[:, None], out_tau, 0.0), ~ok


def _chain_of_two(pi: np.ndarray, tau: np.ndarray, tie: np.ndarray, beta2: float,
                  margin: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`chain` for matches of two seats: its one difference truncated once, then sent up to
    both performances, by the very operations `chain` makes (the same messages, bit for bit),
    without its iteration's bookkeeping, which two seats do not need."""
    with np.errstate(all="ignore"):
        scale = 1.0 / (1.0 + beta2 * pi.T)
        perf_pi, perf_tau = scale * pi.T, scale * tau.T
        a_pi, a_tau, b_pi, b_tau = perf_pi[0], perf_tau[0], perf_pi[1], perf_tau[1]
        d_pi = 1.0 / (1.0 / a_pi + 1.0 / b_pi)
        d_tau = d_pi * (a_tau / a_pi - b_tau / b_pi)
        root = np.sqrt(d_pi)
        v, w, ok = _v_w(d_tau / root, margin * root, tie[:, 0])
        t_pi = d_pi / (1.0 - w) - d_pi
        t_tau = (d_tau + root * v) / (1.0 - w) - d_tau
        up_pi, up_tau = np.zeros((2, len(ok))), np.zeros((2, len(ok)))
        left = 1.0 / (1.0 / b_pi + 1.0 / t_pi)  # to the first performance
        up_pi[0] += left
        up_tau[0] += left * (t_tau / t_pi + b_tau / b_pi)
        right = 1.0 / (1.0 / a_pi + 1.0 / t_pi)  # to the second
        up_pi[1] += right
        up_tau[1] += right * (a_tau / a_pi - t_tau / t_pi)
        scale = 1.0 / (1.0 + beta2 * up_pi)
        out_pi, out_tau = (scale * up_pi).T, (scale * up_tau).T
        ok &= np.all(np.isfinite(out_pi) & np.isfinite(out_tau) & (out_pi >= 0), axis=1)
    return np.where(ok[:, None], out_pi, 0.0), np.where(ok[:, None], out_tau, 0.0), ~ok
