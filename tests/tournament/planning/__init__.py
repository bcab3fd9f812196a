"""Tests of arena.tournament.planning."""
