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
Every bot plays in-process, the student's as a trusted bot would (`--isolation none`): the
cheapest games a league can play, beside which the update's own cost weighs most. With
--sandbox the student's bot plays sandboxed, as a league plays a submitted bot (a process of
its own for each game, `docs/sandbox.md`), and the sandbox's CPU seconds are counted with the
arena's: its fork server, and the hosts and game processes below it, are processes the arena
does not wait for, which getrusage does not count. Asserts nothing.

    python benchmarks/bench_league.py [--deals 4] [--workers 1] [--sandbox]
        [--big [--tables 4]]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import re
import resource
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabulate import tabulate

from arena.league.folder import League, new_league, open_league, parse_game
from arena.league.rounds import pool_config, update
from arena.league.submissions import submit
from arena.tournament.planning.schedule import GameTask
from arena.tournament.playing.tasks import Played, TaskPlayer
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


HEADERS = ["week", "games", "update played", "its games", "update CPU s",
           "full replay CPU s", "time ratio CPU", "time ratio wall",
           "its games' CPU", "CPU ratio, games as replayed"]
HEADERS_NOTE = """\
Each week is measured --repeats times, the update and the full replay side by side (their order
alternating), each in a process of its own forked from the same state (the league as the week found
it, what earlier weeks imported and looked up already loaded), so that both start alike and a burst
of the machine's other load falls on one repetition, not on one side. The update runs on the league
as the week found it, put back after each repetition; the full replay plays every pool afresh on the
same deals and rates it. CPU s: the process's CPU seconds (its workers' included; getrusage, to the
microsecond; the sandbox's processes' from /proc, in hundredths), the median over the repetitions;
wall seconds are the same on an idle machine. time ratio: the update's seconds over the full
replay's times the share of its game time (the records' durations) that the games the update played
took in it, matched by identity (for a grown draw, whose new tables a fresh draw does not hold: its
share of the replay's games), that is the update's time were it exactly in proportion to its games;
1.00 is in proportion. The CPU ratio weighs the games by their CPU seconds in the replay, timed game
by game in the measuring process (one worker; a sandboxed bot's moves by its processes' CPU, read
from /proc before and after each game; with workers, by their durations, which are wall seconds a
busy machine stretches game by game). its games' CPU: those games' CPU seconds in the update over
the same games' in the replay (the play alone; 1.00: played alike). CPU ratio, games as replayed:
the CPU ratio with the update's games counted at the CPU seconds the same games took in the replay
(a common-games control: what the games cost is not the update's doing, and playing one game twice
varies by tens of percent on a loaded machine), so that it measures the update's own cost beside its
games. Shown as the median of the repetitions' ratios [lowest-highest]. Only the update and the
replay are timed, not the benchmark's reading of their records. The update's fixed cost (reading,
planning, rating the pools that changed, writing the round) is the row with no change."""


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


@dataclass(frozen=True)
class Timed:
    """What one side of a repetition measured: CPU and wall seconds, and what it returned."""

    cpu: float
    wall: float
    value: Any
    games: dict[str, float]
    """Each game's CPU seconds in the measuring process, by identity (`_game_cpu`)."""


def _cpu() -> float:
    """This process's CPU seconds, its waited-for children's included, to the microsecond
    (getrusage: os.times counts whole clock ticks, 10 ms, and truncates, an error of up to
    20 ms in a measurement of a few tenths of a second), and its live descendants' (`_alive`)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), \
        resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime + _alive()


def _children(pid: int) -> list[int]:
    """`pid`'s children, those of all its threads ([] once it has ended, or without /proc)."""
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(child) for child in (task / "children").read_text().split()]
    except OSError:
        pass
    return found


def _ticks(pid: int) -> int:
    """A process's CPU clock ticks, its own and its waited-for children's (0 once it has been
    reaped; a process that has ended and is not yet reaped still has its own)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0
    return sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime


def _alive() -> float:
    """The CPU seconds of this process's descendants, and of the children they have waited
    for: the sandbox's fork server, which an arena process starts at its first sandboxed game
    and keeps until it exits, and the hosts and game processes below it, none of which reaches
    this process's getrusage (/proc, in clock ticks; 0 without /proc). Each process's CPU is
    counted once: in its own entry until its parent reaps it, then in its parent's."""
    total, pending = 0, _children(os.getpid())
    while pending:
        pid = pending.pop()
        total += _ticks(pid)
        pending += _children(pid)
    return total / os.sysconf("SC_CLK_TCK")


def _forked(work: Callable[[], Any], after: Callable[[Any], Any] | None = None) -> Timed:
    """`work` run and timed in a child forked from this process (the same state each time);
    `after` (untimed) turns what it returned into the value sent back. While it runs, each
    game played in the child is timed in CPU seconds (`game_cpu`)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: time the work, send the result back, leave without cleanup
        os.close(read)
        try:
            clock = _game_cpu()
            cpu, wall = _cpu(), time.perf_counter()
            value = work()
            cpu, wall = _cpu() - cpu - clock.overhead, time.perf_counter() - wall
            value = after(value) if after is not None else value
            out = pickle.dumps((True, Timed(cpu, wall, value, dict(clock.games))))
        except BaseException as exc:  # said in the parent
            out = pickle.dumps((False, f"{type(exc).__name__}: {exc}"))
        with os.fdopen(write, "wb") as pipe:
            pipe.write(out)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    ok, found = pickle.loads(data) if data else (False, "the child died")
    if not ok:
        raise RuntimeError(f"a measured step failed: {found}")
    return found


@dataclass
class GameClock:
    """Each game's CPU seconds by identity (`_game_cpu`), and the CPU seconds spent timing them,
    which the measured side's own are given back."""

    games: dict[str, float]
    overhead: float = 0.0


def _game_cpu() -> GameClock:
    """In a measuring child only (it is thrown away after): each game this process plays, its
    CPU seconds by identity, its bots' moves included, in-process or sandboxed (the sandbox's
    processes' CPU, `_alive`, before and after it; one worker); the records' durations are
    wall seconds, which the machine's other load stretches game by game."""
    clock = GameClock({})
    play = TaskPlayer.play

    def now() -> float:
        start = time.process_time()
        found = start + _alive()
        clock.overhead += time.process_time() - start
        return found

    def timed(self: TaskPlayer, task: GameTask) -> Played:
        start = now()
        try:
            return play(self, task)
        finally:
            clock.games[task.identity or str(task.task)] = now() - start

    TaskPlayer.play = timed  # type: ignore[method-assign]
    return clock


def _updated(folder: Path, workers: int, isolation: str | None) -> tuple[int, int]:
    """The league at `folder` brought up to date: (played, total)."""
    report = update(open_league(folder), workers, None, isolation)
    return (sum(p.report.played for p in report.pools if p.report),
            sum(p.report.total for p in report.pools if p.report))


def _new_records(folder: Path, before: dict[str, set[str]]
                 ) -> Callable[[tuple[int, int]], tuple[int, int, dict[str, set[str]]]]:
    """What the update of the league at `folder` played, read after it (untimed): (played,
    total, the new records' identities by pool, against `before`)."""
    def found(counts: tuple[int, int]) -> tuple[int, int, dict[str, set[str]]]:
        league = open_league(folder)
        return (*counts, {p.id: set(_records(league.pool_dir(p))) - before.get(p.id, set())
                          for p in league.config.pools})
    return found


def _restore(folder: Path, kept: Path) -> None:
    """The league folder put back as it was kept (at its own path: a league names its stored
    bots by their path, and a copy elsewhere would replay their games)."""
    shutil.rmtree(folder)
    shutil.copytree(kept, folder, symlinks=True)


def _replayed(folder: Path, out: Path, workers: int, isolation: str | None) -> list[Path]:
    """Every pool of the league at `folder` played afresh on its deals (into `out`) and
    rated: the pools' runs."""
    league = open_league(folder)
    runs = []
    for pool in league.config.pools:
        config = pool_config(league, pool, isolation)
        if config is None:
            continue
        run = out / pool.id
        run_tournament(config, run, workers, True, deals_like=league.file("deals"))
        run_ratings(run)  # a replay's standings are rated afresh too
        runs.append(run)
    return runs


def _replay_records(runs: list[Path]) -> dict[str, dict[str, float]]:
    """A replay's records, read after it (untimed): pool -> identity -> duration."""
    return {run.name: _records(run) for run in runs}


def _ratio(update_s: float, replay_s: float, played: int, new: dict[str, set[str]],
           replayed: dict[str, dict[str, float]]) -> float | None:
    """The update's seconds over the replay's share of the same games (None: no games):
    `replayed` gives each game's seconds in the replay, pool -> identity -> seconds."""
    same = sum(d for pool, found in replayed.items() for i, d in found.items()
               if i in new.get(pool, ()))
    whole = sum(d for found in replayed.values() for d in found.values())
    games = sum(len(found) for found in replayed.values())
    if same and whole:
        proportional = replay_s * same / whole
    else:  # a grown draw's new tables are not a fresh draw's: the replay's mean game instead
        proportional = replay_s * played / games if games else 0.0
    return update_s / proportional if proportional else None


def _by_pool(records: dict[str, dict[str, float]], cpu: dict[str, float]
             ) -> dict[str, dict[str, float]] | None:
    """The replay's games' CPU seconds by pool and identity (None if some game was not timed
    in the measuring process: its games were played by workers)."""
    found = {pool: {i: cpu[i] for i in games if i in cpu} for pool, games in records.items()}
    return found if all(len(found[p]) == len(g) for p, g in records.items()) else None


def _spread(values: list[float | None]) -> str:
    """The median of the repetitions and their range."""
    found = sorted(v for v in values if v is not None)
    if not found:
        return "-"
    return f"{statistics.median(found):.2f} [{found[0]:.2f}-{found[-1]:.2f}]"


def week(league: League, label: str, workers: int, isolation: str | None,
         scratch: Path, bot: str | None = None, repeats: int = 5) -> list[object]:
    """Measure the week's update against a full replay, `repeats` times side by side, then
    bring the league itself up to date; the row of the table (with `bot`, the games of the bot
    that joined or changed)."""
    label_dir = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")
    kept = scratch / f"{label_dir}-kept"
    shutil.copytree(league.path, kept, symlinks=True)
    before = {p.id: set(_records(league.pool_dir(p))) for p in league.config.pools}
    updates, replays = [], []
    for rep in range(repeats):
        out = scratch / f"{label_dir}-replay-{rep}"
        sides = [("update", lambda: _forked(lambda: _updated(league.path, workers, isolation),
                                            _new_records(league.path, before))),
                 ("replay", lambda out=out: _forked(
                     lambda: _replayed(league.path, out, workers, isolation), _replay_records))]
        for side, measured in (sides if rep % 2 == 0 else sides[::-1]):
            if side == "update":
                updates.append(measured())
                _restore(league.path, kept)  # untimed: the next side finds the week as it was
            else:
                replays.append(measured())
                shutil.rmtree(out, ignore_errors=True)
    update(league, workers, None, isolation)  # the league itself, for the next week
    shutil.rmtree(kept, ignore_errors=True)
    played, total, _ = updates[0].value
    cpu, wall, plays, as_replayed = [], [], [], []
    for u, r in zip(updates, replays, strict=True):
        games = _by_pool(r.value, r.games)  # the CPU ratio on the games' CPU seconds if known
        cpu.append(_ratio(u.cpu, r.cpu, played, u.value[2], games or r.value))
        wall.append(_ratio(u.wall, r.wall, played, u.value[2], r.value))
        same = [i for found in u.value[2].values() for i in found]
        if games is not None and same and all(i in u.games and i in r.games for i in same):
            plays.append(sum(u.games[i] for i in same) / sum(r.games[i] for i in same))
            own = u.cpu - sum(u.games[i] for i in same) + sum(r.games[i] for i in same)
            as_replayed.append(_ratio(own, r.cpu, played, u.value[2], games))
    return [label, f"{total:,}", f"{played:,}", its_games(league, bot),
            f"{statistics.median(u.cpu for u in updates):.2f}",
            f"{statistics.median(r.cpu for r in replays):.2f}",
            _spread(cpu) if played else "-",
            _spread(wall) if played else "-", _spread(plays), _spread(as_replayed)]


def teacher(folder: Path, deals: int, workers: int, isolation: str | None,
            repeats: int) -> list[list[object]]:
    """Week 1, 2 and 2b of a class league of two games: Concentration (five bots) and Dig
    (random and the two Dig bots); the student's bot plays Concentration only, so the Dig
    pool plays nothing after week 1 and keeps its ratings."""
    league = new_league(folder / "class", [parse_game("concentration:standard:2"),
                                           parse_game("dig:standard:2")], deals)
    for bot in ("greedy", "random", "tracker", "forgetful", "optimal", "dig-simple",
                "dig-sharp"):
        submit(league, bot, validator=trusted)
    rows = [week(league, "week 1 (5 + 3 bots)", workers, isolation, folder, repeats=repeats)]
    student = folder / "student"
    student.mkdir()
    (student / "bot.py").write_text(STUDENT.format(what="the first legal move", index=0))
    submit(league, f"{student / 'bot.py'}:Student", "ada", validator=trusted)
    rows.append(week(league, "week 2 (+ada)", workers, isolation, folder, "ada", repeats=repeats))
    (student / "bot.py").write_text(STUDENT.format(what="the last legal move", index=-1))
    submit(league, f"{student / 'bot.py'}:Student", "ada", validator=trusted)
    rows.append(week(league, "week 2b (ada v2)", workers, isolation, folder, "ada",
                     repeats=repeats))
    rows.append(week(league, "week 3 (no change)", workers, isolation, folder, repeats=repeats))
    return rows


def big(folder: Path, deals: int, workers: int, tables: int, repeats: int
        ) -> list[list[object]]:
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
    rows = [week(league, "week 1 (30 bots)", workers, "none", folder, repeats=repeats)]
    submit(league, "cuckoo-sharp", "c31", validator=trusted)
    rows.append(week(league, "week 2 (+c31)", workers, "none", folder, "c31", repeats=repeats))
    submit(league, "cuckoo-simple", "c32", validator=trusted)
    rows.append(week(league, "week 3 (+c32)", workers, "none", folder, "c32", repeats=repeats))
    submit(league, "cuckoo-sharp", "c03", validator=trusted)  # was random: a new version
    rows.append(week(league, "week 3b (c03 v2)", workers, "none", folder, "c03", repeats=repeats))
    return rows


def main() -> None:
    """Replay the weeks and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--sandbox", action="store_true",
                        help="play the student's bot sandboxed, as a league does (slower)")
    parser.add_argument("--big", action="store_true", help="also 30 Cuckoo bots at 8 seats")
    parser.add_argument("--tables", type=int, default=4, help="tables per bot with --big")
    parser.add_argument("--repeats", type=int, default=5,
                        help="repetitions of each week's update and full replay, side by side")
    parser.add_argument("--quick", action="store_true",
                        help="2 deals, the big field only, one repetition")
    args = parser.parse_args()
    if args.quick:
        args.deals, args.big, args.repeats = 2, True, 1
    folder = Path(tempfile.mkdtemp(prefix="bench-league-"))
    try:
        rows = ([] if args.quick else
                teacher(folder, args.deals, args.workers, None if args.sandbox else "none",
                        args.repeats))
        if args.big:
            rows += big(folder, args.deals, args.workers, args.tables, args.repeats)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(tabulate(rows, headers=HEADERS, disable_numparse=True, colalign=("left",)))
    print(HEADERS_NOTE)


if __name__ == "__main__":
    main()
