"""Ratings tables and head-to-head crosstables of a run's pools: a pure function of the records."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

from arena.errors import VariantError
from arena.ratings.adjustment import cross_fitted
from arena.ratings.evidence import Evidence
from arena.ratings.output import json_number
from arena.ratings.pools import Match, rating_pools
from arena.ratings.posterior import posterior
from arena.ratings.separation import at_the_edge
from arena.ratings.settings import TrueSkillSettings
from arena.ratings.verdicts import (
    SEPARATION,
    Z95,
    likelihood_of_superiority,
    paired_mean,
    probability_greater,
    t_quantile,
)


@dataclass(frozen=True)
class BotRow:
    """One bot's line in a pool: its rating relative to the pool, its rank among those it can be
    told apart from, its results per seat played, and the faults it committed."""

    rank: int
    """The bot's rank; bots that cannot be told apart at 95% (two-sided) share the rank of the
    first."""
    rank_label: str
    """The rank as shown: '3', or '=3' where the rank is shared."""
    bot: str
    mu: float
    """The posterior mean skill; only differences between bots of one pool mean anything (the
    pool's mean skill is pinned near the prior's mu)."""
    sigma: float
    """The standard error of the skill relative to the pool's mean skill, clustered by deal."""
    mu_ci95: float
    """Half-width of the 95% interval of mu relative to the pool's mean skill, clustered by
    deal (Student's t on deals - 1 degrees of freedom)."""
    p_above_next: float | None
    """The probability that the bot's skill is above that of the bot listed next (None for
    the last); 0.975 or more tells them apart at 95%."""
    games: int
    wins: int
    draws: int
    losses: int
    mean_place: float
    mean_score: float
    score_ci95: float
    """Half-width of the 95% interval of the mean score, clustered by deal."""
    faults: int
    fault_kinds: tuple[tuple[str, int], ...] = ()
    beats_above: tuple[str, ...] = ()
    """Bots listed above this one that it beats head to head, significantly at 95%: the
    ratings (results against the whole field) and the direct games disagree."""
    outscores_in_rank: tuple[str, ...] = ()
    """Bots sharing this one's rank, listed below it, that it beats head to head significantly
    at 95%: the direct games tell them apart, the ratings do not (yet)."""

    def fault_share(self) -> float:
        """The share of this bot's games in which it faulted."""
        return self.faults / self.games if self.games else 0.0


@dataclass(frozen=True)
class HeadToHead:
    """How `bot` did against `opponent` where both took part: per game, and per deal (the
    paired edge, its 95% interval and p-value), with the likelihood that `bot` is the better."""

    bot: str
    opponent: str
    games: int
    deals: int
    wins: int
    draws: int
    losses: int
    edge: float
    """The mean over deals of the bot's score advantage on that deal (positive = better)."""
    edge_ci95: float
    p_value: float
    """Two-sided p-value of the edge against 0 (Student's t over deals)."""
    los: float
    """Likelihood of superiority from the decisive games: Phi((W - L) / sqrt(W + L))."""
    significant: bool
    """Whether the edge differs from 0 at 95%."""
    edge_df: int | None = None
    """Degrees of freedom of the edge's t interval: deals - 1 raw, deals - 4 adjusted for luck
    (two folds, each with its own line: docs/ratings.md, Luck); None: deals - 1."""

    @property
    def freedom(self) -> int:
        """The edge's degrees of freedom (`edge_df`, else deals - 1)."""
        return self.deals - 1 if self.edge_df is None else self.edge_df


@dataclass(frozen=True)
class PoolRatings:
    """The ratings table and crosstable of one (game, variant) pool."""

    game: str
    variant: str
    matches: int
    skipped: int
    bots: tuple[BotRow, ...]
    crosstable: tuple[HeadToHead, ...]
    deals: int = 0
    """The deals the pool's verdicts are drawn from (the clusters of its evidence)."""
    sweeps: int = 0
    """EP sweeps made."""
    converged: bool = True
    """Whether EP reached its tolerance; when False, the ratings are where it stopped."""
    evidence: Evidence | None = field(default=None, compare=False, repr=False)
    """The deal-clustered covariance of the pool's skills, for verdicts on several bots at
    once (a move against a reference in `arena compare`); None where it was not measured."""
    edges: tuple[tuple[str, str], ...] = ()
    """The bots that finished last (or first) in every game they played, with 'last' or
    'first': their intervals are bounded from one game (`arena.ratings.separation`)."""
    near_edges: tuple[tuple[str, str, int, int], ...] = ()
    """The bots near their edge (bot, 'last' or 'first', the deals that hold its games off that
    edge, its deals): their intervals are at least the jackknife over those deals
    (`arena.ratings.jackknife`)."""
    luck_model: str | None = None
    """The luck model ('name/version') the head-to-head edges are adjusted with; None: raw."""
    luck_note: str | None = None
    """Where the records carry luck but the edges are raw, why (one line)."""

    def luck_text(self) -> str | None:
        """The line saying whether the edges are adjusted for luck, where the records carry
        any (None where they carry none)."""
        if self.luck_model is not None:
            return (f"edges adjusted for luck ({self.luck_model}): each deal's score advantage "
                    f"less a cross-fitted multiple of its luck (see docs/ratings.md, Luck)")
        return self.luck_note


@dataclass(frozen=True)
class Ratings:
    """Every pool of a run, sorted by game then variant."""

    pools: tuple[PoolRatings, ...]

    def variants(self) -> tuple[str, ...]:
        """The variant labels present, sorted."""
        return tuple(sorted({p.variant for p in self.pools}))

    def only(self, variant: str | None) -> Ratings:
        """The pools of one variant label (all when None); VariantError for an unknown label."""
        if variant is None:
            return self
        if variant not in self.variants():
            known = ", ".join(self.variants()) or "none"
            raise VariantError(f"no results for variant {variant!r} (known: {known})")
        return Ratings(tuple(p for p in self.pools if p.variant == variant))

    def pool(self, game: str, variant: str) -> PoolRatings | None:
        """The pool of (game, variant), if the run has one."""
        return next((p for p in self.pools if (p.game, p.variant) == (game, variant)), None)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready document: pools with their rows and crosstables, floats rounded."""
        return {"pools": [{"game": p.game, "variant": p.variant, "matches": p.matches,
                           "skipped": p.skipped, "deals": p.deals, "sweeps": p.sweeps,
                           "converged": p.converged,
                           "luck_model": p.luck_model, "luck_note": p.luck_note,
                           "edges": [list(e) for e in p.edges],
                           "near_edges": [list(e) for e in p.near_edges],
                           "bots": [json_row(r) for r in p.bots],
                           "crosstable": [json_row(h) for h in p.crosstable]}
                          for p in self.pools]}


class _Clustered:
    """Count and sum of a stream of numbers per deal, for a mean with its 95% interval
    clustered by deal (the cluster-robust variance of a mean, with G / (G - 1))."""

    __slots__ = ("deals",)

    def __init__(self) -> None:
        self.deals: dict[Any, list[float]] = {}

    def add(self, x: float, deal: Any) -> None:
        entry = self.deals.setdefault(deal, [0.0, 0])
        entry[0] += x
        entry[1] += 1

    def mean_ci95(self) -> tuple[float, float]:
        """The mean, and the half-width of its 95% interval (0 below two deals)."""
        parts = [self.deals[d] for d in sorted(self.deals, key=_deal_order)]
        n = sum(int(count) for _, count in parts)
        if not n:
            return 0.0, 0.0
        mean = math.fsum(total for total, _ in parts) / n
        clusters = len(parts)
        if clusters < 2:
            return mean, 0.0
        spread = math.fsum((total - count * mean) ** 2 for total, count in parts)
        variance = clusters / (clusters - 1) * spread / n ** 2
        return mean, t_quantile(clusters - 1) * math.sqrt(variance)


def _deal_order(deal: Any) -> tuple[str, str]:
    return (type(deal).__name__, repr(deal))


@dataclass
class _Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    place_sum: int = 0
    faults: int = 0
    score: _Clustered = field(default_factory=_Clustered)


@dataclass
class _Pair:
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    deals: dict[Any, list[float]] = field(default_factory=dict)
    """Per deal, the sum of the bot's score advantages in its games on it, their count, and
    the sum of its luck advantages (0 where the pool carries no luck)."""


def rate(records: Iterable[Mapping[str, Any]],
         settings: Mapping[str, TrueSkillSettings] | None = None,
         disqualify: bool = False, luck: bool = True) -> Ratings:
    """Rate every pool of `records` — a (game, variant) at one table size — by the TrueSkill
    posterior over all its games at once (a pure function of the set of records, whatever
    their order). With `disqualify`, a bot's games after its first fault count as forfeits
    (see `disqualified`). With `luck`, the head-to-head edges of a pool whose records all carry
    luck from one model are adjusted for it (`arena.ratings.adjustment`); without, all are
    raw."""
    settings = settings or {}
    out = []
    for pool in rating_pools(records, disqualify):
        chosen = settings.get(pool.game, TrueSkillSettings())
        chosen.validate()
        model = pool.luck.model if luck else None
        rated = _rate_pool(pool.game, pool.variant, pool.matches, chosen, model is not None)
        bots = tuple(replace(row, fault_kinds=tuple(sorted(pool.fault_kinds[row.bot].items())))
                     for row in rated.bots)
        note = pool.luck.note
        if not luck and pool.luck.model is not None:
            note = (f"edges raw (--luck off); the records carry luck from {pool.luck.model}")
        out.append(replace(rated, bots=bots, luck_model=model, luck_note=note))
    return Ratings(tuple(out))


def intervals(matches: list[Match], settings: TrueSkillSettings
              ) -> dict[str, tuple[float, float]]:
    """Each bot's mu and the half-width of its 95% interval, exactly as the table of these
    matches shows them (`BotRow.mu`, `BotRow.mu_ci95`), without the rest of the table."""
    settings.validate()
    found = posterior(matches, settings)
    evidence, _, _ = at_the_edge(matches, found, settings)
    ratings = dict(found.ratings)
    for match in matches:
        for bot in match.bots:
            ratings.setdefault(bot, (settings.mu, settings.sigma))
    quantile = _quantile(evidence)
    return {bot: (mu, quantile * _sigma(bot, ratings, evidence))
            for bot, (mu, _) in ratings.items()}


def _quantile(evidence: Evidence | None) -> float:
    """The quantile of a 95% interval: Student's t on the evidence's degrees of freedom."""
    return t_quantile(evidence.df) if evidence is not None and evidence.df is not None else Z95


def _rate_pool(game: str, variant: str, matches: list[Match],
               settings: TrueSkillSettings, lucky: bool = False) -> PoolRatings:
    found = posterior(matches, settings)
    evidence, edges, near = at_the_edge(matches, found, settings)
    ratings = dict(found.ratings)
    tallies: dict[str, _Tally] = defaultdict(_Tally)
    pairs: dict[tuple[str, str], _Pair] = defaultdict(_Pair)
    for match in matches:
        for bot in match.bots:
            ratings.setdefault(bot, (settings.mu, settings.sigma))
        _count(match, tallies, pairs)
    # best estimate first: mu as printed in JSON, so that equal-looking ties go by name
    rows = sorted(ratings, key=lambda b: (-round(ratings[b][0], 6), b))
    order = {bot: i for i, bot in enumerate(rows)}
    cross = tuple(_head_to_head(a, b, pairs[(a, b)], lucky)
                  for a, b in sorted(pairs, key=lambda ab: (order[ab[0]], order[ab[1]])))
    bot_rows = tuple(_bot_rows(rows, ratings, evidence, tallies, cross))
    deals = evidence.deals if evidence is not None else 0
    return PoolRatings(game, variant, len(matches), found.skipped, bot_rows, cross, deals,
                       found.sweeps, found.converged, evidence,
                       tuple((bot, edges[bot].value) for bot in rows if bot in edges),
                       near_edges=tuple((bot, near[bot].edge, len(near[bot].off), near[bot].deals)
                                        for bot in rows if bot in near))


def _bot_rows(rows: list[str], ratings: Mapping[str, tuple[float, float]],
              evidence: Evidence | None, tallies: Mapping[str, _Tally],
              cross: tuple[HeadToHead, ...]) -> list[BotRow]:
    """The table's rows in order: a new rank starts below a bot that is above the next one with
    probability SEPARATION (0.975, two-sided 95%) or more; the others share the rank of the
    first of their run. Skills and their spreads are relative to the pool, clustered by deal."""
    df = evidence.df if evidence is not None else None
    sigma = {bot: _sigma(bot, ratings, evidence) for bot in rows}
    # equal at the 6 decimals shown (mirror-image twins: equal up to rounding) is a coin flip
    above = [0.5 if round(ratings[bot][0], 6) == round(ratings[below][0], 6)
             else probability_greater(ratings[bot][0] - ratings[below][0],
                                      _spread(bot, below, sigma, evidence), df)
             for bot, below in pairwise(rows)]
    ranks = [1]
    for i in range(1, len(rows)):
        ranks.append(i + 1 if above[i - 1] >= SEPARATION else ranks[-1])
    shared = Counter(ranks)
    place = {bot: i for i, bot in enumerate(rows)}
    beats, within = defaultdict(list), defaultdict(list)
    for h in cross:  # a significant direct edge against the table's order, or within a rank
        if h.significant and h.edge > 0 and place[h.bot] > place[h.opponent]:
            beats[h.bot].append(h.opponent)
        elif (h.significant and h.edge > 0 and place[h.bot] < place[h.opponent]
              and ranks[place[h.bot]] == ranks[place[h.opponent]]):
            within[h.bot].append(h.opponent)
    quantile = _quantile(evidence)
    out = []
    for i, bot in enumerate(rows):
        mu = ratings[bot][0]
        tally = tallies[bot]
        games = tally.games
        label = f"={ranks[i]}" if shared[ranks[i]] > 1 else str(ranks[i])
        mean, ci = tally.score.mean_ci95()
        out.append(BotRow(ranks[i], label, bot, mu, sigma[bot], quantile * sigma[bot],
                          above[i] if i < len(above) else None, games, tally.wins, tally.draws,
                          games - tally.wins - tally.draws,
                          tally.place_sum / games if games else 0.0, mean, ci, tally.faults,
                          beats_above=tuple(beats[bot]),
                          outscores_in_rank=tuple(within[bot])))
    return out


def _sigma(bot: str, ratings: Mapping[str, tuple[float, float]],
           evidence: Evidence | None) -> float:
    """The bot's standard error relative to the pool: clustered by deal where there is such
    evidence, else the posterior's own sigma (a bot with no rated match keeps the prior)."""
    found = evidence.sigma(bot) if evidence is not None else None
    return ratings[bot][1] if found is None else found


def _spread(bot: str, other: str, sigma: Mapping[str, float], evidence: Evidence | None) -> float:
    """The standard error of the difference of two bots' skills."""
    found = evidence.spread(bot, other) if evidence is not None else None
    return math.hypot(sigma[bot], sigma[other]) if found is None else found


def _count(match: Match, tallies: dict[str, _Tally],
           pairs: dict[tuple[str, str], _Pair]) -> None:
    """Add one match to the per-seat tallies and the head-to-head pairs (by game and by deal)."""
    unit_rank: dict[int, int] = {}
    for seat, unit in enumerate(match.units):
        unit_rank[unit] = max(unit_rank.get(unit, 0), match.ranks[seat])
    firsts = sum(1 for r in unit_rank.values() if r == 1)
    # a record without a seed is a deal of its own
    deal = ("task", match.position) if match.deal is None else match.deal
    for seat, bot in enumerate(match.bots):
        tally = tallies[bot]
        tally.games += 1
        if unit_rank[match.units[seat]] == 1:
            tally.wins += firsts == 1
            tally.draws += firsts > 1
        tally.place_sum += match.ranks[seat]
        tally.faults += match.faults[seat]
        tally.score.add(match.scores[seat], deal)
    seats_of: dict[str, list[int]] = defaultdict(list)
    for seat, bot in enumerate(match.bots):
        seats_of[bot].append(seat)
    place = {b: sum(match.ranks[s] for s in ss) / len(ss) for b, ss in seats_of.items()}
    score = {b: math.fsum(match.scores[s] for s in ss) / len(ss) for b, ss in seats_of.items()}
    luck = match.luck
    fortune = ({b: math.fsum(luck[s] for s in ss) / len(ss) for b, ss in seats_of.items()}
               if luck is not None else None)
    units = {b: {match.units[s] for s in ss} for b, ss in seats_of.items()}
    for a in seats_of:
        for b in seats_of:
            if a == b or (len(units[a]) == 1 and units[a] == units[b]):
                continue
            pair = pairs[(a, b)]
            pair.games += 1
            pair.wins += place[a] < place[b]
            pair.draws += place[a] == place[b]
            pair.losses += place[a] > place[b]
            on_deal = pair.deals.setdefault(deal, [0.0, 0, 0.0])
            on_deal[0] += match.sign * (score[a] - score[b])
            on_deal[1] += 1
            if fortune is not None:  # luck in score units: the same sign as the score
                on_deal[2] += match.sign * (fortune[a] - fortune[b])


def _head_to_head(a: str, b: str, pair: _Pair, lucky: bool = False) -> HeadToHead:
    if lucky:  # deals in a fixed order: the values are those of the set of records
        deals = sorted(pair.deals, key=_deal_order)
        edge = cross_fitted(deals, [pair.deals[d][0] / pair.deals[d][1] for d in deals],
                            [pair.deals[d][2] / pair.deals[d][1] for d in deals]).mean()
    else:
        edge = paired_mean(total / count for total, count, _ in pair.deals.values())
    return HeadToHead(a, b, pair.games, edge.n, pair.wins, pair.draws, pair.losses, edge.mean,
                      edge.ci95, edge.p_value, likelihood_of_superiority(pair.wins, pair.losses),
                      edge.significant, edge.df)


def json_row(row: BotRow | HeadToHead) -> dict[str, Any]:
    """A table row as JSON-ready values."""
    return {k: json_number(v) if isinstance(v, float)
            else list(v) if k in ("beats_above", "outscores_in_rank") else v
            for k, v in vars(row).items()}
