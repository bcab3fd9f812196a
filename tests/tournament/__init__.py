"""Tests of the tournament (`arena.tournament`)."""
