"""The error family: every mistake a user can make is an ArenaError with one clear line."""

from __future__ import annotations


class ArenaError(Exception):
    """Base class of user-facing errors; the message is one line saying what and where."""


class UnknownGameError(ArenaError):
    """A game name that is not registered."""


class VariantError(ArenaError):
    """An unknown preset, a bad parameter value, or parameters that do not combine."""


class BotSpecError(ArenaError):
    """A bot spec that does not resolve to a bot class."""


class PlayersError(ArenaError):
    """A number of players the game or variant does not allow."""
