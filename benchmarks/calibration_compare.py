"""Calibration of `arena compare` and its figures, with their sampling errors.

- **Changed edges** (`edge_false_positives`): two runs of the same two bots whose true edge is
  the same; how often is the edge said to have changed significantly, at 3, 5 and 10 deals?
  Per-deal differences are drawn normal, and as the difference of two Poisson(4) scores (whole
  points, like a card game's). The rule before (the normal 1.96 on standard errors taken back
  from Student's t intervals) and Welch's t test now are applied to the same draws.
- **Unchanged bots** (`unchanged_flagged`): simulated two-player TrueSkill runs (performance =
  skill + N(0, beta^2), rated by `arena.ratings.tables.rate`); between the two runs nothing
  changes, or one bot improves by one beta, or a new strong bot joins. How many bots that did not
  change are flagged as moved: by plain changes of mu (as before) and against the unchanged bots
  (now). The improved bot's detection rate is shown too.

Each share comes with its standard error: binomial for the edges; for the bots, the spread of
the per-replicate shares over the replicates (the bots of one replicate share their reference,
so they are not independent draws). Targets: at most 5% within sampling error.

    python benchmarks/calibration_compare.py            # about two minutes on 2 cores
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from arena.ratings.comparison import Presence, compare
from arena.ratings.tables import BotRow, HeadToHead, PoolRatings, Ratings, rate
from arena.ratings.verdicts import difference, paired_mean, t_quantile

BETA = 25 / 6
DEALS = (3, 5, 10)
EDGE_REPLICATES = 10_000
SKILLS = {"a": 31.0, "b": 28.0, "c": 26.0, "d": 24.0, "e": 22.0, "f": 19.0}
"""The simulated field: six bots, about one beta apart from their neighbours."""


# --- changed edges ---------------------------------------------------------------------------


def _normal(rng: random.Random) -> float:
    return rng.gauss(0.0, 1.0)


def _poisson(rng: random.Random, lam: float = 4.0) -> int:
    """A Poisson draw (Knuth's product of uniforms; small means only)."""
    limit, k, p = math.exp(-lam), 0, 1.0
    while True:
        p *= rng.random()
        if p <= limit:
            return k
        k += 1


def _skellam(rng: random.Random) -> float:
    return float(_poisson(rng) - _poisson(rng))


DRAWS: dict[str, Callable[[random.Random], float]] = {
    "normal": _normal, "points (Poisson - Poisson)": _skellam}


def _edge(deals: int, rng: random.Random, draw: Callable[[random.Random], float]) -> HeadToHead:
    found = paired_mean(draw(rng) for _ in range(deals))
    return HeadToHead("a", "b", 2 * deals, deals, 0, 0, 0, found.mean, found.ci95,
                      found.p_value, 0.5, found.significant)


_ROWS = (BotRow(1, "1", "a", 26.0, 1.0, 23.0, None, 1, 0, 0, 1, 1.0, 0.0, 0.0, 0),
         BotRow(2, "2", "b", 24.0, 1.0, 21.0, None, 1, 0, 0, 1, 1.0, 0.0, 0.0, 0))


def _old_rule(after: HeadToHead, before: HeadToHead) -> bool:
    """The rule before: standard errors from the t intervals, then the normal 1.96."""
    return difference(after.edge, after.edge_ci95 / t_quantile(after.deals - 1), before.edge,
                      before.edge_ci95 / t_quantile(before.deals - 1)).significant


def edge_false_positives(deals: int, draw: str, replicates: int = EDGE_REPLICATES,
                         seed: int = 1) -> tuple[float, float]:
    """Shares of equal edges said to have changed, by the old rule and by `compare` now."""
    rng = random.Random(seed * 1000 + deals)
    old = new = 0
    for _ in range(replicates):
        before, after = _edge(deals, rng, DRAWS[draw]), _edge(deals, rng, DRAWS[draw])
        old += _old_rule(after, before)
        found = compare(Ratings((PoolRatings("g", "v", 1, 0, _ROWS, (before,)),)),
                        Ratings((PoolRatings("g", "v", 1, 0, _ROWS, (after,)),)), code={})
        new += bool(found.pools[0].edges)
    return old / replicates, new / replicates


def _binomial_se(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 1e-12) / n)


# --- unchanged bots --------------------------------------------------------------------------


def simulated_run(skills: Mapping[str, float], games: int, rng: random.Random) -> Ratings:
    """A two-player run of random pairings: the higher performance (skill + N(0, beta^2))
    wins, a draw within 0.5."""
    names = sorted(skills)
    records = []
    for task in range(games):
        x, y = rng.sample(names, 2)
        px, py = rng.gauss(skills[x], BETA), rng.gauss(skills[y], BETA)
        ranks = [1, 1] if abs(px - py) < 0.5 else [1, 2] if px > py else [2, 1]
        records.append({"task": task, "game": "concentration", "variant": "standard",
                        "seed": task, "seats": [x, y], "scores": [3 - ranks[0], 3 - ranks[1]],
                        "ranks": ranks, "faults": []})
    return rate(records)


SCENARIOS: dict[str, tuple[dict[str, float], dict[str, float], str | None]] = {
    "nothing changes": (SKILLS, SKILLS, None),
    "a improves by one beta": (SKILLS, {**SKILLS, "a": SKILLS["a"] + BETA}, "a"),
    "a strong new bot joins": ({k: v for k, v in SKILLS.items() if k != "a"}, SKILLS, None),
}


def _replicate(args: tuple[str, int, int]) -> tuple[float, float, bool | None]:
    """One pair of runs: the shares of unchanged bots flagged, by plain changes of mu and
    against the unchanged bots, and whether the changed bot (if any) was flagged."""
    scenario, games, seed = args
    before_skills, after_skills, changed = SCENARIOS[scenario]
    rng = random.Random(seed)
    before = simulated_run(before_skills, games, rng)
    after = simulated_run(after_skills, games, rng)
    both = sorted(before_skills.keys() & after_skills.keys())
    code = {b: (f"{b}.py differs" if b == changed else None) for b in both}
    plain = {b.bot: b for b in compare(before, after, code={}).pools[0].bots}
    now = {b.bot: b for b in compare(before, after, code=code).pools[0].bots}
    unchanged = [b for b in both if b != changed and now[b].status is Presence.BOTH]
    return (sum(bool(plain[b].significant) for b in unchanged) / len(unchanged),
            sum(bool(now[b].significant) for b in unchanged) / len(unchanged),
            None if changed is None else bool(now[changed].significant))


def unchanged_flagged(scenario: str, games: int, replicates: int,
                      pool: ProcessPoolExecutor | None = None) -> dict[str, Any]:
    """The shares of unchanged bots flagged (mean over replicates, with its standard error)
    by plain changes of mu and against the unchanged bots, and the changed bot's detection."""
    jobs = [(scenario, games, 1_000_003 * r + games) for r in range(replicates)]
    found = list(pool.map(_replicate, jobs) if pool else map(_replicate, jobs))
    out: dict[str, Any] = {}
    for i, name in enumerate(("plain", "reference")):
        shares = [f[i] for f in found]
        out[name] = (statistics.fmean(shares), statistics.stdev(shares) / math.sqrt(replicates))
    detected = [f[2] for f in found if f[2] is not None]
    out["detected"] = sum(detected) / len(detected) if detected else None
    return out


# --- report ----------------------------------------------------------------------------------


def report_edges(replicates: int = EDGE_REPLICATES) -> Iterator[str]:
    """Lines: the changed-edge false-positive rate at 3, 5 and 10 deals, before and now."""
    yield (f"changed edges between two runs of equal bots ({replicates:,} pairs of runs each; "
           f"target now <= 5%)")
    yield f"  {'per-deal difference':<28} {'deals':>5} {'before (z)':>14} {'now (Welch t)':>14}"
    for draw in DRAWS:
        for deals in DEALS:
            old, new = edge_false_positives(deals, draw, replicates)
            yield (f"  {draw:<28} {deals:>5} {_pct(old, replicates):>14} "
                   f"{_pct(new, replicates):>14}")


def _pct(p: float, n: int) -> str:
    return f"{100 * p:.1f} ± {100 * _binomial_se(p, n):.1f}%"


def report_bots(plan: tuple[tuple[str, int, int], ...] | None = None,
                workers: int = 2) -> Iterator[str]:
    """Lines: unchanged bots flagged in each scenario, before and now."""
    plan = plan or (("nothing changes", 2000, 200), ("a improves by one beta", 2000, 200),
                    ("a improves by one beta", 8000, 100), ("a strong new bot joins", 2000, 200))
    yield ("unchanged bots flagged as moved (two-player TrueSkill world, six bots; mean share "
           "over replicates ± its standard error; target now <= 5%)")
    yield (f"  {'scenario':<26} {'games':>6} {'reps':>5} {'before (plain mu)':>18} "
           f"{'now (vs unchanged)':>19} {'changed bot found':>18}")
    with ProcessPoolExecutor(workers) as pool:
        for scenario, games, replicates in plan:
            found = unchanged_flagged(scenario, games, replicates, pool)
            detected = "-" if found["detected"] is None else f"{100 * found['detected']:.0f}%"
            yield (f"  {scenario:<26} {games:>6} {replicates:>5} "
                   f"{_share(*found['plain']):>18} {_share(*found['reference']):>19} "
                   f"{detected:>18}")


def _share(mean: float, se: float) -> str:
    return f"{100 * mean:.1f} ± {100 * se:.1f}%"


def main() -> None:
    """Print both calibrations and the time they took."""
    start = time.perf_counter()
    for line in report_edges():
        print(line, flush=True)
    print(flush=True)
    for line in report_bots():
        print(line, flush=True)
    print(f"\n({time.perf_counter() - start:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
