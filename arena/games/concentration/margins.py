"""The two-player minimax's margins (`minimax.py`), shipped as a table so that no process waits
for a solve.

The luck model values every public position by the mover's expected margin under minimax play.
Solving it costs 0.2 s for a pack and 1.5 s for two packs, once in every process that rates a
game's luck: every worker of a tournament. The table holds the margin of every position up to
MARGIN_PAIRS pairs for each rule, as the solver computes it, to the last bit (little-endian
doubles in `position_index` order, compressed); scripts/make_concentration_tables.py writes and
checks it, and the tests hold it to the solver. Beyond the table the solver answers.
"""

from __future__ import annotations

import array
import functools
import lzma
import math
import sys
from importlib import resources

from arena.games.concentration.minimax import Position, Solution, minimax, position_index

MARGIN_PAIRS = 52
"""The table covers up to 52 pairs: one pack (26) and two packs (52)."""

MARGIN_FILES = {True: "margins.f64.xz", False: "margins_one_flip.f64.xz"}
"""The table of each rule: True for the standard rule (a pair taken plays again)."""


def encode_margins(solution: Solution, top: int = MARGIN_PAIRS) -> bytes:
    """Seat 0's margin in every position up to `top` pairs, as little-endian doubles."""
    table = array.array("d", bytes(8 * math.comb(top + 3, 3)))
    for (seat, pos), value in solution.value.items():
        if seat == 0 and pos.pairs <= top:
            table[position_index(pos)] = value
    if sys.byteorder == "big":
        table.byteswap()
    return table.tobytes()


@functools.cache
def shipped_margins(again: bool) -> array.array[float] | None:
    """The shipped margins for `again` (read once a process), or None where the installed
    table is not the size it must be (then the solver answers)."""
    packed = resources.files("arena.games.concentration").joinpath(MARGIN_FILES[again]).read_bytes()
    raw = lzma.decompress(packed)
    if len(raw) != 8 * math.comb(MARGIN_PAIRS + 3, 3):
        return None
    table = array.array("d", raw)
    if sys.byteorder == "big":
        table.byteswap()
    return table


def minimax_margin(again: bool, pos: Position) -> float:
    """The mover's expected margin in `pos` under minimax play by both (exactly the solver's)."""
    table = shipped_margins(again) if pos.pairs <= MARGIN_PAIRS else None
    if table is None:
        return minimax(again, pos.pairs).margin(pos)
    return table[position_index(pos)]
