"""A round of a league as pictures, to publish: in `rounds/<N>/report/`, for every pool (a game
and variant at one table size) its ratings, its head-to-head edges and each bot's rating round
by round as PNG images, with `report.md` (the pictures beside the ratings tables) and
`report.html`: the report page of `arena report RUN --html` (`arena.viewer.report_page`), one
self-contained file drawing the same in HTML and SVG, with the league's history of standings and,
for a pool whose games are those the round was rated from, each bot's faults and worst games
linked to their replay pages (`replays/<pool>/<task>.html` beside it).

matplotlib is an optional extra (`pip install 'card-arena[plots]'`), imported only when a report
is drawn (`arena.ratings.plots`).

The history picture shows, per pool, each bot's mu with its 95% interval (± 1.96 sigma, as
`arena league history` prints it) in every round up to this one. The progression (the table's
posterior and interval over the games of the first n deals, as `arena report` draws it for a
run) is drawn only while the pool's records are still those the round was rated from: a later
update adds games.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.league.folder import POOLS, ROUNDS, League, LeagueError
from arena.league.history import History, by_round, league_history
from arena.league.rounds import ROUND_FILE, rated_from, read_round, round_ratings
from arena.league.unadjusted import without_luck
from arena.ratings.formats import format_ratings
from arena.ratings.plots import (
    DPI,
    Progression,
    bot_colours,
    plot_head_to_head,
    plot_progression,
    plot_ratings,
    rating_progression,
    require_matplotlib,
)
from arena.ratings.tables import PoolRatings, Ratings
from arena.safe_files import check_entry, real_folder, remove, write_bytes, write_text
from arena.tournament.planning.config import OnFault
from arena.tournament.records.results import RunDirectory, run_config
from arena.viewer.report_page import BotSection, PoolSection, ProgressPoint, ReportPage
from arena.viewer.report_page import report_html as page_html
from arena.viewer.report_run import REPLAYS, progression_points, run_bots

if TYPE_CHECKING:
    from matplotlib.figure import Figure

REPORT_FOLDER = "report"
_POOL_ID = re.compile(r"\w[\w.-]*")
KINDS = ("ratings", "headtohead", "history", "progression")


@dataclass(frozen=True)
class Picture:
    """One picture of a pool: what it shows, and its PNG bytes."""

    kind: str
    title: str
    png: bytes


@dataclass(frozen=True)
class PoolReport:
    """A pool's part of a league report: its ratings and its pictures."""

    id: str
    ratings: PoolRatings
    pictures: tuple[Picture, ...]
    note: str | None = None
    progression: Progression | None = None
    history: Mapping[str, Mapping[int, tuple[float, float, bool]]] | None = None
    """Each bot's (mu on the history's scale, half-width of its 95% interval, whether it moved
    significantly since the round before) by round, up to this one."""
    bots: Mapping[str, BotSection] | None = None
    """Per bot, its faults and worst games (only while the pool's games are the round's)."""


@dataclass(frozen=True)
class LeagueReport:
    """A round's report: its number, its folder, and the files written."""

    round: int
    folder: Path
    files: tuple[Path, ...]


def write_league_report(league: League, number: int | None = None,
                        replays: bool = False, luck: bool = True) -> LeagueReport:
    """Draw a round's pictures (the latest round with None) and write report.md and
    report.html beside them in `rounds/<N>/report/`, with `replays` the replay page of every
    game the page names (`replays/<pool>/<task>.html`; without, only pages already there are
    linked); with `luck` False its head-to-head edges raw (`arena.league.unadjusted`);
    PlotsError if matplotlib is missing, LeagueError if there is no such round."""
    require_matplotlib()
    document = read_round(league, number)
    if not luck:
        document = without_luck(league, document, rated_from)
    number = int(document["round"])
    for entry in document["pools"]:
        # a pool's id names its files: a round folder may come from elsewhere
        if not isinstance(entry.get("id"), str) or not _POOL_ID.fullmatch(entry["id"]):
            raise LeagueError(f"{league.file(ROUNDS) / str(number) / ROUND_FILE}: damaged "
                              f"(a pool id that is not a file name)")
    found = league_history(league, number)
    folder = real_folder(league.file(ROUNDS) / str(number), make=True)
    folder = real_folder(folder / REPORT_FOLDER, make=True)
    # what the report writes must be regular files or nothing, checked before anything is
    # drawn
    for entry in document["pools"]:
        for kind in KINDS:
            check_entry(folder / f"{kind}-{entry['id']}.png")
    for name in ("report.md", "report.html"):
        check_entry(folder / name)
    palette: dict[str, int] = {}  # one colour per bot in every picture of the report
    for entry in document["pools"]:
        for pool in round_ratings({"pools": [entry]}).pools:
            bots = [row.bot for row in pool.bots]
            history = found.pool(pool.game, pool.variant)
            for bot in (*bots, *(history.bots if history else ())):
                palette.setdefault(bot, len(palette))
    parts = [_pool_report(league, entry, found, folder, replays, palette)
             for entry in document["pools"]]
    written: list[Path] = []
    if replays:
        written += _write_replays(league, parts, folder)
    for part in parts:
        drawn = {p.kind for p in part.pictures}
        for picture in part.pictures:
            write_bytes(folder / f"{picture.kind}-{part.id}.png", picture.png)
            written.append(folder / f"{picture.kind}-{part.id}.png")
        for kind in set(KINDS) - drawn:
            remove(folder / f"{kind}-{part.id}.png")  # one left from an earlier report misleads
    share = float(document["fault_share"])
    title = f"{league.config.name}: round {number}, {document['date']}"
    write_text(folder / "report.md", report_markdown(title, parts, share))
    write_text(folder / "report.html", report_html(title, parts, share))
    return LeagueReport(number, folder, (*written, folder / "report.md", folder / "report.html"))


def _write_replays(league: League, parts: Sequence[PoolReport], folder: Path) -> list[Path]:
    """The replay page of every game the report names, in `replays/<pool>/<task>.html`."""
    from arena.viewer.replay_page import write_replay

    written = []
    for part in parts:
        tasks = sorted({g.task for section in (part.bots or {}).values() for g in section.worst})
        if not tasks:
            continue
        target = real_folder(real_folder(folder / REPLAYS, make=True) / part.id, make=True)
        for task in tasks:
            check_entry(target / f"{task}.html")
            write_replay(league.file(POOLS) / part.id, task, target / f"{task}.html")
            written.append(target / f"{task}.html")
    return written


def _pool_report(league: League, entry: Mapping[str, Any], found: History,
                 folder: Path, replays: bool = False,
                 palette: Mapping[str, int] | None = None) -> PoolReport:
    """A pool's ratings and pictures in a round (`found`: the history up to it; `folder`:
    where its report is written; `palette`: each bot's colour number in the report)."""
    (pool,) = round_ratings({"pools": [entry]}).pools
    pictures = [Picture("ratings", f"ratings of {pool.game} / {pool.variant}",
                        _png(plot_ratings(pool, palette)))]
    head = plot_head_to_head(pool)
    if head is not None:
        pictures.append(Picture("headtohead", f"head to head in {pool.game} / {pool.variant}",
                                _png(head)))
    rows = by_round(found, pool.game, pool.variant)
    pictures.append(Picture("history", f"ratings of {pool.game} / {pool.variant} by round",
                            _png(plot_history(pool, rows, found.last, palette))))
    note = None
    history = progression = bots = None
    run = league.file(POOLS) / str(entry["id"])
    if entry.get("rated_from") and check_entry(run, folder=True) and \
            rated_from(run) == entry["rated_from"]:
        config = run_config(run)
        records = list(RunDirectory(run).records())
        histories = rating_progression(records, {g.game: g.trueskill for g in config.games},
                                   config.limits.on_fault is OnFault.DISQUALIFY)
        # the run's pool is named by its preset; the round's by its label (`standard@2p`)
        history = next((h for (game, _), h in histories.items() if game == pool.game), None)
        drawn = plot_progression(pool, history, palette)
        if drawn is not None:
            pictures.append(Picture("progression",
                                    f"rating progression in {pool.game} / {pool.variant}",
                                    _png(drawn)))
        progression = history
        # the run names its pool by its preset: its own label, the round's rows
        named = Ratings(tuple(replace(pool, variant=variant)
                              for (game, variant) in histories if game == pool.game))
        found = run_bots(run, named, records, f"{REPLAYS}/{entry['id']}",
                         folder / REPLAYS / entry["id"], replays)
        bots = next(iter(found.values()), {})
    else:
        note = ("the progression is drawn only for the latest round of a pool whose games "
                "have not changed since")
    return PoolReport(str(entry["id"]), pool, tuple(pictures), note, progression, rows, bots)


def plot_history(pool: PoolRatings,
                 by_round: Mapping[str, Mapping[int, tuple[float, float, bool]]],
                 scale: int | None = None, palette: Mapping[str, int] | None = None) -> Figure:
    """Each bot's mu by round with its 95% interval, on the scale of round `scale` (the
    history's: docs/league.md); a ring marks a move significant at 95% since the round before;
    the bots of this round's table in its order, those who left after them, dashed."""
    from matplotlib.figure import Figure

    playing = [row.bot for row in pool.bots]
    gone = sorted(set(by_round) - set(playing))
    bots = playing + gone
    numbers = sorted({n for rows in by_round.values() for n in rows})
    fig = Figure(figsize=(9, 4.8), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    # side by side within a round, so that equal ratings do not hide one another
    width = 0.5 / max(1, len(bots))
    colours = bot_colours(bots, palette)
    for i, bot in enumerate(bots):
        colour = colours[i]
        rounds_ = sorted(by_round.get(bot, {}))
        if not rounds_:
            continue
        x = [n + (i - (len(bots) - 1) / 2) * width for n in rounds_]
        mu = [by_round[bot][n][0] for n in rounds_]
        half = [by_round[bot][n][1] for n in rounds_]
        ax.errorbar(x, mu, yerr=half, color=colour, marker="o", markersize=5, capsize=3,
                    linestyle="--" if bot in gone else "-", linewidth=1.5,
                    label=_short(bot) + (" (left)" if bot in gone else ""))
        moved = [(xi, m) for xi, m, n in zip(x, mu, rounds_, strict=True)
                 if by_round[bot][n][2]]
        if moved:
            ax.scatter([xi for xi, _ in moved], [m for _, m in moved], s=150,
                       facecolors="none", edgecolors=colour, linewidths=1.8, zorder=3)
    ax.set_xticks(numbers, [str(n) for n in numbers])
    ax.set_xlabel("round (a ring: a move significant at 95% since the round before)")
    where = f"on round {scale}'s scale" if scale is not None else "on one scale"
    ax.set_ylabel(f"rating {where}, 95% interval")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9, frameon=False)
    ax.set_title(f"{pool.game} / {pool.variant}: ratings by round", fontsize=11)
    return fig


def _short(bot: str, width: int = 28) -> str:
    return bot if len(bot) <= width else bot[: width - 1] + "…"


def _png(fig: Figure) -> bytes:
    """A picture as PNG bytes (drawn in memory: written whole, or put inside the HTML)."""
    data = io.BytesIO()
    fig.savefig(data, format="png", dpi=DPI)
    return data.getvalue()


def report_markdown(title: str, parts: Sequence[PoolReport], fault_share: float) -> str:
    """report.md: per pool its heading, its pictures (files beside it) and its tables."""
    lines = [f"# {title}", "", _INTRO, ""]
    for part in parts:
        block = format_ratings(Ratings((part.ratings,)), "markdown", None, fault_share)
        heading, _, tables = block.partition("\n\n")
        lines += [heading, ""]
        pictures = {p.kind: p for p in part.pictures}
        for kind in ("ratings",):
            if kind in pictures:
                lines += [f"![{pictures[kind].title}]({kind}-{part.id}.png)", ""]
        lines += [tables, ""]
        for kind in ("headtohead", "history", "progression"):
            if kind in pictures:
                lines += [f"![{pictures[kind].title}]({kind}-{part.id}.png)", ""]
        if part.note:
            lines += [f"*{part.note}*", ""]
    return "\n".join(lines).rstrip() + "\n"


def report_html(title: str, parts: Sequence[PoolReport], fault_share: float) -> str:
    """report.html: the report page (`arena.viewer.report_page`) of the round: ratings as bars,
    heatmaps, the history of standings and the progression drawn in the page itself."""
    sections = []
    for part in parts:
        rounds_ = sorted({n for rows in (part.history or {}).values() for n in rows})
        history = tuple(ProgressPoint(n, {bot: rows[n][:2] for bot, rows in part.history.items()
                                          if n in rows},
                                      frozenset(bot for bot, rows in part.history.items()
                                                if n in rows and rows[n][2]))
                        for n in rounds_) if part.history else ()
        sections.append(PoolSection(part.ratings, progression_points(part.progression),
                                    "deals played", history, part.bots or {}, part.note))
    return page_html(ReportPage(title, _INTRO, tuple(sections), fault_share,
                                "Replay pages: replays/<pool>/<task>.html beside this page "
                                "(arena league report --replays writes them)"))


_INTRO = ("Each bot's rating is TrueSkill's estimate of its skill from all of a pool's games at "
          "once, next to the other bots of the pool; the bars span its 95% interval, from how "
          "much the results varied from deal to deal; bots that cannot be told apart share a "
          "rank (=n). The history shows each bot's rating round by round with the same "
          "interval, every round on the latest round's scale; the progression, how the "
          "ratings settled as the deals were played.")
_STYLE = ("body{font-family:sans-serif;max-width:60em;margin:auto;padding:1em}"
          "pre{font-size:85%;overflow-x:auto}img{max-width:100%}")
