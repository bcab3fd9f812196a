"""Concentration's bots: greedy, forgetful, tracker, planner, optimal, and the two-player minimax
with its shipped tables."""
