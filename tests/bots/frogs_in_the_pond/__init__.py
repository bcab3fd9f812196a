"""Tests of bots.frogs_in_the_pond."""
