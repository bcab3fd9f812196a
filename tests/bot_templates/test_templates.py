"""Each `arena new-bot` template is a real module: it imports as it is shipped, its class plays its
game without a fault, and `arena new-bot` writes it with only the header and names filled in."""

from __future__ import annotations

import importlib
import re
from importlib.resources import files

import pytest

from arena.api import Bot
from arena.engine import all_games, find_game
from arena.loader import BotSpec, resolve_bot
from arena.newbot import GENERIC, TEMPLATES
from arena.session import play_series

FILES = sorted(p.name for p in files("arena.bot_templates").iterdir()
               if p.name.endswith(".py") and p.name != "__init__.py")


def template_class(file: str) -> type[Bot]:
    """The bot class a template file defines, imported as shipped (`__CLASS__`)."""
    module = importlib.import_module(f"arena.bot_templates.{file.removesuffix('.py')}")
    cls: type[Bot] = module.__CLASS__
    return cls


def test_every_template_file_is_a_games_template_or_the_generic_one() -> None:
    assert set(FILES) == {t.file for t in TEMPLATES.values()} | {GENERIC}


@pytest.mark.parametrize(("game", "file"), [*((g, t.file) for g, t in TEMPLATES.items()),
                                            *((g.name, GENERIC) for g in all_games())])
def test_the_shipped_template_plays_its_game_without_a_fault(game: str, file: str) -> None:
    cls = template_class(file)
    assert cls.games in ((game,), ("__GAME__",))  # the placeholder filled in by `arena new-bot`
    found = find_game(game)
    variant = found.variant()
    allowed = variant.params.players_allowed()
    seats = max(allowed.start, min(TEMPLATES[game].players or 2, allowed.stop - 1)) \
        if game in TEMPLATES else max(allowed.start, min(2, allowed.stop - 1))
    bot = BotSpec(file, file, cls)
    others = [resolve_bot("random", game)] * (seats - 1)
    played = list(play_series(variant, [bot, *others], 3, 1))
    assert played and all(not g.record.faults for g in played)


def test_a_template_file_starts_with_its_docstring_and_keeps_its_placeholders() -> None:
    for file in FILES:
        text = files("arena.bot_templates").joinpath(file).read_text(encoding="utf-8")
        assert text.startswith('"""'), file
        assert "class __CLASS__(" in text, file
        assert not re.search(r"__(ABOUT|PLAY|FILE)__", text), file  # the header's alone
