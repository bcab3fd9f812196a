"""The protocol's JSON forms and each game's shapes in docs/protocol.md."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from arena.api import Bot, GameInfo, Observation, Result
from arena.engine import all_games, find_game
from arena.match import bot_rng, play_game
from arena.protocol.forms import (
    ProtocolError,
    act_line,
    act_message,
    answer_line,
    chosen_action,
    encode,
    end_message,
    seed_words,
    start_message,
)
from arena.protocol.shapes import shapes_markdown
from tests.helpers import LARGER_LAYOUTS, slow_unless
from tests.protocol.conftest import ROOT


class Recorder(Bot):
    """Plays at random and keeps every message the protocol would send it (in games played
    without the luck, which no message holds: for Concentration's presets most of the CPU)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.lines: list[tuple[bytes, bytes]] = []  # each `act` line written directly, and
        # its message encoded

    def start(self, info: GameInfo) -> None:
        super().start(info)
        self.sent.append(start_message(info))

    def act(self, obs: Observation[Any]) -> Any:
        self.sent.append(act_message(obs))
        self.lines.append((act_line(obs), encode(self.sent[-1])))
        return obs.legal[self.rng.randrange(len(obs.legal))]

    def end(self, result: Result) -> None:
        self.sent.append(end_message(result))


@pytest.mark.parametrize("game", [game.name for game in all_games()])
def test_every_message_of_every_game_is_one_line_of_json(game: str) -> None:
    variant = find_game(game).variant()
    allowed = variant.params.players_allowed()
    players = max(allowed.start, 2) if allowed.stop > 2 else allowed.start
    bots = [Recorder() for _ in range(players)]
    play_game(variant, bots, [f"s{i}" for i in range(players)], 1, luck=False)
    for message in bots[0].sent:
        line = encode(message)
        assert line.endswith(b"\n") and b"\n" not in line[:-1]
        assert json.loads(line) == message
    kinds = [message["type"] for message in bots[0].sent]
    assert kinds[0] == "start" and kinds[-1] == "end" and "act" in kinds


def _presets() -> list[Any]:
    """Every game and preset (their views and events differ), the larger layouts slow."""
    return [slow_unless((game.name, preset) not in LARGER_LAYOUTS, game.name, preset,
                        id=f"{game.name}-{preset}")
            for game in all_games() for preset in game.presets]


def test_a_larger_layout_plays_only_settings_other_presets_play() -> None:
    """What a test over every preset leaves to `slow` (LARGER_LAYOUTS) is played in the default
    run on a smaller layout: each of its settings but the rows and columns is another's."""
    for name, preset in sorted(LARGER_LAYOUTS):
        presets = find_game(name).presets
        others = [params for other, params in presets.items()
                  if (name, other) not in LARGER_LAYOUTS]
        for field in dataclasses.fields(presets[preset]):
            if field.name not in ("rows", "cols"):
                value = getattr(presets[preset], field.name)
                assert any(getattr(params, field.name) == value for params in others), (
                    f"{name} {preset}'s {field.name}={value} is played by no smaller preset")


@pytest.mark.parametrize(("game", "preset"), _presets())
def test_the_act_line_written_directly_is_the_act_message_encoded(game: str, preset: str) -> None:
    variant = find_game(game).variant(preset)
    allowed = variant.params.players_allowed()
    players = max(allowed.start, 2) if allowed.stop > 2 else allowed.start
    bots = [Recorder() for _ in range(players)]
    play_game(variant, bots, [f"s{i}" for i in range(players)], 2, luck=False)
    for bot in bots:
        for written, encoded in bot.lines:
            assert written == encoded


@pytest.mark.parametrize(("data", "op", "problem"), [
    (b'{"index": 0}', "act", "has no line end"),
    (b"7" * (1 << 20), "act", "a line longer than 1 MB"),
    (b'hello\n{"index": 0}\n', "act", "more than one line"),
    (b"hello\n", "act", "is not JSON: 'hello'"),
    (b"[1]\n", "start", "acknowledgement is not a JSON object"),
    (b"true\n", "end", "acknowledgement is not a JSON object"),
])
def test_an_answer_line_that_breaks_the_protocol_is_one_line_saying_how(
        data: bytes, op: str, problem: str) -> None:
    with pytest.raises(ProtocolError, match=problem) as caught:
        answer_line(data, op)
    assert str(caught.value).startswith(f"{op}: ") and "\n" not in str(caught.value)


def test_an_answer_line_is_one_json_value() -> None:
    assert answer_line(b'{"index": 3}\n', "act") == {"index": 3}
    assert answer_line(b"3\n", "act") == 3
    assert answer_line(b'{"ok": true}\n', "end") == {"ok": True}


def test_seed_words_give_the_numbers_a_python_bot_draws() -> None:
    rng = bot_rng(7, 1)
    info = GameInfo("dig", "standard", {}, 1, 2, rng)
    message = start_message(info)
    twister = _MersenneTwister(message["seed_words"])
    expected = random.Random(bytes.fromhex(message["seed"]))
    assert [twister.next32() for _ in range(5)] == [rng.getrandbits(32) for _ in range(5)] \
        == [expected.getrandbits(32) for _ in range(5)]
    assert seed_words("00") == seed_words("00")


class _MersenneTwister:
    """MT19937 seeded by `init_by_array`, as a client implements it (the C and Node ones do)."""

    def __init__(self, key: list[int]) -> None:
        mt = [0] * 624
        mt[0] = 19650218
        for i in range(1, 624):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
        i, j = 1, 0
        for _ in range(max(624, len(key))):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) \
                & 0xFFFFFFFF
            i, j = i + 1, j + 1
            if i >= 624:
                mt[0], i = mt[623], 1
            if j >= len(key):
                j = 0
        for _ in range(623):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
            i += 1
            if i >= 624:
                mt[0], i = mt[623], 1
        mt[0] = 0x80000000
        self.mt, self.index = mt, 624

    def next32(self) -> int:
        mt = self.mt
        if self.index >= 624:
            for k in range(624):
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7FFFFFFF)
                mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)


@pytest.mark.parametrize(("answer", "chosen"), [
    (1, "b"), ({"index": 0}, "a"), ({"action": ["x", 1]}, ("x", 1)), ({"action": 7}, 7),
])
def test_an_answer_names_a_legal_action_by_index_or_itself(answer: Any, chosen: Any) -> None:
    assert chosen_action(answer, ("a", "b")) == chosen


@pytest.mark.parametrize("answer", [2, -1, True, "0", None, [0], {"act": 0}, {"action": {}}])
def test_anything_else_is_a_protocol_error(answer: Any) -> None:
    with pytest.raises(ProtocolError):
        chosen_action(answer, ("a", "b"))


def test_the_docs_hold_every_games_shapes_as_the_games_define_them() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert shapes_markdown() in text, "run: python scripts/protocol_shapes.py"

