"""A run directory's report page (`arena report RUN --html`): its ratings, crosstables,
progressions by deals played, and per bot its faults, the end of its output and its worst games,
each linked to its replay page (`replays/<task>.html`, written with `--replays` or by the
command shown beside it).
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.ratings.plots import Progression, rating_progression
from arena.ratings.tables import PoolRatings, Ratings, rate
from arena.safe_files import check_entry, open_regular, real_folder, write_text
from arena.tournament.planning.config import OnFault
from arena.tournament.records.finder import FoundGame, GameQuery, Order, select_games
from arena.tournament.records.results import BOT_LOGS, RunDirectory, run_config
from arena.viewer.replay_page import write_replay
from arena.viewer.report_page import (
    BotSection,
    FaultLine,
    PoolSection,
    ProgressPoint,
    ReportPage,
    WorstGame,
    report_html,
)

REPORT_PAGE = "report.html"
REPLAYS = "replays"
WORST = 5
"""How many of a bot's worst games a page lists."""
FAULTS = 20
"""How many of a bot's faults a page lists (the count says how many more)."""
OUTPUT_TAIL = 4096
"""How much of the end of a bot's log a page shows (bytes)."""


class ReportPageError(ArenaError):
    """A report page that cannot be written: no records, or the replay viewer is missing."""


@dataclass(frozen=True)
class WrittenPage:
    """The report page written, and the replay pages written beside it."""

    page: Path
    replays: tuple[Path, ...]


def write_run_page(run: Path, out: Path | None = None, replays: bool = False,
                   luck: bool = True) -> WrittenPage:
    """Write a run's report page (`RUN/report.html` unless `out` is given) and, with
    `replays`, the replay page of every game it links to; the files written. Edges are
    adjusted for luck where the records allow, unless `luck` is False."""
    out = run / REPORT_PAGE if out is None else out
    check_entry(out)  # a regular file or nothing, checked before anything is computed
    page, games = run_page(run, _relative(out.parent, run / REPLAYS), replays, luck)
    written = []
    if replays:
        folder = real_folder(run / REPLAYS, make=True)
        for task in sorted(games):
            target = folder / f"{task}.html"
            check_entry(target)
            write_replay(run, task, target)  # the replay viewer's page of that game
            written.append(target)
    write_text(out, report_html(page))
    return WrittenPage(out, tuple(written))


def _relative(start: Path, target: Path) -> str:
    return Path(os.path.relpath(target.resolve(), start.resolve())).as_posix()


def run_page(run: Path, replay_folder: str = REPLAYS, replays: bool = False,
             luck: bool = True) -> tuple[ReportPage, set[int]]:
    """A run's report page, and the tasks of the games it names (their replay pages in
    RUN/replays, `replay_folder` relative to the page): linked where `replays` (they are
    written with it) or the page is already there."""
    config = run_config(run)
    records = list(RunDirectory(run).records())
    if not records:
        raise ReportPageError(f"{run}: no game records yet (run the tournament first)")
    settings = {g.game: g.trueskill for g in config.games}
    disqualify = config.limits.on_fault is OnFault.DISQUALIFY
    ratings = rate(records, settings, disqualify, luck)
    progressions = rating_progression(records, settings, disqualify)
    bots = run_bots(run, ratings, records, replay_folder, run / REPLAYS, replays)
    linked = {g.task for per_pool in bots.values() for section in per_pool.values()
              for g in section.worst}
    sections = tuple(PoolSection(pool, progression_points(progressions.get(
        (pool.game, pool.variant))), "deals played", (), bots.get((pool.game, pool.variant), {}))
        for pool in ratings.pools)
    page = ReportPage(f"{config.name}: report", INTRO.format(games=len(records)), sections,
                      config.limits.fault_share,
                      f"Run {run.name}; replay pages: {replay_folder}/<task>.html")
    return page, linked


INTRO = ("{games:,} games. Each bot's rating is TrueSkill's estimate of its skill from all of "
         "a pool's games at once, next to the other bots of the pool; the bars span its 95% "
         "interval, from how much the results varied from deal to deal, and bots that cannot "
         "be told apart share a rank (=n). The progression shows how the ratings settled as "
         "the deals were played: it ends on the table. Each bot's worst games are listed with "
         "the command that writes their replay pages (linked once written: --replays).")


def progression_points(progression: Progression | None) -> tuple[ProgressPoint, ...]:
    """A progression as the page's points (x: deals played)."""
    if progression is None:
        return ()
    return tuple(ProgressPoint(p.deals, p.ratings) for p in progression.points)


def run_bots(run: Path, ratings: Ratings, records: Sequence[Mapping[str, Any]],
             replay_folder: str, replay_dir: Path, replays: bool = False
             ) -> dict[tuple[str, str], dict[str, BotSection]]:
    """Per pool and bot: its worst games (linked to `replay_folder/<task>.html`, relative to
    the page, where `replays` says they will be written or the page is there already; the
    command shown writes them into `replay_dir`), its faults and the end of its output."""
    pools = {(p.game, p.variant): p for p in ratings.pools}
    names = sorted({row.bot for p in ratings.pools for row in p.bots})
    out: dict[tuple[str, str], dict[str, BotSection]] = {}
    for bot in names:
        found = select_games(records, GameQuery(bot=bot, order=Order.WORST)).games
        output, source = _output_tail(run, bot)
        by_pool: dict[tuple[str, str], list[FoundGame]] = {}
        for game in found:
            key = _pool_of(game, pools)
            if key is not None:
                by_pool.setdefault(key, []).append(game)
        for key, games in by_pool.items():
            faults = [FaultLine(g.task, int(f.get("decision") or 0), str(f.get("kind")),
                                str(f.get("detail") or ""))
                      for g in sorted(games, key=lambda g: g.task) for f in g.faults
                      if f.get("seat") == g.seat]
            worst = [g for g in games if g.margin is not None and g.margin < 0][:WORST]
            out.setdefault(key, {})[bot] = BotSection(
                tuple(_worst(g, run, replay_folder, replay_dir, replays) for g in worst),
                tuple(faults[:FAULTS]), len(faults), output if faults else None, source)
    return out


def _pool_of(game: FoundGame, pools: Mapping[tuple[str, str], PoolRatings]
             ) -> tuple[str, str] | None:
    """The pool a game was rated in: its variant, or its variant at its table size."""
    if (game.game, game.variant) in pools:
        return game.game, game.variant
    n = len(game.seats)
    key = (game.game, f"{game.variant} ({n} player{'s' if n > 1 else ''})")
    return key if key in pools else None


def _worst(game: FoundGame, run: Path, replay_folder: str, replay_dir: Path,
           replays: bool) -> WorstGame:
    page = replay_dir / f"{game.task}.html"
    command = shlex.join(["arena", "replay", str(run), str(game.task), "--html", str(page)])
    there = replays or check_entry(page)
    return WorstGame(game.task, game.seat or 0, game.variant, game.seed, game.seats, game.scores,
                     game.margin, f"{replay_folder}/{game.task}.html" if there else None,
                     command)


def _output_tail(run: Path, bot: str) -> tuple[str | None, str]:
    """The end of a bot's log in the run (`bots/<bot>.log`), as stored, or None."""
    name = re.sub(r"[^\w.-]", "_", bot) + ".log"  # as the runner names it
    path = run / BOT_LOGS / name
    source = f"{BOT_LOGS}/{name}"
    if not check_entry(path):
        return None, source
    with open_regular(path) as handle:
        size = handle.seek(0, os.SEEK_END)
        handle.seek(max(0, size - OUTPUT_TAIL))
        data = handle.read(OUTPUT_TAIL)
    text = data.decode("utf-8", "replace")
    if size > OUTPUT_TAIL:
        text = "…" + text.split("\n", 1)[-1]
    return (text or None), source
