"""`arena new-bot`: every game's template is a working bot, and the next steps work as printed."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.engine import all_games, find_game
from arena.errors import UnknownGameError
from arena.loader import resolve_bot
from arena.newbot import TEMPLATES, NewBotError, class_name, config_path, next_steps, write_bot
from arena.session import play_series
from arena.tournament.config import load_config

GAMES = [g.name for g in all_games()]
VARIANTS = [(g.name, preset) for g in all_games() for preset in g.presets]


def seats_for(game: str, preset: str) -> int:
    """The fewest seats the variant takes, two at least when it allows two."""
    allowed = find_game(game).variant(preset).params.players_allowed()
    return max(allowed.start, min(2, allowed.stop - 1))


@pytest.mark.parametrize(("game", "preset"), VARIANTS)
def test_the_template_plays_every_variant_without_a_fault(game: str, preset: str,
                                                          tmp_path: Path) -> None:
    path = write_bot("my_bot", game, tmp_path)
    bot = resolve_bot(f"{path}:MyBot", game)
    variant = find_game(game).variant(preset)
    others = [resolve_bot("random", game)] * (seats_for(game, preset) - 1)
    played = list(play_series(variant, [bot, *others], 11, 2, rotate=True))
    assert played
    assert all(not g.record.faults for g in played)


def test_every_registered_game_has_a_template_of_its_own() -> None:
    assert set(TEMPLATES) == set(GAMES)


def test_a_game_without_a_template_gets_the_generic_one(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(TEMPLATES, "dig")
    path = write_bot("plain", "dig", tmp_path)
    assert 'games: ClassVar[tuple[str, ...]] = ("dig",)' in path.read_text()
    bot = resolve_bot(f"{path}:PlainBot", "dig")
    played = list(play_series(find_game("dig").variant(), [bot, resolve_bot("random")], 1, 2))
    assert all(not g.record.faults for g in played)
    assert next_steps(path, "dig")[1].endswith("-b random --show")


def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    path = write_bot("mine", "concentration", tmp_path)
    path.write_text("# my work\n")
    with pytest.raises(NewBotError, match="already exists"):
        write_bot("mine", "concentration", tmp_path)
    assert path.read_text() == "# my work\n"
    path.unlink()
    with pytest.raises(NewBotError, match=r"mine\.toml: already exists"):
        write_bot("mine", "memorandum", tmp_path)  # its tournament config is still there
    assert not path.exists()


@pytest.mark.parametrize("name", ["", "1st", "my bot", "a/b", "../up", "é", "x" * 65, "bot"])
def test_bad_names_are_refused(name: str, tmp_path: Path) -> None:
    with pytest.raises(NewBotError, match="bot name"):
        write_bot(name, "concentration", tmp_path)


def test_names_files_and_classes(tmp_path: Path) -> None:
    assert class_name("my_bot") == "MyBot"
    assert class_name("clever") == "CleverBot"
    assert class_name("card-shark") == "CardSharkBot"
    assert class_name("robot") == "Robot"
    path = write_bot("my_bot.py", "Concentration", tmp_path / "new" / "folder")
    assert path == tmp_path / "new" / "folder" / "my_bot.py"
    assert config_path(path).is_file()
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        write_bot("x", "chess", tmp_path)


def test_the_config_and_the_play_command_fit_the_game(tmp_path: Path) -> None:
    for game in GAMES:
        path = write_bot(f"bot_{game.replace('-', '_')}", game, tmp_path)
        validate, play, run = next_steps(path, game)
        assert validate == f"arena validate {path}:{class_name(path.stem)} --game {game}"
        assert run == f"arena run {config_path(path)}"
        config = load_config(config_path(path), check_bots=False)  # players fit the variant
        assert config.bots[0].spec == f"{path.resolve()}:{class_name(path.stem)}"
        args = shlex.split(play)
        seats = [args[i + 1] for i, a in enumerate(args) if a == "-b"]
        assert find_game(game).variant().params.players_allowed().start <= len(seats)
        for spec in seats[1:]:
            resolve_bot(spec, game)


def test_the_printed_commands_work(tmp_path: Path) -> None:
    path = write_bot("try_me", "memorandum", tmp_path)
    load_config(config_path(path))  # the bot loads (sandboxed) and plays the game
    play = shlex.split(next_steps(path, "memorandum")[1])
    result = CliRunner().invoke(app, play[1:])
    assert result.exit_code == 0, result.output
    assert "try_me:TryMeBot" in result.output


def test_the_generated_files_are_ruff_clean(tmp_path: Path) -> None:
    pytest.importorskip("ruff")
    for game in GAMES:
        write_bot(f"bot_{game.replace('-', '_')}", game, tmp_path)
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--config", str(pyproject),
                           "--no-cache", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
