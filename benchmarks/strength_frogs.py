"""Frogs in the Pond: a bot against another on duplicate deals, seats rotated.

Like benchmarks/bench_strength.py (whose `Timed` it reuses): every deal seed is one whole game
to 100 points, played once in every rotation of the seats; a deal's margin is the bot's final
total less the opponent's, averaged over the rotations, so the luck of the cards cancels out and
deals are the independent units (95% interval: mean +- 1.96 standard errors over deals). Also
the share of games won (95% interval over deals), the bot's mean time per decision, and the
faults of every seat (a bot that raised or broke the rules). With
`--players 3` to `5` the bot plays alone against copies of the opponent; at four seats with
partners (the standard preset) two copies of the bot play across from each other.

    python benchmarks/strength_frogs.py --bot frogs-search --opponent frogs-sharp --deals 200
    python benchmarks/strength_frogs.py --players 4 --variant tadpole --deals 20
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
from bench_strength import Timed  # beside this file

GAME = "frogs-in-the-pond"


@dataclass(frozen=True)
class Measured:
    """A bot's margin and wins against an opponent over duplicate deals."""

    bot: str
    opponent: str
    deals: int
    margin: float
    margin_ci: float
    wins: float
    wins_ci: float
    ms_per_decision: float
    faults: int

    def line(self) -> str:
        """The figures as one Markdown table row."""
        return (f"| {self.bot} | {self.opponent} | {self.deals} | {self.margin:+.2f} ± "
                f"{self.margin_ci:.2f} | {100 * self.wins:.1f}% ± {100 * self.wins_ci:.1f} | "
                f"{self.ms_per_decision:.1f} | {self.faults} |")


def _interval(values: Sequence[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def measure(bot: str, opponent: str, deals: int, seed: int = 1, variant: str = "standard",
            players: int = 2) -> Measured:
    """`bot` against `opponent` on `players` seats: the bot in seat entry 0 (and 2 in a
    partnership game, so that partners are the same bot), `opponent` in the others, every
    rotation of every deal played. The margin is the bot's mean score less the opponents'."""
    game = find_game(GAME).variant(variant)
    timed = Timed(resolve_bot(bot, GAME))
    other = resolve_bot(opponent, GAME)
    partners = len(game.params.sides(players)) < players  # type: ignore[attr-defined]
    ours = {0, 2} if partners else {0}
    entries = [timed if e in ours else other for e in range(players)]
    margins: dict[int, list[float]] = {}
    wins: dict[int, list[float]] = {}
    faults = 0
    for played in play_series(game, entries, seed, deals, rotate=True):  # type: ignore[arg-type]
        record = played.record
        faults += len(record.faults)
        scores = record.scores
        mine = [scores[s] for s, e in enumerate(played.entries) if e in ours]
        theirs = [scores[s] for s, e in enumerate(played.entries) if e not in ours]
        margins.setdefault(record.seed, []).append(
            statistics.fmean(mine) - statistics.fmean(theirs))
        best = max(scores)
        won = 1.0 / scores.count(best) if mine[0] == best else 0.0
        if partners and mine[0] == best:
            won = 1.0 if scores.count(best) == 2 else 0.5
        wins.setdefault(record.seed, []).append(won)
    margin, margin_ci = _interval([statistics.fmean(v) for v in margins.values()])
    win, win_ci = _interval([statistics.fmean(v) for v in wins.values()])
    return Measured(bot, opponent, len(margins), margin, margin_ci, win, win_ci,
                    1000 * timed.seconds / max(1, timed.decisions), faults)


def main(argv: Sequence[str] | None = None) -> int:
    """Print one table row."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="frogs-search")
    parser.add_argument("--opponent", default="frogs-sharp")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2,
                        help="seats; at four the standard preset plays partnerships")
    parser.add_argument("--variant", default="standard")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    print("| bot | opponent | deals | margin per deal (95%) | games won (95%) | ms/decision "
          "| faults |")
    print("|---|---|---|---|---|---|---|")
    print(measure(args.bot, args.opponent, args.deals, args.seed, args.variant,
                  args.players).line())
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
