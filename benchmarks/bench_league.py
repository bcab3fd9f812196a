"""The teacher's weeks, replayed on a league: games played and seconds for each weekly update,
against a full replay (a fresh run of the same pool configs on the same deals).

- week 1: five bots, Concentration (2 seats);
- week 2: a sixth bot (a student's file) is submitted;
- week 2b: that student fixes their file (a new version).

An update plays only what the pools' runs do not hold yet: once the tournament brings a changed
run up to date by playing only the games not on record, week 2 plays only the new bot's games
(with five bots and D deals: 5 x 2 x D of 15 x 2 x D) and week 2b only that bot's tables. Where
the tournament refuses a changed run, the league starts the pool over on the same key and
deals, so the update costs a full replay (the "update" and "full replay" columns agree).

With --big: 30 Cuckoo bots at 8 seats, sampled (tables_per_bot), one new bot a week (weeks 2
and 3), and a changed bot (week 3b). The draw grows without a redraw (docs/league.md, "Big
fields"): each of those weeks plays only the games of the bot that joined or changed, which the
"its games" column counts in the pool's records (the games at a table with that bot, which an
update must equal). --quick: 2 deals, the big field only.
The student's bot plays in-process (as a trusted bot would) unless --sandbox. Asserts nothing.

    python benchmarks/bench_league.py [--deals 4] [--workers 1] [--sandbox]
        [--big [--tables 4]] [--quick]
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from tabulate import tabulate

from arena.league.folder import League, new_league, open_league, parse_game
from arena.league.rounds import pool_config, update
from arena.league.submissions import submit
from arena.tournament.run import run_tournament

STUDENT = '''from arena.api import Bot


class Student(Bot):
    """A student's Concentration bot: {what}."""

    games = ("concentration",)

    def act(self, obs):
        return obs.legal[{index}]
'''


def trusted(spec: str, game: str, kept: object = ()) -> tuple[bool, list[str]]:
    """No validation: the benchmark measures the updates, not the sandbox's checks."""
    return True, ["not validated (benchmark)"]


def its_games(league: League, name: str | None) -> str:
    """How many of the pools' scheduled records have `name` at the table ("-" for none)."""
    if name is None:
        return "-"
    count = 0
    for pool in league.config.pools:
        path = league.pool_dir(pool) / "games.jsonl"
        if path.is_file():
            count += sum(name in json.loads(line)["table"]
                         for line in path.read_text().splitlines())
    return f"{count:,}"


def week(league: League, label: str, workers: int, isolation: str | None,
         scratch: Path, bot: str | None = None) -> list[object]:
    """Update the league once and replay the same configs fresh; the row of the table (with
    `bot`, the games of the bot that joined or changed)."""
    started = time.perf_counter()
    report = update(league, workers, None, isolation)
    seconds = time.perf_counter() - started
    played = sum(p.report.played for p in report.pools if p.report)
    total = sum(p.report.total for p in report.pools if p.report)
    full_played, full_seconds = 0, 0.0
    for pool in league.config.pools:
        config = pool_config(league, pool, isolation)
        if config is None:
            continue
        out = scratch / f"{label}-{pool.id}"
        started = time.perf_counter()
        full = run_tournament(config, out, workers, True, deals_like=league.file("deals"))
        full_seconds += time.perf_counter() - started
        full_played += full.played
    return [label, f"{total:,}", f"{played:,}", its_games(league, bot), f"{seconds:.1f}",
            f"{full_played:,}", f"{full_seconds:.1f}",
            f"{seconds / full_seconds:.2f}" if full_seconds else "-"]


def teacher(folder: Path, deals: int, workers: int, isolation: str | None) -> list[list[object]]:
    """Week 1, 2 and 2b of a Concentration class league."""
    league = new_league(folder / "class", [parse_game("concentration:standard:2")], deals)
    for bot in ("greedy", "random", "tracker", "forgetful", "optimal"):
        submit(league, bot, validator=trusted)
    rows = [week(league, "week 1 (5 bots)", workers, isolation, folder)]
    student = folder / "student"
    student.mkdir()
    (student / "bot.py").write_text(STUDENT.format(what="the first legal move", index=0))
    submit(league, f"{student / 'bot.py'}:Student", "ada", validator=trusted)
    rows.append(week(league, "week 2 (+ada)", workers, isolation, folder, "ada"))
    (student / "bot.py").write_text(STUDENT.format(what="the last legal move", index=-1))
    submit(league, f"{student / 'bot.py'}:Student", "ada", validator=trusted)
    rows.append(week(league, "week 2b (ada v2)", workers, isolation, folder, "ada"))
    return rows


def big(folder: Path, deals: int, workers: int, tables: int) -> list[list[object]]:
    """A field of 30 Cuckoo bots at 8 seats, sampled; one new bot a week, then a changed one."""
    text = (f'name = "cuckoo"\n[deals]\ncount = {deals}\nbase = 1\n[[games]]\ngame = "cuckoo"\n'
            f'players = 8\n[schedule]\nformat = "sampled"\ntables_per_bot = {tables}\n')
    (folder / "cuckoo").mkdir()
    (folder / "cuckoo" / "league.toml").write_text(text)
    league = open_league(folder / "cuckoo")
    from arena.league.folder import ready_deals

    ready_deals(league)
    specs = ("cuckoo-sharp", "cuckoo-simple", "random")
    for i in range(30):
        submit(league, specs[i % 3], f"c{i + 1:02d}", validator=trusted)
    rows = [week(league, "week 1 (30 bots)", workers, None, folder)]
    submit(league, "cuckoo-sharp", "c31", validator=trusted)
    rows.append(week(league, "week 2 (+c31)", workers, None, folder, "c31"))
    submit(league, "cuckoo-simple", "c32", validator=trusted)
    rows.append(week(league, "week 3 (+c32)", workers, None, folder, "c32"))
    submit(league, "cuckoo-sharp", "c03", validator=trusted)  # was random: a new version
    rows.append(week(league, "week 3b (c03 v2)", workers, None, folder, "c03"))
    return rows


def main() -> None:
    """Replay the weeks and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--sandbox", action="store_true",
                        help="play the student's bot sandboxed (slower)")
    parser.add_argument("--big", action="store_true", help="also 30 Cuckoo bots at 8 seats")
    parser.add_argument("--tables", type=int, default=4, help="tables per bot with --big")
    parser.add_argument("--quick", action="store_true", help="2 deals, the big field only")
    args = parser.parse_args()
    if args.quick:
        args.deals, args.big = 2, True
    folder = Path(tempfile.mkdtemp(prefix="bench-league-"))
    try:
        rows = ([] if args.quick else
                teacher(folder, args.deals, args.workers, None if args.sandbox else "none"))
        if args.big:
            rows += big(folder, args.deals, args.workers, args.tables)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(tabulate(rows, headers=["week", "games", "update played", "its games", "update s",
                                  "full replay played", "full replay s", "time ratio"],
                   disable_numparse=True, colalign=("left",)))


if __name__ == "__main__":
    main()
