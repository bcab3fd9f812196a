"""Tests for arena.loader: bot specs by registered name, module, file path, with parameters."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from arena.api import Bot
from arena.errors import ArenaError, BotSpecError
from arena.loader import bot_sources, registered_bots, resolve_bot
from bots.algorithms.random_bot import RandomBot
from bots.concentration.forgetful import ForgetfulBot
from bots.concentration.greedy import GreedyBot

MY_BOT = '''
from arena.api import Bot


class MyBot(Bot):
    """A test bot with typed parameters."""

    def __init__(self, level: int = 1, sharp: bool = False, style: str = "calm",
                 bias: float = 0.0) -> None:
        self.level = level
        self.sharp = sharp
        self.style = style
        self.bias = bias

    def act(self, obs):
        return obs.legal[0]


class DigBot(Bot):
    games = ("dig",)

    def act(self, obs):
        return obs.legal[0]


class NotABot:
    pass


not_a_class = 42
'''


@pytest.fixture
def bot_file(tmp_path: Path) -> Path:
    """A bot module written to a temporary file."""
    path = tmp_path / "mybot.py"
    path.write_text(MY_BOT)
    return path


def spec_error(spec: str, game: str | None = None) -> str:
    """The message of the BotSpecError that resolving `spec` raises (checked to be one line)."""
    with pytest.raises(BotSpecError) as caught:
        resolve_bot(spec, game)
    message = str(caught.value)
    assert "\n" not in message
    assert isinstance(caught.value, ArenaError)
    return message


# -- specs that resolve ------------------------------------------------------------------------

def test_registered_names_include_the_bundled_bots() -> None:
    names = {b.name for b in registered_bots()}
    assert {"random", "greedy", "forgetful"} <= names


@pytest.mark.parametrize(("spec", "cls"), [
    ("greedy", GreedyBot), ("random", RandomBot), ("forgetful", ForgetfulBot),
    ("  greedy  ", GreedyBot),
])
def test_registered_name(spec: str, cls: type[Bot]) -> None:
    resolved = resolve_bot(spec, "concentration")
    assert resolved.cls is cls
    assert resolved.name == spec.strip()
    assert resolved.params == {}
    first, second = resolved.make(), resolved.make()
    assert type(first) is cls and first is not second


def test_module_and_class() -> None:
    resolved = resolve_bot("bots.concentration.greedy:GreedyBot")
    assert resolved.cls is GreedyBot
    assert resolved.name == "bots.concentration.greedy:GreedyBot"


def test_file_path_and_class(bot_file: Path) -> None:
    resolved = resolve_bot(f"{bot_file}:MyBot", "concentration")
    assert resolved.cls.__name__ == "MyBot"
    assert issubclass(resolved.cls, Bot)
    assert resolved.name == "mybot:MyBot"
    bot = resolved.make()
    assert bot.level == 1  # type: ignore[attr-defined]


def test_relative_file_path(bot_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(bot_file.parent)
    assert resolve_bot("mybot.py:MyBot").cls.__name__ == "MyBot"


def test_registered_bot_parameters_are_typed() -> None:
    resolved = resolve_bot("forgetful:recall=0.6,capacity=4", "concentration")
    assert resolved.params == {"recall": 0.6, "capacity": 4}
    assert type(resolved.params["capacity"]) is int
    assert type(resolved.params["recall"]) is float
    bot = resolved.make()
    assert isinstance(bot, ForgetfulBot)
    assert (bot.recall, bot.capacity) == (0.6, 4)
    assert resolved.name == "forgetful:recall=0.6,capacity=4"


def test_file_bot_parameters_are_typed(bot_file: Path) -> None:
    resolved = resolve_bot(f"{bot_file}:MyBot:level=3,sharp=yes,style=bold,bias=-0.5")
    assert resolved.params == {"level": 3, "sharp": True, "style": "bold", "bias": -0.5}
    bot = resolved.make()
    assert (bot.level, bot.sharp, bot.style, bot.bias) == (3, True, "bold", -0.5)  # type: ignore[attr-defined]


def test_module_bot_parameters() -> None:
    resolved = resolve_bot("bots.concentration.forgetful:ForgetfulBot:capacity=0")
    assert resolved.params == {"capacity": 0}


def test_parameter_names_take_dashes(bot_file: Path) -> None:
    path = bot_file.parent / "dashed.py"
    path.write_text(textwrap.dedent('''
        from arena.api import Bot

        class Dashed(Bot):
            def __init__(self, max_depth: int = 1) -> None:
                self.max_depth = max_depth
    '''))
    assert resolve_bot(f"{path}:Dashed:max-depth=4").params == {"max_depth": 4}


def test_a_bot_for_any_game_plays_concentration() -> None:
    assert resolve_bot("random").plays("concentration")
    assert resolve_bot("random").plays("dig")
    assert resolve_bot("greedy").plays("concentration")
    assert not resolve_bot("greedy").plays("dig")


# -- specs that do not resolve -----------------------------------------------------------------

def test_unknown_registered_name() -> None:
    message = spec_error("quixotic")
    assert "'quixotic'" in message and "did you mean" not in message
    assert "greedy" in message.split("known:")[1]


def test_empty_spec() -> None:
    assert "empty" in spec_error("   ")


def test_missing_file(tmp_path: Path) -> None:
    spec = f"{tmp_path / 'nowhere.py'}:MyBot"
    message = spec_error(spec)
    assert repr(spec) in message and "not found" in message


def test_no_such_class_in_file(bot_file: Path) -> None:
    spec = f"{bot_file}:YourBot"
    message = spec_error(spec)
    assert repr(spec) in message and "'YourBot'" in message


def test_no_such_class_in_module() -> None:
    message = spec_error("bots.concentration.greedy:GreedierBot")
    assert "'bots.concentration.greedy:GreedierBot'" in message and "'GreedierBot'" in message


def test_no_such_module() -> None:
    message = spec_error("bots.nosuchmodule:Bot")
    assert "'bots.nosuchmodule:Bot'" in message and "bots.nosuchmodule" in message


@pytest.mark.parametrize("name", ["NotABot", "not_a_class"])
def test_not_a_bot_subclass(bot_file: Path, name: str) -> None:
    spec = f"{bot_file}:{name}"
    message = spec_error(spec)
    assert repr(spec) in message and "not a bot" in message


def test_not_a_class_name(bot_file: Path) -> None:
    assert "not a class name" in spec_error(f"{bot_file}:My-Bot")


def test_file_raising_at_import(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text('raise RuntimeError("kaboom in the bot\\nand a second line")\n')
    spec = f"{path}:MyBot"
    message = spec_error(spec)
    assert repr(spec) in message
    assert "RuntimeError: kaboom in the bot" in message
    assert "second line" not in message


def test_file_with_syntax_error(tmp_path: Path) -> None:
    path = tmp_path / "typo.py"
    path.write_text("class MyBot(:\n    pass\n")
    message = spec_error(f"{path}:MyBot")
    assert "SyntaxError" in message


def test_file_raising_at_import_can_be_fixed(tmp_path: Path) -> None:
    path = tmp_path / "flaky.py"
    path.write_text('raise ImportError("not yet")\n')
    spec_error(f"{path}:MyBot")
    path.write_text(MY_BOT)
    assert resolve_bot(f"{path}:MyBot").cls.__name__ == "MyBot"


def test_module_raising_at_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "badpkg_for_loader_test"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mod.py").write_text('raise ValueError("module exploded\\ndetails")\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    message = spec_error("badpkg_for_loader_test.mod:Bot")
    assert "'badpkg_for_loader_test.mod:Bot'" in message
    assert "ValueError: module exploded" in message
    assert "details" not in message


def test_module_with_missing_dependency(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "needs_dep_for_loader_test.py").write_text("import no_such_dependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    message = spec_error("needs_dep_for_loader_test:Bot")
    assert "no_such_dependency_xyz" in message


def test_file_calling_sys_exit_at_import(tmp_path: Path) -> None:
    path = tmp_path / "quits.py"
    path.write_text("import sys\nsys.exit('no thanks')\n")
    assert "SystemExit" in spec_error(f"{path}:MyBot")


@pytest.mark.parametrize(("spec", "mentions"), [
    ("forgetful:memory=3", "'memory'"),
    ("random:level=1", "'level'"),
    ("bots.concentration.greedy:GreedyBot:depth=2", "'depth'"),
])
def test_unknown_parameter(spec: str, mentions: str) -> None:
    message = spec_error(spec)
    assert repr(spec) in message and mentions in message
    assert "no parameter" in message


def test_unknown_parameter_lists_known_ones() -> None:
    message = spec_error("forgetful:memory=3")
    assert "recall" in message and "capacity" in message


@pytest.mark.parametrize(("spec", "mentions"), [
    ("forgetful:capacity=many", "'capacity'"),
    ("forgetful:recall=high", "'recall'"),
    ("forgetful:recall=1.5", "recall"),  # rejected by the bot's own __init__
    ("forgetful:capacity=-1", "capacity"),
    ("forgetful:recall", "forgetful:recall"),  # no '=': not parameters, not a registered name
    ("forgetful:recall=0.5,capacity", "'capacity' is not key=value"),
])
def test_bad_parameter_value(spec: str, mentions: str) -> None:
    message = spec_error(spec)
    assert repr(spec) in message and mentions in message


def test_bad_bool_parameter(bot_file: Path) -> None:
    message = spec_error(f"{bot_file}:MyBot:sharp=maybe")
    assert "'sharp'" in message and "'maybe'" in message


def test_parameters_without_a_colon() -> None:
    assert "colon" in spec_error("recall=0.6")


def test_bot_that_does_not_play_the_game(bot_file: Path) -> None:
    spec = f"{bot_file}:DigBot"
    assert resolve_bot(spec, "dig").cls.__name__ == "DigBot"
    message = spec_error(spec, "concentration")
    assert repr(spec) in message
    assert "dig" in message and "concentration" in message


def test_bot_requiring_arguments(tmp_path: Path) -> None:
    path = tmp_path / "needy.py"
    path.write_text(textwrap.dedent('''
        from arena.api import Bot

        class Needy(Bot):
            def __init__(self, depth: int) -> None:
                self.depth = depth
    '''))
    message = spec_error(f"{path}:Needy")
    assert "Needy" in message and "TypeError" in message
    assert resolve_bot(f"{path}:Needy:depth=2").make().depth == 2  # type: ignore[attr-defined]


def test_bot_sources_find_a_bots_own_code_without_importing_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "rivalpkg").mkdir()
    (tmp_path / "rivalpkg" / "__init__.py").write_text("raise RuntimeError('imported')\n")
    (tmp_path / "rivalmod.py").write_text("raise RuntimeError('imported')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert bot_sources("greedy") == () and bot_sources("bots.concentration.greedy:GreedyBot") == ()
    assert bot_sources(f"{tmp_path}/mine.py:Mine:depth=2") == (tmp_path / "mine.py",)
    assert bot_sources("rivalpkg.deep.bot:Bot") == (tmp_path / "rivalpkg",)
    assert bot_sources("rivalmod:Bot") == (tmp_path / "rivalmod.py",)
    assert bot_sources("nowhere_to_be_found:Bot") == ()


# -- did you mean ------------------------------------------------------------------------------

TWO_BOTS = '''\
from arena.api import Bot
from bots.concentration.greedy import GreedyBot


class Parity(Bot):
    def act(self, obs):
        return obs.legal[0]


class Oddity(Parity):
    pass


class NotABot:
    pass
'''


def test_a_mistyped_bot_name_gets_a_suggestion() -> None:
    message = spec_error("gredy")
    assert "no registered bot 'gredy' (did you mean 'greedy'? `arena bots` lists them)" in message


def test_a_file_without_a_class_is_told_to_name_one(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "parity_bot.py").write_text(TWO_BOTS)
    monkeypatch.chdir(tmp_path)
    assert spec_error("parity_bot.py") == (
        "bot spec 'parity_bot.py': name the class: parity_bot.py:Class "
        "(classes that are bots here: Parity, Oddity)")


def test_a_wrong_class_lists_the_bot_classes_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "parity_bot.py"
    path.write_text(TWO_BOTS)
    assert spec_error(f"{path}:Parrity").endswith(
        f"no class 'Parrity' in {path} (did you mean 'Parity'? classes that are bots here: "
        "Parity, Oddity)")
    assert spec_error(f"{path}:Zebra").endswith("(classes that are bots here: Parity, Oddity)")


def test_a_file_with_no_bot_class_says_so(tmp_path: Path) -> None:
    path = tmp_path / "empty_bot.py"
    path.write_text("X = 1\n")
    assert spec_error(f"{path}:Bot").endswith(
        "(it defines no bot class: subclass arena.api.Bot)")


def test_a_helper_named_bots_hides_not_the_bundled_bots(tmp_path: Path) -> None:
    """A bot's folder goes last on the import path, but an editable install finds the arena's
    packages after every folder of it: a `bots.py` beside a bot stood in for the bundled bots
    in a fresh process whose working directory is not the project's (a sandbox's host forked by
    a fork server started elsewhere: 'bots' is not a package)."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "bots.py").write_text("NOTE = 'a helper'\n")
    (folder / "mine.py").write_text(textwrap.dedent("""
        from bots.concentration.greedy import GreedyBot
        from .bots import NOTE


        class Mine(GreedyBot):
            note = NOTE
        """))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    found = subprocess.run(
        [sys.executable, "-c", "from arena.loader import resolve_bot; import sys; "
         "print(resolve_bot(sys.argv[1], 'concentration').cls.note)", f"{folder / 'mine.py'}:Mine"],
        cwd=elsewhere, capture_output=True, text=True, timeout=60, check=False)
    assert (found.returncode, found.stdout.strip()) == (0, "a helper"), found.stderr
