"""Tests of arena.tty."""
