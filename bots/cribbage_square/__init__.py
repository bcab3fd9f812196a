"""Cribbage Square's bots: greedy, search, expert (learned line values, square_values.json), square-
pimc and its search hints."""
