"""Games needed for the same interval width with and without the luck adjustment (issue 42).

    python benchmarks/bench_luck.py --quick            # a few minutes: 60 deals a pair
    python benchmarks/bench_luck.py                    # the full size: 1,000 deals a pair
    python benchmarks/bench_luck.py --game dig --pair dig-sharp dig-simple --players 2

For each pair of bundled bots, every deal is played twice with the seats swapped (duplicate
deals; at more than two seats the two bots alternate round the table, and swap). A deal's
paired score difference D_d is the first bot's score advantage averaged over its two games,
exactly as the crosstable's edge takes it, and L_d its luck advantage (the records' `luck`,
from the game's luck model). The interval of an edge is as wide as the standard deviation of
its per-deal values over the square root of the deals, so the deals (and games) needed for a
given width scale with the variance: the **ratio** printed is

    var(D_d - beta_k L_d) / var(D_d)

with beta_k cross-fitted between two folds of the deals (`arena.ratings.adjustment`, exactly
what the crosstable uses): the games needed with the adjustment over the games needed with
duplicate deals alone. Its 90% interval is a percentile bootstrap over deals (each resample
cross-fitted afresh). The mean luck advantage is printed with its 95% interval: it must hold 0.
Beside it, the crosstable's own edge intervals (`arena.ratings.tables.rate` with the luck on
and off), squared and divided: the same ratio, by the product's path.

Targets: at most 0.6 in Concentration and Dig for close bots, 0.9 in Cuckoo; none above 1.0.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.ratings.adjustment import cross_fitted
from arena.ratings.tables import rate
from arena.ratings.verdicts import Z95


@dataclass(frozen=True)
class Pair:
    """Two bots of one game at a table size, and how far apart they are."""

    game: str
    first: str
    second: str
    players: int
    distance: str


PAIRS = (
    Pair("concentration", "forgetful:recall=1.0,capacity=0", "forgetful:recall=0.9,capacity=0",
         2, "far"),
    Pair("concentration", "forgetful:recall=0.9,capacity=0", "forgetful:recall=0.8,capacity=0",
         2, "close"),
    Pair("dig", "dig-sharp", "dig-simple", 2, "far"),
    Pair("dig", "dig-sharp", "dig-sharp:pressure=1.0", 2, "close"),
    Pair("cuckoo", "cuckoo-sharp", "cuckoo-simple", 6, "far"),
)
"""The issue's table: pairs of bundled bots, close and far."""


def seatings(players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two seatings of a deal: the bots alternating round the table, then swapped (0 is
    the first bot)."""
    one = tuple(seat % 2 for seat in range(players))
    return one, tuple(1 - entry for entry in one)


def play_deal(pair: Pair, seed: int, which: Sequence[int] = (0, 1)
              ) -> tuple[list[dict[str, Any]], float, float | None]:
    """A deal's two games (or those of `which` seatings) as records (tasks 2 * seed, 2 * seed
    + 1), its D_d and its L_d (None where a game carries no luck)."""
    variant = find_game(pair.game).variant("standard")
    specs = [resolve_bot(pair.first, pair.game), resolve_bot(pair.second, pair.game)]
    records, d, luck = [], 0.0, 0.0
    lucky = True
    for n, order in enumerate(seatings(pair.players)):
        if n not in which:
            continue
        seated = [specs[entry] for entry in order]
        names = [("A", "B")[entry] for entry in order]
        record = play_game(variant, [s.make() for s in seated], names, seed).to_json()
        record["task"] = 2 * seed + n
        records.append(record)
        sign = -1.0 if record.get("order") == "lower" else 1.0
        d += sign * advantage(record["scores"], order)
        found = record.get("luck")
        if found is None:
            lucky = False
        else:
            luck += sign * advantage(found, order)
    return records, d / len(which), luck / len(which) if lucky else None


def advantage(values: Sequence[float], order: Sequence[int]) -> float:
    """The first bot's mean over its seats less the second's."""
    mine = [v for v, e in zip(values, order, strict=True) if e == 0]
    theirs = [v for v, e in zip(values, order, strict=True) if e == 1]
    return statistics.fmean(mine) - statistics.fmean(theirs)


def ratio(deals: Sequence[int], d: Sequence[float], luck: Sequence[float]) -> float:
    """var(adjusted) / var(raw) of the per-deal values."""
    adjusted = cross_fitted(deals, d, luck).values
    raw = statistics.pvariance(d)
    return statistics.pvariance(adjusted) / raw if raw > 0 else math.nan


def bootstrap(deals: Sequence[int], d: Sequence[float], luck: Sequence[float], reps: int,
              seed: int) -> tuple[float, float]:
    """The 90% percentile interval of the ratio, resampling deals (a resampled deal keeps its
    own fold)."""
    rng = random.Random(seed)
    n = len(deals)
    found = []
    for _ in range(reps):
        picks = [rng.randrange(n) for _ in range(n)]
        value = ratio([deals[i] for i in picks], [d[i] for i in picks], [luck[i] for i in picks])
        if math.isfinite(value):
            found.append(value)
    found.sort()
    if not found:
        return math.nan, math.nan
    return found[int(0.05 * (len(found) - 1))], found[int(0.95 * (len(found) - 1))]


def measure(pair: Pair, deals: int, reps: int, workers: int, base: int = 1) -> Iterator[str]:
    """The lines of one pair, on the deals from seed `base` on."""
    started = time.perf_counter()
    seeds = list(range(base, base + deals))
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            played = list(pool.map(play_deal, [pair] * deals, seeds, chunksize=4))
    else:
        played = [play_deal(pair, seed) for seed in seeds]
    seconds = time.perf_counter() - started
    name = f"{pair.game} ({pair.players} seats, {pair.distance}): {pair.first} vs {pair.second}"
    if any(luck is None for _, _, luck in played):
        yield f"{name}: no luck in its records (no luck model): judged raw, nothing to measure"
        return
    d = [x for _, x, _ in played]
    luck = [float(x) for _, _, x in played if x is not None]
    value = ratio(seeds, d, luck)
    low, high = bootstrap(seeds, d, luck, reps, 42)
    adjusted = cross_fitted(seeds, d, luck)
    mean_luck = statistics.fmean(luck)
    luck_ci = Z95 * statistics.stdev(luck) / math.sqrt(len(luck))
    records = [r for rs, _, _ in played for r in rs]
    on = rate(records).pools[0].crosstable[0]
    off = rate(records, luck=False).pools[0].crosstable[0]
    table = (on.edge_ci95 / off.edge_ci95) ** 2 if off.edge_ci95 > 0 else math.nan
    yield (f"{name}\n"
           f"  deals {deals} ({2 * deals} games, {seconds:.0f} s); edge raw "
           f"{statistics.fmean(d):+.3f} (sd per deal {statistics.stdev(d):.3f}), adjusted "
           f"{adjusted.mean().mean:+.3f} (sd {statistics.stdev(adjusted.values):.3f}); "
           f"betas {', '.join(f'{b:.3f}' for b in adjusted.betas)}\n"
           f"  mean luck advantage {mean_luck:+.3f} ± {luck_ci:.3f} (95%; must hold 0)\n"
           f"  ratio (games needed with / without) {value:.2f} [{low:.2f}, {high:.2f}] (90% "
           f"bootstrap, {reps} resamples); the crosstable's (ci adjusted / ci raw)^2 "
           f"{table:.2f}")


def main() -> None:
    """Print the ratio of every pair asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="60 deals a pair, 200 resamples")
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--reps", type=int, default=None, help="bootstrap resamples")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--game", default=None, help="only this game's pairs (or --pair's)")
    parser.add_argument("--pair", nargs=2, metavar=("A", "B"), default=None)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1, help="the first deal seed")
    parser.add_argument("--distance", default=None, help="only the pairs at this distance")
    args = parser.parse_args()
    deals = args.deals or (60 if args.quick else 1000)
    reps = args.reps or (200 if args.quick else 2000)
    if args.pair is not None:
        if args.game is None:
            parser.error("--pair needs --game")
        pairs: tuple[Pair, ...] = (Pair(args.game, *args.pair, args.players, "asked"),)
    else:
        pairs = tuple(p for p in PAIRS if args.game in (None, p.game)
                      and args.distance in (None, p.distance))
    print(f"luck adjustment: {deals} deals a pair, both seat orders each; ratio = var(D - "
          f"beta L) / var(D), beta cross-fitted between two folds of deals")
    for pair in pairs:
        for line in measure(pair, deals, reps, args.workers, args.seed):
            print(line, flush=True)


if __name__ == "__main__":
    main()
