"""Replaying recorded games: every record of a tournament reproduces, and a changed one does not."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.show import ShowPrinter
from arena.tournament.planning.config import parse_config
from arena.tournament.planning.plan import schedule_of
from arena.tournament.records.replay import (
    ReplayError,
    differences,
    parse_label,
    replay,
    replay_all,
    replay_path,
    replay_record,
    replayed_run,
)
from arena.tournament.records.results import GAMES, RunDirectoryError
from arena.tournament.records.seat_view import seat_view, seat_view_lines
from arena.tournament.run import run_tournament

FIRST = '''
from arena.api import Bot


class First(Bot):
    """Plays the first legal action: any game."""

    def act(self, obs):
        return obs.legal[0]
'''

FAULTY = '''
from arena.api import Bot


class Faulty(Bot):
    """Plays at random, but raises on its fifth decision of every game."""

    def start(self, info):
        super().start(info)
        self.calls = 0

    def act(self, obs):
        self.calls += 1
        if self.calls == 5:
            raise RuntimeError("boom")
        return self.rng.choice(obs.legal)
'''

CONFIG = """
name = "replayed"
[deals]
count = 1
base = 40
[[bots]]
spec = "random"
[[bots]]
spec = "first.py:First"
name = "first"
isolation = "none"
[[bots]]
spec = "faulty.py:Faulty"
name = "faulty"
[[games]]
game = "concentration"
players = 2
variants = [{ preset = "zebra", name = "stripes" },
            { preset = "standard", params = { one-flip = true } }]
[[games]]
game = "concentration"
players = 1
variants = ["standard"]
[[games]]
game = "memorandum"
players = 3
variants = ["short-pack"]
[[games]]
game = "dig"
players = 2
variants = ["standard"]
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished tournament over three games, a sandboxed bot that faults included."""
    base = tmp_path_factory.mktemp("replay")
    (base / "first.py").write_text(FIRST)
    (base / "faulty.py").write_text(FAULTY)
    config = parse_config(CONFIG, base / "replayed.toml")
    out = base / "run"
    report = run_tournament(config, out)
    assert report.complete and report.total == len(schedule_of(config))
    return out


def records(run: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run / GAMES).read_text().splitlines()]


def test_every_record_of_a_tournament_reproduces(run: Path) -> None:
    found = records(run)
    assert {r["game"] for r in found} == {"concentration", "memorandum", "dig"}
    assert any(r["faults"] for r in found)  # faults are compared, not just absent
    assert replay_all(run) == []


def test_a_changed_record_is_a_mismatch(run: Path, tmp_path: Path) -> None:
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    lines = [r for r in records(copy) if r["game"] == "memorandum"]  # a few games to replay
    changed = lines[0]
    changed["scores"] = [s + 1 for s in changed["scores"]]
    (copy / GAMES).write_text("".join(json.dumps(r) + "\n" for r in lines))
    mismatches = replay_all(copy)
    assert [m.task for m in mismatches] == [changed["task"]]
    assert [d.field for d in mismatches[0].differences] == ["scores"]
    text = replay(copy, changed["task"]).lines()
    assert any("MISMATCH" in line for line in text)
    assert any(line.strip().startswith("scores: recorded") for line in text)


def test_one_task_replays_with_a_spectator(run: Path) -> None:
    shown: list[str] = []
    task = next(r["task"] for r in records(run) if r["game"] == "dig")
    result = replay(run, task, ShowPrinter(shown.append))
    assert result.reproduced and result.task == task
    assert shown[0].startswith("== standard, seed ")
    assert "reproduced" in result.lines()[-1]


def test_named_and_parameterised_variants_resolve_through_the_config(run: Path) -> None:
    labels = {r["variant"] for r in records(run) if r["game"] == "concentration"}
    assert labels == {"stripes", "standard,one-flip=true", "standard"}
    task = next(r["task"] for r in records(run) if r["variant"] == "stripes")
    assert replay(run, task).reproduced


def test_a_record_file_beside_its_config_and_on_its_own(run: Path, tmp_path: Path) -> None:
    assert replay_path(run / GAMES, 3).reproduced  # config.toml beside games.jsonl
    line = next(r for r in records(run)
                if r["seats"] == ["random", "first"] and r["variant"] != "stripes")
    alone = tmp_path / "game.json"
    alone.write_text(json.dumps(line) + "\n")
    first = str(run.parent / "first.py") + ":First"
    # the run has a sandboxed bot, so its deals were keyed: the key comes with the run's config
    assert replay_path(alone, bots=["random", first], config=run / "config.toml").reproduced
    assert replay_path(alone, config=run / "config.toml").reproduced
    assert not replay_path(alone, bots=["random", first]).reproduced  # out of its run, no key
    with pytest.raises(ReplayError, match="cannot load the bot seated as 'first'"):
        replay_path(alone)  # no config: 'first' is taken as a spec, and names no bot
    with pytest.raises(ReplayError, match="2 seats but 1 --bot"):
        replay_path(alone, bots=["random"])
    with pytest.raises(ReplayError, match="no bot spec for 'first'"):
        replay_record(line, {"random": "random"})


def test_a_game_played_outside_a_tournament(tmp_path: Path) -> None:
    # a preset other than standard, a parameter set: both read back from the record's label
    variant = find_game("concentration").variant("zebra", {"one-flip": "true"})
    bots = [resolve_bot("greedy"), resolve_bot("forgetful:recall=0.5")]
    record = play_game(variant, [b.make() for b in bots], [b.name for b in bots], 7)
    path = tmp_path / "played.jsonl"
    path.write_text(record.to_line() + "\n")
    result = replay_path(path)  # bundled names are their own specs; the label is the variant
    assert result.reproduced and result.task is None
    assert result.lines()[0].startswith("concentration / zebra,one-flip=true, seed 7:")


def test_mistakes_are_replay_errors(run: Path, tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match=r"no record of task 9999 \(tasks 0 to"):
        replay(run, 9999)
    with pytest.raises(ReplayError, match="say which game"):
        replay_path(run)
    with pytest.raises(RunDirectoryError, match="not a run directory"):
        replay(tmp_path, 0)
    with pytest.raises(ReplayError, match="no such run directory or record file"):
        replay_path(tmp_path / "missing.jsonl")
    with pytest.raises(ReplayError, match=r"holds \d+ records; say which task"):
        replay_path(run / GAMES)
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json}\n")
    with pytest.raises(ReplayError, match="line 1: not a game record"):
        replay_path(broken)
    unknown = _write(tmp_path / "u.json", dict(records(run)[0], variant="nonesuch"))
    with pytest.raises(ReplayError, match="has no concentration variant 'nonesuch'"):
        replay_path(unknown, config=run / "config.toml")
    with pytest.raises(ReplayError, match="'nonesuch' is not a concentration preset"):
        replay_path(unknown)


def test_labels_and_differences() -> None:
    assert parse_label("two-decks") == ("two-decks", ())
    assert parse_label("standard,one-flip=true,moves=1") == (
        "standard", (("moves", "1"), ("one-flip", "true")))
    with pytest.raises(ReplayError, match="is not key=value"):
        parse_label("standard,oops")
    a = {"game": "dig", "seed": 1, "faults": [{"seat": 0, "kind": "timeout", "decision": 3,
                                               "detail": "slow"}], "duration": 1.0}
    b = {"game": "dig", "seed": 1, "faults": [{"seat": 0, "kind": "timeout", "decision": 4,
                                               "detail": "other"}], "duration": 2.0}
    assert differences(a, b) == ()  # faults by seat and kind; duration never
    assert [d.field for d in differences(a, {**b, "faults": []})] == ["faults"]


def test_a_replay_knows_the_run_whose_bots_it_plays(run: Path, tmp_path: Path) -> None:
    # (whose bots' code `arena replay` checks against the run's bots.json)
    assert replayed_run(run) == run
    assert replayed_run(run, config=run / "config.toml") == run
    assert replayed_run(run, ("random", "first")) is None  # bots given by seat
    other = tmp_path / "other.toml"
    other.write_text((run / "config.toml").read_text())
    assert replayed_run(run, config=other) is None
    alone = _write(tmp_path / "one.jsonl", records(run)[0])
    assert replayed_run(alone) is None
    assert replayed_run(alone, config=run / "config.toml") == run


def _write(path: Path, record: dict[str, Any]) -> Path:
    path.write_text(json.dumps(record) + "\n")
    return path


def test_a_sandboxed_seat_seen_from_its_own_eyes(run: Path) -> None:
    faulted = next(r for r in records(run) if r["game"] == "dig"
                   and any(f["seat"] == r["seats"].index("faulty") for f in r["faults"]))
    view = seat_view(run, faulted["task"], "faulty")
    seat = faulted["seats"].index("faulty")
    assert view.reproduced and view.opening.seat == seat and view.opening.timed
    decisions = view.decisions
    assert [d.number for d in decisions] == [1, 2, 3, 4, 5]  # it raised on its fifth
    assert decisions[-1].raised is not None and "boom" in decisions[-1].raised
    assert all(d.seconds is not None for d in decisions)
    assert [f["kind"] for f in view.ending.faults] == ["exception"]
    assert view.ending.log is not None and view.ending.log.endswith("faulty.log")
    text = seat_view_lines(view)
    assert any("act raised" in line and "boom" in line for line in text)
    assert text[-1] == "reproduced: the replay gives the recorded result"


def test_replay_seat_on_the_command_line(run: Path) -> None:
    from typer.testing import CliRunner

    from arena.cli import app

    task = next(r["task"] for r in records(run)  # in-process bots: no sandbox to start
                if r["game"] == "dig" and "faulty" not in r["seats"])
    runner = CliRunner()
    done = runner.invoke(app, ["replay", str(run), str(task), "--seat", "1", "--json"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert data["opening"]["seat"] == 1 and data["reproduced"]
    assert {s["kind"] for s in data["steps"]} >= {"decision"}
    text = runner.invoke(app, ["replay", str(run), str(task), "--seat", "1"])
    assert text.exit_code == 0 and "== its decision 1 (the game's" in text.stdout
    for args, message in ((["--seat", "9"], "no seat 9"), (["--seat", "1", "--show"], "--seat"),
                          (["--json"], "use it with --seat")):
        wrong = runner.invoke(app, ["replay", str(run), str(task), *args])
        assert wrong.exit_code == 2 and message in wrong.output


def test_a_record_whose_luck_model_was_replaced_reproduces_its_game_and_says_so(
        tmp_path: Path) -> None:
    variant = find_game("dig").variant("standard")
    bots = [resolve_bot("dig-sharp", "dig"), resolve_bot("dig-simple", "dig")]
    record = json.loads(play_game(variant, [b.make() for b in bots], [b.name for b in bots],
                                  3).to_line())
    model = record["luck_model"]
    # as a run of an earlier version recorded it: the same game, luck from the model before
    older = _write(tmp_path / "older.json", dict(record, luck_model="dig-count/1",
                                                 luck=[1.5, -1.5]))
    result = replay_path(older)
    assert result.reproduced
    assert result.lines()[-1] == (f"  (its luck came from dig-count/1, which {model} has "
                                  f"replaced: the luck is not compared)")
    # the same model must still reproduce its luck
    moved = _write(tmp_path / "moved.json", dict(record, luck=[1.5, -1.5]))
    assert [d.field for d in replay_path(moved).differences] == ["luck"]
