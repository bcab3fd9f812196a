"""Tests of bots.paved_with_gold."""
