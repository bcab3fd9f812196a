"""The compact encoding: arena.rl's observation vector and action mask for a program bot that
asks for them, and its answers by encoded index."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.engine import find_game
from arena.errors import BotSpecError
from arena.loader import resolve_bot
from arena.match import play_game
from arena.sandbox import Limits, sandboxed

MASKED = r"""
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        sizes = (msg["observation_size"], msg["action_count"])
        print("{}", flush=True)
    elif msg["type"] == "act":
        assert (len(msg["observation"]), len(msg["mask"])) == sizes
        assert sum(msg["mask"]) == len(msg["legal"])
        print(json.dumps({"encoded": msg["mask"].index(1)}), flush=True)
    else:
        print("{}", flush=True)
"""


def masked_bot(folder: Path, encoding: str = "compact") -> str:
    folder.mkdir()
    (folder / "bot.py").write_text(MASKED)
    (folder / "bot.toml").write_text(f'name = "masked"\ncommand = "python3 bot.py"\n'
                                     f'encoding = "{encoding}"\n')
    return str(folder)


def test_a_bot_asking_for_the_compact_encoding_plays_by_encoded_index(tmp_path: Path) -> None:
    spec = masked_bot(tmp_path / "masked")
    variant = find_game("dig").variant()
    record = play_game(variant, [resolve_bot(spec, "dig").make(), resolve_bot("random").make()],
                       ["masked", "random"], 0)
    assert not record.faults


def test_it_works_sandboxed_too(tmp_path: Path) -> None:
    spec = masked_bot(tmp_path / "masked")
    bot = sandboxed(spec, "dig", Limits(move_seconds=5.0))
    try:
        record = play_game(find_game("dig").variant(), [bot.make(), resolve_bot("random").make()],
                           ["masked", "random"], 1)
    finally:
        bot.close()
    assert not record.faults


def test_an_unknown_encoding_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BotSpecError, match="'encoding' is one of json, compact"):
        resolve_bot(masked_bot(tmp_path / "masked", "protobuf"))
