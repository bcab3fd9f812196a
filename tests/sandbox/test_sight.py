"""One code path decides what a sandboxed game may see, whatever command starts it (issue 27):
`arena play`, `run` (and its config's check), `duel` and `replay` keep the other seats' code, the
run directory and its key out of view alike. Each is shown first to be a real leak in-process
(`--isolation none`), where the hostile `Reader` reads them, then contained sandboxed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.sandbox import unseen_by
from tests.helpers import run, said
from tests.sandbox.support import needs_namespaces

HOSTILE = Path(__file__).parent / "hostile"


@pytest.fixture
def seats(tmp_path: Path) -> tuple[str, str, Path]:
    """The reader's spec (in a folder of its own), the other seat's spec (in another), and the
    run directory the reader also aims at; `targets.txt` lists the other's file and the run's
    key and records."""
    mine, theirs = tmp_path / "mine", tmp_path / "theirs"
    mine.mkdir()
    theirs.mkdir()
    shutil.copy(HOSTILE / "seats.py", mine / "reader.py")
    shutil.copy(HOSTILE / "other_seat.py", theirs / "other.py")
    out = tmp_path / "run"
    (mine / "targets.txt").write_text("".join(f"{path}\n" for path in (
        theirs / "other.py", out / "key", out / "games.jsonl", tmp_path / "duel" / "key")))
    return f"{mine / 'reader.py'}:Reader", f"{theirs / 'other.py'}:Other", out


def _config(tmp_path: Path, reader: str, other: str) -> Path:
    config = tmp_path / "seats.toml"
    config.write_text(f'name = "seats"\n[deals]\nseeds = [1]\n[[bots]]\nspec = "{reader}"\n'
                      f'[[bots]]\nspec = "{other}"\n[[games]]\ngame = "concentration"\n'
                      'players = 2\nvariants = ["standard"]\n[limits]\nmove_seconds = 30\n')
    # a limit no load reaches: this is about sight (at 2 s a move, a move ran out at a load of
    # 20, and the replay of a game with a time-out differs from its record, as it may)
    return config


def test_unseen_by_hides_the_other_bots_code_and_what_the_arena_keeps(tmp_path: Path) -> None:
    mine, theirs = tmp_path / "mine.py", tmp_path / "sub" / "theirs.py"
    theirs.parent.mkdir()
    mine.write_text("")
    theirs.write_text("")
    kept = tmp_path / "run"
    hidden = unseen_by(f"{mine}:A", [f"{mine}:A", f"{theirs}:B", "greedy"], (kept,))
    assert hidden[0] == kept and theirs.resolve() in hidden
    assert mine.resolve() not in hidden  # its own code
    assert unseen_by(f"{mine}:A", [f"{mine}:A", f"{mine}:B"]) == ()  # code it shares
    assert unseen_by("greedy", ["greedy", "random"]) == ()  # bundled bots are public


def test_arena_play_in_process_lets_one_bot_read_another(runner: CliRunner,
                                                        seats: tuple[str, str, Path]) -> None:
    reader, other, _ = seats
    result = run(runner, "play", "concentration", "-b", reader, "-b", other,
                 "--isolation", "none")
    assert result.exit_code == 2 and "reader read other.py" in said(result)


@needs_namespaces
def test_arena_play_keeps_the_other_seat_s_code_from_a_sandboxed_bot(
        runner: CliRunner, seats: tuple[str, str, Path]) -> None:
    reader, other, _ = seats
    result = run(runner, "play", "concentration", "-b", reader, "-b", other)
    assert result.exit_code == 0, said(result)
    assert "reader read" not in said(result)


def test_arena_run_in_process_lets_a_bot_read_another(runner: CliRunner, tmp_path: Path,
                                                      seats: tuple[str, str, Path]) -> None:
    reader, other, out = seats
    result = run(runner, "run", str(_config(tmp_path, reader, other)), "--out", str(out),
                 "--isolation", "none", "-q")
    assert result.exit_code == 2 and "reader read other.py" in said(result)


@needs_namespaces
def test_arena_run_its_config_check_and_replay_keep_the_run_and_the_others_out_of_view(
        runner: CliRunner, tmp_path: Path, seats: tuple[str, str, Path]) -> None:
    """The config's check imports the bot too: with the run's key there (a resumed run) it
    must see it no more than its games do; and `arena replay` plays it the same way."""
    reader, other, out = seats
    config = _config(tmp_path, reader, other)
    for _ in range(2):  # made, then resumed: its key is there when the config is checked
        result = run(runner, "run", str(config), "--out", str(out), "-q")
        assert result.exit_code == 0, said(result)
        assert "reader read" not in said(result)
    assert (out / "key").exists()
    assert "reader read" not in (out / "games.jsonl").read_text()
    replayed = run(runner, "replay", str(out), "0")
    assert replayed.exit_code == 0, said(replayed)
    assert "reader read" not in said(replayed)


@needs_namespaces
def test_arena_duel_keeps_the_other_bot_and_its_run_out_of_view(
        runner: CliRunner, tmp_path: Path, seats: tuple[str, str, Path]) -> None:
    reader, other, _ = seats
    result = run(runner, "duel", reader, other, "--game", "concentration", "--max-games", "2",
                 "--out", str(tmp_path / "duel"), "-q")
    assert result.exit_code == 0, said(result)
    assert "reader read" not in said(result)
