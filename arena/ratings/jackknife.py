"""Bots near the edge: a delete-one-deal jackknife where a few deals hold what tells a bot apart.

A bot last (or first) in almost every game is rated from its few games off that edge. When those
games lie in a few deals, the deal-clustered (sandwich) covariance measures its spread from those
few clusters' linearized influence, and understates it: in Memorandum really played,
goldfish-small, off last in 0 to 11 of its 540 games, moved by up to 2.9 when one deal holding
them was left out, against a sigma of 0.47-0.67 (A/A z spread 1.54-1.69). This is the
few-treated-clusters failure of cluster-robust inference (MacKinnon and Webb 2017); the cure the
literature gives is the jackknife, CV3 (MacKinnon, Nielsen and Webb 2023):

    V_b = (G - 1) / G · Σ_d (θ_b(-d) - θ_b)²

θ_b the bot's rating relative to the pool, θ_b(-d) the same with deal d's games left out and
the posterior refitted, G the pool's deals. Refitting is costly (one posterior per deal), so the
sum runs over the deals that hold a near-edge bot's games off its edge (at most `MAX_REFITS` per
pool): a partial sum, a lower bound of the full jackknife, and only ever used to widen an
interval (`separation.widened`), never to narrow one. See docs/ratings.md, "Bots near the edge".
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from arena.ratings.evidence import DealLabel, deal_label
from arena.ratings.pools import Match
from arena.ratings.posterior import posterior
from arena.ratings.settings import TrueSkillSettings

MAX_REFITS = 8
"""The most deals left out and refitted per pool (the cost: one posterior each)."""

FEW = 3
"""A bot is near its edge when its games off that edge lie in at most 1/FEW of its deals."""


def alone_at_an_end(match: Match) -> dict[str, tuple[bool, bool]]:
    """Per bot of a match with other bots: whether it was alone in last place, and whether
    alone in first (its clones may share its place); {} for a match of one bot."""
    bots, ranks = match.bots, match.ranks
    if len(set(bots)) == len(bots):  # one seat each: alone at an end is a rank no other holds
        if len(bots) < 2:
            return {}
        high, low = max(ranks), min(ranks)
        one_high, one_low = ranks.count(high) == 1, ranks.count(low) == 1
        return {b: (r == high and one_high, r == low and one_low)
                for b, r in zip(bots, ranks, strict=True)}
    if len(set(bots)) < 2:
        return {}
    out = {}
    for bot in set(bots):
        own = [r for b, r in zip(bots, ranks, strict=True) if b == bot]
        others = [r for b, r in zip(bots, ranks, strict=True) if b != bot]
        out[bot] = (min(own) > max(others), max(own) < min(others))
    return out


@dataclass(frozen=True)
class NearEdge:
    """A bot near its edge: the edge ('last' or 'first'), the deals (sorted) that hold its
    games off it, and how many deals it played."""

    edge: str
    off: tuple[DealLabel, ...]
    deals: int


def near_edges(matches: Sequence[Match]) -> dict[str, NearEdge]:
    """The bots near an edge: alone last (or first) in every game of all but at most a third of
    their deals, and not in every game of all (those are bounded by
    `separation.one_game_otherwise`). Matches without a deal are left out (each is a deal of
    its own, and not a deal to refit)."""
    deals: dict[str, set[DealLabel]] = {}
    off: dict[tuple[str, bool], set[DealLabel]] = {}
    for match in matches:
        label = deal_label(match.deal)
        if label is None:
            continue
        for bot, (last, first) in alone_at_an_end(match).items():
            deals.setdefault(bot, set()).add(label)
            if not last:
                off.setdefault((bot, True), set()).add(label)
            if not first:
                off.setdefault((bot, False), set()).add(label)
    out = {}
    for bot, held in sorted(deals.items()):
        for last in (True, False):
            found = off.get((bot, last), set())
            if found and FEW * len(found) <= len(held):
                out[bot] = NearEdge("last" if last else "first", tuple(sorted(found)), len(held))
    return out


def off_edge_deals(matches: Sequence[Match]) -> dict[str, tuple[DealLabel, ...]]:
    """Per bot near an edge (`near_edges`), the deals (sorted) that hold its games off it."""
    return {bot: near.off for bot, near in near_edges(matches).items()}


def chosen_deals(near: Mapping[str, Sequence[DealLabel]]) -> list[DealLabel]:
    """The deals to refit, at most MAX_REFITS: the near-edge bots' off-edge deals, the bots with
    the fewest such deals first (there the sandwich is the least reliable), then by name and
    deal; a pure function of its input."""
    out: list[DealLabel] = []
    for bot in sorted(near, key=lambda b: (len(near[b]), b)):
        for label in near[bot]:
            if len(out) >= MAX_REFITS:
                return out
            if label not in out:
                out.append(label)
    return out


def _relative(ratings: Mapping[str, tuple[float, float]], bots: Sequence[str]) -> dict[str, float]:
    mean = float(np.mean([ratings[b][0] for b in bots]))
    return {b: ratings[b][0] - mean for b in bots}


def jackknife_bounds(matches: Sequence[Match], ratings: Mapping[str, tuple[float, float]],
                     deals: int, settings: TrueSkillSettings,
                     near: Mapping[str, Sequence[DealLabel]] | None = None) -> dict[str, float]:
    """Per bot near an edge, √((G - 1)/G · Σ_d move_d²) over the chosen deals (`chosen_deals`),
    move_d its rating relative to the pool when deal d is left out and the posterior refitted,
    less its rating in `ratings` (the full posterior's), G = `deals`; `near`: the matches'
    `off_edge_deals` if already found."""
    near = off_edge_deals(matches) if near is None else near
    if not near or deals < 2:
        return {}
    squares = dict.fromkeys(near, 0.0)
    labels = [deal_label(match.deal) for match in matches]
    for label in chosen_deals(near):
        rest = [m for m, own in zip(matches, labels, strict=True) if own != label]
        refit = posterior(rest, settings, evidence=False).ratings
        common = [b for b in sorted(ratings) if b in refit]
        before, after = _relative(ratings, common), _relative(refit, common)
        for bot in near:
            if bot in after:
                squares[bot] += (after[bot] - before[bot]) ** 2
    return {bot: math.sqrt((deals - 1) / deals * total) for bot, total in squares.items()}
