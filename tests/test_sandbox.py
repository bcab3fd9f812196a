"""The sandbox against hostile bots: each misbehaviour contained and recorded, nothing left over."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.config import load_config
from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.record import FaultKind
from arena.sandbox import Limits, sandboxed
from arena.tournament import run_tournament

HOSTILE = Path(__file__).parent / "hostile" / "bots.py"
LIMITS = Limits(move_seconds=0.5, game_seconds=20.0, overage_seconds=0.5, memory_mb=256,
                output_bytes=4096)


def spec(name: str, params: str = "") -> str:
    """The spec of a hostile bot."""
    return f"{HOSTILE}:{name}" + (f":{params}" if params else "")


def play_against_greedy(name: str, log: Path | None = None, params: str = "",
                        seed: int = 3) -> dict[str, object]:
    """One sandboxed game of a hostile bot (seat 0) against in-process greedy; the record."""
    variant = find_game("concentration").variant("standard")
    hostile = sandboxed(spec(name, params), "concentration", LIMITS, log)
    try:
        record = play_game(variant, [hostile.make(), resolve_bot("greedy").make()],
                           [name, "greedy"], seed)
    finally:
        hostile.close()
    return record.to_json()


@pytest.mark.parametrize(("name", "kind", "detail"), [
    ("Raiser", FaultKind.EXCEPTION, "act raised RuntimeError: boom"),
    ("Illegal", FaultKind.ILLEGAL, "returned -1, not a legal action"),
    ("Malformed", FaultKind.MALFORMED, "not a plain value"),
    ("Sleeper", FaultKind.TIMEOUT, "no answer within"),
    ("Exiter", FaultKind.CRASH, "ended without answering"),
    ("Segfaulter", FaultKind.CRASH, "ended without answering"),
    ("Hog", FaultKind.MEMORY, "ran out of memory"),
])
def test_each_fault_is_recorded_and_the_game_goes_on(name: str, kind: FaultKind,
                                                     detail: str) -> None:
    started = time.monotonic()
    record = play_against_greedy(name)
    (fault,) = record["faults"]  # type: ignore[misc]
    assert (fault["seat"], fault["kind"], fault["decision"] > 0) == (0, kind.value, True)
    assert detail in fault["detail"]
    assert record["ranks"] == [2, 1]  # the faulting seat is ranked last
    assert record["final"]["end"] == "cleared"  # type: ignore[index]
    assert time.monotonic() - started < 10  # a timeout is cut off, not waited out


def test_a_slow_move_is_paid_from_the_bank_before_it_is_fatal(tmp_path: Path) -> None:
    bot = tmp_path / "slowish.py"
    bot.write_text("import time\nfrom arena.api import Bot\n\n"
                   "class Slowish(Bot):\n    def act(self, obs):\n"
                   "        time.sleep(0.3)\n        return obs.legal[0]\n")
    variant = find_game("concentration").variant("standard")
    generous = sandboxed(f"{bot}:Slowish", "concentration",
                         Limits(move_seconds=0.25, overage_seconds=0.6))
    try:
        record = play_game(variant, [generous.make(), resolve_bot("greedy").make()],
                           ["slowish", "greedy"], 1)
    finally:
        generous.close()
    (fault,) = record.faults
    assert fault.kind is FaultKind.TIMEOUT
    assert fault.decision >= 5  # a 0.6 s bank pays for about a dozen 0.05 s overruns


def test_output_goes_to_the_bots_log_truncated_at_the_cap(tmp_path: Path) -> None:
    log = tmp_path / "printer.log"
    record = play_against_greedy("Printer", log)
    assert record["faults"] == []
    text = log.read_text()
    assert "[output truncated at 4096 bytes]" in text
    assert len(text) < 4096 + 200


def test_the_engine_is_out_of_reach(tmp_path: Path) -> None:
    log = tmp_path / "hunter.log"
    record = play_against_greedy("Hunter", log)
    assert record["faults"] == []
    lines = [line for line in log.read_text().splitlines() if line.startswith("hunter")]
    assert lines and set(lines) == {"hunter found 0 engine objects"}


def test_a_bot_cannot_write_outside_its_own_directory(tmp_path: Path) -> None:
    target = tmp_path / "run" / "games.jsonl"
    target.parent.mkdir()
    log = tmp_path / "writer.log"
    play_against_greedy("Writer", log, params=f"target={target}")
    assert not target.exists()
    assert "writer blocked" in log.read_text()


def test_a_bot_cannot_leave_processes_behind(tmp_path: Path) -> None:
    log = tmp_path / "spawner.log"
    play_against_greedy("Spawner", log)
    text = log.read_text()
    assert "spawner blocked" in text and "spawner fork blocked" in text
    assert not _processes_running("sleep 97")


def test_a_bot_remembers_nothing_between_games(tmp_path: Path) -> None:
    note = Path("/tmp/arena-rememberer.txt")
    note.unlink(missing_ok=True)
    log = tmp_path / "rememberer.log"
    variant = find_game("concentration").variant("standard")
    hostile = sandboxed(spec("Rememberer"), "concentration", LIMITS, log)
    try:
        for seed in range(3):  # the same deal with the seats swapped, then another deal
            for seats in ([hostile.make(), resolve_bot("greedy").make()],
                          [resolve_bot("greedy").make(), hostile.make()]):
                play_game(variant, seats, ["a", "b"], seed // 2)
    finally:
        hostile.close()
    text = log.read_text()
    assert text.count("rememberer remembers 0 games") == 6
    assert "rememberer found no note" in text and "read a note" not in text
    assert not note.exists()


CONFIG = """
name = "hostile"
[deals]
count = 2
base = 5
[limits]
move_seconds = 0.5
overage_seconds = 0.5
memory_mb = 256
[[bots]]
spec = "greedy"
[[bots]]
spec = "random"
[[bots]]
spec = "{hostile}:Sleeper"
name = "sleeper"
[[bots]]
spec = "{hostile}:Exiter"
name = "exiter"
[[bots]]
spec = "{hostile}:Hog"
name = "hog"
[[games]]
game = "concentration"
players = 2
variants = ["standard"]
"""


def test_a_tournament_of_hostile_bots_finishes_with_the_right_results(tmp_path: Path) -> None:
    path = tmp_path / "hostile.toml"
    path.write_text(CONFIG.format(hostile=HOSTILE))
    report = run_tournament(load_config(path), tmp_path / "run", workers=2)
    assert report.complete
    records = [json.loads(line) for line in (tmp_path / "run" / "games.jsonl").open()]
    expected = {"sleeper": "timeout", "exiter": "crash", "hog": "memory"}
    for record in records:
        for fault in record["faults"]:
            assert fault["kind"] == expected[record["seats"][fault["seat"]]]
        for seat, name in enumerate(record["seats"]):
            if name in expected:
                assert any(f["seat"] == seat for f in record["faults"]), (name, record)
    honest = [r for r in records if set(r["seats"]) == {"greedy", "random"}]
    reference = tmp_path / "reference"
    run_tournament(load_config(_honest_config(tmp_path)), reference)
    again = [json.loads(line) for line in (reference / "games.jsonl").open()]
    assert _games(honest) == _games(again)


def test_a_killed_runner_leaves_no_bot_processes(tmp_path: Path) -> None:
    path = tmp_path / "slow.toml"
    path.write_text(CONFIG.format(hostile=HOSTILE).replace("count = 2", "count = 40"))
    runner = subprocess.Popen([sys.executable, "-m", "arena.cli", "run", str(path), "--out",
                               str(tmp_path / "run"), "--workers", "2", "--quiet"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    games = tmp_path / "run" / "games.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not games.exists() or games.stat().st_size < 3000):
        time.sleep(0.05)
    ours = str(tmp_path / "run")  # in the command line of this run's bot hosts (their logs)
    assert _processes_running(ours), "the bots should be running sandboxed"
    runner.send_signal(signal.SIGKILL)  # the runner alone: its workers and bots must follow
    runner.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and (_processes_running(ours)
                                           or _processes_running(str(path))):
        time.sleep(0.1)
    assert not _processes_running(ours)  # no bot host, hence no game process (they die with it)
    assert not _processes_running(str(path))  # no worker


def _honest_config(tmp_path: Path) -> Path:
    text = CONFIG.format(hostile=HOSTILE)
    text = text[:text.index('[[bots]]\nspec = "' + str(HOSTILE))]
    honest = tmp_path / "honest.toml"
    honest.write_text(text.replace('name = "hostile"', 'name = "honest"') + """
[[games]]
game = "concentration"
players = 2
variants = ["standard"]
""")
    return honest


def _games(records: list[dict[str, object]]) -> list[tuple[object, ...]]:
    """Records keyed by what identifies a game, without task ids and durations."""
    return sorted((r["seed"], tuple(r["seats"]), json.dumps(r["scores"]), r["turns"])  # type: ignore[arg-type]
                  for r in records)


def _processes_running(text: str) -> bool:
    """Whether any process of ours has `text` in its command line."""
    me = os.getpid()
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == me:
            continue
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = Path(f"/proc/{pid}/stat").read_text().split()[2]
        except OSError:
            continue
        if text in command and state != "Z":
            return True
    return False
