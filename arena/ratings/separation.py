"""Bots at the edge: a bot that finished last (or first) in every game it played.

Such a bot's results say only that it is below (above) the others, never by how much: the
likelihood keeps pushing its skill away, and only the prior stops it. Its mu is then where the
prior happens to hold it, and the spread of its games is nil, so the deal-clustered covariance
sees no spread and the model's curvature there is small: the interval claimed a precision the
games do not hold (in Memorandum, `goldfish` last in all 360 games got sigma 0.13-0.16 where a
run in which it once avoided last place gave 0.5-0.9; re-dealt runs' z spread 4).

The games resolve such a bot's skill only to one game: its standard error is taken as at least
how far its rating (relative to the pool) moves when one of its games, the first in a fixed
order, ends otherwise by one place (it swaps places with the bot next to it). That is the
smallest change of its results the games could have shown, a bound from the number of games
(with more games, one game weighs less), and what its rating would be in a re-dealt run where
the one game in n went the other way. The table says which bots are so bounded and why.
See docs/ratings.md, "Bots at the edge".
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from arena.ratings.evidence import Evidence, faded_floor
from arena.ratings.jackknife import NearEdge, alone_at_an_end, jackknife_bounds, near_edges
from arena.ratings.pools import Match
from arena.ratings.posterior import Posterior, posterior
from arena.ratings.settings import TrueSkillSettings


class Edge(enum.Enum):
    """Where a bot finished in every game it played with others."""

    LAST = "last"
    FIRST = "first"


def edge_bots(matches: Sequence[Match]) -> dict[str, Edge]:
    """The bots that finished alone in last (or first) place in every match with other bots
    they played (their clones may share that place); a bot with no such match is none."""
    last: dict[str, bool] = {}
    first: dict[str, bool] = {}
    for match in matches:
        for bot, (alone_last, alone_first) in alone_at_an_end(match).items():
            last[bot] = last.get(bot, True) and alone_last
            first[bot] = first.get(bot, True) and alone_first
    out = {bot: Edge.LAST for bot, all_last in last.items() if all_last}
    out.update({bot: Edge.FIRST for bot, all_first in first.items() if all_first})
    return out


def one_game_otherwise(matches: Sequence[Match], bot: str, edge: Edge) -> list[Match]:
    """The matches with one of `bot`'s games (the first in a fixed order: a pure function of
    the set) ending otherwise by one place: its seat swaps places with the next other seat."""
    chosen = min((i for i, m in enumerate(matches) if bot in m.bots and len(set(m.bots)) > 1),
                 key=lambda i: _order(matches[i]))
    match = matches[chosen]
    ranks = list(match.ranks)
    seat = next(s for s, b in enumerate(match.bots) if b == bot)
    others = [s for s, b in enumerate(match.bots) if b != bot]
    if edge is Edge.LAST:
        near = max(others, key=lambda s: (ranks[s], -s))
    else:
        near = min(others, key=lambda s: (ranks[s], s))
    ranks[seat], ranks[near] = ranks[near], ranks[seat]
    out = list(matches)
    out[chosen] = replace(match, ranks=tuple(ranks))
    return out


def _order(match: Match) -> tuple[str, str, tuple[str, ...], tuple[int, ...]]:
    return (type(match.deal).__name__, repr(match.deal), match.bots, match.ranks)


def relative(ratings: Mapping[str, tuple[float, float]], bot: str) -> float:
    """A bot's mu less the pool's mean mu."""
    return ratings[bot][0] - float(np.mean([mu for mu, _ in ratings.values()]))


def widened(evidence: Evidence, bounds: Mapping[str, float]) -> Evidence:
    """The evidence with each bounded bot's standard error relative to the pool (as the
    verdicts use it, `Evidence.sigma`) raised to at least its bound: a variance added along the
    bot's own direction, relative to the pool (the bot less the pool's mean), in both the
    deal-clustered and the model's covariance."""
    covariance, model = evidence.covariance.copy(), evidence.model.copy()
    k = len(evidence.bots)
    for bot, bound in sorted(bounds.items()):
        if bot not in evidence.bots:
            continue
        i = evidence.bots.index(bot)
        direction = np.full(k, -1.0 / k)
        direction[i] += 1.0
        # the variance the verdicts use (floored, the floor fading), which grows by what is
        # added to both matrices alike
        here, floor = float(covariance[i, i]), float(model[i, i])
        now = max(here, faded_floor(here, floor, evidence.deals), 0.0)
        extra = (bound * bound - now) / (direction[i] ** 2)
        if extra > 0:
            added = extra * np.outer(direction, direction)
            covariance, model = covariance + added, model + added
    return Evidence(evidence.bots, covariance, model, evidence.deals)


def at_the_edge(matches: Sequence[Match], found: Posterior, settings: TrueSkillSettings
                ) -> tuple[Evidence | None, dict[str, Edge], dict[str, NearEdge]]:
    """The posterior's evidence with every bot at the edge bounded from one game, and every bot
    near it by the jackknife over the deals that hold its games off the edge
    (`arena.ratings.jackknife`), both by `widened`; the bots at the edge with their edge, and
    those near it."""
    edges = edge_bots(matches)
    near = near_edges(matches)
    if found.evidence is None:
        return found.evidence, edges, near
    bounds = jackknife_bounds(matches, found.ratings, found.evidence.deals, settings,
                              {bot: n.off for bot, n in near.items()})
    for bot, edge in sorted(edges.items()):
        other = posterior(one_game_otherwise(matches, bot, edge), settings, evidence=False)
        if bot in other.ratings and bot in found.ratings:
            bounds[bot] = abs(relative(other.ratings, bot) - relative(found.ratings, bot))
    return widened(found.evidence, bounds), edges, near
