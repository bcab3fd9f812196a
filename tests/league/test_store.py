"""The league's store keeps each version's bytes and modes (issue 38, case 5): the digest covers
file modes, a version's stored files are exactly what that submission sent, and hard links,
special files and names with control characters are refused at submission, one line."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from arena.league.folder import League, LeagueError
from arena.league.submissions import submit
from tests.league.conftest import FIRST, passing, write_bot
from tests.sandbox.support import needs_namespaces

PROGRAM = '''import json
import os
import sys

if not os.access(os.path.join(os.path.dirname(os.path.abspath(__file__)), "helper.sh"), os.X_OK):
    sys.exit("helper.sh is not executable")
for line in sys.stdin:
    kind = json.loads(line)["type"]
    print(json.dumps({"index": 0} if kind == "act" else {"ok": True}), flush=True)
    if kind == "end":
        break
'''


def _program(folder: Path, executable: bool) -> Path:
    folder.mkdir(parents=True)
    (folder / "bot.py").write_text(PROGRAM)
    (folder / "bot.toml").write_text(f'name = "prog"\ncommand = "{sys.executable} bot.py"\n'
                                     'games = ["concentration"]\n')
    helper = folder / "helper.sh"
    helper.write_text("#!/bin/sh\necho helped\n")
    helper.chmod(0o755 if executable else 0o644)
    return folder


def test_the_digest_covers_modes_and_the_store_keeps_them(league: League,
                                                          tmp_path: Path) -> None:
    plain = submit(league, str(_program(tmp_path / "a", False)), "ann", validator=passing)
    runnable = submit(league, str(_program(tmp_path / "b", True)), "bea", validator=passing)
    assert plain.digest != runnable.digest
    store = league.path / "store"
    assert stat.S_IMODE((store / plain.digest / "helper.sh").stat().st_mode) == 0o644
    assert stat.S_IMODE((store / runnable.digest / "helper.sh").stat().st_mode) == 0o755


def test_stored_files_are_made_exact_again(league: League, tmp_path: Path) -> None:
    """A version's folder whose file was changed since (by hand, or a crash) is written again
    with what the submission sent."""
    first = submit(league, str(_program(tmp_path / "a", True)), "ann", validator=passing)
    stored = league.path / "store" / first.digest / "helper.sh"
    stored.chmod(0o644)
    stored.write_text("changed")
    again = submit(league, str(tmp_path / "a"), "bea", validator=passing)
    assert again.digest == first.digest
    assert stored.read_text() == "#!/bin/sh\necho helped\n"
    assert stat.S_IMODE(stored.stat().st_mode) == 0o755


@needs_namespaces
def test_one_submission_cannot_make_another_fail(league: League, tmp_path: Path) -> None:
    """Case 5: a helper not executable fails validation; the same bytes, executable, submitted
    by a classmate then, pass (as in a fresh league)."""
    plain = submit(league, str(_program(tmp_path / "a", False)), "ann")
    assert not plain.passed
    runnable = submit(league, str(_program(tmp_path / "b", True)), "bea")
    assert runnable.passed, runnable.validation


def test_a_hard_link_is_refused(league: League, tmp_path: Path) -> None:
    organiser = tmp_path / "secret.txt"
    organiser.write_text("the organiser's")
    organiser.chmod(0o600)
    folder = _program(tmp_path / "a", True)
    os.link(organiser, folder / "notes.txt")
    with pytest.raises(LeagueError, match="a hard link") as caught:
        submit(league, str(folder), "ann", validator=passing)
    assert "\n" not in str(caught.value)
    spec = write_bot(tmp_path / "f", FIRST)
    os.link(tmp_path / "f" / "mybot.py", tmp_path / "f" / "again.py")
    with pytest.raises(LeagueError, match="a hard link"):
        submit(league, spec, "fay", validator=passing)


def test_a_special_file_is_refused(league: League, tmp_path: Path) -> None:
    folder = _program(tmp_path / "a", True)
    os.mkfifo(folder / "pipe")
    with pytest.raises(LeagueError, match="not a regular file"):
        submit(league, str(folder), "ann", validator=passing)


def test_a_name_with_control_characters_is_refused(league: League, tmp_path: Path) -> None:
    folder = _program(tmp_path / "a", True)
    (folder / "bot.toml").write_text(f'name = "evil\\u001b]0;x\\u0007\\u202e"\n'
                                     f'command = "{sys.executable} bot.py"\n'
                                     'games = ["concentration"]\n')
    with pytest.raises(LeagueError) as caught:
        submit(league, str(folder), validator=passing)
    assert "\x1b" not in str(caught.value) and "\n" not in str(caught.value)
    (folder / "bot.toml").unlink()
    (folder / "bot.toml").write_text(f'name = "prog"\ncommand = "{sys.executable} bot.py"\n'
                                     'games = ["concentration"]\n')
    (folder / "x\u202e.sh").write_text("")
    with pytest.raises(LeagueError, match="control characters") as named:
        submit(league, str(folder), "ann", validator=passing)
    assert "\u202e" not in str(named.value)
