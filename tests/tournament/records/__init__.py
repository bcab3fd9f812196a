"""Tests of arena.tournament.records."""
