"""`arena new-bot`: a commented, working bot file to start from, and a small tournament for it.

`write_bot("my_bot", "concentration", folder)` writes `folder/my_bot.py` (class `MyBot`) from the
game's template, and `folder/my_bot.toml`, a tournament of the new bot against the game's
bundled bots; `next_steps` gives the three commands that try it (validate, play, run). Every
registered game has a template: a bot that plays a sound but plainly improvable rule (it beats
`random` and loses to the game's best bundled bot, and is no copy of any bundled bot; the tests
check all three), with comments on what it sees and a FIRST IMPROVEMENT comment naming the rule
of the game that makes the first change pay. A game without a template of its own gets the
generic one (random legal actions).
"""

from __future__ import annotations

import re
import shlex
import textwrap
from dataclasses import dataclass
from pathlib import Path

from arena.engine import find_game
from arena.errors import ArenaError

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")
"""A bot name: a letter, then letters, digits, '_' or '-' (it names the file and the class)."""

DEALS = 10
"""Deals in the new bot's tournament (each played in every rotation of the seats)."""


class NewBotError(ArenaError):
    """A new bot that cannot be written: a bad name, or a file that already exists."""


@dataclass(frozen=True)
class Template:
    """A game's bot template (its file in `arena/bot_templates/`) and the bundled bots it is
    tried against."""

    file: str
    opponents: tuple[str, ...]
    players: int | None = None


def class_name(name: str) -> str:
    """The class a bot name gets: `my_bot` -> `MyBot`, `clever` -> `CleverBot`."""
    words = [w for w in re.split(r"[_-]+", name) if w]
    joined = "".join(w[0].upper() + w[1:] for w in words)
    return joined if joined.lower().endswith("bot") else joined + "Bot"


def check_name(name: str) -> str:
    """The bot name, without a '.py' suffix; NewBotError unless it makes a good file and class."""
    stem = name.removesuffix(".py")
    if not NAME.fullmatch(stem):
        raise NewBotError(f"bot name {name!r}: use a letter, then letters, digits, '_' or '-' "
                          f"(at most 64), e.g. my_bot")
    cls = class_name(stem)
    if cls in RESERVED:
        raise NewBotError(f"bot name {name!r}: its class would be {cls!r}, a name the bot file "
                          f"already uses; choose another name")
    return stem


def config_path(path: Path) -> Path:
    """The tournament config written beside a new bot file."""
    return path.with_suffix(".toml")


def write_bot(name: str, game: str, folder: Path) -> Path:
    """Write `<name>.py` (the game's template) and `<name>.toml` (its tournament) into
    `folder`; returns the bot file. Existing files are never overwritten."""
    stem = check_name(name)
    found = find_game(game)
    template = TEMPLATES.get(found.name, _generic(found.name))
    path = folder / f"{stem}.py"
    config = config_path(path)
    for target in (path, config):
        if target.exists():
            raise NewBotError(f"{target}: already exists; choose another name or move it away")
    cls = class_name(stem)
    play = _wrapped(_play_command(template, found.name, f"{path.name}:{cls}"), "    ")
    about = GENERIC_ABOUT if template.file == GENERIC else ABOUT
    source = (_source(template).replace("__ABOUT__", about).replace("__PLAY__", play)
              .replace("__CLASS__", cls)
              .replace("__FILE__", path.name).replace("__GAME__", found.name))
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(source.lstrip("\n"), encoding="utf-8")
    config.write_text(_config_text(stem, cls, path.name, found.name, template), encoding="utf-8")
    return path


def next_steps(path: Path, game: str) -> list[str]:
    """The three commands that try a new bot: validate it, watch it play, run its tournament."""
    found = find_game(game)
    template = TEMPLATES.get(found.name, _generic(found.name))
    spec = f"{path}:{class_name(path.stem)}"
    return [f"arena validate {shlex.quote(spec)} --game {found.name}",
            _play_command(template, found.name, spec),
            f"arena run {shlex.quote(str(config_path(path)))}"]


def _play_command(template: Template, game: str, spec: str) -> str:
    """`arena play` with the new bot in seat 0 and bundled bots in the other seats."""
    seats = " ".join(f"-b {b}" for b in _table(template, game)[1:])
    return f"arena play {game} -b {shlex.quote(spec)} {seats} --show"


def _wrapped(command: str, indent: str, width: int = 96) -> str:
    """A shell command over several lines (continued with a backslash) to fit `width`."""
    lines: list[str] = []
    line = ""
    for word in command.split(" -b "):
        piece = word if not line else f"-b {word}"
        if line and len(indent) + len(line) + len(piece) + 3 > width:
            lines.append(line + " \\")
            line = "    " + piece
        else:
            line = f"{line} {piece}" if line else piece
    lines.append(line)
    return f"\n{indent}".join(lines)


def _players(template: Template, game: str) -> int:
    """Seats at the new bot's table: the template's, else the fewest the game allows (two at
    least)."""
    if template.players is not None:
        return template.players
    return max(2, find_game(game).variant().params.players_allowed().start)


def _table(template: Template, game: str) -> list[str]:
    """The new bot (as '') and the bundled bots filling the rest of a table, in turn."""
    players = _players(template, game)
    return ["", *[template.opponents[i % len(template.opponents)] for i in range(players - 1)]]


def _config_text(stem: str, cls: str, file_name: str, game: str, template: Template) -> str:
    players = _players(template, game)
    config_name = shlex.quote(str(Path(file_name).with_suffix(".toml")))
    paragraphs = [
        f"A small tournament for {cls} (made by `arena new-bot`): your bot against the bundled "
        f"{game} bots at tables of {players}, on {DEALS} deals of the standard openings book, "
        f"each deal played once per rotation of the seats. docs/config.md describes every key.",
        f"Run it with `arena run {config_name}` (from this folder). The results go to "
        f"results/{stem}/ under the folder you run it from: `arena ratings results/{stem}` "
        f"shows them again and `arena report results/{stem}` draws them."]
    header = "#\n".join("".join(f"# {line}\n" for line in textwrap.wrap(p, width=96))
                        for p in paragraphs)
    bots = "".join(f'\n[[bots]]\nspec = "{b}"\n'
                   for b in dict.fromkeys([*template.opponents, "random"]))
    return header + f"""
name = "{stem}"
seating = "rotations"

[deals]
list = "standard"
count = {DEALS}

# Your bot. The path is relative to this file; a bot that is not bundled plays sandboxed.
[[bots]]
name = "{stem}"
spec = "{file_name}:{cls}"
{bots}
[[games]]
game = "{game}"
players = {players}
variants = ["standard"]
"""


def _generic(game: str) -> Template:
    """The template of a game without one of its own: random legal actions."""
    return Template(GENERIC, ("random",))


GENERIC = "generic.py"
"""The generic template's file."""


def _source(template: Template) -> str:
    """A template's source as the new bot starts: HEADER (the bot's docstring, how to try it)
    in place of the template file's own docstring, placeholders still to fill in."""
    from importlib.resources import files

    text = files("arena.bot_templates").joinpath(template.file).read_text(encoding="utf-8")
    if not text.startswith('"""'):
        raise ValueError(f"template {template.file} does not start with its docstring")
    return HEADER + text[text.index('"""', 3) + 3:]


ABOUT = ("This bot plays a sound but simple strategy: it beats `random` and loses to the best\n"
         "bundled bot. The comment marked FIRST IMPROVEMENT says what to change first, and which\n"
         "rule of the game makes it pay; \"Where to improve next\" goes on from there.")
"""What the header of every game's own template says about the bot."""

GENERIC_ABOUT = ("This game has no template of its own yet: this bot plays random legal actions,\n"
                 "and the game's rules page is where a strategy starts.")
"""What the header of the generic template says about the bot."""

RESERVED = frozenset({"Bot", "GameInfo", "Observation", "Recall", "Card", "Any", "ClassVar",
                      "Action", "Event"})
"""Names the templates import: a bot class may not take one of them."""

HEADER = '''
r"""__CLASS__: a bot for __GAME__, made by `arena new-bot` to be improved.

Try it from the folder that holds this file:

    arena validate __FILE__:__CLASS__ --game __GAME__
    __PLAY__

The arena makes a fresh bot for every game, calls start(info) once, act(obs) each time the bot
must decide (return one of obs.legal), and end(result) when the game is over. The player API is
in docs/bot-api.md, the rules of the game in docs/rules/__GAME__.md.

__ABOUT__

When the bot outgrows one file, give it a folder: this file and its helper modules side by side
(helper.py beside __FILE__), which it imports by name: from helper import x.
"""'''
"""The new bot's docstring, in place of its template's own."""

TEMPLATES: dict[str, Template] = {
    "concentration": Template("concentration.py", ("greedy", "optimal")),
    "paved-with-gold": Template("paved_with_gold.py", ("prospector", "prospector-forgetful")),
    "memorandum": Template("memorandum.py", ("chancer", "elephant", "goldfish")),
    "animals": Template("animals.py", ("animals-sharp", "animals-simple")),
    "cuckoo": Template("cuckoo.py", ("cuckoo-sharp", "cuckoo-simple")),
    "dig": Template("dig.py", ("dig-sharp", "dig-simple")),
    "frogs-in-the-pond": Template("frogs_in_the_pond.py", ("frogs-sharp", "frogs-simple"),
                                  players=4),
    "old-mans-bundle": Template("old_mans_bundle.py", ("bundle-sharp", "bundle-simple")),
    "cribbage-square": Template("cribbage_square.py", ("square-search", "square-greedy")),
}
"""The template of each game, by game name: its file in `arena/bot_templates/`."""


# -- a bot in another language (`arena new-bot --lang`): the reference clients as starters ------


@dataclass(frozen=True)
class Language:
    """A language a new bot may be written in over the line protocol (docs/protocol.md): its
    starter file (one of the reference clients, shipped with the arena), the command that runs
    it, and the step that builds it, if any."""

    source: str
    command: str
    build: str = ""


LANGUAGES: dict[str, Language] = {
    "c": Language("c/bot.c", "./bot", "cc -O2 -o bot bot.c"),
    "js": Language("js/bot.js", "node bot.js"),
    "python-stdio": Language("python-stdio/bot.py", "python3 -u bot.py"),
}
"""`arena new-bot --lang` choices (`python`, the default, writes a Python class instead)."""


def write_program_bot(name: str, game: str, folder: Path, lang: str) -> Path:
    """Write a folder `folder/<name>/` holding a bot in `lang` (its source, from the reference
    client) and its `bot.toml`; returns the folder, which is the bot's spec. Nothing existing is
    overwritten."""
    from importlib.resources import files

    stem = check_name(name)
    found = find_game(game)
    language = LANGUAGES.get(lang)
    if language is None:
        raise NewBotError(f"unknown language {lang!r} (known: python, {', '.join(LANGUAGES)})")
    target = folder / stem
    if target.exists():
        raise NewBotError(f"{target}: already exists; choose another name or move it away")
    source = files("arena.protocol").joinpath("starters", *language.source.split("/"))
    target.mkdir(parents=True)
    file_name = language.source.rpartition("/")[2]
    (target / file_name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    if file_name.endswith((".py", ".js")):
        (target / file_name).chmod(0o755)
    (target / "bot.toml").write_text(
        f'name = "{stem}"\ncommand = "{language.command}"\ngames = ["{found.name}"]\n'
        + (f"# build first, in this folder: {language.build}\n" if language.build else ""),
        encoding="utf-8")
    return target


def program_next_steps(target: Path, game: str, lang: str) -> list[str]:
    """The commands that try a new bot in another language: build it (C), validate it, play it."""
    found = find_game(game)
    language = LANGUAGES[lang]
    spec = shlex.quote(str(target) if "/" in str(target) else f"./{target}")
    steps = [f"(cd {shlex.quote(str(target))} && {language.build})"] if language.build else []
    return [*steps, f"arena validate {spec} --game {found.name}",
            f"arena play {found.name} -b {spec} -b random --games 10"]
