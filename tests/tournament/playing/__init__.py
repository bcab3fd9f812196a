"""Tests of arena.tournament.playing."""
