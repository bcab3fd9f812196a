"""What a bot says cannot steer the organiser's terminal or forge a line: its fault detail, its
output (the `[seat N]` echo of `arena play`, `bots/<bot>.log` in a run), the run's log and the
records hold its control characters, separators and bidi overrides only as escapes (issue 27:
an OSC and ANSI sequence in a fault detail repainted the terminal to show a false result)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

FORGER = '''\
import sys
from arena.api import Bot

FORGED = "\\x1b[2K\\x1b[1A\\x1b]0;owned\\x07\\rforger 26 - greedy 0\\u2028\\u0085\\u202eniw\\x9b2J"


class Forger(Bot):
    def act(self, obs):
        sys.stdout.write(FORGED + "\\n")
        sys.stdout.flush()
        sys.stdout.buffer.write(b"raw \\xff\\x1b[31m bytes\\n")
        sys.stdout.buffer.flush()
        if len(obs.legal) < 40:
            raise ValueError(FORGED)
        return obs.legal[0]
'''

CONFIG = """
name = "forged"
[deals]
count = 1
base = 1
[[bots]]
spec = "forger.py:Forger"
isolation = "process"
[[bots]]
spec = "greedy"
[[games]]
game = "concentration"
players = 2
variants = ["standard"]
"""

RAW = [b"\x1b", b"\x07", b"\r", "\u2028".encode(), "\u0085".encode(), "\u202e".encode(),
       "\x9b".encode(), b"\xff"]


def _clean(data: bytes, where: str) -> None:
    for raw in RAW:
        assert raw not in data, f"{raw!r} reached {where}"


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_play_shows_a_bot_s_words_escaped(tmp_path: Path, isolation: str) -> None:
    (tmp_path / "forger.py").write_text(FORGER)
    done = subprocess.run(
        [sys.executable, "-c", "from arena.cli import main; main()", "play", "concentration",
         "-b", "forger.py:Forger", "-b", "greedy", "--isolation", isolation],
        cwd=tmp_path, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    fault = done.stdout.split(b"  fault: ")[-1]
    _clean(fault, "the fault line")
    assert b"\\x1b[2K\\x1b[1A\\x1b]0;owned\\x07" in fault.replace(b"\n    ", b" ")
    if isolation == "process":  # an in-process bot is trusted: it prints where the arena does
        _clean(done.stdout, "stdout")
        _clean(done.stderr, "stderr")
        assert b"[seat 0] \\x1b[2K" in done.stderr
        assert b"[seat 0] raw \\xff\\x1b[31m bytes\n" in done.stderr


def test_a_run_stores_a_bot_s_words_escaped(tmp_path: Path) -> None:
    (tmp_path / "forger.py").write_text(FORGER)
    (tmp_path / "forged.toml").write_text(CONFIG)
    done = subprocess.run(
        [sys.executable, "-c", "from arena.cli import main; main()", "run", "forged.toml",
         "--out", "run", "--workers", "1", "-q"], cwd=tmp_path, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    run = tmp_path / "run"
    logs = list((run / "bots").glob("*.log"))
    assert logs and b"raw \\xff\\x1b[31m bytes" in logs[0].read_bytes()
    for path in (*logs, run / "log.txt", run / "games.jsonl", run / "ratings.txt"):
        _clean(path.read_bytes(), str(path))
    _clean(done.stdout + done.stderr, "the terminal")
    assert b"\\\\x1b[2K" in (run / "games.jsonl").read_bytes()  # the escape, in JSON


NAMED = ('name = "evil\\u001b]0;pwned\\u0007\\u202e\\u009bX\\u2066"\n'
         'command = "{python} -u bot.py"\ngames = ["*"]\n')
STDIO = Path(__file__).parents[1] / "clients" / "python-stdio" / "bot.py"


@pytest.mark.parametrize("isolation", ["process", "none"])
def test_play_shows_a_bot_toml_s_name_escaped(tmp_path: Path, isolation: str) -> None:
    """Issue 38, case 4: an OSC sequence, U+202E and the C1 control U+009B in a `bot.toml`'s
    name reached the terminal raw through `arena play`'s result line."""
    folder = tmp_path / "evil"
    folder.mkdir()
    (folder / "bot.py").write_bytes(STDIO.read_bytes())
    (folder / "bot.toml").write_text(NAMED.format(python=sys.executable))
    done = subprocess.run(
        [sys.executable, "-c", "from arena.cli import main; main()", "play", "concentration",
         "-b", str(folder), "-b", "greedy", "--isolation", isolation],
        cwd=tmp_path, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    _clean(done.stdout + done.stderr, "the terminal")
    assert "\u2066".encode() not in done.stdout
    assert b"evil\\x1b]0;pwned\\x07\\u202e\\x9bX\\u2066" in done.stdout


def test_a_bot_file_s_name_is_shown_escaped(tmp_path: Path) -> None:
    name = "fo\x1b]0;x\x07\u202eo.py"
    (tmp_path / name).write_text(FORGER.replace("raise ValueError(FORGED)", "pass"))
    done = subprocess.run(
        [sys.executable, "-c", "from arena.cli import main; main()", "play", "concentration",
         "-b", f"{name}:Forger", "-b", "greedy", "--isolation", "none"],
        cwd=tmp_path, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    line = next(text for text in done.stdout.split(b"\n") if text.startswith(b"seed"))
    _clean(line, "the result line")
    assert b"fo\\x1b]0;x\\x07\\u202eo:Forger" in line
