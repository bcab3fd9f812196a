"""Tests of bots.cuckoo."""
