"""Comparing two runs' ratings: who moved, by how much and whether the move is more than chance,
which head-to-head edges changed, who is new and who is gone."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from arena.errors import VariantError
from arena.ratings.output import ReportFormat, dump_csv, dump_json, grid, heading, json_number
from arena.ratings.tables import HeadToHead, PoolRatings, Ratings
from arena.ratings.verdicts import difference, t_quantile


class Presence(enum.Enum):
    """Whether a pool or bot is in both runs, only the later one, or only the earlier one."""

    BOTH = "both"
    NEW = "new"
    GONE = "gone"


@dataclass(frozen=True)
class BotChange:
    """One bot of a pool, before and after: the move of its mu with the 95% interval of that
    move, whether the move is significant at 95%, and its rank (`rank_change` > 0: it moved
    up the table)."""

    bot: str
    status: Presence
    mu_before: float | None
    mu_after: float | None
    delta: float | None
    delta_ci95: float | None
    significant: bool | None
    rank_before: int | None
    rank_after: int | None
    rank_change: int | None


@dataclass(frozen=True)
class EdgeChange:
    """A head-to-head edge that changed significantly between the runs (both runs have it)."""

    bot: str
    opponent: str
    edge_before: float
    edge_after: float
    delta: float
    delta_ci95: float


@dataclass(frozen=True)
class PoolChange:
    """One (game, variant) pool: its presence, its bots in the later run's order, and the edges
    that changed significantly."""

    game: str
    variant: str
    status: Presence
    bots: tuple[BotChange, ...]
    edges: tuple[EdgeChange, ...] = ()


@dataclass(frozen=True)
class Comparison:
    """Every pool of either run, sorted by game then variant; `deals` says, when it is not
    None, how the two runs' deals differ."""

    pools: tuple[PoolChange, ...]
    deals: str | None = None

    def only(self, variant: str | None) -> Comparison:
        """The pools of one variant label (all when None); VariantError for an unknown label."""
        if variant is None:
            return self
        known = sorted({p.variant for p in self.pools})
        if variant not in known:
            raise VariantError(f"no results for variant {variant!r} "
                               f"(known: {', '.join(known) or 'none'})")
        return Comparison(tuple(p for p in self.pools if p.variant == variant), self.deals)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready document; floats rounded to 6 decimals, absent values null."""
        return {"same_deals": self.deals is None, "deals": self.deals,
                "pools": [{"game": p.game, "variant": p.variant, "status": p.status.value,
                           "bots": [_json(b) for b in p.bots],
                           "edges": [_json(e) for e in p.edges]} for p in self.pools]}


def compare(before: Ratings, after: Ratings, deals: str | None = None) -> Comparison:
    """Pool by pool and bot by bot, how the ratings moved from `before` to `after`; `deals`
    is the note that the runs were played on different deals, if they were."""
    keys = sorted({(p.game, p.variant) for p in (*before.pools, *after.pools)})
    pools = []
    for game, variant in keys:
        old, new = before.pool(game, variant), after.pool(game, variant)
        status = Presence.BOTH if old and new else Presence.NEW if new else Presence.GONE
        pools.append(PoolChange(game, variant, status, _bot_changes(old, new),
                                _edge_changes(old, new)))
    return Comparison(tuple(pools), deals)


def _bot_changes(old: PoolRatings | None, new: PoolRatings | None) -> tuple[BotChange, ...]:
    """The later run's bots in its order, then the bots that are gone, in the earlier order."""
    was = {r.bot: r for r in old.bots} if old else {}
    now = {r.bot: r for r in new.bots} if new else {}
    changes = []
    for row in now.values():
        prior = was.get(row.bot)
        if prior is None:
            changes.append(BotChange(row.bot, Presence.NEW, None, row.mu, None, None, None,
                                     None, row.rank, None))
        else:
            moved = difference(row.mu, row.sigma, prior.mu, prior.sigma)
            changes.append(BotChange(row.bot, Presence.BOTH, prior.mu, row.mu, moved.delta,
                                     moved.ci95, moved.significant, prior.rank, row.rank,
                                     prior.rank - row.rank))
    changes.extend(BotChange(row.bot, Presence.GONE, row.mu, None, None, None, None, row.rank,
                             None, None)
                   for row in was.values() if row.bot not in now)
    return tuple(changes)


def _edge_changes(old: PoolRatings | None, new: PoolRatings | None) -> tuple[EdgeChange, ...]:
    """The pairs whose edge moved significantly, each once (the later table's higher bot
    first), in the later table's order."""
    if old is None or new is None:
        return ()
    was = {(h.bot, h.opponent): h for h in old.crosstable}
    order = {row.bot: i for i, row in enumerate(new.bots)}
    out = []
    for now in new.crosstable:
        prior = was.get((now.bot, now.opponent))
        if prior is None or order[now.bot] > order[now.opponent]:
            continue
        after_se, before_se = _edge_se(now), _edge_se(prior)
        if after_se is None or before_se is None:
            continue
        moved = difference(now.edge, after_se, prior.edge, before_se)
        if moved.significant:
            out.append(EdgeChange(now.bot, now.opponent, prior.edge, now.edge, moved.delta,
                                  moved.ci95))
    return tuple(out)


def _edge_se(pair: HeadToHead) -> float | None:
    """The standard error of a pair's edge, from its 95% interval (None below two deals)."""
    return pair.edge_ci95 / t_quantile(pair.deals - 1) if pair.deals >= 2 else None


def _json(change: BotChange | EdgeChange) -> dict[str, Any]:
    return {key: value.value if isinstance(value, Presence)
            else json_number(value) if isinstance(value, float) else value
            for key, value in vars(change).items()}


HEADERS = ("bot", "status", "mu before", "mu after", "delta (95%)", "rank before",
           "rank after", "rank change")
EDGE_HEADERS = ("bot", "opponent", "edge before", "edge after", "change (95%)")
_CSV = ("game", "variant", "pool_status", "bot", "status", "mu_before", "mu_after", "delta",
        "delta_ci95", "significant", "rank_before", "rank_after", "rank_change")


def format_comparison(comparison: Comparison, fmt: ReportFormat | str = ReportFormat.TABLE,
                      variant: str | None = None) -> str:
    """The comparison as text tables per pool, Markdown, one CSV (the bots), or JSON."""
    fmt = ReportFormat.parse(fmt)
    comparison = comparison.only(variant)
    if fmt is ReportFormat.JSON:
        return dump_json(comparison.to_json())
    if fmt is ReportFormat.CSV:
        return dump_csv(_CSV, ([p.game, p.variant, p.status.value, b.bot, b.status.value,
                                b.mu_before, b.mu_after, b.delta, b.delta_ci95, b.significant,
                                b.rank_before, b.rank_after, b.rank_change]
                               for p in comparison.pools for b in p.bots))
    blocks = [] if comparison.deals is None else [f"note: {comparison.deals}"]
    for pool in comparison.pools:
        note = {Presence.BOTH: "", Presence.NEW: " (new pool)", Presence.GONE: " (gone)"}
        rows = [[b.bot, b.status.value, _num(b.mu_before), _num(b.mu_after), _move(b),
                 _int(b.rank_before), _int(b.rank_after), _int(b.rank_change, signed=True)]
                for b in pool.bots]
        text = (heading(f"{pool.game} / {pool.variant}{note[pool.status]}", fmt) + "\n\n"
                + grid(HEADERS, rows, fmt))
        if pool.status is Presence.BOTH:
            text += "\n\n" + _edges_text(pool, fmt)
        blocks.append(text)
    if blocks and comparison.pools:
        blocks.append("* the move is significant at 95% (its interval leaves out 0)")
    return "\n\n".join(blocks)


def _move(change: BotChange) -> str:
    if change.delta is None or change.delta_ci95 is None:
        return "-"
    return f"{change.delta:+.2f} ± {change.delta_ci95:.2f}" + (" *" if change.significant
                                                                else "")


def _edges_text(pool: PoolChange, fmt: ReportFormat) -> str:
    title = "head to head: edges that changed significantly"
    if not pool.edges:
        return f"{title}: none"
    rows = [[e.bot, e.opponent, f"{e.edge_before:+.2f}", f"{e.edge_after:+.2f}",
             f"{e.delta:+.2f} ± {e.delta_ci95:.2f}"] for e in pool.edges]
    return title + "\n\n" + grid(EDGE_HEADERS, rows, fmt)


def _num(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.2f}" if signed else f"{value:.2f}"


def _int(value: int | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+d}" if signed and value else str(value)
