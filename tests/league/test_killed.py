"""`arena league update` killed (SIGKILL) at any point of bringing a league up to date, then run
again, ends as an uninterrupted update: the same records in every pool, the same round.

The league after its first week and its uninterrupted second update are made once for the
module (`week_one`); each test kills the update of a copy."""

from __future__ import annotations

import os
import shutil
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import arena.league.rounds as rounds_module
import arena.tournament.playing.runner as runner_module
import arena.tournament.update.bring as bring_module
from arena.league.folder import League, new_league, parse_game
from arena.league.rounds import read_round, rounds, update
from arena.league.submissions import submit
from arena.tournament.playing.runner import Progress
from tests.helpers import run_records
from tests.league.conftest import passing

CONCENTRATION, DIG = "concentration-standard-2p", "dig-standard-2p"


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _mid_record(monkeypatch: pytest.MonkeyPatch, league: League) -> None:
    """Killed in the first pool's run, two games in, half-way through writing a record."""
    real = runner_module.in_batches
    monkeypatch.setattr(runner_module, "in_batches", lambda tasks, size: real(tasks, 1))

    def on_progress(progress: Progress) -> None:
        if progress.played >= 2:
            with (league.path / "pools" / CONCENTRATION / "games.jsonl").open("a") as f:
                f.write('{"task": 5, "identity": "3f2a')
            _die()

    monkeypatch.setattr(rounds_module, "update", _with_progress(rounds_module.update,
                                                                on_progress))


def _with_progress(real: Callable[..., Any], hook: Callable[[Progress], None]
                   ) -> Callable[..., Any]:
    def with_hook(league: League, workers: int = 1, on_progress: Any = None, *rest: Any,
                  **kwargs: Any) -> Any:
        return real(league, workers, hook, *rest, **kwargs)

    return with_hook


def _code_not_recorded(monkeypatch: pytest.MonkeyPatch, league: League) -> None:
    """Killed as the first pool's run is brought up to date: its config rewritten for the new
    field, the bots' code not yet recorded."""
    monkeypatch.setattr(bring_module, "write_bots", lambda *a: _die())


def _between_pools(monkeypatch: pytest.MonkeyPatch, league: League) -> None:
    """Killed once the first pool is up to date, before the second begins."""
    real, calls = rounds_module.run_tournament, []

    def run_tournament(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[1])
        if len(calls) == 2:
            _die()
        return real(*args, **kwargs)

    monkeypatch.setattr(rounds_module, "run_tournament", run_tournament)


def _writing_the_round(nth: int) -> Callable[[pytest.MonkeyPatch, League], None]:
    """Killed while the round is written, before its `nth` file (standings.txt,
    standings.md, round.json)."""
    def patch(monkeypatch: pytest.MonkeyPatch, league: League) -> None:
        real, written = rounds_module.write_text, []

        def write_text(path: Path, text: str, mode: int = 0o644) -> None:
            if path.parent.parent.name == "rounds":
                written.append(path.name)
                if len(written) == nth:
                    _die()
            real(path, text, mode)

        monkeypatch.setattr(rounds_module, "write_text", write_text)

    return patch


def _week_one(tmp_path: Path) -> tuple[League, League]:
    """A league of two games after its first round, and a copy of it (same key, same deals),
    each with two new bots submitted for the second week."""
    league = new_league(tmp_path / "L", [parse_game("concentration"), parse_game("dig")],
                        deals=2)
    for bot in ("greedy", "random", "dig-sharp"):
        submit(league, bot, validator=passing)
    update(league, isolation="none")
    twin = League(tmp_path / "twin", league.config)
    shutil.copytree(league.path, twin.path)
    for each in (league, twin):
        submit(each, "forgetful", validator=passing)  # first by name: the tasks renumber
        submit(each, "dig-simple", validator=passing)
    return league, twin


@pytest.fixture(scope="module")
def week_one(tmp_path_factory: pytest.TempPathFactory) -> tuple[League, League]:
    """`_week_one`'s league, to copy, and its twin brought up to date uninterrupted."""
    league, twin = _week_one(tmp_path_factory.mktemp("week"))
    update(twin, isolation="none")
    return league, twin


def _killed(cli: list[str], patch: Callable[[pytest.MonkeyPatch, League], None],
            league: League) -> int:
    """Run `arena league update` in a forked process with `patch` applied; its exit status."""
    sys.stdout.flush()
    sys.stderr.flush()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's coverage is not collected
        code = 70
        try:
            with pytest.MonkeyPatch.context() as monkeypatch:
                patch(monkeypatch, league)
                from arena.cli import app

                app(cli, standalone_mode=False)
                code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:
            code = 71
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)
    return status


def _same(league: League, twin: League) -> None:
    for pool in (CONCENTRATION, DIG):
        assert run_records(league.path / "pools" / pool) == run_records(twin.path / "pools" / pool)
    assert rounds(league) == rounds(twin) == [1, 2]
    mine, theirs = (_standings(read_round(each, 2)) for each in (league, twin))
    assert mine == theirs
    assert (league.path / "rounds" / "2" / "standings.txt").read_text().splitlines()[1:] == \
        (twin.path / "rounds" / "2" / "standings.txt").read_text().splitlines()[1:]


def _standings(document: dict[str, Any]) -> dict[str, Any]:
    """A round as it is shown: its date left out, and its pools' `rated_from` (the digest of
    their records byte for byte, which differ in their games' durations and order)."""
    return {**{k: v for k, v in document.items() if k not in ("date", "pools")},
            "pools": [{k: v for k, v in p.items() if k != "rated_from"}
                      for p in document["pools"]]}


@pytest.mark.parametrize("patch", [_mid_record, _code_not_recorded, _between_pools,
                                   _writing_the_round(1), _writing_the_round(3)],
                         ids=["mid-record", "code-not-recorded", "between-pools",
                              "round-begun", "round-almost-written"])
def test_a_league_update_killed_at_any_point_ends_as_an_uninterrupted_one(
        week_one: tuple[League, League], tmp_path: Path,
        patch: Callable[[pytest.MonkeyPatch, League], None]) -> None:
    week, twin = week_one
    league = League(tmp_path / week.path.name, week.config)
    shutil.copytree(week.path, league.path)
    cli = ["league", "update", str(league.path), "--isolation", "none", "--workers", "1", "-q"]
    status = _killed(cli, patch, league)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, status
    assert rounds(league) == [1]  # no round is kept until every pool is up to date
    update(league, isolation="none")  # run again: it resumes
    _same(league, twin)  # as the uninterrupted update left its twin
