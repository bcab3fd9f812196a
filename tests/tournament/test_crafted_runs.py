"""Every command that reads a run directory, over every crafted run directory (issue 27): a run
directory is data from elsewhere (shared by a student, unpacked from an archive, left
half-written by a crash), so each crafted one gets one line naming the file, exit code 2, no
traceback, nothing outside the run changed and nothing of the run lost; or, where the input is
valid after all (a U+2028 inside a JSON string), the command works.

Two tiny runs are played once for the module (a tournament and a duel, bundled bots
in-process); each test copies one and crafts the copy."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

import pytest
from typer.testing import CliRunner

from tests.helpers import run as invoke
from tests.helpers import slow_unless

CONFIG = """
name = "crafted"
[deals]
count = 2
base = 1
[[bots]]
spec = "greedy"
[[bots]]
spec = "random"
[[games]]
game = "concentration"
players = 2
variants = ["standard"]
"""

DUEL = ("greedy", "random", "--game", "concentration", "--max-games", "8", "--seed", "3",
        "--workers", "1", "--quiet")

KEY = "0123456789abcdef" * 2 + "\n"
HANG_SECONDS = int(os.environ.get("ARENA_TEST_HANG_SECONDS", "60"))
"""After this long a command counts as hung (none of these takes a second)."""
PRECIOUS = "the organiser's own file\n"

try:
    import matplotlib  # noqa: F401

    PLOTS = True
except ImportError:
    PLOTS = False


@dataclass(frozen=True)
class Places:
    """A crafted run, the untouched one it was copied from, and a folder outside both."""

    run: Path
    good: Path
    outside: Path
    new: Path


# --- the runs played once ----------------------------------------------------------------------


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished tiny tournament and a finished tiny duel, each played once (for the module,
    whose tests then run in one test process: not once in each)."""
    root = tmp_path_factory.mktemp("played")
    config = root / "crafted.toml"
    config.write_text(CONFIG)
    runner = _runner()
    done = invoke(runner, "run", str(config), "--out", str(root / "run"), "--workers", "1", "-q")
    assert done.exit_code == 0, done.output
    duel = invoke(runner, "duel", *DUEL, "--out", str(root / "duel"))
    assert duel.exit_code == 0, duel.output
    return {"run": root / "run", "duel": root / "duel", "config": config}


# --- the crafted directories -------------------------------------------------------------------


def _first_record(run: Path, change: Callable[[dict], str]) -> None:
    """Replace the run's first record by a line made from it."""
    games = run / "games.jsonl"
    first, *rest = games.read_bytes().split(b"\n", 1)
    line = change(json.loads(first))
    games.write_bytes(line.encode("utf-8", "surrogateescape") + b"\n" + b"".join(rest))


def _link(target: Path, link: Path) -> None:
    link.unlink(missing_ok=True)
    link.symlink_to(target)


def _precious(p: Places, name: str) -> Path:
    target = p.outside / name
    target.write_text(PRECIOUS)
    return target


def ratings_link(p: Places) -> str:
    _link(_precious(p, "ratings.txt"), p.run / "ratings.txt")
    return "ratings.txt"


def report_link(p: Places) -> str:
    _link(_precious(p, "report.md"), p.run / "report.md")
    return "report.md"


def bots_link(p: Places) -> str:
    logs = p.outside / "logs"
    logs.mkdir()
    (logs / "mine.log").write_text(PRECIOUS)
    shutil.rmtree(p.run / "bots", ignore_errors=True)
    (p.run / "bots").symlink_to(logs)
    return "bots"


def key_link(p: Places) -> str:
    target = p.outside / "key"
    target.write_text(KEY)
    _link(target, p.run / "key")
    return "key"


def key_fifo(p: Places) -> str:
    os.mkfifo(p.run / "key")
    return "key"


def key_zero(p: Places) -> str:
    _link(Path("/dev/zero"), p.run / "key")
    return "key"


def games_fifo(p: Places) -> str:
    (p.run / "games.jsonl").unlink()
    os.mkfifo(p.run / "games.jsonl")
    return "games.jsonl"


def games_zero(p: Places) -> str:
    _link(Path("/dev/zero"), p.run / "games.jsonl")
    return "games.jsonl"


def games_folder(p: Places) -> str:
    (p.run / "games.jsonl").unlink()
    (p.run / "games.jsonl").mkdir()
    return "games.jsonl"


def log_folder(p: Places) -> str:
    (p.run / "log.txt").unlink()
    (p.run / "log.txt").mkdir()
    return "log.txt"


def deep_record(p: Places) -> str:
    _first_record(p.run, lambda r: json.dumps(r)[:-1] + ', "x": ' + "[" * 100_000
                  + "]" * 100_000 + "}")
    return "games.jsonl: line 1"


def deep_bots(p: Places) -> str:
    (p.run / "bots.json").write_text("[" * 100_000 + "]" * 100_000)
    return "bots.json"


def deep_config(p: Places) -> str:
    with (p.run / "config.toml").open("a") as f:
        f.write("deep = " + "[" * 20_000 + "]" * 20_000 + "\n")
    return "config.toml"


def not_utf8(p: Places) -> str:
    _first_record(p.run, lambda r: json.dumps(r, ensure_ascii=False).replace(
        '"greedy"', '"gr\udcffedy"', 1))
    return "games.jsonl: line 1"


def null_seats(p: Places) -> str:
    _first_record(p.run, lambda r: json.dumps(r | {"seats": None}))
    return "games.jsonl: line 1"


def nan_score(p: Places) -> str:
    _first_record(p.run, lambda r: json.dumps(r | {"scores": [float("nan"), 0]}))
    return "games.jsonl: line 1"


def huge_score(p: Places) -> str:
    _first_record(p.run, lambda r: json.dumps(r | {"scores": [10**30, 0]}))
    return "games.jsonl: line 1"


def huge_count(p: Places) -> str:
    config = p.run / "config.toml"
    text = re.sub(r"\[deals\]\n.*?\n\n", f"[deals]\ncount = {10**30}\nbase = 1\n\n",
                  config.read_text(), count=1, flags=re.DOTALL)
    assert tomllib.loads(text)["deals"] == {"count": 10**30, "base": 1}  # valid TOML, huge
    config.write_text(text)
    return "config.toml"


def key_shared_elsewhere(p: Places) -> str:
    """A key, and key-shared naming a folder outside that holds no run: `--deals-like` must not
    write a note there."""
    (p.run / "key").write_text(KEY)
    (p.run / "key-shared").write_text(f"{p.outside}\n")
    return ""


def separators(p: Places) -> str:
    _first_record(p.run, lambda r: json.dumps(r | {"note": "a\u2028b\u0085c\u2029d"},
                                               ensure_ascii=False))
    return ""


CASES = {f.__name__: f for f in (
    ratings_link, report_link, bots_link, key_link, key_fifo, key_zero, games_fifo, games_zero,
    games_folder, log_folder, deep_record, deep_bots, deep_config, not_utf8, null_seats,
    nan_score, huge_score, huge_count, key_shared_elsewhere, separators)}


# --- the commands ------------------------------------------------------------------------------

COMMANDS: dict[str, Callable[[Places], list[str]]] = {
    "run": lambda p: ["run", str(p.run / "config.toml"), "--out", str(p.run), "--workers", "1",
                      "-q"],
    "fresh": lambda p: ["run", str(p.run / "config.toml"), "--out", str(p.run), "--workers",
                        "1", "-q", "--fresh"],
    "ratings": lambda p: ["ratings", str(p.run)],
    "compare": lambda p: ["compare", str(p.good), str(p.run)],
    "replay": lambda p: ["replay", str(p.run), "0"],
    "replay-file": lambda p: ["replay", str(p.run / "games.jsonl"), "0"],
    "report": lambda p: ["report", str(p.run)],
    "duel": lambda p: ["duel", *DUEL, "--out", str(p.run)],
    "deals-like": lambda p: ["run", str(p.good.parent / "crafted.toml"), "--out", str(p.new),
                             "--workers", "1", "-q", "--deals-like", str(p.run)],
}

RECORDS = {"run", "ratings", "compare", "replay", "replay-file", "report", "duel"}
"""The commands that read the records."""
KEYS = {"run", "compare", "replay", "replay-file", "duel", "deals-like"}
"""The commands that read the key."""
CONFIGS = {"run", "ratings", "compare", "replay", "replay-file", "report", "deals-like"}
"""The commands that read the run's config."""
WRITERS = {"run", "duel"}
"""The commands that write in the run directory (and check it first)."""

REFUSED: dict[str, set[str]] = {
    "ratings_link": WRITERS | {"fresh"},
    "report_link": WRITERS | {"fresh", "report"},
    "bots_link": WRITERS | {"fresh"},
    "key_link": KEYS | {"fresh"},
    "key_fifo": KEYS | {"fresh"},
    "key_zero": KEYS | {"fresh"},
    "games_fifo": RECORDS | {"fresh"},
    "games_zero": RECORDS | {"fresh"},
    "games_folder": RECORDS | {"fresh"},
    "log_folder": WRITERS | {"fresh"},
    "deep_record": RECORDS,
    "deep_bots": WRITERS | {"compare"},  # compare reads whose code changed
    "deep_config": CONFIGS | {"fresh"},
    "not_utf8": RECORDS,
    "null_seats": RECORDS,
    "nan_score": RECORDS,
    "huge_score": RECORDS,
    "huge_count": CONFIGS | {"fresh"},
    "key_shared_elsewhere": set(),
    "separators": set(),
}
"""For each crafted directory, the commands that must refuse it; the others work."""

ONLY = {"fresh": {"ratings_link", "report_link", "bots_link", "key_link", "games_folder",
                  "log_folder"}}
"""Commands tried on some crafted directories only (starting a run over replays every game)."""
CASE_ONLY = {"key_shared_elsewhere": {"deals-like", "ratings", "compare"}}
"""Crafted directories tried with some commands only (a key added to a run played without one
changes its deals: its games would no longer replay)."""


DRAWN = "bots_link"
"""The one crafted directory the default run draws the PNG report of: where `arena report`
refuses none, it reads what the other commands read and then draws the plots (about a CPU-second
each); the rest are drawn in `pytest -m slow`."""


def _tried(case: str, command: str) -> bool:
    """Whether a crafted directory is tried with a command at all."""
    if command in ONLY and case not in ONLY[command]:
        return False
    if case in CASE_ONLY and command not in CASE_ONLY[case]:
        return False
    return not (command == "duel" and case in {"deep_config", "huge_count"})  # a duel makes
    # its config; it reads none


def _representatives() -> set[tuple[str, str]]:
    """The pairs the default run tries: each crafted directory with the first command that must
    refuse it and the first that must work on it, then, for each command not yet tried that way,
    its first crafted directory that it must refuse and its first that it must work on, and the
    one report drawn (the whole product, about 150 pairs, is run by `pytest -m slow`)."""
    pairs = [(case, command) for case in CASES for command in COMMANDS if _tried(case, command)]
    kept: set[tuple[str, str]] = set()
    for refused in (True, False):
        for position in (0, 1):  # by crafted directory, then by command
            for key in (CASES, COMMANDS)[position]:
                matching = [pair for pair in pairs if pair[position] == key
                            and (pair[1] in REFUSED[pair[0]]) is refused]
                if matching and not any(pair in kept for pair in matching):
                    kept.add(matching[0])
    return kept | {(DRAWN, "report")}


def _pairs() -> Iterator[object]:
    kept = _representatives()
    for case in CASES:
        for command in COMMANDS:
            if not _tried(case, command):
                continue
            drawn = command == "report" and command not in REFUSED[case]
            yield slow_unless((case, command) in kept and (not drawn or case == DRAWN), case,
                              command, id=f"{case}-{command}")


def _snapshot(folder: Path) -> dict[str, object]:
    """Every entry under a folder (links not followed): a file's bytes, a link's target."""
    out: dict[str, object] = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.is_symlink():
            out[name] = ("link", os.readlink(path))
        elif path.is_file():
            out[name] = path.read_bytes()
        else:
            out[name] = "other"
    return out


class _Hung(BaseException):
    """A command that hung (on a named pipe, today's code did)."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Hung


@pytest.mark.parametrize(("case", "command"), list(_pairs()))
def test_a_crafted_run_directory_gets_one_line_and_loses_nothing(
        played: dict[str, Path], tmp_path: Path, case: str, command: str) -> None:
    if command == "report" and not PLOTS:
        pytest.skip("arena report needs the plots extra (matplotlib)")
    source = played["duel" if command == "duel" else "run"]
    good = tmp_path / "good"
    shutil.copytree(source, good, symlinks=True)
    shutil.copy(played["config"], tmp_path / "crafted.toml")
    places = Places(tmp_path / "run", good, tmp_path / "outside", tmp_path / "new")
    shutil.copytree(source, places.run, symlinks=True)
    places.outside.mkdir()
    named = CASES[case](places)
    outside, before = _snapshot(places.outside), _snapshot(places.run)

    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(HANG_SECONDS)
    try:
        result = invoke(_runner(), *COMMANDS[command](places))
    except _Hung:
        pytest.fail(f"arena {command} hung on {case}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)

    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"a traceback: {result.exception!r}")
    assert "Traceback" not in result.output + result.stderr
    if command in REFUSED[case]:
        lines = result.stderr.strip().splitlines()
        assert result.exit_code == 2, result.output + result.stderr
        assert len(lines) == 1 and lines[0].startswith("arena: error: "), result.stderr
        assert named in lines[0], lines[0]
    else:
        assert result.exit_code == 0, result.output + result.stderr
    assert _snapshot(places.outside) == outside, "a file outside the run changed"
    after = _snapshot(places.run)
    if command in REFUSED[case]:  # refused before anything was written (the log aside)
        after.pop("log.txt", None), before.pop("log.txt", None)
        assert after == before, "a refused command changed the run"
    elif command != "fresh":
        assert after.get("games.jsonl") == before.get("games.jsonl"), "records were lost"


def test_a_separator_inside_a_record_is_kept_and_read(played: dict[str, Path],
                                                      tmp_path: Path) -> None:
    """U+2028 and U+0085 inside a record's string stay in it: records are split on \\n only."""
    run = tmp_path / "run"
    shutil.copytree(played["run"], run)
    places = Places(run, run, tmp_path, tmp_path / "new")
    separators(places)
    assert "\u2028".encode() in (run / "games.jsonl").read_bytes()
    result = invoke(_runner(), "replay", str(run / "games.jsonl"), "0")
    assert result.exit_code == 0, result.output + result.stderr
    assert "reproduced" in result.output
