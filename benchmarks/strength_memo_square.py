"""`search` in Memorandum and Cribbage Square against the best bundled bot and against random.

Duplicate deals with every rotation of the seats: Memorandum at three seats (`search` and two
copies of the opponent), Cribbage Square at two. A deal's margin is `search`'s score less the
mean of the others', averaged over its rotations; the interval is mean +- 1.96 standard errors
over deals. Each deal's margin is printed as it comes (`deal SEED MARGIN`), so a run cut short
still gives its figures.

    python benchmarks/strength_memo_square.py --game memorandum --opponent chancer --deals 50
    python benchmarks/strength_memo_square.py --game cribbage-square --opponent square-search
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys

from bench_strength import Timed, entry_margin  # the benchmarks folder is on the path when run

from arena.engine import find_game
from arena.loader import resolve_bot
from arena.session import play_series

SEATS = {"memorandum": 3, "cribbage-square": 2}


def margins(game: str, bot: str, opponent: str, seed: int, deals: int, variant: str | None,
            out: list[float], timed: Timed | None = None) -> None:
    """Append each deal's margin of `bot` (against copies of `opponent`) to `out`."""
    chosen = find_game(game).variant(variant)
    me = timed or Timed(resolve_bot(bot, game))
    other = resolve_bot(opponent, game)
    specs = [me] + [other] * (SEATS[game] - 1)
    for start in range(seed, seed + deals):
        values = []
        for played in play_series(chosen, specs, start, 1, rotate=True):  # type: ignore[arg-type]
            values.append(entry_margin(played.record, played.entries.index(0)))
        out.append(statistics.fmean(values))
        print(f"deal {start} {out[-1]:+.3f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Play the deals and print the margin with its 95% interval and the ms per decision."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(SEATS), required=True)
    parser.add_argument("--bot", default="search")
    parser.add_argument("--opponent", required=True)
    parser.add_argument("--variant", default=None)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    found: list[float] = []
    timed = Timed(resolve_bot(args.bot, args.game))
    margins(args.game, args.bot, args.opponent, args.seed, args.deals, args.variant, found, timed)
    mean = statistics.fmean(found)
    half = 1.96 * statistics.stdev(found) / math.sqrt(len(found)) if len(found) > 1 else 0.0
    ms = 1000 * timed.seconds / max(1, timed.decisions)
    print(f"{args.game} {args.variant or 'default'}: {args.bot} vs {args.opponent}: "
          f"{mean:+.2f} +- {half:.2f} over {len(found)} deals; {ms:.1f} ms/decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
