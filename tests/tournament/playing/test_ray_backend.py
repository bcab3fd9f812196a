"""The Ray backend: the same records and ratings as a local run, resume across backends, bot files
shipped to the workers, a lost worker's batch run again, and clear errors."""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.tournament.planning.config import load_config
from arena.tournament.planning.plan import schedule_of
from arena.tournament.playing import ray_backend
from arena.tournament.playing.ray_backend import RayBackendError, load_ray, shipment, unpacked
from arena.tournament.playing.runner import Backend, Progress
from arena.tournament.playing.tasks import Entrant, Sandboxing
from arena.tournament.records import results
from arena.tournament.run import run_tournament
from tests.helpers import run_records

ray = pytest.importorskip("ray")

CONFIG = """
name = "{name}"
[deals]
count = {deals}
base = 5
[[bots]]
spec = "greedy"
[[bots]]
spec = "forgetful:recall=0.5"
[[bots]]
spec = "{file_bot}"
isolation = "{isolation}"
[[games]]
game = "concentration"
players = 2
variants = ["standard", "zebra"]
[[games]]
game = "concentration"
players = 1
variants = ["standard"]
"""

FILE_BOT = '''
from arena.api import Bot


class FirstCard(Bot):
    """Turns the first legal card; {note}"""

    games = ("concentration",)

    def act(self, obs):
        {hook}
        return obs.legal[0]
'''

CRASH_ONCE = '''import os, pathlib
        marker = pathlib.Path({marker!r})
        if obs.view is not None and not marker.exists():
            marker.write_text("crashed once")
            os._exit(3)  # takes the Ray worker process down with it, mid-batch'''


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One local Ray instance of 2 CPUs for the whole module (runs join it, not restart it)."""
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR,
             log_to_driver=False)
    yield
    ray.shutdown()


def write_config(tmp_path: Path, name: str = "r", deals: int = 3, isolation: str = "process",
                 hook: str = "pass") -> Path:
    """A small config whose third bot is a file in tmp_path (sandboxed unless told otherwise)."""
    bot = tmp_path / "first_card.py"
    bot.write_text(FILE_BOT.format(note="a file only the driver has", hook=hook))
    path = tmp_path / f"{name}.toml"
    path.write_text(CONFIG.format(name=name, deals=deals, file_bot=f"{bot}:FirstCard",
                                  isolation=isolation))
    return path


def bot_processes_on_ray() -> list[str]:
    """The arena's bot processes (hosts, forkers, games) that a Ray worker started."""
    def stat(pid: str) -> tuple[str, str]:
        fields = Path(f"/proc/{pid}/stat").read_text()
        return fields[fields.index("(") + 1:fields.rindex(")")], fields.rsplit(")", 1)[1].split()[1]

    found = []
    for entry in Path("/proc").iterdir():
        try:
            name, parent = stat(entry.name) if entry.name.isdigit() else ("", "0")
            if not name.startswith("arena-"):
                continue
            while parent != "0":
                above, parent = stat(parent)
                if above.startswith("ray::"):
                    found.append(f"{name} {entry.name}")
                    break
        except (OSError, ValueError):  # gone meanwhile
            continue
    return found


def none_left_on_ray(seconds: float = 20.0) -> bool:
    """Whether every bot process a Ray worker started is gone (within `seconds`)."""
    deadline = time.monotonic() + seconds
    while bot_processes_on_ray():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def stop_after(games: int) -> Callable[[Progress], None]:
    """A progress hook that stops the run (as Ctrl-C does) once `games` were played."""
    def hook(progress: Progress) -> None:
        if progress.played >= games:
            raise KeyboardInterrupt
    return hook


@pytest.mark.parametrize("cluster", [
    # the default run plays it on a stand-in for Ray (the backend's batches, actors and the
    # file bot sent by content, computed at once in this process); on a real cluster, slow
    "stand-in", pytest.param("real", marks=pytest.mark.slow)])
def test_ray_and_local_give_the_same_records_and_ratings(
        request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        cluster: str) -> None:
    if cluster == "real":
        request.getfixturevalue("local_ray")
    else:
        monkeypatch.setattr(ray_backend, "load_ray", lambda: FakeRay(cpus=2))
    # on the stand-in, one deal (15 games; the same records do not depend on how many)
    config = load_config(write_config(tmp_path, deals=3 if cluster == "real" else 1))
    local = run_tournament(config, tmp_path / "local", workers=2)
    # the run has a sandboxed bot, so it deals with a key of its own: the Ray run starts from
    # the same run files without the records, and so deals with the same key
    (tmp_path / "ray").mkdir()
    for name in (results.CONFIG, results.DIGEST, results.KEY):
        shutil.copy(tmp_path / "local" / name, tmp_path / "ray" / name)
    on_ray = run_tournament(config, tmp_path / "ray", workers=2, backend=Backend.RAY)
    assert local.complete and on_ray.complete and on_ray.played == len(schedule_of(config))
    assert run_records(tmp_path / "local") == run_records(tmp_path / "ray")
    runner = CliRunner()
    shown = [runner.invoke(app, ["ratings", str(tmp_path / name), "--format", "json"])
             for name in ("local", "ray")]
    assert shown[0].exit_code == 0 and shown[0].stdout == shown[1].stdout
    assert "FirstCard" in shown[0].stdout  # the file bot played, sandboxed, on the workers
    # the cluster stays up (the run joined it), but the run's actors, and with them the file
    # bot's host processes on the workers, are gone
    assert cluster == "stand-in" or none_left_on_ray(), bot_processes_on_ray()


# the rest on a real cluster is slow (`pytest -m slow`, see "Testing" in docs/architecture.md):
# the same records as locally, a killed driver, resuming across backends, a lost worker, the
# command line; the default run keeps the same records and the actors' ends with a stand-in
@pytest.mark.slow
def test_a_killed_driver_leaves_no_bot_processes_on_the_cluster(local_ray: None,
                                                                tmp_path: Path) -> None:
    config, out = write_config(tmp_path, deals=30), tmp_path / "run"
    command = [sys.executable, "-m", "arena.cli", "run", str(config), "--backend", "ray",
               "--address", ray.get_runtime_context().gcs_address, "--out", str(out), "-q"]
    driver = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    games, deadline = out / results.GAMES, time.monotonic() + 120
    try:
        # killed once games are on disk and the sandboxed bot is being played on the workers
        while not (games.is_file() and games.read_text().count("\n") and bot_processes_on_ray()):
            assert driver.poll() is None and time.monotonic() < deadline, "no sandboxed games"
            time.sleep(0.05)
    finally:
        driver.kill()
        driver.wait()
    assert none_left_on_ray(), bot_processes_on_ray()
    finished = games.read_text().count("\n")
    assert finished < len(schedule_of(load_config(config)))
    resumed = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    tasks = [json.loads(line)["task"] for line in games.read_text().splitlines()]
    assert sorted(tasks) == list(range(len(schedule_of(load_config(config)))))
    assert none_left_on_ray(), bot_processes_on_ray()


@pytest.mark.slow
@pytest.mark.parametrize("first,then", [(Backend.LOCAL, Backend.RAY),
                                        (Backend.RAY, Backend.LOCAL)])
def test_a_run_stopped_on_one_backend_finishes_on_the_other(
        local_ray: None, tmp_path: Path, first: Backend, then: Backend) -> None:
    config = load_config(write_config(tmp_path, deals=4, isolation="none"))
    total = len(schedule_of(config))
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        run_tournament(config, out, workers=2, on_progress=stop_after(20), backend=first)
    part = run_records(out)
    assert 20 <= len(part) < total
    report = run_tournament(config, out, workers=2, backend=then)
    assert report.before == len(part) and report.complete
    whole = run_records(out)
    assert sorted(whole) == list(range(total))  # every task exactly once
    straight = tmp_path / "straight"
    run_tournament(config, straight, workers=1)
    assert whole == run_records(straight)


@pytest.mark.slow
def test_a_batch_lost_with_its_worker_is_played_again(local_ray: None, tmp_path: Path) -> None:
    marker = tmp_path / "crashed"
    config = load_config(write_config(tmp_path, deals=2, isolation="none",
                                      hook=CRASH_ONCE.format(marker=str(marker))))
    report = run_tournament(config, tmp_path / "run", workers=2, backend=Backend.RAY)
    assert marker.exists()  # a worker did die mid-batch
    assert report.complete and sorted(run_records(tmp_path / "run")) == list(
        range(len(schedule_of(config))))
    assert all(not r["faults"] for r in run_records(tmp_path / "run").values())


def test_file_bots_travel_by_content(tmp_path: Path) -> None:
    bot = tmp_path / "mine.py"
    bot.write_text("# version 1\n")
    bots = {"mine": Entrant(f"{bot}:Mine:depth=2", sandboxed=True), "greedy": Entrant("greedy")}
    shipped = shipment(bots, Sandboxing())
    bot.unlink()  # the worker needs nothing from the organiser's disk
    there = unpacked(shipped, tmp_path / "node")
    assert there["greedy"] == bots["greedy"]
    path, name, params = there["mine"].spec.rsplit(":", 2)
    assert (name, params, Path(path).name) == ("Mine", "depth=2", "mine.py")
    assert Path(path).read_text() == "# version 1\n" and there["mine"].sandboxed
    assert unpacked(shipped, tmp_path / "node") == there  # the same content, the same place


def test_an_unreadable_bot_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(RayBackendError, match=r"gone\.py"):
        shipment({"x": Entrant(f"{tmp_path / 'gone.py'}:X")}, Sandboxing())


def test_without_ray_the_backend_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(RayBackendError, match=r"pip install 'card-arena\[ray\]'"):
        load_ray()
    result = CliRunner().invoke(app, ["run", str(write_config(tmp_path)), "--backend", "ray",
                                      "--out", str(tmp_path / "run"), "-q"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [  # the schedule's size, then the one error
        "arena: schedule: 45 games",
        "arena: error: the ray backend needs Ray: pip install 'card-arena[ray]'"]


def test_address_needs_the_ray_backend(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["run", str(write_config(tmp_path)), "--address", "auto"])
    assert result.exit_code == 2 and "--backend ray" in result.stderr


@pytest.mark.slow
def test_the_cli_runs_on_ray(local_ray: None, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["run", str(write_config(tmp_path, deals=1)), "--backend",
                                      "ray", "--out", str(out), "-q"])
    assert result.exit_code == 0, result.stderr
    assert "greedy" in result.stdout and (out / "ratings.json").is_file()
    assert "Ray" in (out / "log.txt").read_text()


class FakeRay:
    """Just enough of Ray, joined (never started here), computing every call at once: counts
    the actors made, closed and killed."""

    class Ref:
        def __init__(self, value: Any) -> None:
            self.value = value

    class Call:
        def __init__(self, function: Callable[..., Any]) -> None:
            self.function = function

        def remote(self, *args: Any) -> FakeRay.Ref:
            return FakeRay.Ref(self.function(*args))

    exceptions = SimpleNamespace(RayActorError=OSError, WorkerCrashedError=OSError,
                                 NodeDiedError=OSError, ObjectLostError=OSError)

    def __init__(self, cpus: int) -> None:
        self.cpus, self.made, self.closed, self.killed = cpus, 0, 0, 0

    def is_initialized(self) -> bool:
        return True

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": float(self.cpus)}

    def remote(self, *function: Callable[..., Any], **options: Any) -> Any:
        if function:
            return self.Call(function[0])
        return lambda cls: SimpleNamespace(remote=lambda: self.actor(cls()))

    def actor(self, player: Any) -> SimpleNamespace:
        self.made += 1

        def close() -> None:
            self.closed += 1
            player.close()

        return SimpleNamespace(play=self.Call(player.play), close=self.Call(close))

    def put(self, value: Any) -> FakeRay.Ref:
        return self.Ref(value)

    def get(self, ref: Any, timeout: float | None = None) -> Any:
        return [r.value for r in ref] if isinstance(ref, list) else ref.value

    def wait(self, refs: list[Any], num_returns: int = 1) -> tuple[list[Any], list[Any]]:
        return refs[:num_returns], refs[num_returns:]

    def kill(self, actor: Any, no_restart: bool = True) -> None:
        self.killed += 1


@pytest.mark.parametrize("stopped", [False, True])
def test_every_actor_of_a_run_is_ended_with_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                               stopped: bool) -> None:
    fake = FakeRay(cpus=1000)  # more CPUs than batches: an actor only for each batch
    monkeypatch.setattr(ray_backend, "load_ray", lambda: fake)
    config = load_config(write_config(tmp_path, isolation="none"))
    total = len(schedule_of(config))
    if stopped:
        with pytest.raises(KeyboardInterrupt):
            run_tournament(config, tmp_path / "run", on_progress=stop_after(5),
                           backend=Backend.RAY)
        assert fake.closed == 0  # killed at once: what they still had to play is not wanted
    else:
        assert run_tournament(config, tmp_path / "run", backend=Backend.RAY).complete
        assert fake.closed == fake.made  # closed first: their bots' hosts clean up
        assert sorted(run_records(tmp_path / "run")) == list(range(total))
    assert fake.made == total  # one game a batch here, so an actor a game
    assert fake.killed == fake.made
