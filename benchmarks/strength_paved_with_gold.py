"""Paved with Gold: a bot against another on duplicate deals, seats rotated (2 or 3 players).

    python benchmarks/strength_paved_with_gold.py assayer prospector --deals 2000
    python benchmarks/strength_paved_with_gold.py assayer random --deals 200
    python benchmarks/strength_paved_with_gold.py search prospector --deals 40
    python benchmarks/strength_paved_with_gold.py assayer prospector prospector --deals 500

The margin of a deal is the first bot's score less the mean of the others', averaged over the
rotations of the seats (so the luck of the cards cancels); the interval is mean +- 1.96 standard
errors over deals. With three entries the table is three players. Also the first bot's mean
time per decision. It prints one line; it reuses benchmarks/bench_strength.py's timing.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_strength import Timed, entry_margin

from arena.engine import find_game
from arena.loader import resolve_bot
from arena.session import play_series

GAME = "paved-with-gold"


def margins(bots: list[str], deals: int, seed: int, preset: str) -> tuple[list[float], Timed]:
    """The first bot's margin on each deal (mean over the seat rotations), and its timing."""
    variant = find_game(GAME).variant(preset)
    timed = Timed(resolve_bot(bots[0], GAME))
    entries = [timed, *(resolve_bot(b, GAME) for b in bots[1:])]
    per_deal: dict[int, list[float]] = {}
    for played in play_series(variant, entries, seed, deals, rotate=True):  # type: ignore[arg-type]
        per_deal.setdefault(played.record.seed, []).append(
            entry_margin(played.record, played.entries.index(0)))
    return [statistics.fmean(v) for v in per_deal.values()], timed


def main(argv: list[str] | None = None) -> int:
    """Play the deals and print the margin with its 95% interval."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs="+", help="the bot measured, then its opponent(s)")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="standard")
    args = parser.parse_args(argv)
    if len(args.bots) not in (2, 3):
        parser.error("two or three bots")
    start = time.perf_counter()
    found, timed = margins(args.bots, args.deals, args.seed, args.preset)
    mean = statistics.fmean(found)
    half = 1.96 * statistics.stdev(found) / math.sqrt(len(found)) if len(found) > 1 else 0.0
    ms = 1000 * timed.seconds / max(1, timed.decisions)
    print(f"{' vs '.join(args.bots)} ({args.preset}, {len(args.bots)} players): "
          f"{mean:+.2f} ± {half:.2f} per deal over {len(found)} deals from seed {args.seed}; "
          f"{ms:.2f} ms/decision; {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
