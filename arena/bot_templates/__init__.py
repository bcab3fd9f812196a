"""The templates of `arena new-bot`, one a game (`<game>.py`, the game's name with `_` for `-`)
and `generic.py` for a game without one: real bots, linted and tested like code, whose
`__CLASS__` and `__GAME__` the command fills in (`arena/newbot.py`)."""
