"""Tests of the sandbox (`arena.sandbox`), with hostile bots in `hostile/`."""
