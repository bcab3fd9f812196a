"""Cuckoo's and Animals' rows of the strength benchmark (issue 33): one bot against a table of
copies of another, on duplicate deals.

    python benchmarks/strength_cuckoo_animals.py --game cuckoo --players 6 --deals 100
    python benchmarks/strength_cuckoo_animals.py --game animals --players 3 --opponent random

Both games seat more than two (Cuckoo six to twenty, Animals three to six): `bot` takes one
seat and `opponent` fills the others (as bench_strength.py's rows do, which this adds the mean
place to), and every deal is played once per rotation of the seats (so the bot sits in every
place). The margin of a game is the bot's score less the mean of the others'; the margin of a
deal is the mean over its rotations, so much of the luck of the cards cancels and deals are
the independent units: the interval is mean +- 1.96 standard errors over deals. Also the mean
place of the bot (1 = best, ties shared) and its time per decision.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.engine import find_game
from arena.loader import resolve_bot
from arena.session import play_series

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_strength import Timed, entry_margin  # beside this file


@dataclass(frozen=True)
class Row:
    """One measured pairing."""

    game: str
    players: int
    bot: str
    opponent: str
    deals: int
    margin: float
    ci95: float
    place: float
    place_ci95: float
    ms_per_decision: float

    def line(self) -> str:
        """The row as a line of a Markdown table."""
        return (f"| {self.game} | {self.players} | {self.bot} | {self.opponent} | {self.deals} | "
                f"{self.margin:+.2f} ± {self.ci95:.2f} | {self.place:.2f} ± {self.place_ci95:.2f}"
                f" | {self.ms_per_decision:.1f} |")


HEADER = ("| game | seats | bot | opponents | deals | margin per deal (95%) | mean place (95%) "
          "| ms/decision |\n|---|---|---|---|---|---|---|---|")


def half_width(values: Sequence[float]) -> float:
    """1.96 standard errors of the mean (0 for fewer than two values)."""
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0


def measure(game: str, players: int, bot: str, opponent: str, deals: int, seed: int = 1,
            preset: str | None = None) -> Row:
    """`bot` in one seat against `players - 1` copies of `opponent`, every deal once per
    rotation of the seats."""
    variant = find_game(game).variant(preset)
    timed = Timed(resolve_bot(bot, game))
    other = resolve_bot(opponent, game)
    margins: dict[int, list[float]] = {}
    places: dict[int, list[float]] = {}
    entries = [timed, *[other] * (players - 1)]
    for played in play_series(variant, entries, seed, deals, rotate=True):  # type: ignore[arg-type]
        record = played.record
        me = played.entries.index(0)
        margins.setdefault(record.seed, []).append(entry_margin(record, me))
        places.setdefault(record.seed, []).append(float(record.ranks[me]))
    per_deal = [statistics.fmean(v) for v in margins.values()]
    per_place = [statistics.fmean(v) for v in places.values()]
    return Row(game, players, bot, opponent, len(per_deal), statistics.fmean(per_deal),
               half_width(per_deal), statistics.fmean(per_place), half_width(per_place),
               1000 * timed.seconds / max(1, timed.decisions))


def main(argv: Sequence[str] | None = None) -> int:
    """Print one row."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("cuckoo", "animals"), required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--bot", default="search")
    parser.add_argument("--opponent", default=None,
                        help="default: the game's best bundled bot (cuckoo-sharp, animals-sharp)")
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default=None)
    args = parser.parse_args(argv)
    opponent = args.opponent or f"{args.game}-sharp"
    started = time.perf_counter()
    row = measure(args.game, args.players, args.bot, opponent, args.deals, args.seed, args.preset)
    print(HEADER)
    print(row.line())
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
