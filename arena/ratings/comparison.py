"""Comparing two runs' ratings: who moved, by how much, who is new and who is gone."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from arena.errors import VariantError
from arena.ratings.formats import ReportFormat, dump_csv, dump_json, grid, heading, json_number
from arena.ratings.tables import PoolRatings, Ratings


class Presence(enum.Enum):
    """Whether a pool or bot is in both runs, only the later one, or only the earlier one."""

    BOTH = "both"
    NEW = "new"
    GONE = "gone"


@dataclass(frozen=True)
class BotChange:
    """One bot of a pool, before and after; `rank_change` > 0 means it moved up the table."""

    bot: str
    status: Presence
    mu_before: float | None
    mu_after: float | None
    delta: float | None
    rank_before: int | None
    rank_after: int | None
    rank_change: int | None


@dataclass(frozen=True)
class PoolChange:
    """One (game, variant) pool: its presence and its bots, in the later run's order."""

    game: str
    variant: str
    status: Presence
    bots: tuple[BotChange, ...]


@dataclass(frozen=True)
class Comparison:
    """Every pool of either run, sorted by game then variant."""

    pools: tuple[PoolChange, ...]

    def only(self, variant: str | None) -> Comparison:
        """The pools of one variant label (all when None); VariantError for an unknown label."""
        if variant is None:
            return self
        known = sorted({p.variant for p in self.pools})
        if variant not in known:
            raise VariantError(f"no results for variant {variant!r} "
                               f"(known: {', '.join(known) or 'none'})")
        return Comparison(tuple(p for p in self.pools if p.variant == variant))

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready document; floats rounded to 6 decimals, absent values null."""
        return {"pools": [{"game": p.game, "variant": p.variant, "status": p.status.value,
                           "bots": [_json_bot(b) for b in p.bots]} for p in self.pools]}


def compare(before: Ratings, after: Ratings) -> Comparison:
    """Pool by pool and bot by bot, how the ratings moved from `before` to `after`."""
    keys = sorted({(p.game, p.variant) for p in (*before.pools, *after.pools)})
    pools = []
    for game, variant in keys:
        old, new = before.pool(game, variant), after.pool(game, variant)
        status = Presence.BOTH if old and new else Presence.NEW if new else Presence.GONE
        pools.append(PoolChange(game, variant, status, _bot_changes(old, new)))
    return Comparison(tuple(pools))


def _bot_changes(old: PoolRatings | None, new: PoolRatings | None) -> tuple[BotChange, ...]:
    """The later run's bots in its order, then the bots that are gone, in the earlier order."""
    was = {r.bot: r for r in old.bots} if old else {}
    now = {r.bot: r for r in new.bots} if new else {}
    changes = []
    for row in now.values():
        prior = was.get(row.bot)
        if prior is None:
            changes.append(BotChange(row.bot, Presence.NEW, None, row.mu, None, None, row.rank,
                                     None))
        else:
            changes.append(BotChange(row.bot, Presence.BOTH, prior.mu, row.mu,
                                     row.mu - prior.mu, prior.rank, row.rank,
                                     prior.rank - row.rank))
    changes.extend(BotChange(row.bot, Presence.GONE, row.mu, None, None, row.rank, None, None)
                   for row in was.values() if row.bot not in now)
    return tuple(changes)


def _json_bot(change: BotChange) -> dict[str, Any]:
    return {key: value.value if isinstance(value, Presence)
            else json_number(value) if isinstance(value, float) else value
            for key, value in vars(change).items()}


HEADERS = ("bot", "status", "mu before", "mu after", "delta", "rank before", "rank after",
           "rank change")
_CSV = ("game", "variant", "pool_status", "bot", "status", "mu_before", "mu_after", "delta",
        "rank_before", "rank_after", "rank_change")


def format_comparison(comparison: Comparison, fmt: ReportFormat | str = ReportFormat.TABLE,
                      variant: str | None = None) -> str:
    """The comparison as text tables per pool, Markdown, one CSV, or JSON."""
    fmt = ReportFormat.parse(fmt)
    comparison = comparison.only(variant)
    if fmt is ReportFormat.JSON:
        return dump_json(comparison.to_json())
    if fmt is ReportFormat.CSV:
        return dump_csv(_CSV, ([p.game, p.variant, p.status.value, b.bot, b.status.value,
                                b.mu_before, b.mu_after, b.delta, b.rank_before, b.rank_after,
                                b.rank_change] for p in comparison.pools for b in p.bots))
    blocks = []
    for pool in comparison.pools:
        note = {Presence.BOTH: "", Presence.NEW: " (new pool)", Presence.GONE: " (gone)"}
        rows = [[b.bot, b.status.value, _num(b.mu_before), _num(b.mu_after),
                 _num(b.delta, signed=True), _int(b.rank_before), _int(b.rank_after),
                 _int(b.rank_change, signed=True)] for b in pool.bots]
        blocks.append(heading(f"{pool.game} / {pool.variant}{note[pool.status]}", fmt)
                      + "\n\n" + grid(HEADERS, rows, fmt))
    return "\n\n".join(blocks)


def _num(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.2f}" if signed else f"{value:.2f}"


def _int(value: int | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+d}" if signed and value else str(value)
