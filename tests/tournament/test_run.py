"""Tournaments end to end: parallel runs equal serial ones, resuming after a kill, run commands.

The tests that read a finished run of the small config read one played once for the module
(`played`), or a copy of it where they change the run."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.tournament.planning.config import load_config
from arena.tournament.planning.plan import schedule_of
from arena.tournament.rating import run_ratings, write_ratings
from arena.tournament.records.results import GAMES, KEY, RunDirectory, RunDirectoryError
from arena.tournament.run import RunReport, run_tournament
from arena.tournament.stopping import run_until_confident
from tests.helpers import KeysUsed, holding, run_records, slow_unless

CONFIG = """
name = "{name}"
[deals]
count = {deals}
base = 11
[[bots]]
spec = "greedy"
[[bots]]
spec = "optimal"
[[bots]]
spec = "random"
[[bots]]
spec = "{extra}"
[[games]]
game = "concentration"
players = 2
variants = ["standard", "zebra"]
[[games]]
game = "concentration"
players = 1
variants = ["standard"]
"""

FAULTY = '''
from arena.api import Bot


class Faulty(Bot):
    """Raises on its third decision of every game."""

    games = ("concentration",)

    def start(self, info):
        super().start(info)
        self.calls = 0

    def act(self, obs):
        self.calls += 1
        if self.calls == 3:
            raise RuntimeError("boom")
        return obs.legal[0]
'''


def write_config(tmp_path: Path, name: str = "t", deals: int = 2, extra: str = "forgetful") -> Path:
    """A small tournament config in tmp_path."""
    path = tmp_path / f"{name}.toml"
    path.write_text(CONFIG.format(name=name, deals=deals, extra=extra))
    return path


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> RunReport:
    """The small config (`write_config`) played to its end on one worker, once for the module:
    read it, or change a copy (`copy_of`)."""
    folder = tmp_path_factory.mktemp("played")
    return run_tournament(load_config(write_config(folder)), folder / "run", workers=1)


def copy_of(played: RunReport, tmp_path: Path) -> Path:
    """A copy of the played run in tmp_path, to change."""
    return Path(shutil.copytree(played.path, tmp_path / "run"))


def ratings_json(run: Path) -> str:
    """`arena ratings RUN --format json` output."""
    result = CliRunner().invoke(app, ["ratings", str(run), "--format", "json"])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_one_and_two_workers_give_the_same_records_and_ratings(played: RunReport,
                                                               tmp_path: Path) -> None:
    config = load_config(write_config(tmp_path))
    two = run_tournament(config, tmp_path / "two", workers=2)  # `played`: on one worker
    # the pool is shut down whole: no thread of it left to race the interpreter's exit
    assert not [t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread"]
    assert played.complete and two.complete
    assert played.played == two.played == len(schedule_of(config))
    assert run_records(played.path) == run_records(tmp_path / "two")
    assert ratings_json(played.path) == ratings_json(tmp_path / "two")


def test_a_killed_run_resumes_without_losing_or_repeating_a_game(tmp_path: Path) -> None:
    (tmp_path / "holding.py").write_text(holding("bots.concentration.greedy", "GreedyBot"))
    path = write_config(tmp_path, "killed", deals=4)  # 112 games, 52 of them the file bot's
    path.write_text(path.read_text().replace(  # in-process, where the environment reaches it
        'spec = "forgetful"', f'spec = "{tmp_path}/holding.py:Holding"\nisolation = "none"'))
    out = tmp_path / "run"
    command = [sys.executable, "-m", "arena.cli", "run", str(path), "--out", str(out),
               "--workers", "2", "--quiet"]
    # each of the two workers holds its 15th game of the file bot, so the run is killed part
    # way whenever the poll below gets to look
    child = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env={**os.environ, "HOLD_AFTER": "15"})
    games = out / GAMES
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not games.exists() or games.stat().st_size < 10_000):
        time.sleep(0.02)
    os.killpg(child.pid, signal.SIGKILL)  # the runner and its workers, mid-run
    child.wait()
    partial = len(games.read_text().splitlines())
    total = len(schedule_of(load_config(path)))
    assert 0 < partial < total, "the run should have been killed part way"
    with games.open("a") as f:
        f.write('{"task": 999999, "game": "concent')  # as if killed mid-write
    resumed = run_tournament(load_config(path), out, workers=2)
    assert resumed.repaired > 0 and resumed.complete
    assert resumed.played == total - resumed.before
    whole = run_tournament(load_config(path), tmp_path / "whole", workers=1)
    assert run_records(out) == run_records(tmp_path / "whole")
    assert whole.played == total
    assert ratings_json(out) == ratings_json(tmp_path / "whole")


def test_running_again_plays_nothing_and_more_deals_play_only_the_new_ones(
        played: RunReport, tmp_path: Path) -> None:
    config = load_config(write_config(tmp_path))
    first = played
    again = run_tournament(config, copy_of(played, tmp_path))
    assert again.played == 0 and again.before == first.played
    more = load_config(write_config(tmp_path, deals=3))
    result = CliRunner().invoke(app, ["run", str(tmp_path / "t.toml"), "--out",
                                      str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    new = len(schedule_of(more)) - first.played
    assert (f"kept {first.played:,} games; to play {new} (1 more deals); no longer scheduled 0 "
            f"(kept on record, not rated)") in result.stderr
    assert f"({new} played now)" in result.stderr
    fresh = run_tournament(more, tmp_path / "run", fresh=True)
    assert fresh.before == 0 and fresh.played == len(schedule_of(more))


def test_a_run_on_other_deals_is_refused_naming_the_command_that_keeps_them(
        played: RunReport, tmp_path: Path) -> None:
    copy_of(played, tmp_path)
    write_config(tmp_path)
    games = (tmp_path / "run" / GAMES).read_bytes()
    path = tmp_path / "t.toml"
    path.write_text(path.read_text().replace("base = 11", "base = 100"))
    result = CliRunner().invoke(app, ["run", str(path), "--out", str(tmp_path / "run"), "-q"])
    assert result.exit_code == 2
    assert "none could be kept" in result.stderr and "--fresh" in result.stderr
    assert f"arena run CONFIG --out NEW --deals-like {tmp_path / 'run'}" in result.stderr
    assert (tmp_path / "run" / GAMES).read_bytes() == games


def test_a_faulty_bot_does_not_take_the_tournament_down(tmp_path: Path) -> None:
    (tmp_path / "faulty.py").write_text(FAULTY)
    config = load_config(write_config(tmp_path, deals=1, extra="faulty.py:Faulty"))
    report = run_tournament(config, tmp_path / "run", workers=2)
    assert report.complete
    faulty = [r for r in run_records(tmp_path / "run").values() if "faulty.py:Faulty" in r["seats"]]
    assert faulty and all(r["faults"] for r in faulty)
    for r in faulty:
        seat = r["seats"].index("faulty.py:Faulty")  # type: ignore[attr-defined]
        if len(r["seats"]) > 1:  # type: ignore[arg-type]
            assert r["ranks"][seat] == len(r["seats"])  # type: ignore[index,arg-type]
    log = (tmp_path / "run" / "log.txt").read_text()
    assert "faulted: its decision 3 (the game's " in log  # logged from the worker processes
    assert "): act raised RuntimeError: boom" in log


def test_run_command_prints_ratings_and_writes_reports(tmp_path: Path) -> None:
    path = write_config(tmp_path, deals=1)
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["run", str(path), "--out", str(out), "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "concentration / standard" in result.stdout and "P(> next)" in result.stdout
    for name in ("ratings", "crosstable"):
        for suffix in ("txt", "md", "csv", "json"):
            assert (out / f"{name}.{suffix}").stat().st_size > 0
    assert json.loads((out / "ratings.json").read_text()) == json.loads(ratings_json(out))


# the same two runs read in every format: the table in the default run, the others (each some
# three CPU-tenths of ratings a command) in `pytest -m slow`
@pytest.mark.parametrize("fmt", [slow_unless(fmt == "table", fmt, id=fmt)
                                 for fmt in ("table", "markdown", "csv", "json")])
def test_ratings_and_compare_commands(played: RunReport, tmp_path: Path, fmt: str) -> None:
    run_tournament(load_config(write_config(tmp_path, extra="tracker")), tmp_path / "b")
    ratings = CliRunner().invoke(app, ["ratings", str(played.path), "--variant", "zebra",
                                       "--format", fmt])
    assert ratings.exit_code == 0, ratings.output
    shown = ratings.stdout.replace("forgetful", "").replace("standard error", "")
    assert "standard" not in shown
    compared = CliRunner().invoke(app, ["compare", str(played.path), str(tmp_path / "b"),
                                        "--format", fmt])
    assert compared.exit_code == 0, compared.output
    assert "tracker" in compared.stdout and "forgetful" in compared.stdout


def test_bad_input_to_tournament_commands(played: RunReport, tmp_path: Path) -> None:
    run = played.path
    for args, message in [  # each refused on the same run
            (["ratings", "{tmp}/nothing"], "not a run directory"),
            (["ratings", "{run}", "--variant", "zebr"], "zebr"),
            (["compare", "{run}", "{tmp}/nothing"], "not a run directory"),
            (["run", "{tmp}/missing.toml"], "missing.toml")]:
        argv = [a.format(tmp=tmp_path, run=run) for a in args]
        result = CliRunner().invoke(app, argv)
        assert result.exit_code == 2, (argv, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("arena: error:") and message in lines[0], (
            argv, lines)


def test_ratings_are_recomputed_from_the_run_records(played: RunReport, tmp_path: Path) -> None:
    run = copy_of(played, tmp_path)
    first = write_ratings(run)
    (run / "ratings.txt").unlink()
    assert write_ratings(run) == first
    assert run_ratings(run).variants() == ("standard (1 player)", "standard (2 players)", "zebra")


def _class(tmp_path: Path, schedule: str = "", deals: int = 2) -> Path:
    """The issue's 30-bot class at 8-seat Cuckoo (on 2 deals unless told), with an optional
    [schedule]."""
    bots = "".join(f'\n[[bots]]\nspec = "cuckoo-simple"\nname = "c{i:02d}"\n' for i in range(30))
    path = tmp_path / "class.toml"
    path.write_text(f'name = "class"\n{schedule}\n[deals]\ncount = {deals}\nbase = 1\n{bots}\n'
                    f'[[games]]\ngame = "cuckoo"\nplayers = 8\nvariants = ["standard"]\n')
    return path


def test_a_schedule_over_ten_million_games_is_refused_before_anything_is_written(
        tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["run", str(_class(tmp_path)), "--out", str(out), "-q"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert lines[-1].endswith("the schedule is 93,646,800 games, more than 10,000,000; sample "
                              'it ([schedule] format = "sampled", tables_per_bot = N: '
                              "docs/config.md) or pass --yes to play it all"), lines
    assert not out.exists()


def test_run_says_the_size_of_its_schedule_on_stderr(tmp_path: Path) -> None:
    path = _class(tmp_path, '[schedule]\nformat = "sampled"\ntables_per_bot = 4\n', deals=1)
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["run", str(path), "--out", str(out), "-q", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "arena: schedule: 120 games\n" in result.stderr  # 15 tables x 8 rotations x 1 deal
    seated = Counter(name for record in run_records(out).values() for name in record["seats"])
    assert set(seated.values()) == {4 * 8}  # every bot at 4 tables, in every seat


KEYED = """
name = "keyed"
{schedule}
[deals]
count = 4
base = 1
[[bots]]
spec = "greedy"
isolation = "process"
[[bots]]
spec = "random"
isolation = "process"
[[games]]
game = "concentration"
players = 2
variants = ["standard"]
"""


@pytest.mark.parametrize("how", ["chunks", "confident", "deals-like"])
def test_sandboxed_bots_play_every_game_with_the_run_s_key(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    used = KeysUsed(monkeypatch)
    path = tmp_path / "keyed.toml"
    stop = '[schedule]\nstop = "confident"\nround_deals = 1' if how == "confident" else ""
    path.write_text(KEYED.format(schedule=stop))
    run = tmp_path / "run"
    if how == "chunks":  # as a duel plays: a chunk at a time, resuming the run
        for until in (2, 5, 8):
            run_tournament(load_config(path), run, until=until)
    elif how == "confident":
        run_until_confident(load_config(path), run)
    else:
        run_tournament(load_config(path), tmp_path / "earlier", until=2)
        run_tournament(load_config(path), run, deals_like=tmp_path / "earlier")
    key = RunDirectory(run).key()
    assert len(key) == 32 and used.keys and set(used.keys) == {key}


@pytest.mark.parametrize("left", ["no key", "an empty key"])
def test_a_sandboxed_run_whose_key_is_gone_is_not_resumed_without_one(
        tmp_path: Path, left: str) -> None:
    path = tmp_path / "keyed.toml"
    path.write_text(KEYED.format(schedule=""))
    run = tmp_path / "run"
    run_tournament(load_config(path), run, until=2)
    if left == "no key":  # as a run begun by an older version, or its key removed
        (run / KEY).unlink()
    else:
        (run / KEY).write_text("\n")
    with pytest.raises(RunDirectoryError, match="dealt without a key"):
        run_tournament(load_config(path), run)
    assert len(list(RunDirectory(run).records())) == 2  # nothing more was played
    report = run_tournament(load_config(path), run, fresh=True)  # over again, with a key
    assert report.complete and len(RunDirectory(run).key()) == 32
