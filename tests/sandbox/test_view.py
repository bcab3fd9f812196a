"""What a game sees is an allow-list (issue 38): the interpreter and its libraries, the bot's own
folder, its directory; nothing else of the machine's bots, runs, leagues or stores. Other paths
are absent (not empty, not refused), `/proc/self/mountinfo` names none of them, and `/sys` shows
nothing of the host. The hostile `Looker` (tests/sandbox/hostile/view.py) looks at import and
refuses to load if it found anything; each test is shown to be a real leak in-process."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.league.folder import League, new_league, parse_game
from arena.league.submissions import submit
from tests.helpers import run, said
from tests.sandbox.support import needs_namespaces

HOSTILE = Path(__file__).parent / "hostile"
RIVAL = '''from arena.api import Bot

from strategy import first


class Rival(Bot):
    """Plays as its helper says."""

    games = ("concentration",)

    def act(self, obs):
        return first(obs.legal)
'''


def _looker(folder: Path, absent: list[Path], unnamed: list[str]) -> str:
    """The Looker in `folder`, told what must be absent and unnamed; its spec."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(HOSTILE / "view.py", folder / "looker.py")
    (folder / "absent.py").write_text("".join(f"# {path}\n" for path in absent))
    (folder / "unnamed.py").write_text("".join(f"# {word}\n" for word in unnamed))
    return f"{folder / 'looker.py'}:Looker"


@pytest.fixture
def rival(tmp_path: Path) -> tuple[str, list[Path]]:
    """A bot of two files with a data file beside them, in a folder below the Looker's (as a
    program in the working directory with a rival in a folder of its own): its spec, and its
    paths."""
    folder = tmp_path / "rival"
    folder.mkdir()
    (folder / "rival.py").write_text(RIVAL)
    (folder / "strategy.py").write_text("def first(legal):\n    return legal[0]\n")
    (folder / "book.json").write_text('{"opening": "secret"}')
    return f"{folder / 'rival.py'}:Rival", [folder / "strategy.py", folder / "book.json",
                                            folder / "rival.py", folder]


def test_in_process_the_looker_sees_the_other_seat_s_helpers(
        runner: CliRunner, tmp_path: Path, rival: tuple[str, list[Path]]) -> None:
    spec, paths = rival
    looker = _looker(tmp_path, paths, [])
    result = run(runner, "play", "concentration", "-b", looker, "-b", spec, "--isolation", "none")
    assert result.exit_code == 2 and "strategy.py is there" in said(result)


@needs_namespaces
def test_arena_play_shows_no_file_of_the_other_seat_s_folder(
        runner: CliRunner, tmp_path: Path, rival: tuple[str, list[Path]]) -> None:
    """Case 2 of issue 38: `strategy.py` and `book.json` beside the other seat's file were
    readable, and its own file read as empty rather than absent."""
    spec, paths = rival
    looker = _looker(tmp_path, paths, ["rival"])
    result = run(runner, "play", "concentration", "-b", looker, "-b", spec)
    assert result.exit_code == 0, said(result)
    assert "looker found" not in said(result)


@needs_namespaces
def test_a_run_s_games_see_no_run_directory_nor_the_machine_s_sys(
        runner: CliRunner, tmp_path: Path, rival: tuple[str, list[Path]]) -> None:
    spec, paths = rival
    out = tmp_path / "runs" / "week1"
    elsewhere = tmp_path / "runs" / "week0"  # another run of the machine's
    elsewhere.mkdir(parents=True)
    (elsewhere / "games.jsonl").write_text("{}\n")
    looker = _looker(tmp_path / "mine", [*paths, out, elsewhere, tmp_path / "runs",
                                         Path("/home"), Path("/srv")],
                     [str(out), str(elsewhere), "rival"])
    config = tmp_path / "view.toml"
    config.write_text(f'name = "view"\n[deals]\nseeds = [1]\n[[bots]]\nspec = "{looker}"\n'
                      f'[[bots]]\nspec = "{spec}"\n[[games]]\ngame = "concentration"\n'
                      'players = 2\nvariants = ["standard"]\n[limits]\nmove_seconds = 2\n')
    result = run(runner, "run", str(config), "--out", str(out), "-q")
    assert result.exit_code == 0, said(result)
    assert "looker found" not in said(result)
    assert "looker found" not in (out / "games.jsonl").read_text()


@needs_namespaces
def test_a_league_bot_sees_no_other_version_nor_the_league(tmp_path: Path) -> None:
    """Case 1 of issue 38: a submitted bot listed `store/`, read a classmate's stored helper
    and `league.toml` while it was validated and played."""
    league: League = new_league(tmp_path / "class", [parse_game("concentration:standard:2")],
                                deals=1)
    bob = tmp_path / "bob"
    bob.mkdir()
    (bob / "bot.py").write_text(RIVAL.replace("from strategy import first", "first = min"))
    (bob / "strategy.py").write_text("def first(legal):\n    return legal[0]\n")
    bob_version = submit(league, f"{bob / 'bot.py'}:Rival", "bob", folder=True)
    assert bob_version.passed, bob_version.validation
    store = league.path / "store"
    looker = _looker(tmp_path / "eve", [
        store / bob_version.digest / "strategy.py", store / bob_version.digest,
        league.path / "league.toml", league.path / "submissions.json", league.path / "deals"],
        [str(league.path), bob_version.digest])
    eve = submit(league, looker, "eve", folder=True)
    assert eve.passed, eve.validation


@needs_namespaces
@pytest.mark.skipif(os.geteuid() != 0, reason="makes a file of another user's")
def test_a_hard_link_to_another_s_private_file_is_not_in_the_bot_s_copy(
        runner: CliRunner, tmp_path: Path) -> None:
    """Issue 38: a hard link to an organiser's 0600 file was shown to the bot. The bot's folder
    is copied into its games' view: a file of another owner that others may not read is left
    out, as the games' id would not read it."""
    secret = tmp_path / "secret.txt"  # root's, as the arena runs
    secret.write_text("the organiser's")
    secret.chmod(0o600)
    mine = tmp_path / "mine"  # a student's folder
    looker = _looker(mine, [mine / "notes.txt", secret], [])
    os.chown(mine, 12345, 12345)
    os.link(secret, mine / "notes.txt")
    result = run(runner, "play", "concentration", "-b", looker, "-b", "random")
    assert result.exit_code == 0, said(result)


@needs_namespaces
@pytest.mark.skipif(os.geteuid() != 0, reason="makes files of another user's")
def test_a_student_s_own_folder_only_they_may_read_plays(runner: CliRunner,
                                                        tmp_path: Path) -> None:
    """A bot's folder and files only their owner (not the arena's user) may read are copied as
    read before the forker leaves the machine's privileges: the games read them."""
    mine = tmp_path / "mine"
    looker = _looker(mine, [], [])
    for path in (mine, *mine.iterdir()):
        os.chown(path, 12345, 12345)
        path.chmod(0o700 if path.is_dir() else 0o600)
    result = run(runner, "play", "concentration", "-b", looker, "-b", "random")
    assert result.exit_code == 0, said(result)
