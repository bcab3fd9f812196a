"""The human seat's former place, kept so that the spec `bots.human:HumanBot` keeps working: the
seat itself lives with the people's rooms, in `arena/tty/human.py` (the bot name `human`)."""

from arena.tty.human import HumanBot, HumanQuit, is_human

__all__ = ["HumanBot", "HumanQuit", "is_human"]
