"""Reports: the output formats shared by ratings and comparisons, and the ratings report."""

from __future__ import annotations

import csv
import enum
import io
import json
from collections.abc import Iterable, Sequence
from typing import Any

from arena.errors import ArenaError
from arena.ratings.tables import BotRow, PoolRatings, Ratings, json_number, json_row


class ReportFormat(enum.Enum):
    """How a report is printed."""

    TABLE = "table"
    MARKDOWN = "markdown"
    CSV = "csv"
    JSON = "json"

    @classmethod
    def parse(cls, value: ReportFormat | str) -> ReportFormat:
        """The format named `value`; ArenaError listing the known ones otherwise."""
        if isinstance(value, ReportFormat):
            return value
        try:
            return cls(value.lower())
        except ValueError:
            known = ", ".join(f.value for f in cls)
            raise ArenaError(f"unknown format {value!r} (known: {known})") from None


def dump_json(document: Any) -> str:
    """Stable JSON text: sorted keys, two-space indent, no final newline."""
    return json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False)


def dump_csv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """CSV text with a header line and no final newline; floats rounded as in JSON."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([json_number(v) if isinstance(v, float) else v for v in row])
    return buffer.getvalue().removesuffix("\n")


def grid(headers: Sequence[str], rows: Sequence[Sequence[str]], fmt: ReportFormat) -> str:
    """A text table (tabulate 'simple' or 'github'); the first two columns left-aligned."""
    from tabulate import tabulate

    style = "github" if fmt is ReportFormat.MARKDOWN else "simple"
    align = ["left" if h in ("bot", "opponent", "status") else "right" for h in headers]
    return tabulate(rows, headers=list(headers), tablefmt=style, disable_numparse=True,
                    colalign=align)


def heading(text: str, fmt: ReportFormat) -> str:
    """A section heading line: plain for tables, '## ' for Markdown."""
    return f"## {text}" if fmt is ReportFormat.MARKDOWN else text


def _pm(mean: float, ci: float) -> str:
    return f"{mean:.2f} ± {ci:.2f}"


RATING_HEADERS = ("rank", "bot", "mu", "sigma", "conservative", "games", "W", "D", "L",
                  "mean place", "mean score (95%)", "faults")
CROSS_HEADERS = ("bot", "opponent", "games", "W", "D", "L", "edge (95%)")
_RATING_CSV = ("game", "variant", "rank", "bot", "mu", "sigma", "conservative", "games", "wins",
               "draws", "losses", "mean_place", "mean_score", "score_ci95", "faults",
               "fault_kinds", "flagged")
FAULT_SHARE = 0.25
"""A bot that faults in more than this share of its games is flagged in the ratings table."""
_CROSS_CSV = ("game", "variant", "bot", "opponent", "games", "wins", "draws", "losses", "edge",
              "edge_ci95")


def format_ratings(ratings: Ratings, fmt: ReportFormat | str = ReportFormat.TABLE,
                   variant: str | None = None, fault_share: float = FAULT_SHARE) -> str:
    """The ratings report; tables and JSON include the crosstable, CSV is the ratings rows only.

    Faults are counted by kind (a column per kind met in the pool); a bot faulting in more than
    `fault_share` of its games is flagged ('!' after its name; `flagged` in CSV and JSON).
    """
    fmt = ReportFormat.parse(fmt)
    ratings = ratings.only(variant)
    if fmt is ReportFormat.JSON:
        document = ratings.to_json()
        for pool in document["pools"]:
            for row in pool["bots"]:
                row["fault_kinds"] = dict(row["fault_kinds"])
                row["flagged"] = row["games"] > 0 and row["faults"] / row["games"] > fault_share
        return dump_json(document)
    if fmt is ReportFormat.CSV:
        return dump_csv(_RATING_CSV, (
            [p.game, p.variant, *[v for k, v in vars(r).items() if k != "fault_kinds"],
             ";".join(f"{k}={n}" for k, n in r.fault_kinds), r.fault_share() > fault_share]
            for p in ratings.pools for r in p.bots))
    blocks = []
    for pool in ratings.pools:
        kinds = sorted({kind for r in pool.bots for kind, _ in r.fault_kinds})
        rows = [_rating_cells(r, kinds, fault_share) for r in pool.bots]
        lines = [heading(f"{pool.game} / {pool.variant}", fmt), "",
                 grid((*RATING_HEADERS, *kinds), rows, fmt)]
        if any(r.fault_share() > fault_share for r in pool.bots):
            lines += ["", f"! faulted in more than {fault_share:.0%} of its games"]
        if pool.skipped:
            lines += ["", f"{pool.skipped} of {pool.matches} matches left unrated "
                          "(numerical failure in TrueSkill)"]
        lines += ["", _cross_text(pool, fmt)]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def format_crosstable(ratings: Ratings, fmt: ReportFormat | str = ReportFormat.CSV,
                      variant: str | None = None) -> str:
    """The crosstables alone: one CSV with game and variant first, JSON, or text tables."""
    fmt = ReportFormat.parse(fmt)
    ratings = ratings.only(variant)
    if fmt is ReportFormat.JSON:
        return dump_json({"pools": [{"game": p.game, "variant": p.variant,
                                     "crosstable": [json_row(h) for h in p.crosstable]}
                                    for p in ratings.pools]})
    if fmt is ReportFormat.CSV:
        return dump_csv(_CROSS_CSV, ([p.game, p.variant, *vars(h).values()]
                                     for p in ratings.pools for h in p.crosstable))
    blocks = [heading(f"{p.game} / {p.variant}", fmt) + "\n\n" + _cross_text(p, fmt)
              for p in ratings.pools]
    return "\n\n".join(blocks)


def _rating_cells(r: BotRow, kinds: list[str], fault_share: float) -> list[str]:
    counts = dict(r.fault_kinds)
    name = r.bot + (" !" if r.fault_share() > fault_share else "")
    return [str(r.rank), name, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.conservative:.2f}",
            str(r.games), str(r.wins), str(r.draws), str(r.losses), f"{r.mean_place:.2f}",
            _pm(r.mean_score, r.score_ci95), str(r.faults),
            *[str(counts.get(kind, 0)) for kind in kinds]]


def _cross_text(pool: PoolRatings, fmt: ReportFormat) -> str:
    title = "head to head (edge: mean score advantage per game, positive = bot did better)"
    if not pool.crosstable:
        return f"{title}: no two bots met"
    rows = [[h.bot, h.opponent, str(h.games), str(h.wins), str(h.draws), str(h.losses),
             f"{h.edge:+.2f} ± {h.edge_ci95:.2f}"] for h in pool.crosstable]
    return title + "\n\n" + grid(CROSS_HEADERS, rows, fmt)
