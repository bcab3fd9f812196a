"""The error family: every mistake a user can make is an ArenaError with one clear line."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


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


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """'did you mean ...? ' naming the choice closest to a mistyped `word`; '' if none is."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}? " if close else ""
