"""The reports' text tables: `grid` lays them out as tabulate does, byte for byte."""

from __future__ import annotations

import random

import pytest
from tabulate import tabulate

from arena.ratings.output import ReportFormat, grid

_TEXT = "abcXYZ019 ±\u2212=^~!.()%|-é中"
"""Characters of the reports' cells (names, signs, intervals), spaces and wide ones among them."""


def _tabulated(headers: list[str], rows: list[list[str]], fmt: ReportFormat) -> str:
    style = "github" if fmt is ReportFormat.MARKDOWN else "simple"
    align = ["left" if h in ("bot", "opponent", "status") else "right" for h in headers]
    return tabulate(rows, headers=headers, tablefmt=style, disable_numparse=True, colalign=align)


@pytest.mark.parametrize("fmt", [ReportFormat.TABLE, ReportFormat.MARKDOWN])
def test_a_grid_is_tabulates_table_byte_for_byte(fmt: ReportFormat) -> None:
    """Random tables of text (empty cells, cells with spaces around them, headers wider or
    narrower than their cells, left- and right-aligned columns), and the tables grid hands to
    tabulate (ragged rows, no rows, a cell on two lines, a control character, a number)."""
    rng = random.Random(39)

    def text(longest: int) -> str:
        return "".join(rng.choice(_TEXT) for _ in range(rng.randint(0, longest)))

    for _ in range(3000):
        columns = rng.randint(1, 6)
        headers = [text(8) for _ in range(columns)]
        for i in rng.sample(range(columns), rng.randint(0, columns)):
            headers[i] = rng.choice(["bot", "opponent", "status"])
        rows = [[text(10) for _ in range(columns)] for _ in range(rng.randint(1, 5))]
        assert grid(headers, rows, fmt) == _tabulated(headers, rows, fmt), (headers, rows)
    odd: list[tuple[list[str], list[list[object]]]] = [
        (["bot", "mu"], []),
        (["bot", "mu"], [["ada", "1.00"], ["cy"]]),
        (["bot", "mu"], [["ada\nada", "1.00"]]),
        (["bot", "mu"], [["ada\x1b[1m", "1.00"]]),
        (["bot", "mu"], [["ada", 1.5]]),
    ]
    for headers, cells in odd:
        assert grid(headers, cells, fmt) == _tabulated(headers, cells, fmt)  # type: ignore[arg-type]
