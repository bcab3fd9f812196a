"""Results as pictures: a run's ratings, their progression and the head-to-head edges as PNG
images, and a `report.md` that shows them beside the ratings tables.

matplotlib is an optional extra (`pip install 'card-arena[plots]'`); it is imported only here,
only when a report is written, and draws on figures of its own (the Agg canvas, no display and no
pyplot state), so it works on headless machines.

The ratings table is the TrueSkill posterior over all of a pool's games at once. The progression
is the history of a run as it was played: the one-pass TrueSkill fold (`arena.ratings.fold`)
over the same pools and matches in task order, with the same settings, match by match. It ends
near the table's mu, not on it: one pass weighs the last games most, the posterior weighs all
alike.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import ArenaError
from arena.ratings.fold import fold
from arena.ratings.formats import format_ratings
from arena.ratings.pools import Match, rating_pools
from arena.ratings.settings import TrueSkillSettings
from arena.ratings.tables import PoolRatings, Ratings, rate
from arena.safe_files import remove, write_bytes, write_text

if TYPE_CHECKING:
    from matplotlib.figure import Figure

DPI = 110
INSTALL_HINT = "pip install 'card-arena[plots]'"


class PlotsError(ArenaError):
    """Plots cannot be drawn: matplotlib is missing, or the run has no records."""


@dataclass(frozen=True)
class Step:
    """The ratings of a pool's bots after one rated match (bot -> (mu, sigma))."""

    task: int
    ratings: Mapping[str, tuple[float, float]]


@dataclass(frozen=True)
class History:
    """A pool's ratings after each of its rated matches, in task order, from a common prior."""

    prior: tuple[float, float]
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Pictures:
    """The image files of one pool (None where there is nothing to draw)."""

    ratings: Path
    progression: Path | None
    head_to_head: Path | None


def draw_report(run_dir: Path, report: Path, name: str, records: list[Mapping[str, Any]],
                settings: Mapping[str, TrueSkillSettings], disqualify: bool,
                fault_share: float) -> list[Path]:
    """Draw the pictures of every pool of a run's records into `run_dir` and write `report`
    (report.md) beside them; the files written."""
    require_matplotlib()
    if not records:
        raise PlotsError(f"{run_dir}: no game records yet (run the tournament first)")
    ratings = rate(records, settings, disqualify)  # what `arena ratings` shows
    histories = rating_history(records, settings, disqualify)
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
             "at 95% (two-sided) share a rank (=n). The progression is the one-pass fold in "
             "task order, the run's history as played.",
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


def plot_ratings(pool: PoolRatings) -> Figure:
    """Each bot's mu with its 95% interval relative to the pool, best at the top."""
    from matplotlib.figure import Figure

    rows = list(pool.bots)
    fig = Figure(figsize=(8, 1.4 + 0.45 * len(rows)), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    ys = list(range(len(rows)))[::-1]
    colours = _colours(len(rows))
    for y, row, colour in zip(ys, rows, colours, strict=True):
        ax.errorbar(row.mu, y, xerr=row.mu_ci95, fmt="o", color=colour, ecolor=colour,
                    elinewidth=2.5, capsize=5, markersize=7)
        ax.annotate(f"{row.rank_label}: {row.mu:.1f} ± {row.mu_ci95:.1f}", (row.mu, y),
                    xytext=(0, 7),
                    textcoords="offset points", ha="center", fontsize=8, color="#333333")
    ax.set_yticks(ys, [_label(r.bot) for r in rows])
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlabel("TrueSkill posterior mu, 95% interval relative to the pool (clustered by "
                  "deal); =n: rank shared with bots it cannot be told apart from", fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(f"{pool.game} / {pool.variant}: ratings ({pool.matches} matches)",
                 fontsize=11)
    return fig


def plot_progression(pool: PoolRatings, history: History | None) -> Figure | None:
    """Each bot's mu after every rated match, in task order, with a band of ± 1 sigma."""
    if history is None or not history.steps:
        return None
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 4.8), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    bots = [row.bot for row in pool.bots]
    few = len(history.steps) <= 40
    for i, (bot, colour) in enumerate(zip(bots, _colours(len(bots)), strict=True)):
        x, mu, sigma = _line_of(bot, history)
        if not x:
            continue
        # best bots first and widest, so that bots with equal ratings show as nested strips
        ax.plot(x, mu, color=colour, linewidth=max(1.0, 2.8 - 0.4 * i), label=_label(bot),
                marker="o" if few else None, markersize=max(2.5, 5.5 - 0.6 * i))
        ax.fill_between(x, [m - s for m, s in zip(mu, sigma, strict=True)],
                        [m + s for m, s in zip(mu, sigma, strict=True)], color=colour,
                        alpha=0.08, linewidth=0)
    ax.set_xlabel("rated matches, in task order")
    ax.set_ylabel("mu (band: ± 1 sigma)")
    ax.set_xlim(0, len(history.steps))
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9, frameon=False)
    ax.set_title(f"{pool.game} / {pool.variant}: rating progression", fontsize=11)
    return fig


def _line_of(bot: str, history: History) -> tuple[list[int], list[float], list[float]]:
    """A bot's mu and sigma after each match, from its prior just before its first match."""
    x: list[int] = []
    mu: list[float] = []
    sigma: list[float] = []
    for n, step in enumerate(history.steps, 1):
        rating = step.ratings.get(bot)
        if rating is None:
            continue
        if not x:
            x.append(n - 1)
            mu.append(history.prior[0])
            sigma.append(history.prior[1])
        x.append(n)
        mu.append(rating[0])
        sigma.append(rating[1])
    return x, mu, sigma


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
    games: dict[tuple[int, int], int] = {}
    for h in pool.crosstable:
        if h.bot in where and h.opponent in where:
            grid[where[h.bot]][where[h.opponent]] = h.edge
            games[(where[h.bot], where[h.opponent])] = h.games
    edges = [abs(v) for row in grid for v in row if not math.isnan(v)]
    span = max(edges, default=0.0) or 1.0
    side = max(4.2, 1.2 + 0.75 * n)
    fig = Figure(figsize=(side + 1.6, side), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    image = ax.imshow(grid, cmap="RdBu", norm=TwoSlopeNorm(0.0, -span, span))
    labels = [_label(b, 18) for b in bots]
    ax.set_xticks(range(n), labels, rotation=35, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(n), labels)
    ax.set_xlabel("opponent")
    ax.set_ylabel("bot")
    size = 9 if n <= 6 else 7 if n <= 10 else 5
    for (i, j), count in games.items():
        value = grid[i][j]
        dark = abs(value) > 0.6 * span
        ax.text(j, i, f"{value:+.2f}\n({count})" if n <= 10 else f"{value:+.1f}",
                ha="center", va="center", fontsize=size, color="white" if dark else "black")
    for i in range(n):
        ax.add_patch(_diagonal_patch(i))
    bar = fig.colorbar(image, ax=ax, shrink=0.85)
    bar.set_label("edge: mean score advantage per deal")
    ax.set_title(f"{pool.game} / {pool.variant}: head to head\n(row bot vs column bot; "
                 "games met in brackets)", fontsize=10)
    return fig


def _diagonal_patch(i: int) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((i - 0.5, i - 0.5), 1, 1, facecolor="#dddddd", edgecolor="none")


def _colours(n: int) -> list[Any]:
    from matplotlib import colormaps

    cmap = colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(n)]


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


def rating_history(records: Iterable[Mapping[str, Any]],
                   settings: Mapping[str, TrueSkillSettings] | None = None,
                   disqualify: bool = False) -> dict[tuple[str, str], History]:
    """The ratings after every rated match of every pool, keyed like `Ratings` pools (game,
    variant label, suffixed by the table size when a variant is played at several)."""
    settings = settings or {}
    out = {}
    for pool in rating_pools(records, disqualify):
        chosen = settings.get(pool.game, TrueSkillSettings())
        out[(pool.game, pool.variant)] = _fold(pool.matches, chosen)
    return out


def _fold(matches: list[Match], settings: TrueSkillSettings) -> History:
    """The one-pass TrueSkill fold over the matches in task order; a step after every match
    that was rated."""
    steps: list[Step] = []
    fold(matches, settings, lambda position, ratings: steps.append(Step(position, dict(ratings))))
    return History((settings.mu, settings.sigma), tuple(steps))
