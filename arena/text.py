"""What a bot says, made safe to show and to store: the characters that can steer a terminal, break
a line or reorder text are written as escapes (`\\x1b`, `\\u2028`).

A bot's bytes reach the organiser's terminal (fault details, the `[seat N]` echo of `arena
play`), its files (`bots/<bot>.log`, `log.txt`) and the records (`games.jsonl`). Each goes
through `escape` (one line) or `escape_lines` (a multi-line log: its newlines kept, every line
escaped) first, so that an ANSI or OSC sequence cannot repaint the terminal, a line separator
cannot split a record or a log line, and a bidi override cannot make a line read as another.

Escaped: the C0 controls (U+0000-U+001F) and DEL, the C1 controls (U+0080-U+009F, NEL U+0085
among them), the line and paragraph separators (U+2028, U+2029), the bidi embeddings, overrides
and isolates (U+202A-U+202E, U+2066-U+2069) and marks (U+200E, U+200F, U+061C), and lone
surrogates (which no file can hold as UTF-8). A backslash is left as it is: an escape is for
reading, not for decoding back.
"""

from __future__ import annotations

import codecs
import re

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
                     "\u2066-\u2069\ud800-\udfff]")
_UNSAFE_IN_LINES = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                              "\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escaped(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape(text: str) -> str:
    """`text` as one line that is safe to show or store: every control, line or paragraph
    separator, bidi control and lone surrogate written as an escape (`\\x1b`, `\\u202e`)."""
    if _UNSAFE.search(text) is None:  # the common case: nothing to do
        return text
    return _UNSAFE.sub(_escaped, text)


def escape_lines(text: str) -> str:
    """`text` as lines that are safe to show or store: its newlines kept, everything `escape`
    escapes in each line (a carriage return too) written as an escape."""
    if _UNSAFE_IN_LINES.search(text) is None:
        return text
    return _UNSAFE_IN_LINES.sub(_escaped, text)


def is_safe(text: str) -> bool:
    """Whether `text` holds nothing that `escape` would change."""
    return _UNSAFE.search(text) is None


class ByteLines:
    """A stream of a bot's bytes (its output, read in pieces) turned into safe UTF-8: decoded
    across the pieces (a character split between two is kept whole), bytes that are not UTF-8
    written as `\\xNN`, and every line escaped as `escape_lines` does."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="backslashreplace")

    def feed(self, data: bytes, final: bool = False) -> bytes:
        """The safe form of the next piece of the stream (with `final`, of its end)."""
        return escape_lines(self._decoder.decode(data, final)).encode("utf-8")
