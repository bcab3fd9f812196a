"""Tests of bots.dig."""
