"""Tests of bots.old_mans_bundle."""
