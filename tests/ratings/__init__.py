"""Tests of the ratings (`arena.ratings`)."""
