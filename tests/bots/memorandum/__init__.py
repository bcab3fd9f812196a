"""Tests of bots.memorandum."""
