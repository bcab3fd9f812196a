"""What a bot says is escaped before anything shows or stores it (`arena.text`), and where it
is: fault details, the run's log, the records."""

from __future__ import annotations

import json
import logging

import pytest

from arena.api import Bot, GameInfo, Observation
from arena.match import play_game
from arena.text import ByteLines, escape, escape_lines, is_safe
from tests.conftest import variant

HOSTILE = ("\x1b[2J\x1b[H\x1b]0;owned\x07greedy 0 - mybot 26\r\x9b31m\u0085\u2028\u2029"
           "\u202ereversed\u202c\u2066\u2069\u200e\u200f\u061c\x00\x7f\ud800")
UNSAFE = ["\x1b", "\x07", "\r", "\x9b", "\u0085", "\u2028", "\u2029", "\u202e", "\u202c",
          "\u2066", "\u2069", "\u200e", "\u200f", "\u061c", "\x00", "\x7f", "\ud800"]


def test_every_unsafe_character_is_written_as_an_escape() -> None:
    shown = escape(HOSTILE)
    for char in UNSAFE:
        assert char not in shown
    assert "\\x1b[2J" in shown and "\\u202ereversed" in shown and "\\ud800" in shown
    assert is_safe(shown) and not is_safe(HOSTILE)
    assert shown.encode("utf-8")  # no lone surrogate is left to fail the encoding


@pytest.mark.parametrize("text", ["greedy 26 - random 0", "é, ü, 漢字, 🂡", "a\\x1b stays", ""])
def test_ordinary_text_is_left_as_it_is(text: str) -> None:
    assert escape(text) == text and escape_lines(text) == text


def test_a_log_keeps_its_lines_and_escapes_each() -> None:
    text = "Traceback:\n  line \x1b[31m1\r\nValueError: \u202eevil\n"
    assert escape_lines(text) == "Traceback:\n  line \\x1b[31m1\\x0d\nValueError: \\u202eevil\n"
    assert escape(text).count("\n") == 0


def test_a_byte_stream_is_escaped_across_its_pieces() -> None:
    stream = ByteLines()
    data = "ok é\n\x1b]0;x\x07\u2028".encode() + b"\xff\n"
    out = b"".join(stream.feed(data[i:i + 1]) for i in range(len(data)))
    out += stream.feed(b"", final=True)
    assert out == "ok é\n\\x1b]0;x\\x07\\u2028\\xff\n".encode()


class Liar(Bot):
    """Raises with a message that would repaint the terminal."""

    def act(self, obs: Observation[object]) -> object:
        raise ValueError(HOSTILE)

    def start(self, info: GameInfo) -> None:
        super().start(info)


def test_a_fault_detail_and_the_bots_log_hold_no_control_character(
        caplog: pytest.LogCaptureFixture) -> None:
    from bots.concentration.greedy import GreedyBot

    with caplog.at_level(logging.WARNING, logger="arena.bots"):
        record = play_game(variant(), [Liar(), GreedyBot()], ["liar", "greedy"], 1)
    detail = record.faults[0].detail
    assert detail.startswith("its decision 1 (the game's 1): act raised ValueError: \\x1b[2J")
    assert is_safe(detail)
    line = record.to_line()
    assert "\u2028" not in line and "\x1b" not in line and "\\u001b" not in line
    assert json.loads(line)["faults"][0]["detail"] == detail
    logged = caplog.records[0].getMessage()
    assert "Traceback" in logged and is_safe(logged.replace("\n", " "))
