"""Run directories: one config per directory, append-only records, repair and resume."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from arena.tournament.records.results import (
    CONFIG,
    DIGEST,
    GAMES,
    KEY,
    RunDirectory,
    RunDirectoryError,
)


def write_games(run: RunDirectory, text: str) -> None:
    """Put `text` in the records file."""
    run.file(GAMES).write_text(text)


def test_prepare_writes_the_config_and_reopens_for_the_same_one(tmp_path: Path) -> None:
    run = RunDirectory.prepare(tmp_path / "run", "name = 'x'\n", "abc")
    assert run.file(CONFIG).read_text() == "name = 'x'\n"
    assert run.file(DIGEST).read_text().strip() == "abc"
    write_games(run, '{"task": 3}\n')
    again = RunDirectory.prepare(tmp_path / "run", "name = 'x'\n", "abc")
    assert again.finished() == {3}


def test_the_key_is_made_once_private_and_gone_with_a_fresh_start(tmp_path: Path) -> None:
    run = RunDirectory.prepare(tmp_path / "run", "a", "abc")
    assert run.key() == "" and not run.file(KEY).exists()
    key = run.key(create=True)
    assert len(key) == 32 and run.key() == key == run.key(create=True)
    assert stat.S_IMODE(run.file(KEY).stat().st_mode) == 0o600
    RunDirectory.prepare(tmp_path / "run", "b", "def", fresh=True)
    assert not run.file(KEY).exists()
    assert run.key(create=True) != key


def test_another_config_is_refused_unless_fresh(tmp_path: Path) -> None:
    run = RunDirectory.prepare(tmp_path / "run", "a", "abc")
    write_games(run, '{"task": 0}\n')
    with pytest.raises(RunDirectoryError, match=r"different config.*--fresh"):
        RunDirectory.prepare(tmp_path / "run", "b", "def")
    (tmp_path / "run" / "bots").mkdir()
    for name in ("bots/x.log", "report.md", "ratings-concentration-standard.png", "mine.txt"):
        (tmp_path / "run" / name).write_text("old")
    fresh = RunDirectory.prepare(tmp_path / "run", "b", "def", fresh=True)
    assert fresh.finished() == set()
    assert fresh.file(CONFIG).read_text() == "b"
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == [
        "config.sha256", "config.toml", "mine.txt"]  # the old run's files gone, nothing else


def test_a_directory_that_holds_no_run_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    for fresh in (False, True):
        with pytest.raises(RunDirectoryError, match="holds no run"):
            RunDirectory.prepare(tmp_path / "mine", "a", "abc", fresh=fresh)
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"


def test_a_half_written_last_record_is_cut_and_replayed(tmp_path: Path) -> None:
    run = RunDirectory.prepare(tmp_path / "run", "a", "abc")
    write_games(run, '{"task": 0}\n{"task": 1}\n{"task": 2, "sco')
    assert run.finished() == {0, 1}
    assert run.repair() == len('{"task": 2, "sco')
    assert run.file(GAMES).read_text() == '{"task": 0}\n{"task": 1}\n'
    assert run.repair() == 0


def test_a_single_half_line_is_cut_entirely(tmp_path: Path) -> None:
    run = RunDirectory.prepare(tmp_path / "run", "a", "abc")
    write_games(run, '{"task": 0, "sc')
    run.repair()
    assert run.file(GAMES).read_text() == ""


def test_damaged_or_repeated_records_are_reported_with_their_line(tmp_path: Path) -> None:
    run = RunDirectory.prepare(tmp_path / "run", "a", "abc")
    write_games(run, '{"task": 0}\nnot json\n')
    with pytest.raises(RunDirectoryError, match=r"games.jsonl: line 2: not a game record"):
        run.finished()
    write_games(run, '{"task": 0}\n{"task": 0}\n')
    with pytest.raises(RunDirectoryError, match="task 0 is recorded twice"):
        run.finished()
