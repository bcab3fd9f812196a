"""A league brought up to date on Ray: the same records and round as a local update, Ray started
once for the whole update, and not at all when there is nothing to play.

On a real local Ray instance this is slow (`pytest -m slow`: the Ray backend on a real cluster
beyond one run, see "Testing" in docs/architecture.md; the default run keeps a tournament's same
records on Ray as locally); the default run checks the same update with a stand-in for Ray that
is started and stopped as Ray is."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from arena.league.folder import League, new_league, parse_game
from arena.league.rounds import read_round, update
from arena.league.submissions import submit
from arena.tournament.playing import ray_backend
from arena.tournament.playing.runner import Backend
from tests.helpers import run_records
from tests.league.conftest import passing
from tests.tournament.playing.test_ray_backend import FakeRay

real_ray = pytest.importorskip("ray")


class StartedFakeRay(FakeRay):
    """The stand-in for Ray, not running until `init` starts it, and stopped by `shutdown`."""

    def __init__(self) -> None:
        super().__init__(cpus=2)
        self.running = False
        self.init = self._init

    def is_initialized(self) -> bool:
        return self.running

    def _init(self, **options: Any) -> None:
        assert not self.running
        self.running = True

    def shutdown(self) -> None:
        self.running = False


@pytest.mark.parametrize("real", [pytest.param(True, marks=pytest.mark.slow), False],
                         ids=["ray", "stand-in"])
def test_a_league_updated_on_ray_equals_a_local_update(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       real: bool) -> None:
    ray = real_ray if real else StartedFakeRay()
    if not real:
        monkeypatch.setattr(ray_backend, "load_ray", lambda: ray)
    if ray.is_initialized():  # pragma: no cover - another module's instance left running
        pytest.skip("a Ray instance is already running in this process")
    league = new_league(tmp_path / "L", [parse_game("concentration"), parse_game("dig")],
                        deals=1)
    for bot in ("greedy", "random", "dig-sharp", "dig-simple"):
        submit(league, bot, validator=passing)
    twin = League(tmp_path / "twin", league.config)
    shutil.copytree(league.path, twin.path)  # the same key and submissions: the same deals
    started: list[Any] = []
    real_init = ray.init
    monkeypatch.setattr(ray, "init", lambda *a, **k: started.append(k) or real_init(*a, **k))
    on_ray = update(league, workers=1, isolation="none", backend=Backend.RAY)
    assert len(started) == 1 and not ray.is_initialized()  # one instance for both pools
    update(twin, workers=1, isolation="none")
    for part in on_ray.pools:
        assert part.report is not None and part.report.complete
        assert run_records(part.report.path) == run_records(twin.pool_dir(part.pool))
    assert [p["ratings"] for p in read_round(league, 1)["pools"]] == \
        [p["ratings"] for p in read_round(twin, 1)["pools"]]
    # nothing new: the next round is kept without starting Ray at all
    again = update(league, workers=1, isolation="none", backend=Backend.RAY)
    assert again.round == 2 and len(started) == 1
    assert all(p.report is not None and p.report.played == 0 for p in again.pools)
