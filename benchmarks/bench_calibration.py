"""Calibration of the ratings' verdicts: do the stated levels hold? Prints figures, asserts
nothing (`python benchmarks/bench_calibration.py`, a few minutes on 2 cores; `--quick` for a
smaller run, `--reps N` to change the repetitions, `--real cuckoo memorandum` to add A/A runs of
those configs really played, a minute or two each).

1. **A/A on every shipped config, re-dealt** (`--only aa` for it alone). Each config in
   `configs/` is scheduled as it is (tables, seat orders, clones, table sizes), and only its
   deals change between two runs. The
   games come from the skill model of `calibration_world.py` (a deal suits each bot and each
   seat by a shared amount; the same deal in the same seat order is the same game), so that
   nothing changed but the deals. Every bot's move is compared by `arena compare`'s library
   function as it is (`compare`): the spread of z = delta / sqrt(sigma_before² +
   sigma_after²) (target 0.8-1.2) and the share of unchanged bots flagged by `compare` (target
   5%; it tests a move with Student's t on the pools' deals - 1 degrees of freedom, the
   distribution of a z whose variance is estimated from the deals).
   A config gets `--reps` repetitions, more where it has few bots, so that at least 96 moves
   are measured (the spread's standard error is then about 7%).
2. **Equal bots split**: the share of neighbours given different ranks when every bot is equal
   (target at most 5%), in two-player pools and in four-seat pools in every seat order.
3. **Wrong order**: among neighbours the table tells apart, the share whose true skills are in
   the other order (target at most 5%).
4. **Coverage** of adjacent differences in a simulated TrueSkill world at 2 and 4 seats
   (skills from the prior, Thurstone performances with TrueSkill's beta): how often the true
   difference of neighbours lies within the difference ± t · its standard error (target
   93-97%).
6. **`arena compare` against what did not change** (`calibration_compare.py`): the changed-edge
   false-positive rate at 3, 5 and 10 deals (target 5%), and the unchanged bots flagged when
   one bot of the field improves or a strong one joins (target 5%).
7. **A bot last in (nearly) every game**: A/A on the Memorandum config re-dealt, with
   goldfish-small so weak that it is last in all of a run's games about half the time (as in
   issue 39: last in all 360 games of one run, once not last in another): the z spread (target
   0.8-1.2) and the share flagged (target 5%), over all bots and over goldfish-small alone.
8. **`compare` without the bots' code** (no bots.json): the two-player world of section 6 with
   `code` None, so that compare must find the unchanged bots from their moves: the unchanged
   bots' z spread (target 0.8-1.2; z = move / sqrt(sigma_before² + sigma_after²)) and the
   share flagged (target 5%), when nothing changes, when a improves by one beta, when a strong
   bot joins.
9. **With the luck adjustment on** (`calibration_luck.py`; `--only luck` for it alone): on
   games really played with their luck models, the coverage of adjusted edges (target 93-97%),
   the equal-bot false flags (target at most 5%), the A/A compare z spread (target 0.8-1.2)
   and the duel's false H1 (target at most 5%).
10. **Memorandum really played** (`--memorandum PAIRS [--keep DIR]`, alone): A/A per variant and
   per bot, the z spread over the tables' sigmas and over `compare`'s own standard error, and
   the share flagged (issue 39: random's intervals).

Sampling error: a share p measured on n cases has a standard error of sqrt(p (1 - p) / n),
printed beside each; the z spread's relative standard error is about 1 / sqrt(2 n).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from calibration_compare import EDGE_REPLICATES, SCENARIOS, report_bots, report_edges, simulated_run
from calibration_luck import luck_figures
from calibration_world import World, records, shipped

from arena.ratings.comparison import compare
from arena.ratings.pools import rating_pools
from arena.ratings.posterior import posterior
from arena.ratings.settings import TrueSkillSettings
from arena.ratings.tables import rate
from arena.ratings.verdicts import Z95, t_quantile
from arena.tournament.planning.config import load_config

CONFIGS = Path(__file__).parent.parent / "configs"


def share(hits: int, n: int) -> str:
    """A share with its standard error."""
    if not n:
        return "-"
    p = hits / n
    return f"{100 * p:5.1f}% ± {100 * math.sqrt(max(p * (1 - p), 1 / n) / n):.1f} (n {n})"


MIN_MOVES = 96
"""Moves measured per config at least (the z spread's standard error about 7%)."""


def a_a(config: Path, reps: int, deals: int | None,
        min_moves: int = MIN_MOVES) -> tuple[float, int, int]:
    """(z spread, flagged by compare, bots compared) of A/A comparisons of a config
    re-dealt."""
    names = [b.name for b in load_config(config, check_bots=False).bots]
    world = World({b: 0.3 * i for i, b in enumerate(names)})
    zs: list[float] = []
    flagged = 0
    rep = 0
    while rep < reps or len(zs) < min_moves:  # small pools get more repetitions
        rep += 1
        runs = [rate(records(shipped(config, 1 + 10_000 * (2 * rep + side), deals), world,
                             2 * rep + side)) for side in (0, 1)]
        result = compare(runs[0], runs[1])
        for pool in result.pools:
            before = runs[0].pool(pool.game, pool.variant)
            after = runs[1].pool(pool.game, pool.variant)
            if before is None or after is None:
                continue
            sigma = {r.bot: (r.sigma,) for r in before.bots}
            for row in after.bots:
                sigma[row.bot] += (row.sigma,)
            for change in pool.bots:
                if change.delta is None:
                    continue
                zs.append(change.delta / math.hypot(*sigma[change.bot]))
                flagged += bool(change.significant)
    return statistics.pstdev(zs), flagged, len(zs)


def equal_split(reps: int, seats: int) -> tuple[int, int]:
    """(split, neighbour pairs) of equal bots: two seats, each game its own deal; four seats,
    every seat order of every table of three bots on 8 deals."""
    splits = pairs = 0
    for rep in range(reps):
        rng = random.Random(f"split:{seats}:{rep}")
        bots = ["p", "q", "r", "s"] if seats == 2 else ["p", "q", "r"]
        world = World(dict.fromkeys(bots, 0.0))
        out = []
        if seats == 2:
            for task in range(300):
                a, b = rng.sample(bots, 2)
                win = rng.random() < 0.5
                out.append({"task": task, "game": "g", "variant": "v", "seed": task,
                            "seats": [a, b], "scores": [1, 0] if win else [0, 1],
                            "ranks": [1, 2] if win else [2, 1]})
        else:
            from calibration_world import game

            for deal in range(8):
                for extra in bots:
                    for order in sorted(set(itertools.permutations((*bots, extra)))):
                        out.append(game(len(out), "g", "v", order, deal, world, rep))
        rows = rate(out).pools[0].bots
        pairs += len(rows) - 1
        splits += sum(a.rank != b.rank for a, b in itertools.pairwise(rows))
    return splits, pairs


def trueskill_world(reps: int, seats: int) -> tuple[int, int, int, int]:
    """(covered, adjacent pairs, wrong order, pairs told apart) in a simulated TrueSkill world:
    8 bots with skills from the prior N(25, (25/3)²), 600 games of `seats` random bots, each
    its own deal, performances N(skill, beta²) ranked."""
    covered = pairs = wrong = apart = 0
    for rep in range(reps):
        rng = random.Random(f"world:{seats}:{rep}")
        skills = {f"b{i}": rng.gauss(25, 25 / 3) for i in range(8)}
        out = []
        for task in range(600):
            table = rng.sample(sorted(skills), seats)
            perf = [skills[b] + rng.gauss(0, 25 / 6) for b in table]
            ranks = [1 + sum(q > p for q in perf) for p in perf]
            out.append({"task": task, "game": "g", "variant": "v", "seed": task,
                        "seats": table, "scores": [round(p, 2) for p in perf], "ranks": ranks})
        pool = rate(out).pools[0]
        (matches,) = [p.matches for p in rating_pools(out)]
        # the pair's standard error as the table's P(> next) uses it (before the deal became
        # the unit of evidence, the two sigmas taken as independent, and the normal quantile)
        evidence = getattr(posterior(matches, TrueSkillSettings()), "evidence", None)
        quantile = t_quantile(evidence.df) if evidence is not None and evidence.df else Z95
        for above, below in itertools.pairwise(pool.bots):
            estimate = above.mu - below.mu
            truth = skills[above.bot] - skills[below.bot]
            se = (evidence.spread(above.bot, below.bot) if evidence is not None
                  else math.hypot(above.sigma, below.sigma))
            pairs += 1
            covered += se is not None and abs(truth - estimate) <= quantile * se
            if above.rank != below.rank:
                apart += 1
                wrong += truth < 0
    return covered, pairs, wrong, apart


def real_a_a(config: Path, pairs: int, deals: int | None,
             workers: int = 2) -> tuple[float, int, int]:
    """(z spread, flagged by compare, bots compared) of A/A comparisons of a config re-dealt
    and really played (only its deals changed), `pairs` pairs of runs."""
    import tempfile

    from arena.tournament.rating import run_ratings
    from arena.tournament.run import run_tournament

    zs: list[float] = []
    flagged = 0
    with tempfile.TemporaryDirectory() as scratch:
        for pair in range(pairs):
            runs = []
            for side in (0, 1):
                out = Path(scratch) / f"{pair}-{side}"
                run_tournament(shipped(config, 1 + 10_000 * (2 * pair + side), deals), out,
                               workers)
                runs.append(run_ratings(out))
            for pool in compare(runs[0], runs[1]).pools:
                before = runs[0].pool(pool.game, pool.variant)
                after = runs[1].pool(pool.game, pool.variant)
                if before is None or after is None:
                    continue
                sigma = {r.bot: math.hypot(r.sigma, next(a.sigma for a in after.bots
                                                         if a.bot == r.bot))
                         for r in before.bots if any(a.bot == r.bot for a in after.bots)}
                for change in pool.bots:
                    if change.delta is not None:
                        zs.append(change.delta / sigma[change.bot])
                        flagged += bool(change.significant)
    return statistics.pstdev(zs), flagged, len(zs)


EDGE_BOT = "goldfish-small"
EDGE_SKILL = -4.5
"""goldfish-small's skill in section 7: last in all of a 10-deal run's 180 games about half the
time (the others' skills are 0 to 1.2, a game's performance spread about 1.2)."""


def always_last(reps: int, deals: int) -> dict[str, tuple[float, int, int]]:
    """Section 7: (z spread, flagged, moves) over all bots ("all") and over EDGE_BOT, and the
    runs in which EDGE_BOT was last in every game ("separated": (share, runs, 0))."""
    config = CONFIGS / "memorandum.toml"
    names = [b.name for b in load_config(config, check_bots=False).bots]
    world = World({**{b: 0.3 * i for i, b in enumerate(names)}, EDGE_BOT: EDGE_SKILL})
    zs: dict[str, list[float]] = {"all": [], EDGE_BOT: []}
    flags: dict[str, int] = {"all": 0, EDGE_BOT: 0}
    separated = runs_seen = 0
    for rep in range(reps):
        runs = [rate(records(shipped(config, 1 + 10_000 * (2 * rep + side), deals), world,
                             2 * rep + side)) for side in (0, 1)]
        for run in runs:
            for p in run.pools:
                runs_seen += 1
                separated += any(bot == EDGE_BOT for bot, _ in p.edges)
        for pool in compare(runs[0], runs[1]).pools:
            before = {r.bot: r for r in runs[0].pool(pool.game, pool.variant).bots}
            after = {r.bot: r for r in runs[1].pool(pool.game, pool.variant).bots}
            for change in pool.bots:
                if change.delta is None:
                    continue
                z = change.delta / math.hypot(before[change.bot].sigma, after[change.bot].sigma)
                for key in ("all", change.bot):
                    if key in zs:
                        zs[key].append(z)
                        flags[key] += bool(change.significant)
    out = {key: (statistics.pstdev(v), flags[key], len(v)) for key, v in zs.items()}
    out["separated"] = (separated / max(1, runs_seen), runs_seen, 0)
    return out


def no_code(scenario: str, games: int, reps: int) -> tuple[float, int, int]:
    """Section 8: (z spread, flagged, moves) of the unchanged bots when compare has no code."""
    before_skills, after_skills, changed = SCENARIOS[scenario]
    zs: list[float] = []
    flagged = 0
    for rep in range(reps):
        rng = random.Random(f"no-code:{scenario}:{games}:{rep}")
        before, after = (simulated_run(before_skills, games, rng),
                         simulated_run(after_skills, games, rng))
        (pool,) = compare(before, after).pools
        was = {r.bot: r for r in before.pools[0].bots}
        now = {r.bot: r for r in after.pools[0].bots}
        for change in pool.bots:
            if change.delta is None or change.bot == changed:
                continue
            zs.append(change.delta / math.hypot(was[change.bot].sigma, now[change.bot].sigma))
            flagged += bool(change.significant)
    return statistics.pstdev(zs), flagged, len(zs)


def edge_figures(quick: bool) -> Iterator[str]:
    """Lines of sections 7 and 8."""
    reps = 4 if quick else 16
    found = always_last(reps, 10)
    yield (f"7. a bot last in (nearly) every game: Memorandum re-dealt, {EDGE_BOT} at skill "
           f"{EDGE_SKILL} ({reps} pairs of runs on 10 deals; last in every game of a pool in "
           f"{100 * found['separated'][0]:.0f}% of {found['separated'][1]} pools)")
    for key in ("all", EDGE_BOT):
        spread, flagged, n = found[key]
        yield f"   {key:<22} z spread {spread:5.2f}  flagged {share(flagged, n)}"
    yield ("8. compare without the bots' code (two-player world of section 6, six bots; the "
           "unchanged bots)")
    for scenario in ("nothing changes", "a improves by one beta", "a strong new bot joins"):
        spread, flagged, n = no_code(scenario, 1000, 20 if quick else 100)
        yield f"   {scenario:<26} z spread {spread:5.2f}  flagged {share(flagged, n)}"


def compare_figures(quick: bool) -> Iterator[str]:
    """Lines of section 6: `arena compare`'s changed edges and its moves against the unchanged
    bots (calibration_compare.py; fewer replicates with --quick)."""
    yield "6. arena compare against what did not change"
    yield from report_edges(2000 if quick else EDGE_REPLICATES)
    plan = (("nothing changes", 1000, 40), ("a improves by one beta", 1000, 40),
            ("a strong new bot joins", 1000, 40)) if quick else None
    yield from report_bots(plan)


def real_memorandum(pairs: int, kept: Path | None = None) -> Iterator[str]:
    """Section 10 (issue 39): A/A of the Memorandum config really played, re-dealt, per
    variant and per bot: the z spread of `compare`'s moves over the two tables' sigmas (as
    section 5), of the moves over `compare`'s own standard error, and the share flagged. Runs
    are kept in `kept` (played once: a run there is used again), else in a scratch folder."""
    import tempfile
    from collections import defaultdict

    from arena.tournament.rating import run_ratings
    from arena.tournament.run import run_tournament

    config = CONFIGS / "memorandum.toml"
    table: dict[str, list[float]] = defaultdict(list)
    own: dict[str, list[float]] = defaultdict(list)
    flags: dict[str, int] = defaultdict(int)
    with tempfile.TemporaryDirectory() as scratch:
        folder = kept or Path(scratch)
        runs = []
        for run in range(2 * pairs):
            out = folder / f"run-{run}"
            if not (out / "done").exists():
                run_tournament(shipped(config, 1 + 10_000 * run, None), out, 1)
                (out / "done").write_text("")
            runs.append(run_ratings(out))
        for before, after in zip(runs[0::2], runs[1::2], strict=True):
            for pool in compare(before, after).pools:
                was = {r.bot: r for r in before.pool(pool.game, pool.variant).bots}
                now = {r.bot: r for r in after.pool(pool.game, pool.variant).bots}
                deals = min(before.pool(pool.game, pool.variant).deals,
                            after.pool(pool.game, pool.variant).deals)
                for change in pool.bots:
                    if change.delta is None or not change.delta_ci95:
                        continue
                    for key in ("all", pool.variant, f"{pool.variant}: {change.bot}"):
                        table[key].append(change.delta / math.hypot(was[change.bot].sigma,
                                                                    now[change.bot].sigma))
                        own[key].append(change.delta * t_quantile(deals - 1)
                                        / change.delta_ci95)
                        flags[key] += bool(change.significant)
    yield (f"10. A/A really played: memorandum re-dealt, {pairs} pairs of runs (z over the "
           f"tables' sigmas, z over compare's own standard error; targets 0.8-1.2, 5%)")
    for key in sorted(table, key=lambda k: (k != "all", k)):
        yield (f"   {key:<28} z spread {statistics.pstdev(table[key]):5.2f}  own "
               f"{statistics.pstdev(own[key]):5.2f}  flagged {share(flags[key], len(own[key]))}")


def main() -> None:
    """Print every figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=8)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and deals")
    parser.add_argument("--real", nargs="*", default=[], metavar="CONFIG",
                        help="also A/A on these shipped configs (names) really played")
    parser.add_argument("--real-pairs", type=int, default=4)
    parser.add_argument("--only", choices=("aa", "edges", "luck"), default=None,
                        help="only section 1 (A/A on the shipped configs), only sections 2, 7 "
                             "and 8 (the equal-bot split, the bot at the edge, compare without "
                             "code), or only section 9 (the luck)")
    parser.add_argument("--workers", type=int, default=1, help="for section 9's games")
    parser.add_argument("--luck-runs", type=int, default=None,
                        help="section 9: runs of 20 deals (default 100, --quick 20)")
    parser.add_argument("--luck-duels", type=int, default=None,
                        help="section 9: duels of copies (default 100, --quick 20)")
    parser.add_argument("--luck-game", action="append", default=None, metavar="GAME",
                        help="section 9 on this game only (repeatable)")
    parser.add_argument("--memorandum", type=int, default=0, metavar="PAIRS",
                        help="only section 10: A/A of Memorandum really played, PAIRS pairs")
    parser.add_argument("--keep", type=Path, default=None,
                        help="with --memorandum: keep the runs in this folder, reuse them")
    args = parser.parse_args()
    if args.memorandum:
        for line in real_memorandum(args.memorandum, args.keep):
            print(line, flush=True)
        return
    reps = 3 if args.quick else args.reps
    start = time.perf_counter()
    luck_sizes = (20, args.luck_runs or (20 if args.quick else 100), 320,
                  args.luck_duels or (20 if args.quick else 100))
    if args.only == "luck":
        for line in luck_figures(*luck_sizes, args.workers, args.luck_game):
            print(line, flush=True)
        print(f"({time.perf_counter() - start:.0f} s)")
        return
    if args.only == "edges":
        splits, pairs = equal_split(reps * 5, 2)
        print(f"2. equal bots split, two seats: {share(splits, pairs)}", flush=True)
        splits, pairs = equal_split(reps * 5, 4)
        print(f"2. equal bots split, four seats, every seat order: {share(splits, pairs)}",
              flush=True)
        for line in edge_figures(args.quick):
            print(line, flush=True)
        print(f"({time.perf_counter() - start:.0f} s)")
        return
    print("1. A/A: shipped configs re-dealt (only the deals changed), arena compare's library")
    print(f"   {'config':<22} {'z spread':>9}  flagged by compare (target 5%)")
    for config in sorted(CONFIGS.glob("*.toml")):
        deals = 10 if args.quick else None
        spread, flagged, n = a_a(config, reps, deals, 24 if args.quick else MIN_MOVES)
        print(f"   {config.stem:<22} {spread:9.2f}  {share(flagged, n)}", flush=True)
    if args.only == "aa":
        print(f"({time.perf_counter() - start:.0f} s)")
        return
    print("2. equal bots split (target at most 5%)")
    for seats, label in ((2, "two seats, each game its own deal"),
                         (4, "four seats, every seat order, clones")):
        splits, pairs = equal_split(reps * 5, seats)
        print(f"   {label:<40} {share(splits, pairs)}", flush=True)
    print("3-4. simulated TrueSkill world: coverage of adjacent differences (target 93-97%), "
          "wrong order among neighbours told apart (target at most 5%)")
    for seats in (2, 4):
        covered, pairs, wrong, apart = trueskill_world(reps * 5, seats)
        print(f"   {seats} seats: coverage {share(covered, pairs)}; wrong order "
              f"{share(wrong, apart)}", flush=True)
    for name in args.real:
        spread, flagged, n = real_a_a(CONFIGS / f"{name}.toml", args.real_pairs, None)
        print(f"5. A/A really played: {name} re-dealt, {args.real_pairs} pairs of runs: "
              f"z spread {spread:.2f}, flagged by compare {share(flagged, n)}", flush=True)
    for line in compare_figures(args.quick):
        print(line, flush=True)
    for line in edge_figures(args.quick):
        print(line, flush=True)
    for line in luck_figures(*luck_sizes, args.workers, args.luck_game):
        print(line, flush=True)
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
