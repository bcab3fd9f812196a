"""Tests of bots.algorithms."""
