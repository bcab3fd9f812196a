"""Stealing the Old Man's Bundle has no luck model: its games are judged on the raw scores."""

from __future__ import annotations

from tests.luck.games import assert_no_model


def test_no_preset_or_table_has_a_model_and_records_carry_no_luck() -> None:
    """The value functions tried did not narrow the score differences (the figures are in
    docs/rules/old-mans-bundle.md)."""
    assert_no_model("old-mans-bundle", ["bundle-sharp", "bundle-simple"])
