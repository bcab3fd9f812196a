"""Strength of the Cribbage Square bots on identical deals: every bot plays the same seeds alone.

Prints, per bot, the mean score with its 95% interval, the share of games reaching 61, the time
per move and per game; then the paired difference of each pair of bots on the same deals, with
its 95% interval. Asserts nothing.

    python benchmarks/bench_cribbage_square.py [--deals 2000] [--base 1] [--workers 2]
        [--bot random --bot square-greedy --bot square-search]
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from tabulate import tabulate

from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game

BOTS = ("random", "square-greedy", "square-search")
GOAL = 61
"""The score of a cribbage game: how often a square alone would win one."""


def play(spec: str, seeds: list[int], preset: str) -> tuple[list[float], float]:
    """The scores of one bot on these seeds (in order) and the seconds it took."""
    variant = find_game("cribbage-square").variant(preset)
    bot = resolve_bot(spec, "cribbage-square")
    started = time.perf_counter()
    scores = [play_game(variant, [bot.make()], [spec], seed).scores[0] for seed in seeds]
    return scores, time.perf_counter() - started


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def main() -> None:
    """Play every bot on the same deals and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--base", type=int, default=1, help="the first deal seed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--bot", action="append", help="a bot spec (repeatable)")
    args = parser.parse_args()
    specs = args.bot or list(BOTS)
    seeds = list(range(args.base, args.base + args.deals))
    chunks = [seeds[i::args.workers] for i in range(args.workers)]
    results: dict[str, list[float]] = {}
    seconds: dict[str, float] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for spec in specs:
            parts = list(pool.map(play, [spec] * len(chunks), chunks,
                                  [args.preset] * len(chunks)))
            by_seed = dict(zip(itertools.chain(*chunks),
                               itertools.chain(*(p[0] for p in parts)), strict=True))
            results[spec] = [by_seed[s] for s in seeds]
            seconds[spec] = sum(p[1] for p in parts)
    moves = 15 if args.preset == "standard" else 16
    rows = []
    for spec in specs:
        mean, half = interval(results[spec])
        share = sum(s >= GOAL for s in results[spec]) / len(seeds)
        per_game = seconds[spec] / len(seeds)
        rows.append([spec, f"{mean:.2f} ± {half:.2f}", f"{statistics.median(results[spec]):g}",
                     f"{min(results[spec]):g}-{max(results[spec]):g}", f"{share:.1%}",
                     f"{per_game * 1000 / moves:.2f}", f"{per_game * 1000:.1f}"])
    print(f"Cribbage Square ({args.preset}), {len(seeds)} deals, seeds {seeds[0]}-{seeds[-1]}, "
          f"every bot alone on the same deals")
    print(tabulate(rows, headers=["bot", "mean (95%)", "median", "range", f">= {GOAL}",
                                  "ms/move", "ms/game"]))
    print()
    pairs = []
    for a, b in itertools.combinations(specs, 2):
        diff = [x - y for x, y in zip(results[b], results[a], strict=True)]
        mean, half = interval(diff)
        better = sum(d > 0 for d in diff) / len(diff)
        worse = sum(d < 0 for d in diff) / len(diff)
        pairs.append([f"{b} - {a}", f"{mean:+.2f} ± {half:.2f}", f"{better:.1%}", f"{worse:.1%}"])
    print(tabulate(pairs, headers=["paired difference", "mean (95%)", "higher", "lower"]))


if __name__ == "__main__":
    main()
