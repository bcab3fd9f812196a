"""Tests of the games (`arena.games`): each game, and the conformance tests over all of them."""
