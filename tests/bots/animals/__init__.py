"""Tests of bots.animals."""
