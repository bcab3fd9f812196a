"""The bots' side of the exact two-player minimax of Concentration (cards with one mate): the
shipped table of its choices, the strategies it is compared with, and their exact edges.

The solver itself, pure mathematics, is arena/games/concentration/minimax.py (the game's luck
model uses its values); `python -m bots.concentration.minimax` prints the figures quoted in
docs/strategy.md (section "The two-player minimax").
"""

from __future__ import annotations

import functools
import lzma
import math
from dataclasses import dataclass
from importlib import resources

from arena.games.concentration.margins import minimax_margin
from arena.games.concentration.minimax import (
    Action,
    First,
    Node,
    Position,
    Second,
    Solution,
    Strategy,
    evaluate,
    minimax,
    position_index,
)

# The shipped table of the minimax's choices, so that a bot never waits for a solve.

TABLE_PAIRS = 52
"""The shipped tables cover up to 52 pairs: one pack, one with jokers (27), and two packs."""
TABLE_FILES = {True: "pairs_minimax.xz", False: "pairs_one_flip_minimax.xz"}
_FIRSTS, _SECONDS = list(First), list(Second)
NO_CHOICE = 255


def encode(solution: Solution, top: int = TABLE_PAIRS) -> bytes:
    """Three bytes per position up to `top` pairs: the first flip, and the second flip after an
    unseen first card that completes a singleton or is new (NO_CHOICE where there is none)."""
    table = bytearray([NO_CHOICE]) * (3 * math.comb(top + 3, 3))
    for (seat, node, pos), action in solution.choice.items():
        if seat == 0 and pos.pairs <= top:
            at = 3 * position_index(pos)
            if node is Node.FIRST:
                table[at] = _FIRSTS.index(action)  # type: ignore[arg-type]
            else:
                table[at + (1 if node is Node.MATCHED else 2)] = _SECONDS.index(action)  # type: ignore[arg-type]
    return bytes(table)


@functools.cache
def shipped_table(again: bool) -> bytes:
    """The shipped choices for `again` (decompressed once); built by
    scripts/make_concentration_tables.py."""
    tables = resources.files("bots.concentration")
    return lzma.decompress(tables.joinpath(TABLE_FILES[again]).read_bytes())


@dataclass(frozen=True)
class MinimaxStrategy:
    """The minimax strategy as a `Strategy`: the best action at every decision point, read from
    the shipped table (solved on first use beyond it)."""

    again: bool

    def __call__(self, node: Node, pos: Position) -> Action:
        """The minimax action at `node` in `pos` (the turn's start)."""
        if pos.pairs > TABLE_PAIRS:
            return minimax(self.again, pos.pairs).choice[(0, node, pos)]
        at = 3 * position_index(pos)
        if node is Node.FIRST:
            return _FIRSTS[shipped_table(self.again)[at]]
        return _SECONDS[shipped_table(self.again)[at + (1 if node is Node.MATCHED else 2)]]

    def value(self, pos: Position) -> float:
        """The mover's margin in `pos` under minimax play by both."""
        return minimax_margin(self.again, pos)


def best_response_edge(strategy: Strategy, pairs: int, again: bool) -> float:
    """How much a best response to `strategy` wins per game over both seatings, from `pairs`
    unseen pairs: the exploitability of `strategy` (0 for a minimax strategy, since the game's
    value averaged over both seatings is 0)."""
    start = Position(pairs, 0)
    held_first = evaluate(pairs, again, (strategy, None)).margin(start, 0)
    reply_first = evaluate(pairs, again, (None, strategy)).margin(start, 0)
    return (reply_first - held_first) / 2


def expected_edge(a: Strategy, b: Strategy, pairs: int, again: bool) -> float:
    """Exact expected margin of `a` over `b` per game from `pairs` pairs, both seatings."""
    start = Position(pairs, 0)
    a_first = evaluate(pairs, again, (a, b)).margin(start, 0)
    b_first = evaluate(pairs, again, (b, a)).margin(start, 0)
    return (a_first - b_first) / 2


@dataclass(frozen=True)
class RaceStrategy:
    """Today's `planner` (formerly `optimal`): takes every known pair, turns an unseen card
    first, takes a pair it completes, and after a new card asks
    bots.algorithms.memory_strategy's plan, which was solved over positions without known pairs."""

    again: bool

    def __call__(self, node: Node, pos: Position) -> Action:
        """The planner's action at `node` in `pos`."""
        from bots.algorithms.memory_strategy import Second as PlanSecond
        from bots.algorithms.memory_strategy import race_plan

        if node is Node.FIRST:
            return First.TAKE_PAIR if pos.known_pairs else First.UNSEEN
        if node is Node.MATCHED:
            return Second.MATE
        n, k = pos.pairs - pos.known_pairs, pos.singletons
        known = k and race_plan(2, self.again).second(n, k) is PlanSecond.KNOWN
        return Second.KNOWN if known else Second.UNSEEN


@dataclass(frozen=True)
class GreedyStrategy:
    """`greedy`: takes every known pair, and otherwise turns two unseen cards."""

    def __call__(self, node: Node, pos: Position) -> Action:
        """Greedy's action at `node` in `pos`."""
        if node is Node.FIRST:
            return First.TAKE_PAIR if pos.known_pairs else First.UNSEEN
        return Second.MATE if node is Node.MATCHED else Second.UNSEEN


def main() -> None:
    """Print the figures quoted in docs/strategy.md as Markdown."""
    print("| rule | pairs | value (first mover's margin) | planner's exploitability "
          "| minimax's exploitability | minimax vs planner | minimax vs greedy |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for again, rule in ((True, "standard"), (False, "one-flip")):
        best = MinimaxStrategy(again)
        for n in (4, 8, 9, 10, 12, 16, 20, 26):
            print(f"| {rule} | {n} | {best.value(Position(n, 0)):+.6f} "
                  f"| {best_response_edge(RaceStrategy(again), n, again):+.6f} "
                  f"| {best_response_edge(best, n, again):+.2e} "
                  f"| {expected_edge(best, RaceStrategy(again), n, again):+.6f} "
                  f"| {expected_edge(best, GreedyStrategy(), n, again):+.6f} |")


if __name__ == "__main__":
    main()
