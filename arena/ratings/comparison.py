"""Comparing two runs' ratings: who moved, by how much and whether the move is more than chance,
which head-to-head edges changed, who is new and who is gone.

A pool's mean skill is pinned by the prior, so when one bot gets better every other bot's mu
drops a little. A move is therefore measured against a **reference** both runs share: the bots
present in both with unchanged code (by default), or the anchors the organiser names (as Ordo
does). A bot's move is its change of mu less the reference's mean change (inverse-variance
weighted), and its interval holds the reference's own uncertainty. See docs/ratings.md,
"Comparing two runs".
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.errors import ArenaError, VariantError
from arena.ratings.output import ReportFormat, dump_csv, dump_json, grid, heading, json_number
from arena.ratings.tables import HeadToHead, PoolRatings, Ratings
from arena.ratings.verdicts import Z95, t_quantile, welch_difference


class ComparisonError(ArenaError):
    """A comparison that cannot be made as asked: an anchor missing or changed."""


class Presence(enum.Enum):
    """Whether a pool or bot is in both runs, only the later one, or only the earlier one."""

    BOTH = "both"
    NEW = "new"
    GONE = "gone"


class Code(enum.Enum):
    """What is known of a bot's code in the two runs (bots in both runs only)."""

    SAME = "same"
    CHANGED = "changed"
    UNKNOWN = "unknown"
    """One of the runs does not record it (a run begun before bots.json was kept)."""


class ReferenceKind(enum.Enum):
    """What a pool's moves are measured against."""

    ANCHORS = "anchors"
    UNCHANGED = "unchanged"
    POOL = "pool mean"
    """No bot to measure against: moves are plain changes of mu, against the pool's mean."""


@dataclass(frozen=True)
class Reference:
    """A pool's reference: its bots, and their mean change of mu (inverse-variance weighted)
    with the standard error of that mean; `note` says why a fallback was taken."""

    kind: ReferenceKind
    bots: tuple[str, ...] = ()
    shift: float = 0.0
    shift_se: float = 0.0
    note: str | None = None
    weights: tuple[float, ...] = ()
    """Each reference bot's weight in `shift` (in `bots` order, summing to 1)."""
    left_out: tuple[str, ...] = ()
    """Bots taken as unchanged that were left out of the reference: each moved significantly
    against the others (their code not recorded, or recorded the same)."""
    guessed: bool = False
    """Whether the reference is taken without the bots' code (no bots.json): chosen as the
    bots whose moves agree, since the code cannot say which changed."""
    undecided: bool = False
    """Whether no reference could be chosen without the bots' code (fewer than three bots in
    both runs, whose moves disagree): no move is then judged significant."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {"kind": self.kind.value, "bots": list(self.bots),
                "shift": json_number(self.shift), "shift_se": json_number(self.shift_se),
                "note": self.note, "left_out": list(self.left_out), "guessed": self.guessed,
                "undecided": self.undecided}


@dataclass(frozen=True)
class BotChange:
    """One bot of a pool, before and after: its change of mu (`raw_delta`), its move against
    the pool's reference (`delta`) with the 95% interval of that move, whether the move is
    significant at 95%, its rank (`rank_change` > 0: it moved up the table), and its code."""

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
    raw_delta: float | None = None
    code: Code | None = None
    reference: bool = False
    """Whether the bot is one of the pool's reference."""
    rank_label_before: str | None = None
    """The rank as the earlier table shows it ('=2' where it is shared)."""
    rank_label_after: str | None = None


@dataclass(frozen=True)
class EdgeChange:
    """A head-to-head edge that changed significantly between the runs (both runs have it):
    Welch's t test on the two edges, `df` its degrees of freedom."""

    bot: str
    opponent: str
    edge_before: float
    edge_after: float
    delta: float
    delta_ci95: float
    df: float = math.inf
    p_value: float = 0.0


@dataclass(frozen=True)
class PoolChange:
    """One (game, variant) pool: its presence, its bots in the later run's order, the edges
    that changed significantly, and what its moves are measured against."""

    game: str
    variant: str
    status: Presence
    bots: tuple[BotChange, ...]
    edges: tuple[EdgeChange, ...] = ()
    reference: Reference = Reference(ReferenceKind.POOL)
    same_games: bool = False
    """Whether both runs' tables of this pool are the same (the same games rated alike): no
    bot moved, and there is no chance in it to measure."""
    luck_before: str | None = None
    """The luck model the earlier run's edges are adjusted with (None: raw)."""
    luck_after: str | None = None
    luck_notes: tuple[str, ...] = ()
    """Why a run's edges are raw where its records carry luck (one line each)."""

    def luck_text(self) -> str | None:
        """The line saying which edges are adjusted for luck (None where neither run's records
        carry any)."""
        if self.luck_before is None and self.luck_after is None:
            return "; ".join(dict.fromkeys(self.luck_notes)) or None  # both runs may say it
        if self.luck_before == self.luck_after:
            return (f"edges adjusted for luck ({self.luck_after}) in both runs (see "
                    f"docs/ratings.md, Luck)")
        runs = [f"the {when} run's edges are {'adjusted for luck (' + m + ')' if m else 'raw'}"
                for when, m in (("earlier", self.luck_before), ("later", self.luck_after))]
        return ("; ".join([*runs, *self.luck_notes]) + ": each is an unbiased estimate of the "
                "same edge, so the test holds, but a raw edge's interval is wider")

    def field_text(self) -> str:
        """What changed in the pool's field, and what its moves are measured against."""
        joined = [b.bot for b in self.bots if b.status is Presence.NEW]
        left = [b.bot for b in self.bots if b.status is Presence.GONE]
        changed = [b.bot for b in self.bots if b.code is Code.CHANGED]
        unknown = [b.bot for b in self.bots if b.code is Code.UNKNOWN]
        parts = [f"joined: {', '.join(joined)}" if joined else "",
                 f"left: {', '.join(left)}" if left else "",
                 f"code changed: {', '.join(changed)}" if changed else "",
                 f"code not recorded: {', '.join(unknown)}" if unknown else ""]
        field = "; ".join(p for p in parts if p) or "the same bots, with the same code"
        ref = self.reference
        if ref.undecided:
            against = (f"{ref.note}; no move is judged significant: name the bots that did "
                       f"not change with --anchor NAME")
        elif ref.kind is ReferenceKind.POOL:
            against = ("moves are changes of mu, against the pool's mean (which the prior pins)"
                       + (f": {ref.note}" if ref.note else ""))
        else:
            what = ("the anchors" if ref.kind is ReferenceKind.ANCHORS else
                    "the bots taken as unchanged" if ref.guessed else "the unchanged bots")
            what = (what.removesuffix("s").replace("bots", "bot") if len(ref.bots) == 1
                    else what)
            their = "its change" if len(ref.bots) == 1 else "their mean change"
            against = (f"moves are measured against {what} {', '.join(ref.bots)} ({their} "
                       f"of mu {ref.shift:+.2f} ± {Z95 * ref.shift_se:.2f})"
                       + (f"; {ref.note}" if ref.note else ""))
            if ref.left_out:
                against += (f"; left out of the reference: {', '.join(ref.left_out)} (moved "
                            f"significantly against the others"
                            + (", though its code is recorded the same" if not ref.guessed
                               else "") + ")")
            if ref.guessed:
                against += ("; the bots' code is not recorded, so this is a guess from their "
                            "moves: name the bots that did not change with --anchor NAME")
        same = (". The same games as before, rated alike: no bot moved (0 is exact, not an "
                "estimate)") if self.same_games else ""
        return f"field: {field}. {against[0].upper()}{against[1:]}{same}"


@dataclass(frozen=True)
class Comparison:
    """Every pool of either run, sorted by game then variant; `deals` says, when it is not
    None, how the two runs' deals differ; `notes` what else a reader must know first (code
    that changed, or could not be checked)."""

    pools: tuple[PoolChange, ...]
    deals: str | None = None
    notes: tuple[str, ...] = ()
    anchors: tuple[str, ...] = ()

    def only(self, variant: str | None) -> Comparison:
        """The pools of one variant label (all when None); VariantError for an unknown label."""
        if variant is None:
            return self
        known = sorted({p.variant for p in self.pools})
        if variant not in known:
            raise VariantError(f"no results for variant {variant!r} "
                               f"(known: {', '.join(known) or 'none'})")
        return Comparison(tuple(p for p in self.pools if p.variant == variant), self.deals,
                          self.notes, self.anchors)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready document; floats rounded to 6 decimals, absent values null."""
        return {"same_deals": self.deals is None, "deals": self.deals,
                "notes": list(self.notes), "anchors": list(self.anchors),
                "pools": [{"game": p.game, "variant": p.variant, "status": p.status.value,
                           "reference": p.reference.to_json(), "same_games": p.same_games,
                           "luck_before": p.luck_before, "luck_after": p.luck_after,
                           "luck_notes": list(p.luck_notes),
                           "bots": [_json(b) for b in p.bots],
                           "edges": [_json(e) for e in p.edges]} for p in self.pools]}


NO_CODE = ("the runs do not both record their bots' code (bots.json): the bots whose moves agree "
           "are taken as unchanged (each pool says which); name the bots that did not change "
           "with --anchor NAME")


def compare(before: Ratings, after: Ratings, deals: str | None = None,
            code: Mapping[str, str | None] | None = None,
            anchors: Sequence[str] = ()) -> Comparison:
    """Pool by pool and bot by bot, how the ratings moved from `before` to `after`; `deals`
    is the note that the runs were played on different deals, if they were. `code` maps each
    bot whose code both runs record to None (the same digest in both) or a line saying what
    changed; None when the runs do not record it (every bot in both is then taken as
    unchanged). Moves are measured against `anchors` where given (ComparisonError if one is in
    neither run or its code is not shown unchanged), else against the unchanged bots."""
    anchors = tuple(dict.fromkeys(anchors))
    _check_anchors(before, after, code, anchors)
    keys = sorted({(p.game, p.variant) for p in (*before.pools, *after.pools)})
    pools = []
    for game, variant in keys:
        old, new = before.pool(game, variant), after.pool(game, variant)
        status = Presence.BOTH if old and new else Presence.NEW if new else Presence.GONE
        same = old is not None and new is not None and old == new
        reference = _reference(old, new, code, anchors)
        notes = tuple(p.luck_note for p in (old, new) if p is not None and p.luck_note)
        pools.append(PoolChange(game, variant, status,
                                _bot_changes(old, new, code, reference, same),
                                () if same else _edge_changes(old, new), reference, same,
                                old.luck_model if old else None,
                                new.luck_model if new else None, notes))
    notes = ((NO_CODE,) if code is None else
             tuple(f"code changed: {name}: {what}" for name, what in sorted(code.items())
                   if what is not None))
    return Comparison(tuple(pools), deals, notes, anchors)


def _check_anchors(before: Ratings, after: Ratings, code: Mapping[str, str | None] | None,
                   anchors: Sequence[str]) -> None:
    """ComparisonError for the first anchor that is not in both runs or not shown unchanged."""
    if not anchors:
        return
    both = _bots(before) & _bots(after)
    for name in anchors:
        if name not in both:
            where = ("is in neither run" if name not in _bots(before) | _bots(after)
                     else "plays in only one of the runs")
            raise ComparisonError(f"--anchor {name}: no bot of that name {where}; an anchor "
                                  f"must play in both (bots in both: "
                                  f"{', '.join(sorted(both)) or 'none'})")
        if code is None or name not in code:
            raise ComparisonError(f"--anchor {name}: its code is not recorded in both runs "
                                  f"(bots.json), so it cannot be shown unchanged")
        if code[name] is not None:
            raise ComparisonError(f"--anchor {name}: its code changed between the runs "
                                  f"({code[name]}); an anchor must be unchanged")


def _bots(ratings: Ratings) -> set[str]:
    return {row.bot for pool in ratings.pools for row in pool.bots}


def _code(bot: str, code: Mapping[str, str | None] | None) -> Code:
    if code is None:
        return Code.SAME
    if bot not in code:
        return Code.UNKNOWN
    return Code.SAME if code[bot] is None else Code.CHANGED


def _variance(before: float, after: float) -> float:
    """The variance of a change of mu from the two posteriors' sigmas."""
    return before * before + after * after


def _reference(old: PoolRatings | None, new: PoolRatings | None,
               code: Mapping[str, str | None] | None, anchors: Sequence[str]) -> Reference:
    """The bots a pool's moves are measured against, and their mean change of mu: the anchors
    in the pool, else its bots in both runs with unchanged code whose moves agree (one that
    moved significantly against the others is left out, the largest first), else none (the
    pool mean). Without the bots' code (`code` None) every bot in both runs is a candidate,
    and with fewer than three whose moves disagree none is chosen (`undecided`)."""
    if old is None or new is None:
        return Reference(ReferenceKind.POOL)
    was = {r.bot: r for r in old.bots}
    both = [r.bot for r in new.bots if r.bot in was]
    note = None
    chosen = [a for a in anchors if a in both]
    if anchors and not chosen:
        note = "no anchor plays in this pool in both runs"
    if chosen:
        return _measured(ReferenceKind.ANCHORS, chosen, old, new, note)
    chosen = [b for b in both if _code(b, code) is Code.SAME]
    if not chosen:
        return Reference(ReferenceKind.POOL, note="no bot plays in both runs with unchanged "
                                                  "code" if both else "no bot plays in both runs")
    guessed = code is None
    left_out: list[str] = []
    while True:
        found = _measured(ReferenceKind.UNCHANGED, chosen, old, new, note, tuple(left_out),
                          guessed)
        if len(chosen) < 2:
            return found
        worst, z = max(((b, _z(b, old, new, found)) for b in chosen), key=lambda bz: bz[1])
        if z <= _move_quantile(old, new):
            return found
        if len(chosen) == 2:
            if not guessed:
                return found
            return Reference(ReferenceKind.POOL, note=(
                f"the bots' code is not recorded, and {chosen[0]} and {chosen[1]} moved "
                f"apart: which of them changed cannot be told"), guessed=True, undecided=True)
        chosen.remove(worst)
        left_out.append(worst)


def _measured(kind: ReferenceKind, chosen: Sequence[str], old: PoolRatings, new: PoolRatings,
              note: str | None, left_out: tuple[str, ...] = (),
              guessed: bool = False) -> Reference:
    """A reference of the `chosen` bots: their inverse-variance weighted mean change of mu."""
    was, now = {r.bot: r for r in old.bots}, {r.bot: r for r in new.bots}
    shift, shift_se, weights = _weighted_mean([(now[b].mu - was[b].mu,
                                                _variance(was[b].sigma, now[b].sigma))
                                               for b in chosen])
    return Reference(kind, tuple(chosen), shift, shift_se, note, weights, left_out, guessed)


def _z(bot: str, old: PoolRatings, new: PoolRatings, reference: Reference) -> float:
    """|a reference bot's move against the reference| over its standard error."""
    was, now = {r.bot: r for r in old.bots}, {r.bot: r for r in new.bots}
    move = now[bot].mu - was[bot].mu - reference.shift
    variance = _move_variance(bot, old, new, reference)
    if variance is None:
        own = _variance(was[bot].sigma, now[bot].sigma)
        variance = max(own - reference.shift_se ** 2, 0.0)
    return abs(move) / math.sqrt(variance) if variance > 0 else 0.0


def _weighted_mean(moves: Iterable[tuple[float, float]]
                   ) -> tuple[float, float, tuple[float, ...]]:
    """The inverse-variance weighted mean of (value, variance) pairs, its standard error (as if
    the values were independent) and the weights (the plain mean, its variance the mean variance
    over n, if a variance is 0)."""
    data = list(moves)
    if any(v <= 0 for _, v in data):
        n = len(data)
        return (math.fsum(x for x, _ in data) / n, math.sqrt(math.fsum(v for _, v in data)) / n,
                (1 / n,) * n)
    weight = math.fsum(1 / v for _, v in data)
    return (math.fsum(x / v for x, v in data) / weight, math.sqrt(1 / weight),
            tuple(1 / v / weight for _, v in data))


def _move_variance(bot: str, old: PoolRatings | None, new: PoolRatings | None,
                   reference: Reference) -> float | None:
    """The variance of a bot's move against the reference from each run's deal-clustered
    covariance of its skills (the runs independent): the move is a contrast of skills, the bot's
    less the reference's weighted mean, so the skills' correlations within a run (a pool's
    skills are measured relative to its mean) count as they should. None where a run's
    covariance is not at hand."""
    if old is None or new is None or old.evidence is None or new.evidence is None:
        return None
    contrast = dict.fromkeys((bot,), 1.0)
    for other, weight in zip(reference.bots, reference.weights, strict=True):
        contrast[other] = contrast.get(other, 0.0) - weight
    before, after = old.evidence.variance(contrast), new.evidence.variance(contrast)
    return None if before is None or after is None else before + after


def _move_quantile(old: PoolRatings | None, new: PoolRatings | None) -> float:
    """The quantile a move's 95% interval is drawn with: Student's t on the fewer deals of the
    two pools less one (their sigmas are estimated from that many deals: docs/ratings.md), the
    normal where a pool does not say its deals or has only one."""
    deals = min(old.deals if old else 0, new.deals if new else 0)
    return t_quantile(deals - 1) if deals >= 2 else Z95


def _bot_changes(old: PoolRatings | None, new: PoolRatings | None,
                 code: Mapping[str, str | None] | None,
                 reference: Reference, same: bool = False) -> tuple[BotChange, ...]:
    """The later run's bots in its order, then the bots that are gone, in the earlier order;
    `same`: both tables are the same, so every move is exactly 0."""
    was = {r.bot: r for r in old.bots} if old else {}
    now = {r.bot: r for r in new.bots} if new else {}
    ref = set(reference.bots)
    ref_var = reference.shift_se ** 2
    quantile = _move_quantile(old, new)
    changes = []
    for row in now.values():
        prior = was.get(row.bot)
        if prior is None:
            changes.append(BotChange(row.bot, Presence.NEW, None, row.mu, None, None, None,
                                     None, row.rank, None, rank_label_after=row.rank_label))
            continue
        raw = row.mu - prior.mu
        own = _variance(prior.sigma, row.sigma)
        variance = _move_variance(row.bot, old, new, reference) if reference.bots else own
        if variance is None:  # no covariance: as if the bots' skills were independent
            if row.bot in ref:  # in the reference: its own part of the shift is no error
                variance = max(own - ref_var, 0.0) if own > 0 and ref_var > 0 else own
            else:
                variance = own + ref_var
        move = raw - reference.shift
        half = quantile * math.sqrt(variance)
        significant: bool | None = (abs(move) > half
                                    and not math.isclose(move, 0, abs_tol=1e-12))
        if same:
            move, half, significant = 0.0, 0.0, False
        elif reference.undecided:
            significant = None
        changes.append(BotChange(row.bot, Presence.BOTH, prior.mu, row.mu, move, half,
                                 significant, prior.rank, row.rank, prior.rank - row.rank, raw,
                                 _code(row.bot, code), row.bot in ref, prior.rank_label,
                                 row.rank_label))
    changes.extend(BotChange(row.bot, Presence.GONE, row.mu, None, None, None, None, row.rank,
                             None, None, rank_label_before=row.rank_label)
                   for row in was.values() if row.bot not in now)
    return tuple(changes)


def _edge_changes(old: PoolRatings | None, new: PoolRatings | None) -> tuple[EdgeChange, ...]:
    """The pairs whose edge moved significantly (Welch's t test on the two edges), each once
    (the later table's higher bot first), in the later table's order."""
    if old is None or new is None:
        return ()
    was = {(h.bot, h.opponent): h for h in old.crosstable}
    order = {row.bot: i for i, row in enumerate(new.bots)}
    out = []
    for now in new.crosstable:
        prior = was.get((now.bot, now.opponent))
        if prior is None or order[now.bot] > order[now.opponent]:
            continue
        if now.freedom < 1 or prior.freedom < 1:
            continue
        moved = welch_difference(now.edge, _edge_se(now), now.freedom, prior.edge,
                                 _edge_se(prior), prior.freedom)
        if moved is not None and moved.significant:
            out.append(EdgeChange(now.bot, now.opponent, prior.edge, now.edge, moved.delta,
                                  moved.ci95, moved.df, moved.p_value))
    return tuple(out)


def _edge_se(pair: HeadToHead) -> float:
    """The standard error of a pair's edge, from its 95% interval (one degree of freedom or
    more)."""
    return pair.edge_ci95 / t_quantile(pair.freedom)


def _json(change: BotChange | EdgeChange) -> dict[str, Any]:
    return {key: value.value if isinstance(value, enum.Enum)
            else json_number(value) if isinstance(value, float) and math.isfinite(value)
            else None if isinstance(value, float) else value
            for key, value in vars(change).items()}


HEADERS = ("bot", "status", "code", "mu before", "mu after", "move (95%)", "rank before",
           "rank after", "rank change")
EDGE_HEADERS = ("bot", "opponent", "edge before", "edge after", "change (95%)")
_CSV = ("game", "variant", "pool_status", "bot", "status", "mu_before", "mu_after", "delta",
        "delta_ci95", "significant", "rank_before", "rank_after", "rank_change", "raw_delta",
        "code", "reference", "rank_label_before", "rank_label_after")


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
                                b.rank_before, b.rank_after, b.rank_change, b.raw_delta,
                                b.code.value if b.code else None,
                                b.reference if b.status is Presence.BOTH else None,
                                b.rank_label_before, b.rank_label_after]
                               for p in comparison.pools for b in p.bots))
    blocks = [] if comparison.deals is None else [f"note: {comparison.deals}"]
    blocks += [f"note: {line}" for line in comparison.notes]
    if len(blocks) > 1:
        blocks = ["\n".join(blocks)]
    for pool in comparison.pools:
        note = {Presence.BOTH: "", Presence.NEW: " (new pool)", Presence.GONE: " (gone)"}
        rows = [[b.bot, b.status.value, _code_cell(b, pool.reference), _num(b.mu_before),
                 _num(b.mu_after), _move(b, pool.same_games),
                 b.rank_label_before or _int(b.rank_before),
                 b.rank_label_after or _int(b.rank_after), _int(b.rank_change, signed=True)]
                for b in pool.bots]
        text = heading(f"{pool.game} / {pool.variant}{note[pool.status]}", fmt) + "\n\n"
        if pool.status is Presence.BOTH:
            text += pool.field_text() + "\n\n"
        text += grid(HEADERS, rows, fmt)
        if pool.status is Presence.BOTH:
            text += "\n\n" + _edges_text(pool, fmt)
            luck = pool.luck_text()
            text += "" if luck is None else "\n\n" + luck
        blocks.append(text)
    if blocks and comparison.pools:
        blocks.append("move: mu after - mu before, less the reference's mean change (ref); "
                      "* the move is significant at 95% (its interval leaves out 0); edges: "
                      "Welch's t test at 95%")
    return "\n\n".join(blocks)


def _code_cell(change: BotChange, reference: Reference) -> str:
    if change.code is None:
        return "-"
    if change.reference:
        return f"{change.code.value}, " + (
            "anchor" if reference.kind is ReferenceKind.ANCHORS else "ref")
    return change.code.value


def _move(change: BotChange, same_games: bool = False) -> str:
    if change.delta is None or change.delta_ci95 is None:
        return "-"
    if same_games:
        return "0 (same games)"
    if change.reference and change.delta_ci95 == 0:
        return "0 (the reference)"
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
