"""How cards and marks look in a terminal: suit symbols where the stream can print them, colour
for red suits where it is a terminal and NO_COLOR is unset."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TextIO

from arena.cards import Card, Colour

_RED, _BLUE, _BOLD, _DIM, _RESET = "\x1b[31m", "\x1b[34m", "\x1b[1m", "\x1b[2m", "\x1b[0m"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_CODE = re.compile(r"(?<![\w♣♦♥♠])(10|[2-9AJQK])([CDHS])(?![\w♣♦♥♠])")
_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


@dataclass(frozen=True, slots=True)
class Style:
    """Drawing options: `symbols` prints suits as ♥♦♣♠, `colour` adds ANSI colour."""

    colour: bool = False
    symbols: bool = True

    @classmethod
    def for_stream(cls, stream: TextIO) -> Style:
        """Symbols if the stream's encoding can print them; colour on a terminal without
        NO_COLOR (https://no-color.org) and with a TERM other than 'dumb'."""
        encoding = getattr(stream, "encoding", None) or "utf-8"
        try:
            "♣♦♥♠".encode(encoding)
            symbols = True
        except (UnicodeEncodeError, LookupError):
            symbols = False
        try:
            tty = bool(stream.isatty())
        except (AttributeError, ValueError, OSError):
            tty = False
        colour = (tty and not os.environ.get("NO_COLOR")
                  and os.environ.get("TERM", "") != "dumb")
        return cls(colour=colour, symbols=symbols)

    def card(self, card: Card, width: int = 0) -> str:
        """The card ('7♥' or '7H'), right-aligned to `width` columns, red suits in red."""
        text = card.pretty() if self.symbols else str(card)
        text = text.rjust(width)
        return self.red(text) if card.colour is Colour.RED else text

    def cards(self, cards: tuple[Card, ...] | list[Card], empty: str = "-") -> str:
        """Cards separated by spaces, or `empty` for none."""
        return " ".join(self.card(c) for c in cards) or empty

    def text(self, line: str) -> str:
        """A line of narration with every card code in it ('7H', '10S') drawn as a card."""
        if not self.symbols and not self.colour:
            return line
        return _CODE.sub(self._code, line)

    def _code(self, match: re.Match[str]) -> str:
        rank, suit = match.group(1), match.group(2)
        text = rank + (_SYMBOL[suit] if self.symbols else suit)
        return self.red(text) if suit in "DH" else text

    def red(self, text: str) -> str:
        """Text in red."""
        return f"{_RED}{text}{_RESET}" if self.colour else text

    def blue(self, text: str) -> str:
        """Text in blue."""
        return f"{_BLUE}{text}{_RESET}" if self.colour else text

    def bold(self, text: str) -> str:
        """Text in bold."""
        return f"{_BOLD}{text}{_RESET}" if self.colour else text

    def dim(self, text: str) -> str:
        """Text dimmed."""
        return f"{_DIM}{text}{_RESET}" if self.colour else text


PLAIN = Style(colour=False, symbols=False)
"""Plain ASCII: card codes as in the rules ('7H'), no colour."""


def plain(text: str) -> str:
    """The text without ANSI colour codes."""
    return _ANSI.sub("", text)
