"""Stopping a field early: rounds are blocks of the schedule, a clearly ordered field stops early
at the same round with any workers and after a resume, a budget is never overrun, and the run
says why it stopped.

The clearly ordered field stopped on two workers is played once for the module (`ordered`): the
tests compare with it, or resume a copy of it cut short."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.tournament.planning.config import TournamentConfig, parse_config
from arena.tournament.planning.plan import schedule_of
from arena.tournament.records.results import GAMES, LOG, RunDirectory
from arena.tournament.stopping import StopError, StopReason, StopReport, run_until_confident


def config_of(tmp_path: Path, bots: list[tuple[str, str]], stop: str, deals: int = 40,
              players: int = 2, game: str = "concentration") -> TournamentConfig:
    """A config of these (name, spec) bots with `stop` lines in its [schedule]."""
    listed = "".join(f'\n[[bots]]\nspec = "{spec}"\nname = "{name}"\n' for name, spec in bots)
    path = tmp_path / "stop.toml"
    path.write_text(f'name = "stop"\n[schedule]\n{stop}\n[deals]\ncount = {deals}\nbase = 1\n'
                    f'{listed}\n[[games]]\ngame = "{game}"\nplayers = {players}\n'
                    f'variants = ["standard"]\n')
    return parse_config(path.read_text(), path)


ORDERED = [("random", "random"), ("forgetful", "forgetful"), ("greedy", "greedy")]
MEMORANDUM = [("random", "random"), ("elephant", "elephant"), ("goldfish", "goldfish"),
              ("chancer", "chancer")]
TWINS = [("g1", "greedy"), ("g2", "greedy"), ("random", "random")]


@pytest.fixture(scope="module")
def ordered(tmp_path_factory: pytest.TempPathFactory) -> tuple[TournamentConfig, StopReport]:
    """The clearly ordered field, stopping at 99%, played on two workers once for the module:
    its config and how it stopped (read it; copy its run to change it)."""
    folder = tmp_path_factory.mktemp("ordered")
    config = config_of(folder, ORDERED, 'stop = "confident"\nconfidence = 0.99')
    return config, run_until_confident(config, folder / "whole", workers=2)


def tasks(out: Path) -> list[int]:
    return sorted(r["task"] for r in RunDirectory(out).records())


def test_rounds_are_blocks_of_the_schedule_holding_every_table_on_their_deals(
        tmp_path: Path) -> None:
    config = config_of(tmp_path, MEMORANDUM, 'stop = "confident"\nround_deals = 3', deals=7,
                       players=3, game="memorandum")
    schedule = schedule_of(config)
    ends = schedule.rounds()
    assert ends == [3 * 12, 6 * 12, 7 * 12]  # 4 tables of 3, 3 rotations: 12 games a deal
    listed = list(schedule)
    assert [t.task for t in listed] == list(range(len(schedule)))
    starts = [0, *ends[:-1]]
    for start, end in zip(starts, ends, strict=True):
        block = listed[start:end]
        seeds = sorted({t.seed for t in block})
        assert seeds == sorted(config.deals.seeds)[start // 12:end // 12]
        assert Counter(t.table for t in block) == Counter(
            {table: 3 * len(seeds) for table in schedule.tables_of(schedule.games[0])})
    plain = schedule_of(config_of(tmp_path, MEMORANDUM, "", deals=7, players=3, game="memorandum"))
    assert Counter((t.seats, t.seed) for t in listed) == Counter(
        (t.seats, t.seed) for t in plain)


def test_a_clearly_ordered_field_stops_early_at_the_same_round_on_one_and_two_workers(
        ordered: tuple[TournamentConfig, StopReport], tmp_path: Path) -> None:
    config, two = ordered
    one = run_until_confident(config, tmp_path / "one", workers=1)
    assert one.reason is StopReason.SEPARATED
    assert one.state == two.state
    assert one.state.games < len(schedule_of(config))
    assert one.state.round > 1, "a field this close should need more than one round"
    assert tasks(tmp_path / "one") == tasks(two.run.path) == list(range(one.state.games))
    assert one.run.played == one.state.games
    assert "every bot is told apart from the next at 99% (two-sided)" in (
        tmp_path / "one" / LOG).read_text()


def test_a_budget_is_never_overrun_and_the_pairs_left_are_named(tmp_path: Path) -> None:
    config = config_of(tmp_path, TWINS, 'stop = "confident"\nbudget = 50')
    report = run_until_confident(config, tmp_path / "b")
    assert report.reason is StopReason.BUDGET
    assert report.state.games == 48 == len(tasks(tmp_path / "b"))  # rounds of 6 games
    assert {(n.above, n.below) for n in report.state.unseparated} in (
        {("g1", "g2")}, {("g2", "g1")})
    assert "the budget of 50 games is spent" in report.describe()
    assert ("not told apart at 95% (two-sided: P(> next) of 97.5% needed): "
            "concentration/standard g") in report.describe()


def test_the_whole_schedule_played_without_separation_says_so(tmp_path: Path) -> None:
    report = run_until_confident(config_of(tmp_path, TWINS, 'stop = "confident"', deals=4),
                                 tmp_path / "s")
    assert report.reason is StopReason.SCHEDULE and report.state.games == 24
    assert "the whole schedule is played" in report.describe()


def test_a_budget_below_one_round_is_refused(tmp_path: Path) -> None:
    config = config_of(tmp_path, TWINS, 'stop = "confident"\nbudget = 10\nround_deals = 2')
    with pytest.raises(StopError, match=r"schedule.budget: 10 games do not hold one round "
                                        r"\(12 games on 2 deal\(s\)\)"):
        run_until_confident(config, tmp_path / "r")
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("kept", [
    # cut mid-run in the default run; at its start and near its end, slow
    pytest.param(0, marks=pytest.mark.slow), 7, pytest.param(25, marks=pytest.mark.slow)])
def test_a_resumed_run_stops_where_a_whole_run_stops(
        ordered: tuple[TournamentConfig, StopReport], tmp_path: Path, kept: int) -> None:
    config, whole = ordered
    cut = tmp_path / "cut"
    shutil.copytree(whole.run.path, cut)  # then cut back to its first `kept` games
    lines = (cut / GAMES).read_text().splitlines(keepends=True)
    (cut / GAMES).write_text("".join(lines[:kept]) + lines[kept][:20])  # a half-written line
    resumed = run_until_confident(config, cut, workers=2)
    assert resumed.state == whole.state and resumed.reason is whole.reason
    assert resumed.run.before == kept and resumed.run.played == whole.state.games - kept
    assert resumed.run.repaired > 0
    assert tasks(cut) == tasks(whole.run.path)
    again = run_until_confident(config, cut)
    assert again.state == whole.state and again.run.played == 0


def test_arena_run_says_the_plan_each_round_and_why_it_stopped(tmp_path: Path) -> None:
    config = config_of(tmp_path, TWINS, 'stop = "confident"\nbudget = 20')
    result = CliRunner().invoke(app, ["run", str(config.path), "--out", str(tmp_path / "o"),
                                      "--workers", "1", "-q"])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines[0] == ("arena: schedule: 240 games in 40 round(s) of 6; stops once every bot "
                        "is told apart from the next at 95% (two-sided), or at most 20 games")
    assert lines[-2].startswith("arena: stopped after 18 games (round 3 of 40): the budget of "
                                "20 games is spent; not told apart at 95% (two-sided")
    assert lines[-1] == f"18 of 240 games in {tmp_path / 'o'} (18 played now)"
    assert "g1" in result.stdout and "g2" in result.stdout
