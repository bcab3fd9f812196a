"""Luck: how much of each seat's score the chance of a game gave it (issue 42, after AIVAT).

A game's `LuckModel` (`model.py`, handed out by `Game.luck_model`) values a state for every seat
and says which actions reveal cards nobody has seen; the match loop's `LuckTally` (`tally.py`)
adds up, at each such reveal, the value of what came less its expectation over what could have
come. The sum has mean zero whatever the value function, so a verdict may subtract it from the
scores to see the skill with less of the luck. docs/architecture.md places the room.
"""
