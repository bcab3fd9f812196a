"""Tests of bots.concentration."""
