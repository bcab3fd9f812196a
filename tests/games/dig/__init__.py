"""Tests of Dig (`arena.games.dig`)."""
