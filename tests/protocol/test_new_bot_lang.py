"""`arena new-bot --lang c|js|python-stdio`: a starting bot in that language, as a folder."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.newbot import LANGUAGES, NewBotError, write_program_bot
from tests.protocol.conftest import CLIENTS


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_starters_are_the_reference_clients(lang: str) -> None:
    from importlib.resources import files

    language = LANGUAGES[lang]
    shipped = files("arena.protocol").joinpath("starters", *language.source.split("/"))
    assert shipped.read_text(encoding="utf-8") == (CLIENTS / language.source).read_text(
        encoding="utf-8"), "copy clients/ into arena/protocol/starters/"


def test_a_new_c_bot_builds_and_plays(tmp_path: Path) -> None:
    if shutil.which("cc") is None:
        pytest.skip("no C compiler (cc) on this machine")
    target = write_program_bot("mine", "dig", tmp_path, "c")
    subprocess.run(["cc", "-O2", "-o", "bot", "bot.c"], cwd=target, check=True)
    spec = resolve_bot(str(target), "dig")
    assert (spec.name, spec.cls.games) == ("mine", ("dig",))
    record = play_game(find_game("dig").variant(), [spec.make(), resolve_bot("random").make()],
                       ["mine", "random"], 0)
    assert not record.faults


def test_the_command_writes_a_python_stdio_bot_and_says_how_to_try_it(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["new-bot", "stdio", "--game", "concentration",
                                      "--lang", "python-stdio", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "arena validate" in result.output
    spec = resolve_bot(str(tmp_path / "stdio"), "concentration")
    assert spec.cls.command.argv[1:] == ("-u", str(tmp_path / "stdio" / "bot.py"))


def test_nothing_is_overwritten_and_an_unknown_language_is_one_line(tmp_path: Path) -> None:
    write_program_bot("mine", "dig", tmp_path, "js")
    with pytest.raises(NewBotError, match="already exists"):
        write_program_bot("mine", "dig", tmp_path, "c")
    result = CliRunner().invoke(app, ["new-bot", "x", "--game", "dig", "--lang", "rust",
                                      "--dir", str(tmp_path)])
    assert result.exit_code == 2
    assert "unknown language 'rust'" in result.output
