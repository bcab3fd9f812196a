"""The online TrueSkill update: one match at a time, from the ratings before it (the one-pass fold
the ratings table's posterior replaced, kept for comparison)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping

import trueskill

from arena.ratings.pools import Match
from arena.ratings.settings import TrueSkillSettings


class Rater:
    """TrueSkill for one game's settings: its float environment, and its mpmath twin made on
    first need (for matches the floats cannot rate)."""

    def __init__(self, settings: TrueSkillSettings) -> None:
        self.settings = settings
        self.fast = settings.env()
        self.exact: trueskill.TrueSkill | None = None

    def rate(self, match: Match,
             ratings: Mapping[str, tuple[float, float]]) -> dict[str, tuple[float, float]] | None:
        """New ratings of the match's bots (clones: mean mu and sigma), or None if unratable."""
        unit_ids = sorted(set(match.units))
        groups = [tuple(trueskill.Rating(*ratings[match.bots[s]])
                        for s in range(len(match.bots)) if match.units[s] == u)
                  for u in unit_ids]
        ranks = [max(match.ranks[s] for s in range(len(match.bots)) if match.units[s] == u) - 1
                 for u in unit_ids]
        try:
            rated = self.fast.rate(groups, ranks=ranks)
        except ArithmeticError:
            if self.exact is None:
                self.exact = self.settings.env("mpmath")
            try:
                rated = self.exact.rate(groups, ranks=ranks)
            except ArithmeticError:
                return None
        seat_ratings: dict[int, trueskill.Rating] = {}
        for u, group in zip(unit_ids, rated, strict=True):
            members = [s for s in range(len(match.bots)) if match.units[s] == u]
            seat_ratings.update(zip(members, group, strict=True))
        per_bot: dict[str, list[trueskill.Rating]] = defaultdict(list)
        for seat, rating in sorted(seat_ratings.items()):
            per_bot[match.bots[seat]].append(rating)
        return {bot: (math.fsum(float(r.mu) for r in rs) / len(rs),
                      math.fsum(float(r.sigma) for r in rs) / len(rs))
                for bot, rs in per_bot.items()}


def fold(matches: Iterable[Match], settings: TrueSkillSettings,
         on_step: Callable[[int, Mapping[str, tuple[float, float]]], None] | None = None,
         ) -> dict[str, tuple[float, float]]:
    """Every bot's rating after one TrueSkill update per match, in the matches' order (a match
    of one bot changes nothing; an unratable one is passed over); `on_step` hears the position
    and the ratings after each rated match."""
    rater = Rater(settings)
    ratings: dict[str, tuple[float, float]] = {}
    for match in matches:
        for bot in match.bots:
            ratings.setdefault(bot, (settings.mu, settings.sigma))
        if len(set(match.bots)) < 2:
            continue
        updated = rater.rate(match, ratings)
        if updated is not None:
            ratings.update(updated)
            if on_step is not None:
                on_step(match.position, ratings)
    return ratings
