"""Memorandum has no luck model: its games are judged on the raw scores."""

from __future__ import annotations

from tests.luck.games import assert_no_model


def test_no_preset_or_table_has_a_model_and_records_carry_no_luck() -> None:
    """Every card plays the same part, so a value function that cannot read the bots' memories
    gives every deal and every order of calls the same value (docs/rules/memorandum.md)."""
    assert_no_model("memorandum", ["elephant", "goldfish", "chancer"])
