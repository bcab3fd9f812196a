"""The minimax's margins shipped for Concentration's luck model: the solver's to the last bit, read
without a solve, and the solver's answer where the table stops or does not load."""

from __future__ import annotations

import lzma

import pytest

from arena.games.concentration import margins, minimax
from arena.games.concentration.margins import MARGIN_PAIRS, minimax_margin, shipped_margins
from arena.games.concentration.minimax import Position, evaluate, positions
from tests.luck.helpers import played

RULES = [True, False]


@pytest.mark.parametrize("again", RULES)
def test_the_shipped_margins_are_the_solvers_to_the_last_bit(again: bool) -> None:
    """Up to a pack (26 pairs) here; every position up to MARGIN_PAIRS under `-m slow`."""
    _assert_table_is_the_solve(again, 26)


@pytest.mark.slow
@pytest.mark.parametrize("again", RULES)
def test_the_whole_shipped_table_is_the_solvers_to_the_last_bit(again: bool) -> None:
    _assert_table_is_the_solve(again, MARGIN_PAIRS)


def _assert_table_is_the_solve(again: bool, top: int) -> None:
    solved = evaluate(top, again)
    table = shipped_margins(again)
    assert table is not None and len(table) == len(list(positions(MARGIN_PAIRS)))
    for pos in positions(top):
        assert minimax_margin(again, pos).hex() == solved.margin(pos).hex(), pos


def test_a_game_valued_for_luck_solves_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every worker of a tournament values its games' luck: it reads the table, where it solved
    every position of the pack first (0.2 s a process, 1.5 s for two packs)."""
    def no_solve(*args: object) -> None:
        raise AssertionError("solved the minimax")

    monkeypatch.setattr(minimax, "_SOLVED", {})
    monkeypatch.setattr(minimax, "evaluate", no_solve)
    (record,) = played("concentration", "standard", ["greedy", "forgetful"], range(7, 8),
                       rotate=False)
    assert record.luck is not None and record.luck_model == "concentration-minimax/1"


def test_beyond_the_table_the_solver_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(margins, "MARGIN_PAIRS", 8)
    pos = Position(10, 3, 2)
    assert minimax_margin(True, pos) == evaluate(10, True).margin(pos)


def test_a_table_of_the_wrong_size_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A damaged install: the solver answers, and the same figure comes out."""
    shipped_margins.cache_clear()
    whole = lzma.decompress
    monkeypatch.setattr(margins.lzma, "decompress", lambda packed: whole(packed)[:-8])
    try:
        assert shipped_margins(True) is None
        pos = Position(12, 4, 1)
        assert minimax_margin(True, pos) == evaluate(12, True).margin(pos)
    finally:
        monkeypatch.undo()
        shipped_margins.cache_clear()
