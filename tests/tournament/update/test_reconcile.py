"""Bringing a run up to date: every finished game that the new config would play again
identically is kept, only the rest is played, and the records then equal a fresh run's."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.tournament.planning.canonical import canonical_toml, config_digest
from arena.tournament.planning.config import load_config
from arena.tournament.planning.plan import schedule_of
from arena.tournament.planning.schedule import replay_draw
from arena.tournament.records.replay import replay_path
from arena.tournament.records.results import (
    GAMES,
    KEY,
    NUMBERS,
    RETIRED,
    RunDirectory,
    RunDirectoryError,
    read_draw,
    read_numbers,
)
from arena.tournament.run import RunReport, run_tournament
from arena.tournament.update import reconcile as update
from arena.tournament.update.bring import draw_salt
from arena.tournament.update.identity import bots_code, write_bots
from tests.helpers import holding

FILE_BOT = '''
from bots.algorithms.random_bot import RandomBot


class {name}(RandomBot):
    """Plays at random{note}."""

    games = ("concentration",)
'''


def file_bot(folder: Path, name: str, note: str = "") -> str:
    """A bot file in a folder of its own; its spec."""
    (folder / name.lower()).mkdir(exist_ok=True)
    path = folder / name.lower() / f"{name.lower()}.py"
    path.write_text(FILE_BOT.format(name=name, note=note))
    return f"{path}:{name}"


def write(folder: Path, bots: list[tuple[str, str]], variants: tuple[str, ...] = ("standard",),
          deals: int = 2, three: bool = False, name: str = "t", isolation: str = "none"
          ) -> Path:
    """A config of these bots (name, spec) in `folder`, its file bots played with `isolation`
    (in-process unless asked: fast); with `three`, a game at three seats too."""
    text = f'name = "{name}"\n[deals]\ncount = {deals}\nbase = 7\n'
    for bot, spec in bots:
        text += f'[[bots]]\nname = "{bot}"\nspec = "{spec}"\n'
        if ".py:" in spec:
            text += f'isolation = "{isolation}"\n'
    text += ('[[games]]\ngame = "concentration"\nplayers = 2\n'
             f'variants = {json.dumps(list(variants))}\n')
    if three:
        text += '[[games]]\ngame = "concentration"\nplayers = 3\nvariants = ["standard"]\n'
    path = folder / f"{name}.toml"
    path.write_text(text)
    return path


def by_identity(run: Path, numbers: bool = False) -> list[dict[str, Any]]:
    """A run's rated records sorted by game identity, durations (and their numbers, in the
    record and in a fault's log header, unless `numbers`) left out; each identity once, each
    number once on record."""
    on_record = [r["task"] for r in RunDirectory(run).on_record()]
    assert len(set(on_record)) == len(on_record), "a number given twice"
    records = list(RunDirectory(run).records())
    for record in records:
        record.pop("duration")
        record.pop("times", None)
        if not numbers:  # and the number a fault's log header names
            record.pop("task")
            for fault in record.get("faults", ()):
                fault["detail"] = re.sub(r"\[task \d+, ", "[task N, ", fault["detail"])
    identities = [r["identity"] for r in records]
    assert len(set(identities)) == len(identities), "a game recorded twice"
    return sorted(records, key=lambda r: r["identity"])


def numbered(run: Path) -> dict[str, int]:
    """Every game on record in a run, identity -> number."""
    return {r["identity"]: r["task"] for r in RunDirectory(run).on_record()}


def same_as_fresh(run: Path, config: Path, folder: Path) -> RunReport:
    """Assert that a run's rated records equal, bit for bit but their numbers and durations,
    those of a fresh run of the config with the same key (if it has one: it has sandboxed
    bots); the fresh run's report."""
    fresh = folder / f"fresh-{len(list(folder.glob('fresh-*')))}"
    report = run_tournament(load_config(config), fresh, deals_like=run)
    assert by_identity(run) == by_identity(fresh)
    return report


def test_any_sequence_of_changes_leaves_the_records_of_one_fresh_run(tmp_path: Path) -> None:
    ada = file_bot(tmp_path, "Ada")
    bots = [("greedy", "greedy"), ("random", "random"), ("ada", ada)]
    config = write(tmp_path, bots, deals=1)
    run = tmp_path / "run"
    first = run_tournament(load_config(config), run)
    assert first.played == 3 * 2 and first.plan is not None and first.plan.kept == 0

    # a bot added: only its tables are played
    bots.append(("bob", file_bot(tmp_path, "Bob")))
    report = run_tournament(load_config(write(tmp_path, bots, deals=1)), run)
    assert (report.before, report.played, report.retired) == (6, 3 * 2, 0)
    assert report.plan is not None and report.plan.new == ("bob",)
    assert report.plan.describe() == ("kept 6 games; to play 6 (new: bob); no longer "
                                      "scheduled 0 (kept on record, not rated)")
    same_as_fresh(run, config, tmp_path)

    # a bot's file changed: only its own tables are played again
    file_bot(tmp_path, "Ada", ", now and then")
    report = run_tournament(load_config(config), run)
    assert (report.before, report.played, report.retired) == (6, 6, 6)
    assert report.plan is not None and report.plan.changed == ("ada",)
    same_as_fresh(run, config, tmp_path)

    # a bot removed: its games leave the ratings but stay on record
    del bots[1]
    report = run_tournament(load_config(write(tmp_path, bots, deals=1)), run)
    assert (report.before, report.played, report.retired) == (6, 0, 12)
    assert report.plan is not None and report.plan.gone == ("random",)
    assert "no longer scheduled 12 (gone: random; kept on record, not rated)" in \
        report.plan.describe()
    numbers = read_numbers(RunDirectory(run))
    assert numbers is not None and len(numbers.retired) == 12
    assert len(numbered(run)) == 18 and not (run / RETIRED).exists()
    same_as_fresh(run, config, tmp_path)

    # a variant added, a game at three seats added, and more deals
    for change in ({"variants": ("standard", "zebra"), "deals": 1},
                   {"variants": ("standard", "zebra"), "three": True, "deals": 1},
                   {"variants": ("standard", "zebra"), "three": True, "deals": 2}):
        config = write(tmp_path, bots, **change)  # type: ignore[arg-type]
        before = len(by_identity(run))
        report = run_tournament(load_config(config), run)
        fresh = same_as_fresh(run, config, tmp_path)
        assert report.before == before and report.played == fresh.played - before > 0

    # and the ratings read from the records are a fresh run's too
    ratings = CliRunner().invoke(app, ["ratings", str(run), "--format", "json"])
    newest = sorted(tmp_path.glob("fresh-*"))[-1]
    fresh_ratings = CliRunner().invoke(app, ["ratings", str(newest), "--format", "json"])
    assert ratings.exit_code == 0 and ratings.stdout == fresh_ratings.stdout


def test_a_run_with_a_key_keeps_it_and_its_games_when_a_sandboxed_bot_joins(
        tmp_path: Path) -> None:
    bots = [("greedy", "greedy"), ("ada", file_bot(tmp_path, "Ada"))]
    run = tmp_path / "run"
    run_tournament(load_config(write(tmp_path, bots, deals=1, isolation="process")), run)
    key = (run / KEY).read_text()
    bots.append(("bob", file_bot(tmp_path, "Bob")))
    config = write(tmp_path, bots, deals=1, isolation="process")
    report = run_tournament(load_config(config), run)
    assert (report.before, report.played) == (2, 4) and (run / KEY).read_text() == key
    same_as_fresh(run, config, tmp_path)


def test_a_bot_put_back_comes_back_from_the_records_and_fresh_starts_over(
        tmp_path: Path) -> None:
    bots = [("greedy", "greedy"), ("random", "random"), ("optimal", "optimal")]
    config = write(tmp_path, bots)
    run = tmp_path / "run"
    run_tournament(load_config(config), run)
    games = (run / GAMES).read_bytes()
    run_tournament(load_config(write(tmp_path, bots[:2])), run)
    assert len(list(RunDirectory(run).records())) == 4
    back = run_tournament(load_config(write(tmp_path, bots)), run)
    assert (back.before, back.played, back.retired) == (12, 0, 0)
    assert (run / GAMES).read_bytes() == games  # the same games, under the same numbers
    numbers = read_numbers(RunDirectory(run))
    assert numbers is not None and not numbers.retired
    same_as_fresh(run, config, tmp_path)
    again = run_tournament(load_config(config), run, fresh=True)
    assert again.before == 0 and again.played == 12


def test_records_from_an_older_version_are_kept_by_the_task_they_were_played_as(
        tmp_path: Path) -> None:
    bots = [("greedy", "greedy"), ("random", "random")]
    config = write(tmp_path, bots)
    run = tmp_path / "run"
    run_tournament(load_config(config), run)
    lines = []
    for line in (run / GAMES).read_text().splitlines():  # as an older version wrote them
        record = json.loads(line)
        del record["identity"]
        lines.append(json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n")
    (run / GAMES).write_text("".join(lines))
    bots.append(("optimal", "optimal"))
    config = write(tmp_path, bots, deals=3)
    report = run_tournament(load_config(config), run)
    assert report.before == 4 and report.played == 18 - 4
    same_as_fresh(run, config, tmp_path)


def as_an_earlier_version_left_it(run: Path, config_path: Path) -> None:
    """Make a run what earlier versions made of it when brought up to date to this config: its
    scheduled records renumbered to their places in the schedule, the others moved to
    retired.jsonl, the config and code recorded."""
    config = load_config(config_path)
    code = bots_code(config)
    identities = update.GameIdentities(config, code)
    place = {identities.of(task): task.task for task in schedule_of(config)}
    records = [json.loads(line) for line in (run / GAMES).read_text().splitlines()]
    kept = sorted((r | {"task": place[r["identity"]]} for r in records
                   if r["identity"] in place), key=lambda r: r["task"])
    gone = sorted((r for r in records if r["identity"] not in place),
                  key=lambda r: r["identity"])
    for name, lines in ((GAMES, kept), (RETIRED, gone)):
        (run / name).write_text("".join(json.dumps(r, separators=(",", ":")) + "\n"
                                        for r in lines))
    RunDirectory(run).set_config(canonical_toml(config), config_digest(config))
    write_bots(run, code)
    (run / NUMBERS).unlink(missing_ok=True)


def test_a_run_brought_up_to_date_by_an_earlier_version_is_read_as_it_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run as earlier versions left it (games renumbered, retired.jsonl beside games.jsonl)
    rates as it did; brought up to date, its games keep their numbers, and a retired game
    scheduled again comes back appended under a new number, not replayed, also when the run is
    killed right after its numbering is kept."""
    bots = [("greedy", "greedy"), ("random", "random"), ("optimal", "optimal")]
    full, smaller = write(tmp_path, bots), write(tmp_path, bots[:2], name="small")
    run = tmp_path / "run"
    run_tournament(load_config(full), run)
    as_an_earlier_version_left_it(run, smaller)
    rated = CliRunner().invoke(app, ["ratings", str(run), "--format", "json"])
    fresh = run_tournament(load_config(smaller), tmp_path / "fresh-small").path
    again = CliRunner().invoke(app, ["ratings", str(fresh), "--format", "json"])
    assert rated.exit_code == 0 and rated.stdout == again.stdout
    games, before = (run / GAMES).read_bytes(), numbered(run)
    written = update.write_numbers

    def killed(run: RunDirectory, numbers: Any) -> None:
        written(run, numbers)
        raise KeyboardInterrupt  # as if killed once numbers.json is kept

    monkeypatch.setattr(update, "write_numbers", killed)
    with pytest.raises(KeyboardInterrupt):
        run_tournament(load_config(full), run)
    monkeypatch.setattr(update, "write_numbers", written)
    report = run_tournament(load_config(full), run)
    assert (report.before, report.played, report.retired) == (12, 0, 0)
    assert (run / GAMES).read_bytes().startswith(games)
    after = numbered(run)
    assert {i: after[i] for i in before} == before
    # the games back from retired.jsonl: numbered above every number on record there (11)
    assert sorted(n for i, n in after.items() if i not in before) == list(range(12, 20))
    same_as_fresh(run, full, tmp_path)


def test_a_run_killed_while_brought_up_to_date_plays_each_missing_game_once(
        tmp_path: Path) -> None:
    bots = [("greedy", "greedy"), ("random", "random")]
    run = tmp_path / "run"
    run_tournament(load_config(write(tmp_path, bots, deals=10)), run)
    kept = len(by_identity(run))
    uninterrupted = tmp_path / "uninterrupted"
    shutil.copytree(run, uninterrupted)
    (tmp_path / "holding.py").write_text(holding("bots.concentration.optimal", "OptimalBot"))
    bots.append(("optimal", f"{tmp_path}/holding.py:Holding"))  # in-process (`write`)
    config = write(tmp_path, bots, deals=10, variants=("standard", "zebra"))
    command = [sys.executable, "-m", "arena.cli", "run", str(config), "--out", str(run),
               "--workers", "2", "--quiet"]
    # each worker holds its 10th game of the new bot (of its 80): the update never ends on its
    # own, however late the poll below looks
    child = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env={**os.environ, "HOLD_AFTER": "10"})
    games = run / GAMES
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(games.read_bytes().splitlines()) < kept + 10:
        time.sleep(0.02)
    os.killpg(child.pid, signal.SIGKILL)  # the runner and its workers, mid-update
    child.wait()
    partial = len(games.read_bytes().splitlines())
    total = len(schedule_of(load_config(config)))
    assert kept < partial < total, "the run should have been killed part way"
    with games.open("a") as f:
        f.write('{"task": 3, "identity": "0123')  # as if killed mid-write
    resumed = run_tournament(load_config(config), run, workers=2)
    assert resumed.repaired > 0 and resumed.complete
    assert resumed.played == total - resumed.before
    same_as_fresh(run, config, tmp_path)
    # every game under the number an update that was never killed gives it
    run_tournament(load_config(config), uninterrupted)
    assert numbered(run) == numbered(uninterrupted)
    assert by_identity(run, numbers=True) == by_identity(uninterrupted, numbers=True)


FAULTY = '''
from bots.algorithms.random_bot import RandomBot


class {name}(RandomBot):
    """Plays at random, and raises at its third decision of a game{note}."""

    games = ("concentration",)

    def start(self, info):
        super().start(info)
        self.decisions = 0

    def act(self, obs):
        self.decisions += 1
        if self.decisions == 3:
            print("about to fail")
            raise RuntimeError("boom")
        return super().act(obs)
'''


def test_a_game_keeps_its_number_and_record_for_good(tmp_path: Path) -> None:
    """A run brought up to date three times (a bot changed, a bot added, a variant added): the
    first week's records stay in games.jsonl byte for byte under their numbers, and every
    fault's detail names the game that holds it (`bots/eve.log under [task N, ...]`). Earlier
    versions renumbered most of them, and their fault text then named other games."""
    (tmp_path / "eve").mkdir()
    (tmp_path / "eve" / "eve.py").write_text(FAULTY.format(name="Eve", note=""))
    bots = [("greedy", "greedy"), ("random", "random"), ("eve", f"{tmp_path}/eve/eve.py:Eve")]
    run = tmp_path / "run"
    run_tournament(load_config(write(tmp_path, bots, deals=1, isolation="process")), run)
    week_one = (run / GAMES).read_bytes()
    assert b"under [task " in week_one

    (tmp_path / "eve" / "eve.py").write_text(FAULTY.format(name="Eve", note=", changed"))
    run_tournament(load_config(write(tmp_path, bots, deals=1, isolation="process")), run)
    bots.insert(0, ("ada", "forgetful"))  # first: the schedule's order moves
    run_tournament(load_config(write(tmp_path, bots, deals=1, isolation="process")), run)
    config = write(tmp_path, bots, variants=("standard", "zebra"), deals=1, isolation="process")
    last = run_tournament(load_config(config), run)
    assert last.played > 0

    games = (run / GAMES).read_bytes()
    assert games.startswith(week_one)  # appended to, never rewritten
    records = [json.loads(line) for line in games.splitlines()]
    assert len({r["task"] for r in records}) == len(records)
    faults = 0
    for record in records:
        for fault in record.get("faults", ()):
            named = re.search(r"under \[task (\d+), ", fault["detail"])
            assert named is not None and int(named[1]) == record["task"], fault["detail"]
            faults += 1
    assert faults > len(week_one.splitlines())
    # eve's first games left the ratings (its code changed) but keep their numbers
    rated = {r["task"] for r in RunDirectory(run).records()}
    first = [json.loads(line) for line in week_one.splitlines()]
    assert {r["task"] for r in first if "eve" not in r["seats"]} <= rated
    assert not {r["task"] for r in first if "eve" in r["seats"]} & rated
    # and a game named by its number is that game
    one = next(r for r in first if "eve" not in r["seats"])
    replayed = replay_path(run, one["task"])
    assert replayed.reproduced and replayed.recorded == one
    same_as_fresh(run, config, tmp_path)


def sampled(folder: Path, bots: list[str], name: str = "s", changed: str = "",
            gauntlet: tuple[str, ...] = ()) -> Path:
    """A sampled schedule of bundled bots at three seats, two tables each (a gauntlet of these
    challengers if given); the bot `changed` plays with another recall."""
    fmt = (f'"gauntlet"\nchallengers = {json.dumps(list(gauntlet))}' if gauntlet
           else '"sampled"')
    text = (f'name = "{name}"\n[deals]\ncount = 1\nbase = 3\n[schedule]\nformat = {fmt}\n'
            'tables_per_bot = 2\n')
    for bot in bots:
        recall = f"0.{len(bot)}" if bot != changed else "0.99"
        text += f'[[bots]]\nname = "{bot}"\nspec = "forgetful:recall={recall}"\n'
    text += '[[games]]\ngame = "concentration"\nplayers = 3\nvariants = ["standard"]\n'
    path = folder / f"{name}.toml"
    path.write_text(text)
    return path


def tables_of(run: Path) -> set[tuple[str, ...]]:
    """The tables a run's records were played at."""
    return {tuple(r["table"]) for r in by_identity(run)}


def test_a_sampled_field_grows_without_a_redraw_deterministically(tmp_path: Path) -> None:
    field = ["a", "bb", "ccc", "d", "ee", "fff"]
    run, other = tmp_path / "run", tmp_path / "other"
    first = run_tournament(load_config(sampled(tmp_path, field)), run)
    before = tables_of(run)
    assert first.played == len(before) * 3
    records = by_identity(run, numbers=True)
    run_tournament(load_config(sampled(tmp_path, field)), other)
    field.append("gggg")  # a new bot: its tables against the field, the old ones all stay
    config = load_config(sampled(tmp_path, field))
    grown = run_tournament(config, run)
    after = tables_of(run)
    assert before < after and (grown.before, grown.retired) == (first.played, 0)
    new = after - before
    assert len(new) == 2 and all("gggg" in t for t in new)
    assert grown.played == len(new) * 3
    kept = {r["identity"]: r for r in by_identity(run, numbers=True)}
    assert all(kept[r["identity"]] == r for r in records)  # bit for bit, numbers too
    # the same history gives the same draw
    run_tournament(config, other)
    assert tables_of(other) == after
    # a bot gone: its tables leave, the rest stay, and the bots that sat with it are seated
    # at new tables until each sits at two again
    field.remove("bb")
    shrunk = run_tournament(load_config(sampled(tmp_path, field)), run)
    now = tables_of(run)
    assert {t for t in after if "bb" not in t} <= now
    assert shrunk.retired == 3 * sum("bb" in t for t in after)
    short = {b for t in after if "bb" in t for b in t} - {"bb"}
    assert shrunk.played == len(now - after) * 3 and all(set(t) & short for t in now - after)
    assert shrunk.plan is not None and "new tables for bots short of tables: " in (
        shrunk.plan.describe())
    seated = Counter(b for t in now for b in t)
    assert set(seated) == set(field) and min(seated.values()) == 2
    # the draw is its history replayed: the first tables grown through each change of field
    draw = read_draw(RunDirectory(run)).get(("concentration", 3))
    assert len(draw.history) == 3 and draw.history[-1].bots == tuple(field)
    assert replay_draw(draw.first, draw.history[1:], 3,
                       draw_salt("", "concentration", 3)) == list(draw.tables)
    # the bots short of tables had ratings: their opponents were drawn near them
    assert {name for name, _ in draw.history[-1].ratings} == set(field)


def test_a_changed_bot_replays_only_its_own_tables(tmp_path: Path) -> None:
    field = ["a", "bb", "ccc", "d", "ee", "fff"]
    run = tmp_path / "run"
    run_tournament(load_config(sampled(tmp_path, field)), run)
    records, tables = by_identity(run), tables_of(run)
    changed = run_tournament(load_config(sampled(tmp_path, field, changed="ccc")), run)
    assert tables_of(run) == tables  # the same tables, its own played again
    assert changed.played == changed.retired == 3 * sum("ccc" in t for t in tables)
    kept = {r["identity"] for r in by_identity(run)}
    assert {r["identity"] for r in records if "ccc" not in r["table"]} <= kept
    assert not {r["identity"] for r in records if "ccc" in r["table"]} & kept


@pytest.mark.parametrize("joins", ["field", "challenger"])
def test_a_gauntlet_grows_without_a_redraw(tmp_path: Path, joins: str) -> None:
    field, challengers = ["a", "bb", "ccc", "d", "ee"], ("x",)
    run = tmp_path / "run"
    first = run_tournament(load_config(sampled(tmp_path, [*field, *challengers],
                                               gauntlet=challengers)), run)
    records, before = by_identity(run), tables_of(run)
    new = "ffffff" if joins == "field" else "y"
    if joins == "field":
        field.append(new)
    else:
        challengers += (new,)
    grown = run_tournament(load_config(sampled(tmp_path, [*field, *challengers],
                                                  gauntlet=challengers)), run)
    after = tables_of(run)
    assert before < after and all(new in t for t in after - before)
    assert (grown.before, grown.retired) == (first.played, 0)
    assert grown.played == 3 * len(after - before)
    kept = {r["identity"] for r in by_identity(run)}
    assert {r["identity"] for r in records} <= kept
    if joins == "challenger":  # it plays the field tables the first challenger plays
        assert {tuple(b for b in t if b != "y") for t in after if "y" in t} == {
            tuple(b for b in t if b != "x") for t in before}


def test_a_crafted_draw_is_refused_in_one_line(tmp_path: Path) -> None:
    field = ["a", "bb", "ccc", "d"]
    run = tmp_path / "run"
    run_tournament(load_config(sampled(tmp_path, field)), run)
    path, games = run / "draw.json", (run / GAMES).read_bytes()
    data = json.loads(path.read_text())
    for crafted in ({"tables": [["a", "bb", "zz"]]},  # a bot not in the field
                    {"tables": [["a", "bb", "a"]]},  # a bot twice at a table
                    {"history": []},  # no field
                    {"history": [{"bots": ["a", "a"], "tables_per_bot": 2}]},  # a bot twice
                    {"history": [{"bots": field, "tables_per_bot": 2, "ratings": [["a", "x"]]}]},
                    {"format": "round"}):
        path.write_text(json.dumps(data | {"draws": [data["draws"][0] | crafted]}))
        with pytest.raises(RunDirectoryError, match=r"draw\.json: damaged"):
            read_draw(RunDirectory(run))
    result = CliRunner().invoke(app, ["run", str(sampled(tmp_path, [*field, "ee"])),
                                      "--out", str(run)])
    assert result.exit_code == 2 and "draw.json: damaged" in result.output
    assert (run / GAMES).read_bytes() == games
