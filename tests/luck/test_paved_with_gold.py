"""Paved with Gold has no luck model: its games are judged on the raw scores."""

from __future__ import annotations

from tests.luck.games import assert_no_model


def test_no_preset_or_table_has_a_model_and_records_carry_no_luck() -> None:
    """What a look is worth depends on what the looker remembers, which no state holds
    (docs/rules/paved-with-gold.md)."""
    assert_no_model("paved-with-gold", ["prospector", "random"])
