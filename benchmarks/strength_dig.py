"""Dig's search bot against a bundled bot: the mean margin per deal with its 95% interval.

Duplicate deals with the seats rotated, one process, by `bench_strength.duel` (the margin of a
deal is the mean over its two seatings; interval: mean +- 1.96 standard errors over deals).

    python benchmarks/strength_dig.py                                  # dig-search vs dig-sharp
    python benchmarks/strength_dig.py --bot dig-search:samples=20 --opponent random --deals 100
    python benchmarks/strength_dig.py --timing --deals 20    # ms per decision with a choice
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena.api import Action, Observation
from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_strength  # beside this file


def timing(bot: str, opponent: str, deals: int, seed: int) -> str:
    """The bot's ms per decision where it had a choice (one legal action is answered at once):
    mean, 95th percentile and most, over `deals` deals played both ways round."""
    variant = find_game("dig").variant()
    spec, other = resolve_bot(bot, "dig"), resolve_bot(opponent, "dig")
    spent: list[float] = []
    for deal in range(seed, seed + deals):
        for mine in (0, 1):
            timed = spec.make()
            inner = timed.act

            def act(obs: Observation[Any], inner: Any = inner) -> Action:
                start = time.perf_counter()
                answer: Action = inner(obs)
                if len(obs.legal) > 1:
                    spent.append(1000 * (time.perf_counter() - start))
                return answer

            timed.act = act  # type: ignore[method-assign]
            bots = [timed, other.make()] if mine == 0 else [other.make(), timed]
            play_game(variant, bots, ["a", "b"], deal)
    spent.sort()
    return (f"{bot}: {len(spent)} decisions with a choice, ms mean {statistics.fmean(spent):.1f}, "
            f"95th percentile {spent[int(0.95 * len(spent))]:.1f}, most {spent[-1]:.1f}")


def main(argv: Sequence[str] | None = None) -> int:
    """Print one row: bot, opponent, deals, margin +- 95%, ms per decision."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="dig-search", help="the bot measured (a bot spec)")
    parser.add_argument("--opponent", default="dig-sharp", help="its opponent (a bot spec)")
    parser.add_argument("--deals", type=int, default=400, help="duplicate deals")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed")
    parser.add_argument("--timing", action="store_true",
                        help="time the decisions with a choice instead")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.timing:
        print(timing(args.bot, args.opponent, args.deals, args.seed))
        return 0
    row = bench_strength.duel("dig", args.bot, args.opponent, args.deals, seed=args.seed)
    print(bench_strength.table([row]), flush=True)
    print(f"(seeds {args.seed}..{args.seed + args.deals - 1}, "
          f"{time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
