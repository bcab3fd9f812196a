"""Tests of the bundled bots (the `bots` package)."""
