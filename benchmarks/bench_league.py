"""The teacher's weeks, replayed on a league: games played and seconds for each weekly update,
against a full replay (a fresh run of the same pool configs on the same deals, rated afresh).

- week 1: a league of two games: Concentration (five bots, 2 seats) and Dig (random and the
  two Dig bots);
- week 2: a sixth Concentration bot (a student's file) is submitted;
- week 2b: that student fixes their file (a new version);
- week 3: nothing changed (the update's fixed cost).

An update plays only what the pools' runs do not hold yet: week 2 plays only the new bot's
games (with five bots and D deals: 5 x 2 x D of 15 x 2 x D), week 2b only that bot's tables,
and the Dig pool, which the student does not play, nothing after week 1 (its ratings are kept
from the round before). The time ratio says whether an update's time is in proportion to the
games it plays: its seconds against those the same games take in the full replay.

With --big: 30 Cuckoo bots at 8 seats, sampled (tables_per_bot), one new bot a week (weeks 2
and 3), and a changed bot (week 3b). The draw grows without a redraw (docs/league.md, "Big
fields"): each of those weeks plays only the games of the bot that joined or changed, which the
"its games" column counts in the pool's records (the games at a table with that bot, which an
update must equal). --quick: 2 deals, the big field only.
The student's bot plays in-process (as a trusted bot would) unless --sandbox. Asserts nothing.

    python benchmarks/bench_league.py [--deals 4] [--workers 1] [--sandbox]
        [--big [--tables 4]]
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
from arena.tournament.rating import run_ratings
from arena.tournament.records.results import RunDirectory
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


HEADERS = ["week", "games", "update played", "its games", "update s", "full replay s",
           "same games in the full replay s", "time ratio"]
HEADERS_NOTE = """\
The full replay plays every pool afresh and rates it. Seconds are CPU seconds of this process
when every game is played in it (--workers 1, bots in-process: the machine's other load left
out), wall seconds otherwise. same games in the full replay s: the full replay's seconds times
the share of its game time (the records' durations) that the games the update played took in
it, matched by identity (for a grown draw, whose new tables a fresh draw does not hold: its
share of the replay's games): the update's time were it exactly in proportion to its games. time
ratio: update s / that (1.00: in proportion). The update's fixed cost (reading, planning,
rating the pools that changed, writing the round) is the row with no change."""


def _records(run: Path) -> dict[str, float]:
    """A run's records: identity -> duration (seconds)."""
    games = run / "games.jsonl"
    if not games.is_file():
        return {}
    return {r["identity"]: float(r["duration"])
            for r in map(json.loads, games.read_text().splitlines())}


def its_games(league: League, name: str | None) -> str:
    """How many of the pools' scheduled records have `name` at the table ("-" for none)."""
    if name is None:
        return "-"
    count = 0
    for pool in league.config.pools:  # the rated records (a replaced version's are not)
        count += sum(name in r["table"] for r in RunDirectory(league.pool_dir(pool)).records())
    return f"{count:,}"


def week(league: League, label: str, workers: int, isolation: str | None,
         scratch: Path, bot: str | None = None) -> list[object]:
    """Update the league once and replay the same configs fresh; the row of the table (with
    `bot`, the games of the bot that joined or changed)."""
    clock = time.process_time if workers == 1 and isolation == "none" else time.perf_counter
    before = {p.id: set(_records(league.pool_dir(p))) for p in league.config.pools}
    started = clock()
    report = update(league, workers, None, isolation)
    seconds = clock() - started
    played = sum(p.report.played for p in report.pools if p.report)
    total = sum(p.report.total for p in report.pools if p.report)
    new = {p.id: set(_records(league.pool_dir(p))) - before[p.id] for p in league.config.pools}
    full_seconds, same_share, all_share, replayed_games = 0.0, 0.0, 0.0, 0
    for pool in league.config.pools:
        config = pool_config(league, pool, isolation)
        if config is None:
            continue
        out = scratch / f"{label}-{pool.id}"
        started = clock()
        run_tournament(config, out, workers, True, deals_like=league.file("deals"))
        run_ratings(out)  # a replay's standings are rated afresh too
        full_seconds += clock() - started
        replayed = _records(out)
        same_share += sum(d for i, d in replayed.items() if i in new[pool.id])
        all_share += sum(replayed.values())
        replayed_games += len(replayed)
    if same_share:
        proportional = full_seconds * same_share / all_share
    else:  # a grown draw's new tables are not a fresh draw's: the replay's mean game instead
        proportional = full_seconds * played / replayed_games if replayed_games else 0.0
    ratio = f"{seconds / proportional:.2f}" if proportional else "-"
    return [label, f"{total:,}", f"{played:,}", its_games(league, bot), f"{seconds:.2f}",
            f"{full_seconds:.2f}", f"{proportional:.2f}", ratio]


def teacher(folder: Path, deals: int, workers: int, isolation: str | None) -> list[list[object]]:
    """Week 1, 2 and 2b of a class league of two games: Concentration (five bots) and Dig
    (random and the two Dig bots); the student's bot plays Concentration only, so the Dig
    pool plays nothing after week 1 and keeps its ratings."""
    league = new_league(folder / "class", [parse_game("concentration:standard:2"),
                                           parse_game("dig:standard:2")], deals)
    for bot in ("greedy", "random", "tracker", "forgetful", "optimal", "dig-simple",
                "dig-sharp"):
        submit(league, bot, validator=trusted)
    rows = [week(league, "week 1 (5 + 3 bots)", workers, isolation, folder)]
    student = folder / "student"
    student.mkdir()
    (student / "bot.py").write_text(STUDENT.format(what="the first legal move", index=0))
    submit(league, f"{student / 'bot.py'}:Student", "ada", validator=trusted)
    rows.append(week(league, "week 2 (+ada)", workers, isolation, folder, "ada"))
    (student / "bot.py").write_text(STUDENT.format(what="the last legal move", index=-1))
    submit(league, f"{student / 'bot.py'}:Student", "ada", validator=trusted)
    rows.append(week(league, "week 2b (ada v2)", workers, isolation, folder, "ada"))
    rows.append(week(league, "week 3 (no change)", workers, isolation, folder))
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
    print(tabulate(rows, headers=HEADERS, disable_numparse=True, colalign=("left",)))
    print(HEADERS_NOTE)


if __name__ == "__main__":
    main()
