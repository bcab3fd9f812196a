"""Tests of bots.cribbage_square."""
