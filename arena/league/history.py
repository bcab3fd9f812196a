"""A league's history: each bot's rating round by round, every round of a pool on one scale.

A round's ratings are relative to its pool's mean, so when strong bots join, every bot already
there drops though none of them changed. The history therefore chains the rounds as `arena league
compare` measures them: between two rounds, the pool's scale moves by the mean change of its
reference (the bots whose code did not change, or the anchors of league.toml), and each round is
shifted onto the scale of the last round shown, so that the last column is the standings as
printed and a bot that did not change moves only as far as the evidence moves it. A move that
`compare` judges significant at 95% is marked. The interval is the standings' own (`mu_ci95`).
See docs/league.md, "What students see".
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from arena.league.folder import League, LeagueError
from arena.league.rounds import compare_documents, read_round, round_ratings, rounds
from arena.ratings.comparison import Presence, ReferenceKind
from arena.ratings.output import ReportFormat, grid, json_number
from arena.text import escape

Key = tuple[str, str]
"""A pool as the standings name it: (game, variant label)."""


@dataclass(frozen=True)
class Cell:
    """One bot in one round: its mu on the history's scale, the standings' 95% interval, its
    rank as shown, whether it moved significantly since the round before (None: not in it)."""

    mu: float
    ci95: float
    rank_label: str
    moved: bool | None
    raw_mu: float
    """mu as the round's standings show it (relative to that round's pool)."""


@dataclass(frozen=True)
class PoolHistory:
    """A pool's history: its bots (the last round's table first, then those who left, by their
    last mu), each bot's cells by round, and per round after the first what fixed its scale."""

    game: str
    variant: str
    bots: tuple[str, ...]
    cells: Mapping[str, Mapping[int, Cell]]
    scale: Mapping[int, str]
    left: tuple[str, ...] = ()


@dataclass(frozen=True)
class History:
    """Every pool's history up to round `last`, and each round's number and date."""

    rounds: tuple[tuple[int, str], ...]
    pools: tuple[PoolHistory, ...]

    @property
    def last(self) -> int:
        """The round whose scale the history is drawn on."""
        return self.rounds[-1][0]

    def pool(self, game: str, variant: str) -> PoolHistory | None:
        """The history of (game, variant label), if any round had it."""
        return next((p for p in self.pools if (p.game, p.variant) == (game, variant)), None)


def league_history(league: League, last: int | None = None) -> History:
    """The league's history up to round `last` (the latest with None), every round of a pool
    on the scale of the last round it played (LeagueError if there is no round)."""
    numbers = [n for n in rounds(league) if last is None or n <= last]
    if not numbers:
        raise LeagueError(f"{league.path}: no rounds yet (run 'arena league update')")
    documents = [read_round(league, n) for n in numbers]
    anchors = anchors_of(league)
    raw: dict[Key, dict[str, dict[int, Any]]] = {}
    for document in documents:
        for pool in round_ratings(document).pools:
            for row in pool.bots:
                raw.setdefault((pool.game, pool.variant), {}).setdefault(row.bot, {})[
                    int(document["round"])] = row
    # per pool and round, the scale's shift from the round before and whether each bot moved
    offset: dict[Key, dict[int, float]] = {}
    moved: dict[Key, dict[int, dict[str, bool | None]]] = {}
    scale: dict[Key, dict[int, str]] = {}
    for before, after in pairwise(documents):
        comparison = compare_documents(before, after, anchors)
        n = int(after["round"])
        for change in comparison.pools:
            key = (change.game, change.variant)
            if change.status is not Presence.BOTH:
                continue
            ref = change.reference
            shift = ref.shift if ref.kind is not ReferenceKind.POOL else 0.0
            offset.setdefault(key, {})[n] = shift
            moved.setdefault(key, {})[n] = {b.bot: b.significant for b in change.bots
                                             if b.status is Presence.BOTH}
            scale.setdefault(key, {})[n] = _scale_text(change.same_games, ref.kind, ref.bots)
    pools = []
    for key, bots in sorted(raw.items()):
        numbers_here = sorted({n for by in bots.values() for n in by})
        # the scale of each round relative to the last: the shifts after it, added up
        total, on_last = 0.0, {}
        for n in reversed(numbers_here):
            on_last[n] = total
            total += offset.get(key, {}).get(n, 0.0)
        cells = {bot: {n: Cell(row.mu + on_last[n], row.mu_ci95, row.rank_label,
                               moved.get(key, {}).get(n, {}).get(bot), row.mu)
                       for n, row in by.items()} for bot, by in bots.items()}
        final = numbers_here[-1]
        playing = [bot for bot in sorted(bots, key=lambda b: -bots[b][final].mu if final in
                                         bots[b] else 0.0) if final in bots[bot]]
        left = sorted(set(bots) - set(playing),
                      key=lambda b: (-max(bots[b]), -cells[b][max(bots[b])].mu, b))
        pools.append(PoolHistory(key[0], key[1], (*playing, *left), cells,
                                 scale.get(key, {}), tuple(left)))
    return History(tuple((int(d["round"]), str(d["date"])) for d in documents), tuple(pools))


def anchors_of(league: League) -> tuple[str, ...]:
    """The anchors league.toml names (`anchors = [...]`): the bots every round's scale is
    fixed by where they play unchanged."""
    return league.config.anchors


def _scale_text(same: bool, kind: ReferenceKind, bots: Sequence[str]) -> str:
    if same:
        return "the same games as the round before"
    if kind is ReferenceKind.POOL:
        return "no bot in common with unchanged code: the pool's mean"
    what = "anchors" if kind is ReferenceKind.ANCHORS else "unchanged"
    return f"{what}: {', '.join(bots)}"


def format_history(found: History, fmt: str = "table") -> str:
    """The history as text tables, Markdown or JSON."""
    fmt_ = ReportFormat.parse(fmt)
    numbers = [n for n, _ in found.rounds]
    if fmt_ is ReportFormat.JSON:
        return json.dumps({
            "rounds": [{"round": n, "date": d} for n, d in found.rounds],
            "scale_round": found.last,
            "pools": [{"game": p.game, "variant": p.variant,
                       "scale": {str(n): text for n, text in sorted(p.scale.items())},
                       "bots": {bot: {str(n): {"mu": json_number(c.mu),
                                               "mu_ci95": json_number(c.ci95),
                                               "raw_mu": json_number(c.raw_mu),
                                               "rank": c.rank_label, "moved": c.moved}
                                      for n, c in sorted(p.cells[bot].items())}
                                for bot in p.bots}}
                      for p in found.pools]}, indent=2, sort_keys=True, ensure_ascii=False)
    parts = []
    for pool in found.pools:
        rows = [[escape(bot) + (" (left)" if bot in pool.left else ""),
                 *(_cell(pool.cells[bot].get(n)) for n in numbers)] for bot in pool.bots]
        title = (f"{pool.game} {pool.variant}: mu ± 95% interval by round, on round "
                 f"{numbers[-1]}'s scale (rank in brackets; * moved since the round before)")
        lines = [f"round {n}'s scale from round {n - 1}'s: {escape(text)}"
                 for n, text in sorted(pool.scale.items())]
        parts.append(("## " if fmt_ is ReportFormat.MARKDOWN else "") + title + "\n" +
                     grid(["bot", *(f"round {n}" for n in numbers)], rows, fmt_)
                     + ("\n\n" + "\n".join(lines) if lines else ""))
    dates = ", ".join(f"round {n}: {d}" for n, d in found.rounds)
    return "\n\n".join(parts) + "\n\n" + LEGEND + f"\n{dates}"


LEGEND = ("Each round is put on the last round's scale: shifted by the mean move of the bots "
          "whose code did not change (or the league's anchors), so a bot that did not change "
          "moves only as far as its games say; * marks a move significant at 95% (as "
          "'arena league compare' finds it). The interval is the standings' own.")


def _cell(cell: Cell | None) -> str:
    if cell is None:
        return "-"
    mark = " *" if cell.moved else ""
    return f"{cell.mu:.2f} ± {cell.ci95:.2f} ({cell.rank_label}){mark}"


def by_round(found: History, game: str, variant: str
             ) -> dict[str, dict[int, tuple[float, float, bool]]]:
    """Each bot's (mu on the history's scale, 95% half-width, moved) by round, in one pool."""
    pool = found.pool(game, variant)
    if pool is None:
        return {}
    return {bot: {n: (c.mu, c.ci95, bool(c.moved)) for n, c in pool.cells[bot].items()}
            for bot in pool.bots}
