"""benchmarks/strength_frogs.py: margins and wins read by entry, not by seat, so that a bot
against itself comes out even on every duplicate deal."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def strength_frogs() -> ModuleType:
    """The script as a module (it imports `bench_strength` from beside it)."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location("strength_frogs",
                                                      BENCHMARKS / "strength_frogs.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["strength_frogs"] = module  # its dataclass looks its module up
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_bot_against_itself_is_even_on_every_deal(players: int) -> None:
    measured = strength_frogs().measure("frogs-sharp", "frogs-sharp", 2, seed=5,
                                        players=players)
    assert measured.deals == 2 and measured.faults == 0
    assert measured.margin == pytest.approx(0.0) and measured.margin_ci == pytest.approx(0.0)
    assert measured.wins == pytest.approx(1 / players if players != 4 else 0.5)


def test_a_stronger_bot_has_a_positive_margin() -> None:
    measured = strength_frogs().measure("frogs-sharp", "random", 3, seed=5)
    assert measured.margin > 0 and measured.wins > 0.5
    assert "| frogs-sharp | random | 3 |" in measured.line()
    assert measured.line().endswith("| 0 |")
