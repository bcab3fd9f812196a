"""Bots named by their command, played in the arena's own process: specs, the relay, its faults."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena.engine import find_game
from arena.errors import BotSpecError
from arena.loader import anchored, bot_sources, display_name, is_bundled, resolve_bot
from arena.match import play_game
from arena.protocol.command import CommandBot
from tests.protocol.conftest import CLIENTS, HOSTILE

HOSTILE_SPEC = f"cmd:python3 -u {HOSTILE}"


def test_a_command_spec_resolves_to_a_bot_that_runs_nothing_until_it_starts() -> None:
    spec = resolve_bot(f"cmd:python3 {CLIENTS / 'python-stdio' / 'bot.py'}", "dig")
    bot = spec.make()
    assert isinstance(bot, CommandBot) and bot._running is None
    assert spec.name == "cmd:python3 bot.py"
    assert spec.cls.command.folder == CLIENTS / "python-stdio"
    assert spec.cls.command.argv[0].startswith("/")  # found on the search path


def test_a_folder_with_a_manifest_is_a_bot(tmp_path: Path) -> None:
    (tmp_path / "bot.toml").write_text('name = "mine"\ncommand = "./run"\n'
                                       'games = ["concentration"]\n')
    run = tmp_path / "run"
    run.write_text("#!/bin/sh\n")
    run.chmod(0o755)
    spec = resolve_bot(str(tmp_path), "concentration")
    assert (spec.name, spec.cls.command.argv, spec.cls.games) == (
        "mine", (str(run),), ("concentration",))
    assert display_name(str(tmp_path)) == "mine"
    assert not is_bundled(str(tmp_path))
    assert bot_sources(str(tmp_path)) == (tmp_path,)
    with pytest.raises(BotSpecError, match="mine plays concentration, not dig"):
        resolve_bot(str(tmp_path), "dig")


def test_relative_paths_are_anchored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bot.js").write_text("")
    monkeypatch.chdir(tmp_path)
    assert anchored("cmd:node bot.js --fast") == f"cmd:node {tmp_path / 'bot.js'} --fast"
    assert anchored("cmd:./bot.js") == f"cmd:{tmp_path / 'bot.js'}"


@pytest.mark.parametrize(("make", "problem"), [
    (lambda folder: "cmd:./nowhere", "program '.*nowhere' not found"),
    (lambda folder: "cmd:no-such-program-here", "no program 'no-such-program-here' on"),
    (lambda folder: f"cmd:{folder / 'plain'}", "is not executable"),
    (lambda folder: "cmd:", "no command after"),
    (lambda folder: "cmd:'unclosed", "the command cannot be read"),
])
def test_a_program_that_cannot_run_is_one_line_naming_the_spec(tmp_path: Path, make, problem
                                                                ) -> None:
    (tmp_path / "plain").write_text("#!/bin/sh\n")
    spec = make(tmp_path)
    with pytest.raises(BotSpecError, match=problem) as caught:
        resolve_bot(spec, "concentration")
    assert str(caught.value).startswith(f"bot spec {spec!r}: ")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("manifest", "problem"), [
    ('command = "./x"\n', "'name' must be"),
    ('name = "x"\n', "'command' must be"),
    ('name = "x"\ncommand = "./x"\ngames = "dig"\n', "'games' must be"),
    ('name = "x"\ncommand = "./x"\nport = 80\n', "unknown key 'port'"),
    ("name = \n", "bot.toml"),
])
def test_a_bad_manifest_is_one_line(tmp_path: Path, manifest: str, problem: str) -> None:
    (tmp_path / "bot.toml").write_text(manifest)
    with pytest.raises(BotSpecError, match=problem):
        resolve_bot(str(tmp_path))


def play_hostile(seed: int) -> dict:
    """One in-process game of the hostile program (seat 0) against greedy, on `seed`."""
    variant = find_game("concentration").variant("standard")
    bots = [resolve_bot(HOSTILE_SPEC).make(), resolve_bot("greedy").make()]
    return play_game(variant, bots, ["hostile", "greedy"], seed).to_json()


FAULTS = [  # by seed: see tests/protocol/hostile.py
    (0, "malformed", "act: the bot's answer is not JSON: 'hello, arena'"),
    (1, "malformed", "act: the bot's answer has no line end"),
    (2, "malformed", "act: the bot's answer is a line longer than 1 MB"),
    (3, "malformed", "act: index 57 is out of range (52 legal actions, 0 to 51)"),
    (4, "illegal", "-1"),
    (6, "crash", "act: the bot's program closed its standard output without answering"),
    (7, "crash", "closed its standard output without answering (exited with code 3)"),
    (8, "malformed", "act: the answer names no action"),
    (9, "malformed", "start: the bot's acknowledgement is not a JSON object"),
    (10, "malformed", "act: the bot sent more than one line"),
]


@pytest.mark.parametrize(("seed", "kind", "detail"), FAULTS)
def test_each_way_of_breaking_the_protocol_is_a_fault_and_the_game_goes_on(
        seed: int, kind: str, detail: str) -> None:
    record = play_hostile(seed)
    (fault,) = record["faults"]
    assert (fault["seat"], fault["kind"]) == (0, kind)
    assert detail in fault["detail"] and "\n" not in fault["detail"]
    assert record["ranks"] == [2, 1]


def test_a_well_behaved_program_plays_to_the_end_and_is_gone_after() -> None:
    record = play_hostile(12)  # "fine": always the first legal action
    assert not record["faults"]
    # only this process's children: other test workers may be playing the same program now
    assert not [p for p in os.listdir("/proc") if p.isdigit() and _parent(p) == os.getpid()
                and _cmdline(p).endswith(str(HOSTILE))]


def _cmdline(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return ""


def _parent(pid: str) -> int | None:
    """The parent's process id of `pid`, or None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])  # the name in brackets may hold spaces


def test_a_system_program_is_never_a_bots_folder() -> None:
    from arena.loader import code_roots

    assert code_roots("cmd:/bin/sh") == ()  # hidden from other bots, it would break them
    assert code_roots(f"cmd:/bin/sh {HOSTILE}") == (HOSTILE.parent,)
