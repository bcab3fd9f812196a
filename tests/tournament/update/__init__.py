"""Tests of arena.tournament.update."""
