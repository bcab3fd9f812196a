"""The ratings report and the crosstables in every output format."""

from __future__ import annotations

from arena.ratings.output import ReportFormat, dump_csv, dump_json, grid, heading
from arena.ratings.tables import BotRow, PoolRatings, Ratings, json_row


def _pm(mean: float, ci: float) -> str:
    return f"{mean:.2f} ± {ci:.2f}"


RATING_HEADERS = ("rank", "bot", "mu vs pool (95%)", "sigma", "P(> next)", "games", "W", "D", "L",
                  "mean place", "mean score (95%)", "faults")
CROSS_HEADERS = ("bot", "opponent", "games", "deals", "W", "D", "L", "edge (95%)", "p", "LOS")
_RATING_CSV = ("game", "variant", "rank", "rank_label", "bot", "mu", "mu_ci95", "sigma",
               "p_above_next", "games", "wins", "draws", "losses", "mean_place", "mean_score",
               "score_ci95", "faults", "fault_kinds", "flagged", "beats_above",
               "outscores_in_rank")
FAULT_SHARE = 0.25
"""A bot that faults in more than this share of its games is flagged in the ratings table."""
_CROSS_CSV = ("game", "variant", "bot", "opponent", "games", "deals", "wins", "draws", "losses",
              "edge", "edge_ci95", "p_value", "los", "significant", "edge_df", "luck_model")
"""`edge_df`: the edge interval's degrees of freedom (deals - 1 raw, deals - 4 adjusted);
`luck_model`: the model the edge is adjusted for luck with; empty where it is raw."""


def format_ratings(ratings: Ratings, fmt: ReportFormat | str = ReportFormat.TABLE,
                   variant: str | None = None, fault_share: float = FAULT_SHARE) -> str:
    """The ratings report; tables and JSON include the crosstable, CSV is the ratings rows only.

    Bots that cannot be told apart at 95% (two-sided) share a rank ('=3'; `rank_label` in CSV
    and JSON). A bot that beats a bot above it head to head is marked '^' (`beats_above`).
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
            [p.game, p.variant, r.rank, r.rank_label, r.bot, r.mu, r.mu_ci95, r.sigma,
             r.p_above_next, r.games, r.wins, r.draws, r.losses, r.mean_place, r.mean_score,
             r.score_ci95, r.faults, ";".join(f"{k}={n}" for k, n in r.fault_kinds),
             r.fault_share() > fault_share, ";".join(r.beats_above),
             ";".join(r.outscores_in_rank)]
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
        if not pool.converged:
            lines += ["", unconverged_text(pool)]
        if pool.edges:
            lines += ["", edge_text(pool)]
        if pool.near_edges:
            lines += ["", near_edge_text(pool)]
        contrary = [(r.bot, above) for r in pool.bots for above in r.beats_above]
        if contrary:
            pairs = ", ".join(f"{bot} over {above}" for bot, above in contrary)
            lines += ["", f"^ beats a bot above it head to head ({pairs}): the ratings weigh "
                          "places against the whole field, the edge the score in their own "
                          "games (see docs/ratings.md)"]
        within = [(r.bot, other) for r in pool.bots for other in r.outscores_in_rank]
        if within:
            pairs = ", ".join(f"{bot} over {other}" for bot, other in within)
            lines += ["", f"~ a significant edge head to head within a shared rank ({pairs}): "
                          "the ratings weigh places against the whole field, the edge the "
                          "score in their own games (see docs/ratings.md)"]
        lines += ["", SHARED_RANKS, "", _cross_text(pool, fmt)]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def format_crosstable(ratings: Ratings, fmt: ReportFormat | str = ReportFormat.CSV,
                      variant: str | None = None) -> str:
    """The crosstables alone: one CSV with game and variant first, JSON, or text tables."""
    fmt = ReportFormat.parse(fmt)
    ratings = ratings.only(variant)
    if fmt is ReportFormat.JSON:
        return dump_json({"pools": [{"game": p.game, "variant": p.variant,
                                     "luck_model": p.luck_model, "luck_note": p.luck_note,
                                     "crosstable": [json_row(h) for h in p.crosstable]}
                                    for p in ratings.pools]})
    if fmt is ReportFormat.CSV:
        return dump_csv(_CROSS_CSV, ([p.game, p.variant, *vars(h).values(), p.luck_model]
                                     for p in ratings.pools for h in p.crosstable))
    blocks = [heading(f"{p.game} / {p.variant}", fmt) + "\n\n" + _cross_text(p, fmt)
              for p in ratings.pools]
    return "\n\n".join(blocks)


SHARED_RANKS = ("mu (the rating) and its 95% interval only mean something next to the other "
                "bots of this pool; the interval comes from how much the results varied from "
                "deal to deal; sigma: its standard error, relative to the pool's mean; =n: a "
                "rank shared by bots not told apart at 95% (P(> next) below 97.5%); P(> next): "
                "the chance that the bot's skill is above the next bot's, from the error of "
                "their difference (not the two sigmas combined); the words: docs/glossary.md")


def edge_text(pool: PoolRatings) -> str:
    """The line naming the bots that finished last (or first) in every game, and why their
    intervals are as wide as they are."""
    parts = [f"{bot} finished {where} in every game it played" for bot, where in pool.edges]
    return ("; ".join(parts) + ": such games say only that a bot is below (above) the others, "
            "not by how much, so its interval is at least as wide as one game ending "
            "otherwise would move it (see docs/ratings.md, bots at the edge)")


def near_edge_text(pool: PoolRatings) -> str:
    """The line naming the bots that finished last (or first) in every game but those of a few
    deals, and why their intervals are as wide as they are."""
    parts = [f"{bot} finished {where} in every game but those of {off} of its {deals:,} deals"
             for bot, where, off, deals in pool.near_edges]
    return ("; ".join(parts) + ": its rating rests on those few deals, so its interval is at "
            "least as wide as leaving one of them out moves it (see docs/ratings.md, bots near "
            "the edge)")


def unconverged_text(pool: PoolRatings) -> str:
    """The line saying that a pool's ratings stopped short of convergence."""
    return (f"not converged: the ratings stopped after {pool.sweeps:,} sweeps, short of the "
            f"tolerance; treat them as approximate")


def _rating_cells(r: BotRow, kinds: list[str], fault_share: float) -> list[str]:
    counts = dict(r.fault_kinds)
    name = (r.bot + (" !" if r.fault_share() > fault_share else "")
            + (" ^" if r.beats_above else "") + (" ~" if r.outscores_in_rank else ""))
    above = "" if r.p_above_next is None else _probability(r.p_above_next)
    return [r.rank_label, name, _pm(r.mu, r.mu_ci95), f"{r.sigma:.2f}", above,
            str(r.games), str(r.wins), str(r.draws), str(r.losses), f"{r.mean_place:.2f}",
            _pm(r.mean_score, r.score_ci95), str(r.faults),
            *[str(counts.get(kind, 0)) for kind in kinds]]


def _cross_text(pool: PoolRatings, fmt: ReportFormat) -> str:
    title = ("head to head (edge: mean score advantage per deal, positive = bot did better; "
             "* significant at 95%; LOS: likelihood of superiority)")
    if not pool.crosstable:
        return f"{title}: no two bots met"
    rows = [[h.bot, h.opponent, str(h.games), str(h.deals), str(h.wins), str(h.draws),
             str(h.losses), f"{h.edge:+.2f} ± {h.edge_ci95:.2f}" + (" *" if h.significant else ""),
             _p(h.p_value), _probability(h.los)] for h in pool.crosstable]
    luck = pool.luck_text()
    return (title + "\n\n" + grid(CROSS_HEADERS, rows, fmt)
            + ("" if luck is None else "\n\n" + luck))


def _probability(p: float) -> str:
    """A probability as a percentage, never rounded to a certainty it is not."""
    if p > 0.999:
        return ">99.9%"
    if p < 0.001:
        return "<0.1%"
    return f"{100 * p:.1f}%"


def _p(p: float) -> str:
    """A p-value in the usual short form."""
    return "<0.001" if p < 0.001 else f"{p:.3f}"
