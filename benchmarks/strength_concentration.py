"""Concentration's rows of the strength benchmark: the minimax's exploitability, and its edge
over the other bundled bots on duplicate deals (issue 33).

    python benchmarks/strength_concentration.py [--deals 400]

It takes a few minutes, most of it the any-colour best responses (two solves of 200,000 states).

Exploitability is exact: the expected margin per game, over both seatings, of the best response
to a fixed strategy (bots.concentration.minimax.best_response_edge). Edges are measured: every
deal is played twice with the seats swapped (the duplicate format); the edge is the mean over
deals of the deal's margin averaged over its two games, with a 95% normal interval
(1.96 standard errors of that mean; the deals are independent).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from dataclasses import dataclass

from arena.engine import find_game
from arena.loader import resolve_bot
from arena.session import play_series
from bots.concentration import groups
from bots.concentration.minimax import (
    GreedyStrategy,
    MinimaxStrategy,
    RaceStrategy,
    best_response_edge,
    expected_edge,
)

PAIRS = 26
RANKS = 13


@dataclass(frozen=True)
class Row:
    """One printed figure: what was measured, and its value with a 95% half-width (0: exact)."""

    game: str
    what: str
    value: float
    half_width: float
    deals: int  # 0: computed exactly, not measured
    expected: float | None = None  # the exact expectation of a measured figure, where known
    ms_per_decision: float | None = None

    def line(self) -> str:
        """The row as a line of the printed table."""
        if self.deals:
            figure = f"{self.value:+.3f} ± {self.half_width:.3f}"
        else:
            small = abs(self.value) < 1e-3
            figure = f"{self.value:+.1e} (exact)" if small else f"{self.value:+.6f} (exact)"
        deals = str(self.deals) if self.deals else "-"
        expected = f"{self.expected:+.6f}" if self.expected is not None else "-"
        ms = f"{self.ms_per_decision:.3f}" if self.ms_per_decision is not None else "-"
        return f"| {self.game} | {self.what} | {figure} | {expected} | {deals} | {ms} |"


def exploitability_rows() -> list[Row]:
    """Exact exploitability of the minimax and of the old plan (`planner`), both rules; and of
    the any-colour minimax and of `planner` there (which plays as greedy does in any-colour)."""
    rows = []
    for again, preset in ((True, "standard"), (False, "one-flip")):
        game = f"concentration {preset}"
        rows.append(Row(game, "exploitability of `optimal` (minimax)",
                        best_response_edge(MinimaxStrategy(again), PAIRS, again), 0.0, 0))
        rows.append(Row(game, "exploitability of `planner` (the old `optimal`)",
                        best_response_edge(RaceStrategy(again), PAIRS, again), 0.0, 0))
    table = groups.TableStrategy(True).as_strategy()
    rows.append(Row("concentration any-color", "exploitability of `optimal` (minimax table)",
                    groups.best_response_edge(table, RANKS, True), 0.0, 0))
    rows.append(Row("concentration any-color", "exploitability of `planner` (= greedy here)",
                    groups.best_response_edge(groups.greedy_strategy(), RANKS, True), 0.0, 0))
    return rows


def edge_row(preset: str, bot: str, opponent: str, deals: int, seed: int = 0,
             expected: float | None = None) -> Row:
    """`bot`'s mean margin over `opponent` per deal, both seatings of each deal, with its 95%
    interval, and the mean time of a decision of either bot."""
    variant = find_game("concentration").variant(preset)
    bots = [resolve_bot(bot, "concentration"), resolve_bot(opponent, "concentration")]
    per_deal: dict[int, list[float]] = {}
    turns = 0
    start = time.perf_counter()
    for game in play_series(variant, bots, seed, deals, rotate=True):
        record, seat = game.record, game.entries.index(0)
        margin = record.scores[seat] - record.scores[1 - seat]
        per_deal.setdefault(record.seed, []).append(margin)
        turns += record.turns
    elapsed = time.perf_counter() - start
    means = [statistics.mean(m) for m in per_deal.values()]
    half = 1.96 * statistics.stdev(means) / math.sqrt(len(means))
    # Two flips a turn: the decisions of both bots together.
    return Row(f"concentration {preset}", f"`{bot}` vs `{opponent}`", statistics.mean(means),
               half, deals, expected, 1000 * elapsed / max(2 * turns, 1))


def concentration_rows(deals: int = 400) -> list[Row]:
    """Every Concentration row: exploitability, then the edges of `optimal`."""
    rows = exploitability_rows()
    for again, preset in ((True, "standard"), (False, "one-flip")):
        best = MinimaxStrategy(again)
        exact = {"planner": expected_edge(best, RaceStrategy(again), PAIRS, again),
                 "greedy": expected_edge(best, GreedyStrategy(), PAIRS, again)}
        opponents = ("planner", "greedy", "random") + (("forgetful", "tracker") if again else ())
        for opponent in opponents:
            rows.append(edge_row(preset, "optimal", opponent, deals,
                                 expected=exact.get(opponent)))
    table = groups.TableStrategy(True).as_strategy()
    versus_greedy = groups.expected_edge(table, groups.greedy_strategy(), RANKS, True)
    for opponent in ("planner", "greedy", "random"):
        rows.append(edge_row("any-color", "optimal", opponent, deals,
                             expected=versus_greedy if opponent != "random" else None))
    rows.append(edge_row("any-color-jokers", "optimal", "greedy", deals))
    return rows


HEADER = ("| game | figure | value (95% interval) | exact expectation | deals "
          "| ms per flip (both bots and the engine) |\n"
          "|---|---|---:|---:|---:|---:|")


def main() -> None:
    """Print the Concentration rows."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=400)
    args = parser.parse_args()
    print(HEADER)
    for row in concentration_rows(args.deals):
        print(row.line())


if __name__ == "__main__":
    main()
