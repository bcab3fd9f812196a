"""Dig's search bot against a bundled bot: the mean margin per deal with its 95% interval.

Duplicate deals with the seats rotated, one process, by `bench_strength.duel` (the margin of a
deal is the mean over its two seatings; interval: mean +- 1.96 standard errors over deals).

    python benchmarks/strength_dig.py                                  # dig-search vs dig-sharp
    python benchmarks/strength_dig.py --bot dig-search:samples=20 --opponent random --deals 100
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_strength  # beside this file


def main(argv: Sequence[str] | None = None) -> int:
    """Print one row: bot, opponent, deals, margin +- 95%, ms per decision."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="dig-search", help="the bot measured (a bot spec)")
    parser.add_argument("--opponent", default="dig-sharp", help="its opponent (a bot spec)")
    parser.add_argument("--deals", type=int, default=400, help="duplicate deals")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    row = bench_strength.duel("dig", args.bot, args.opponent, args.deals, seed=args.seed)
    print(bench_strength.table([row]), flush=True)
    print(f"(seeds {args.seed}..{args.seed + args.deals - 1}, "
          f"{time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
