"""Results as pictures: a run's ratings, their progression and the head-to-head edges as PNG
images, and a `report.md` that shows them beside the ratings tables.

matplotlib is an optional extra (`pip install 'card-arena[plots]'`); it is imported only here,
only when a report is written, and draws on figures of its own (the Agg canvas, no display and no
pyplot state), so it works on headless machines.

The ratings table is the TrueSkill posterior over all of a pool's games at once. The progression
shows the same quantity as the run grew: the posterior and its 95% interval (relative to the
pool, clustered by deal, exactly as the table computes them) over the games of the first n deals
played, at a dozen or so points; its last point is the table's row. (The one-pass fold of
`arena.ratings.fold` ends elsewhere: it weighs the last games most, so it is not drawn.)
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import ArenaError
from arena.ratings.formats import format_ratings
from arena.ratings.pools import Match, rating_pools
from arena.ratings.settings import TrueSkillSettings
from arena.ratings.tables import PoolRatings, Ratings, intervals, rate
from arena.safe_files import remove, write_bytes, write_text

if TYPE_CHECKING:
    from matplotlib.figure import Figure

DPI = 110
PROGRESSION_POINTS = 12
"""How many points a progression has at most (each a posterior over a prefix of the deals)."""
INSTALL_HINT = "pip install 'card-arena[plots]'"


class PlotsError(ArenaError):
    """Plots cannot be drawn: matplotlib is missing, or the run has no records."""


@dataclass(frozen=True)
class Point:
    """A pool's table after the games of its first `deals` deals: bot -> (mu, half-width of its
    95% interval), the same quantities as the ratings table."""

    deals: int
    games: int
    ratings: Mapping[str, tuple[float, float]]


@dataclass(frozen=True)
class Progression:
    """A pool's ratings as its deals were played, on the table's scale; the last point is the
    table."""

    points: tuple[Point, ...]


@dataclass(frozen=True)
class Pictures:
    """The image files of one pool (None where there is nothing to draw)."""

    ratings: Path
    progression: Path | None
    head_to_head: Path | None


def draw_report(run_dir: Path, report: Path, name: str, records: list[Mapping[str, Any]],
                settings: Mapping[str, TrueSkillSettings], disqualify: bool,
                fault_share: float, luck: bool = True) -> list[Path]:
    """Draw the pictures of every pool of a run's records into `run_dir` and write `report`
    (report.md) beside them; the files written. Edges are adjusted for luck where the records
    allow, unless `luck` is False."""
    require_matplotlib()
    if not records:
        raise PlotsError(f"{run_dir}: no game records yet (run the tournament first)")
    ratings = rate(records, settings, disqualify, luck)  # what `arena ratings` shows
    histories = rating_progression(records, settings, disqualify)
    written: list[Path] = []
    pictures: dict[tuple[str, str], Pictures] = {}
    names = _file_stems(ratings.pools)
    for pool in ratings.pools:
        stem = names[(pool.game, pool.variant)]
        drawn = Pictures(
            _save(plot_ratings(pool), run_dir / f"ratings-{stem}.png"),
            _save_some(plot_progression(pool, histories.get((pool.game, pool.variant))),
                       run_dir / f"progression-{stem}.png"),
            _save_some(plot_head_to_head(pool), run_dir / f"headtohead-{stem}.png"))
        pictures[(pool.game, pool.variant)] = drawn
        written += [p for p in (drawn.ratings, drawn.progression, drawn.head_to_head) if p]
    write_text(report, report_markdown(name, ratings, pictures, fault_share, len(records)))
    return [*written, report]


def report_markdown(name: str, ratings: Ratings, pictures: Mapping[tuple[str, str], Pictures],
                    fault_share: float, games: int) -> str:
    """report.md: per pool its heading, the pictures and the Markdown tables."""
    lines = [f"# {name}: ratings report", "",
             f"{games} games, {len(ratings.pools)} pool{'s' if len(ratings.pools) != 1 else ''}"
             " (a game and variant at one table size). Ratings are the TrueSkill posterior over "
             "all games at once; the bars span the 95% interval of mu relative to the pool, "
             "clustered by deal, the table is sorted by mu, and bots that cannot be told apart "
             "at 95% (two-sided) share a rank (=n). The progression is the same posterior and "
             "interval over the games of the first n deals played: it ends on the table.",
             ""]
    for pool in ratings.pools:
        block = format_ratings(Ratings((pool,)), "markdown", None, fault_share)
        title, _, tables = block.partition("\n\n")
        drawn = pictures.get((pool.game, pool.variant))
        lines += [title, ""]
        if drawn is not None:
            lines += [f"![ratings of {pool.game} / {pool.variant}]({drawn.ratings.name})", ""]
        lines += [tables, ""]
        if drawn is not None and drawn.head_to_head is not None:
            lines += [f"![head to head in {pool.game} / {pool.variant}]"
                      f"({drawn.head_to_head.name})", ""]
        if drawn is not None and drawn.progression is not None:
            lines += [f"![rating progression in {pool.game} / {pool.variant}]"
                      f"({drawn.progression.name})", ""]
    return "\n".join(lines).rstrip() + "\n"


# ----------------------------------------------------------------------------- the pictures


def plot_ratings(pool: PoolRatings, palette: Mapping[str, int] | None = None) -> Figure:
    """Each bot's mu with its 95% interval relative to the pool, best at the top; `palette`:
    each bot's colour number, the same in every picture of a report (by table place if
    None)."""
    from matplotlib.figure import Figure

    rows = list(pool.bots)
    fig = Figure(figsize=(8, 1.4 + 0.45 * len(rows)), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    ys = list(range(len(rows)))[::-1]
    colours = bot_colours([row.bot for row in rows], palette)
    for y, row, colour in zip(ys, rows, colours, strict=True):
        ax.errorbar(row.mu, y, xerr=row.mu_ci95, fmt="o", color=colour, ecolor=colour,
                    elinewidth=2.5, capsize=5, markersize=7)
        ax.annotate(f"{row.rank_label}: {row.mu:.1f} ± {row.mu_ci95:.1f}", (row.mu, y),
                    xytext=(0, 7),
                    textcoords="offset points", ha="center", fontsize=8, color="#333333")
    ax.set_yticks(ys, [_label(r.bot) for r in rows])
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlabel(RATINGS_CAPTION, fontsize=9, wrap=True)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(f"{pool.game} / {pool.variant}: ratings ({pool.matches} matches)",
                 fontsize=11)
    return fig


RATINGS_CAPTION = ("TrueSkill posterior mu, 95% interval relative to the pool (clustered by deal)"
                   "\n=n: rank shared with bots it cannot be told apart from")


def plot_progression(pool: PoolRatings, progression: Progression | None,
                     palette: Mapping[str, int] | None = None) -> Figure | None:
    """Each bot's mu, as the table computes it, over the games of the first n deals played,
    with a band of its 95% interval; the last point is the table (`palette` as for
    `plot_ratings`)."""
    if progression is None or not progression.points:
        return None
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 4.8), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    bots = [row.bot for row in pool.bots]
    for i, (bot, colour) in enumerate(zip(bots, bot_colours(bots, palette), strict=True)):
        points = [(p.deals, *p.ratings[bot]) for p in progression.points if bot in p.ratings]
        if not points:
            continue
        x = [d for d, _, _ in points]
        mu = [m for _, m, _ in points]
        half = [h for _, _, h in points]
        # best bots first and widest, so that bots with equal ratings show as nested strips
        ax.plot(x, mu, color=colour, linewidth=max(1.0, 2.8 - 0.4 * i), label=_label(bot),
                marker="o", markersize=max(2.5, 5.5 - 0.6 * i))
        ax.fill_between(x, [m - h for m, h in zip(mu, half, strict=True)],
                        [m + h for m, h in zip(mu, half, strict=True)], color=colour,
                        alpha=0.08, linewidth=0)
    ax.set_xlabel("deals played (each point: the table over the games of the first n deals)")
    ax.set_ylabel("mu vs pool (band: 95% interval)")
    ax.set_xlim(0, progression.points[-1].deals)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9, frameon=False)
    ax.set_title(f"{pool.game} / {pool.variant}: rating progression", fontsize=11)
    return fig


def plot_head_to_head(pool: PoolRatings) -> Figure | None:
    """A heatmap of the crosstable's edge: the row bot's mean score advantage over the column
    bot per game they met in (positive: the row bot did better)."""
    if not pool.crosstable:
        return None
    from matplotlib.colors import TwoSlopeNorm
    from matplotlib.figure import Figure

    bots = [row.bot for row in pool.bots]
    where = {bot: i for i, bot in enumerate(bots)}
    n = len(bots)
    grid: list[list[float]] = [[math.nan] * n for _ in range(n)]
    games: dict[tuple[int, int], tuple[int, bool]] = {}
    for h in pool.crosstable:
        if h.bot in where and h.opponent in where:
            grid[where[h.bot]][where[h.opponent]] = h.edge
            games[(where[h.bot], where[h.opponent])] = (h.games, h.significant)
    edges = [abs(v) for row in grid for v in row if not math.isnan(v)]
    span = max(edges, default=0.0) or 1.0
    side = max(4.2, 1.2 + 0.75 * n)
    side = max(side, 0.95 * n) if n > 10 else side  # room for two lines in every cell
    fig = Figure(figsize=(side + 1.6, side), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    image = ax.imshow(grid, cmap="RdBu", norm=TwoSlopeNorm(0.0, -span, span))
    labels = [_label(b, 18) for b in bots]
    ax.set_xticks(range(n), labels, rotation=35, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(n), labels)
    ax.set_xlabel("opponent")
    ax.set_ylabel("bot")
    size = 9 if n <= 6 else 7 if n <= 10 else 6
    for (i, j), (count, significant) in games.items():
        value = grid[i][j]
        dark = abs(value) > 0.6 * span
        edge = f"{value:+.2f}" if n <= 10 else f"{value:+.1f}"
        ax.text(j, i, f"{edge}{'*' if significant else ''}\n({count})", ha="center",
                va="center", fontsize=size, color="white" if dark else "black",
                fontweight="bold" if significant else "normal")
        if significant:
            ax.add_patch(_cell_outline(i, j))
    for i in range(n):
        ax.add_patch(_diagonal_patch(i))
    bar = fig.colorbar(image, ax=ax, shrink=0.85)
    bar.set_label("edge: mean score advantage per deal")
    ax.set_title(f"{pool.game} / {pool.variant}: head to head\n(row bot vs column bot; "
                 "games met in brackets; * significant at 95%, outlined)", fontsize=10)
    return fig


def _diagonal_patch(i: int) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((i - 0.5, i - 0.5), 1, 1, facecolor="#dddddd", edgecolor="none")


def _cell_outline(i: int, j: int) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, facecolor="none", edgecolor="#222222",
                     linewidth=1.4)


def bot_colours(bots: Sequence[str], palette: Mapping[str, int] | None = None) -> list[Any]:
    """Each bot's colour: its number in `palette` (one colour per bot over a whole report),
    else its place in `bots`; tab10, or tab20 beyond ten colours."""
    from matplotlib import colormaps

    numbers = [palette.get(bot, len(palette) + i) if palette else i
               for i, bot in enumerate(bots)]
    cmap = colormaps["tab10" if max(numbers, default=0) < 10 else "tab20"]
    return [cmap(n % cmap.N) for n in numbers]


def _label(bot: str, width: int = 28) -> str:
    return bot if len(bot) <= width else bot[: width - 1] + "…"


def _save(fig: Figure, path: Path) -> Path:
    """Save a picture as PNG, never through a link (drawn in memory, then written whole)."""
    import io

    data = io.BytesIO()
    fig.savefig(data, format="png", dpi=DPI)
    write_bytes(path, data.getvalue())
    return path


def _save_some(fig: Figure | None, path: Path) -> Path | None:
    if fig is None:
        remove(path)  # a picture left from an earlier report would mislead
        return None
    return _save(fig, path)


def require_matplotlib() -> None:
    """Make sure matplotlib can be imported, or say how to install it."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PlotsError(f"plots need matplotlib: {INSTALL_HINT}") from None


def _file_stems(pools: Iterable[PoolRatings]) -> dict[tuple[str, str], str]:
    """A distinct, file-safe `<game>-<variant>` for every pool."""
    out: dict[tuple[str, str], str] = {}
    used: set[str] = set()
    for pool in pools:
        base = re.sub(r"[^A-Za-z0-9.]+", "-", f"{pool.game}-{pool.variant}").strip("-.") or "pool"
        stem, n = base, 2
        while stem in used:
            stem, n = f"{base}-{n}", n + 1
        used.add(stem)
        out[(pool.game, pool.variant)] = stem
    return out


# ----------------------------------------------------------------------------- the history


def rating_progression(records: Iterable[Mapping[str, Any]],
                       settings: Mapping[str, TrueSkillSettings] | None = None,
                       disqualify: bool = False,
                       points: int = PROGRESSION_POINTS) -> dict[tuple[str, str], Progression]:
    """Every pool's table (mu and its 95% interval) over the games of its first n deals, at up
    to `points` values of n spread evenly up to all deals, keyed like `Ratings` pools."""
    settings = settings or {}
    out = {}
    for pool in rating_pools(records, disqualify):
        chosen = settings.get(pool.game, TrueSkillSettings())
        out[(pool.game, pool.variant)] = _progression(pool.matches, chosen, points)
    return out


def _progression(matches: list[Match], settings: TrueSkillSettings, points: int) -> Progression:
    """The table over growing prefixes of the deals, in the order they were first played."""
    first: dict[Any, int] = {}
    for match in matches:  # a record without a seed is a deal of its own, as in the table
        deal = ("task", match.position) if match.deal is None else match.deal
        first[deal] = min(first.get(deal, match.position), match.position)
    order = {deal: n for n, deal in enumerate(sorted(first, key=first.__getitem__))}
    total = len(order)
    if not total or len({bot for m in matches for bot in m.bots}) < 2:
        return Progression(())  # nothing to compare: no progression
    cuts = sorted({max(1, round(total * k / points)) for k in range(1, points + 1)})
    by_deal: list[list[Match]] = [[] for _ in range(total)]
    for match in matches:
        by_deal[order[("task", match.position) if match.deal is None else match.deal]].append(
            match)
    out = []
    for cut in cuts:
        prefix = [m for ms in by_deal[:cut] for m in ms]
        prefix.sort(key=lambda m: m.position)
        out.append(Point(cut, len(prefix), intervals(prefix, settings)))
    return Progression(tuple(out))
