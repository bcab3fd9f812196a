"""The record's luck: written by the match loop, read back and checked as hostile input like every
other field, and reproduced by a replay (compared like any other field where the record has it)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.record import GameRecord
from arena.tournament.records.replay import differences, replay_path
from arena.tournament.records.results import RunDirectoryError, parse_record, record_problem


def _record(seed: int = 3) -> GameRecord:
    variant = find_game("concentration").variant("standard")
    bots = [resolve_bot("greedy"), resolve_bot("forgetful:recall=0.9,capacity=0")]
    return play_game(variant, [b.make() for b in bots], [b.name for b in bots], seed)


@pytest.fixture(scope="module")
def line() -> dict[str, Any]:
    """A played record's JSON, luck included."""
    out = json.loads(_record().to_line())
    assert "luck" in out
    return out


def test_a_record_with_luck_reads_back_as_written(line: dict[str, Any]) -> None:
    text = json.dumps(line).encode()
    assert parse_record(text, "games.jsonl", 1, need_task=False) == line
    assert record_problem(line, need_task=False) is None


def test_a_record_from_before_the_luck_is_still_a_record(line: dict[str, Any]) -> None:
    old = {k: v for k, v in line.items() if k not in ("luck", "luck_model")}
    assert record_problem(old, need_task=False) is None


@pytest.mark.parametrize(("luck", "model", "problem"), [
    ([math.nan, 0.0], "m/1", "'luck' is not a list of finite numbers"),
    ([math.inf, -math.inf], "m/1", "'luck' is not a list of finite numbers"),
    ([1e300, 0.0], "m/1", "'luck' is not a list of finite numbers"),
    ([0.5], "m/1", "'luck' is not a list of finite numbers (at most 1e+15), one a seat"),
    ([0.5, 0.5, 0.5], "m/1", "'luck' is not a list of finite numbers"),
    ([], "m/1", "'luck' is not a list of finite numbers"),
    (["0.5", 0.5], "m/1", "'luck' is not a list of finite numbers"),
    ([True, 0.5], "m/1", "'luck' is not a list of finite numbers"),
    ([None, 0.5], "m/1", "'luck' is not a list of finite numbers"),
    ("0.5,0.5", "m/1", "'luck' is not a list of finite numbers"),
    ({"0": 1}, "m/1", "'luck' is not a list of finite numbers"),
    (None, "m/1", "'luck' is not a list of finite numbers"),
    ([0.5, -0.5], None, "'luck_model' is not the name of a luck model"),
    ([0.5, -0.5], 7, "'luck_model' is not the name of a luck model"),
    ([0.5, -0.5], "", "'luck_model' is not the name of a luck model"),
    ([0.5, -0.5], "m\x1b[2J/1", "'luck_model' is not the name of a luck model"),
    ([0.5, -0.5], ["m/1"], "'luck_model' is not the name of a luck model"),
])
def test_hostile_luck_is_refused_in_a_few_words(line: dict[str, Any], luck: Any, model: Any,
                                                problem: str) -> None:
    bad = dict(line, luck=luck, luck_model=model)
    found = record_problem(bad, need_task=False)
    assert found is not None and found.startswith(problem), found


def test_luck_without_its_model_or_a_model_without_luck_is_refused(
        line: dict[str, Any]) -> None:
    no_model = {k: v for k, v in line.items() if k != "luck_model"}
    assert record_problem(no_model, need_task=False) == (
        "'luck_model' is not the name of a luck model")
    no_luck = {k: v for k, v in line.items() if k != "luck"}
    assert (record_problem(no_luck, need_task=False) or "").startswith("'luck' is not a list")


def test_a_records_file_with_hostile_luck_is_refused_naming_the_line(
        line: dict[str, Any]) -> None:
    text = json.dumps(dict(line, luck=[1.0, "x"])).encode()
    with pytest.raises(RunDirectoryError, match=r"games.jsonl: line 3: not a game record "
                                                r"\('luck' is not a list of finite numbers"):
        parse_record(text, "games.jsonl", 3, need_task=False)
    nan = json.dumps(dict(line, luck=[math.nan, 0.0])).encode()  # Python writes NaN; JSON has none
    with pytest.raises(RunDirectoryError, match=r"games.jsonl: line 4: not a game record"):
        parse_record(nan, "games.jsonl", 4, need_task=False)


def test_a_replay_reproduces_the_luck_and_tells_a_changed_one(tmp_path: Path,
                                                              line: dict[str, Any]) -> None:
    path = tmp_path / "played.jsonl"
    path.write_text(json.dumps(line) + "\n")
    assert replay_path(path).reproduced
    changed = dict(line, luck=[line["luck"][0] + 0.5, line["luck"][1]])
    path.write_text(json.dumps(changed) + "\n")
    result = replay_path(path)
    assert [d.field for d in result.differences] == ["luck"]
    assert any(text.startswith("  luck: recorded") for text in result.lines())
    other = dict(line, luck_model="concentration-minimax/0")
    assert [d.field for d in differences(other, line)] == ["luck_model"]


def test_a_record_from_before_the_luck_still_reproduces(tmp_path: Path,
                                                        line: dict[str, Any]) -> None:
    old = {k: v for k, v in line.items() if k not in ("luck", "luck_model")}
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(old) + "\n")
    assert replay_path(path).reproduced
    assert [d.field for d in differences(line, old)] == ["luck", "luck_model"]
