"""A bot's exception is recorded with its place in the bot's own files, sandboxed and in-process,
and its whole traceback goes to the bot's log."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.sandbox import Limits, sandboxed

BOT = '''\
from arena.api import Bot


def pick(legal):
    return legal[len(legal) + 1]


class NoSuper(Bot):
    def start(self, info):
        self.seat = info.seat

    def act(self, obs):
        return obs.legal[self.rng.randrange(len(obs.legal))]


class Deep(Bot):
    def act(self, obs):
        return pick(obs.legal)
'''
@pytest.fixture
def bot_file(tmp_path: Path) -> Path:
    """A bot file raising at known lines (13 in `act`, 5 in a function it calls)."""
    path = tmp_path / "faulty_bot.py"
    path.write_text(BOT)
    return path


def faults(spec: str, sandbox: bool, log: Path | None = None) -> list[str]:
    """The fault details of seat 0 in one game of Concentration against greedy."""
    variant = find_game("concentration").variant()
    entry = sandboxed(spec, "concentration", Limits(), log) if sandbox else resolve_bot(spec)
    try:
        record = play_game(variant, [entry.make(), resolve_bot("greedy").make()],
                           ["faulty", "greedy"], 3)
    finally:
        getattr(entry, "close", lambda: None)()
    # a decision's fault begins with the bot's own decision and the game's (tests/test_match.py)
    return [re.sub(r"^its decision \d+ \(the game's \d+\): ", "", fault.detail)
            for fault in record.faults if fault.seat == 0]


@pytest.mark.parametrize("sandbox", [False, True], ids=["in-process", "sandboxed"])
def test_an_exception_names_the_bot_s_file_and_line(bot_file: Path, sandbox: bool) -> None:
    assert faults(f"{bot_file}:NoSuper", sandbox) == [
        "act raised AttributeError: 'NoSuper' object has no attribute 'rng' "
        "(at faulty_bot.py:13 in act)"]


@pytest.mark.parametrize("sandbox", [False, True], ids=["in-process", "sandboxed"])
def test_the_innermost_frame_in_the_bot_s_files_is_named(bot_file: Path, sandbox: bool) -> None:
    assert faults(f"{bot_file}:Deep", sandbox) == [
        "act raised IndexError: tuple index out of range (at faulty_bot.py:5 in pick)"]


def test_a_sandboxed_bot_s_traceback_goes_to_its_log(bot_file: Path, tmp_path: Path) -> None:
    log = tmp_path / "logs" / "faulty.log"
    faults(f"{bot_file}:Deep", True, log)
    text = log.read_text()
    assert "Traceback (most recent call last):" in text
    assert 'faulty_bot.py", line 18, in act' in text and 'faulty_bot.py", line 5, in pick' in text


def test_an_in_process_bot_s_traceback_goes_to_the_bots_log(
        bot_file: Path, caplog: pytest.LogCaptureFixture) -> None:
    faults(f"{bot_file}:Deep", False)
    (entry,) = [r for r in caplog.records if r.name == "arena.bots"]
    assert entry.getMessage().startswith("seat 0 (faulty): act raised IndexError")
    # the traceback is in the message, escaped as a bot's words are (arena.text), so that no
    # handler prints it raw
    assert "\nTraceback (most recent call last):\n" in entry.getMessage()
    assert 'faulty_bot.py", line 5, in pick' in entry.getMessage()
