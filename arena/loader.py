"""Bot specs: a registered name, 'package.module:Class' or 'path/file.py:Class', with parameters.

Parameters follow the last colon as comma-separated `key=value` pairs (`forgetful:recall=0.6`);
each is parsed by the annotation of the matching `__init__` argument of the bot class.
"""

from __future__ import annotations

import functools
import importlib
import importlib.machinery
import importlib.util
import inspect
import os
import stat
import sys
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.api import Bot
from arena.errors import BotSpecError, did_you_mean
from arena.protocol.command import (
    anchored_command,
    command_class,
    command_display,
    command_folder,
    command_spec,
    is_command,
)
from arena.text import escape
from arena.values import parse_assignments, parse_value

ENTRY_POINT_GROUP = "arena.bots"


@dataclass(frozen=True)
class BotSpec:
    """A resolved bot spec: a display name and how to make a fresh instance for every game."""

    spec: str
    name: str
    cls: type[Bot]
    params: dict[str, Any] = field(default_factory=dict)
    origin: str = ""

    def make(self) -> Bot:
        """A new bot instance with the spec's parameters."""
        return self.cls(**self.params)

    def plays(self, game: str) -> bool:
        """Whether the bot declares it can play `game`."""
        games = getattr(self.cls, "games", ("*",))
        return "*" in games or game in games


@dataclass(frozen=True)
class RegisteredBot:
    """A bot registered under the 'arena.bots' entry point group."""

    name: str
    target: str
    distribution: str

    def load(self) -> type[Bot]:
        """Import the bot class."""
        return _import_attribute(self.target, f"registered bot {self.name!r}")


def registered_bots() -> Iterator[RegisteredBot]:
    """Every bot registered by an installed distribution, by name."""
    yield from _registered(metadata_path())


METADATA_SUFFIXES = (".dist-info", ".egg-info", ".egg")
"""What names a distribution's metadata on an import path entry (importlib.metadata)."""


def metadata_path() -> tuple[str, ...]:
    """The import path entries that may hold installed distributions' metadata: every entry
    but folders with none (a bot file's folder, appended when it is imported in-process), so
    that what is found on the path is looked up once, not again after each bot file import."""
    return tuple(entry for entry in sys.path if _may_hold_metadata(entry))


def _may_hold_metadata(entry: str) -> bool:
    """Whether an import path entry may hold a distribution's metadata: a file (a zip, an
    egg) may; a folder if it lists any (looked at again only when the folder changes)."""
    folder = os.path.abspath(entry or ".")
    try:
        found = os.stat(folder)
    except OSError:  # absent or unreadable: nothing is found there
        return False
    if not stat.S_ISDIR(found.st_mode):
        return True
    return _lists_metadata(folder, found.st_mtime_ns)


@functools.lru_cache(maxsize=256)
def _lists_metadata(folder: str, changed: int) -> bool:
    """Whether a folder (as it was when last changed, at `changed`) lists metadata."""
    try:
        return any(name.endswith(METADATA_SUFFIXES) for name in os.listdir(folder))
    except OSError:
        return False


@functools.lru_cache(maxsize=4)
def _registered(path: tuple[str, ...]) -> tuple[RegisteredBot, ...]:
    """The registered bots found on this import path: scanning every installed distribution's
    metadata takes ~10 ms, and a league update asks once per bot and pool."""
    from importlib.metadata import entry_points  # slow to import; sandbox hosts never need it

    found = entry_points(group=ENTRY_POINT_GROUP)
    return tuple(RegisteredBot(ep.name, ep.value, ep.dist.name if ep.dist is not None else "?")
                 for ep in sorted(found, key=lambda e: e.name))


BUNDLED_DISTRIBUTION = "card-arena"
BUNDLED_PACKAGES = ("bots.", "arena.")


def is_bundled(spec: str) -> bool:
    """Whether a spec names a bot shipped with the arena (trusted), without importing anything."""
    if is_command(spec):
        return False
    target, _ = _split_params(spec.strip())
    if ":" not in target:
        return any(b.name == target and b.distribution == BUNDLED_DISTRIBUTION
                   for b in registered_bots())
    module = target.rpartition(":")[0]
    return not module.endswith(".py") and "/" not in module and module.startswith(
        BUNDLED_PACKAGES)


def anchored(spec: str, base: Path | None = None) -> str:
    """The spec with a relative bot file path made absolute (from `base`, or the working
    directory), so that it names the same file from any directory."""
    if is_command(spec):
        return anchored_command(spec, base)
    where = bot_file(spec)
    target = spec.strip()
    if where is None and ":" not in target and _names_file(target):  # a file, class forgotten
        path = Path(target)
        return target if path.is_absolute() else str((path if base is None else base / path)
                                                     .resolve())
    if where is None or where.is_absolute():
        return spec
    return moved(spec, (where if base is None else base / where).resolve())


def bot_file(spec: str) -> Path | None:
    """The Python file a `path/file.py:Class` spec loads its bot from (None for a module or a
    registered name)."""
    if is_command(spec):
        return None
    target, _ = _split_params(spec.strip())
    where, colon, _ = target.rpartition(":")
    if not colon or not _names_file(where):
        return None
    return Path(where)


def code_roots(target: str) -> tuple[Path, ...]:
    """Where the code of a bot target (`path/file.py:Class` or `module:Class`) lives, found
    without importing any of it: its file, or its top-level package's folders or module file.
    Empty if there is nothing to find. A program's code is its folder."""
    if is_command(target):
        folder = command_folder(target)
        return () if folder is None else (folder,)
    try:
        path = bot_file(target)
    except BotSpecError:
        return ()
    if path is not None:
        return (path,)
    try:
        module = target.partition(":")[0]
        found = importlib.util.find_spec(module.partition(".")[0])  # a top-level name: runs nothing
    except (ImportError, ValueError):
        return ()
    if found is None:
        return ()
    if found.submodule_search_locations:
        return tuple(Path(folder) for folder in found.submodule_search_locations)
    return (Path(found.origin),) if found.origin and found.origin.endswith(".py") else ()


def bot_sources(spec: str) -> tuple[Path, ...]:
    """Where a bot's own code lives (`code_roots`), for a spec that may be a name registered by
    another package; empty for a bundled bot, whose code is public."""
    if is_bundled(spec):
        return ()
    try:
        return code_roots(by_target(spec))
    except BotSpecError:
        return ()


def moved(spec: str, path: Path) -> str:
    """A file spec pointed at another copy of its file: same class, same parameters."""
    target, params = _split_params(spec.strip())
    class_name = target.rpartition(":")[2]
    return f"{path}:{class_name}" + (f":{params}" if params else "")


def by_target(spec: str) -> str:
    """The spec with a registered name replaced by the `module:Class` it stands for (read from
    the package metadata, importing nothing), so that it resolves without scanning entry points."""
    if is_command(spec):
        return spec
    target, params = _split_params(spec.strip())
    if ":" in target:
        return spec
    found = next((b for b in registered_bots() if b.name == target), None)
    if found is None:
        return spec
    return found.target + (f":{params}" if params else "")


def display_name(spec: str) -> str:
    """The name a spec is shown under (as `resolve_bot` names it), without importing anything."""
    if is_command(spec):
        return command_display(spec)
    target, params = _split_params(spec.strip())
    where, colon, class_name = target.rpartition(":")
    if not colon:
        name = target
    elif _names_file(where):
        name = f"{Path(where).stem}:{class_name}"
    else:
        name = target
    return escape(name + (f":{params}" if params else ""))


def resolve_bot(spec: str, game: str | None = None) -> BotSpec:
    """Turn a spec into a BotSpec, or raise BotSpecError naming the spec and what is wrong."""
    text = spec.strip()
    if not text:
        raise BotSpecError("empty bot spec")
    if is_command(text):
        return _command_bot(text, game)
    target, params_text = _split_params(text)
    cls, name, origin = _find_class(target, text)
    params = _bind_params(cls, params_text, text)
    display = escape(name + (f":{params_text}" if params_text else ""))
    resolved = BotSpec(text, display, cls, params, origin)
    try:
        resolved.make()
    except (Exception, SystemExit) as exc:
        raise BotSpecError(f"bot spec {text!r}: creating {cls.__name__} raised "
                           f"{type(exc).__name__}: {_first_line(exc)}") from None
    if game is not None and not resolved.plays(game):
        games = ", ".join(getattr(cls, "games", ()))
        raise BotSpecError(f"bot spec {text!r}: {cls.__name__} plays {games}, not {game}")
    return resolved


def _command_bot(spec: str, game: str | None) -> BotSpec:
    """A bot that is a program (`cmd:...` or a folder with a `bot.toml`): nothing of it runs
    until its game starts."""
    command = command_spec(spec)
    resolved = BotSpec(spec, command.name, command_class(command), {}, str(command.folder))
    if game is not None and not resolved.plays(game):
        raise BotSpecError(f"bot spec {spec!r}: {command.name} plays "
                           f"{', '.join(command.games)}, not {game}")
    return resolved


def _names_file(where: str) -> bool:
    """Whether the part of a spec before the class name is a file path (not a module)."""
    return where.endswith(".py") or "/" in where or "\\" in where


def _split_params(text: str) -> tuple[str, str]:
    head, sep, tail = text.rpartition(":")
    if sep and "=" in tail:
        return head, tail
    if "=" in text and ":" not in text:
        raise BotSpecError(
            f"bot spec {text!r}: parameters follow a colon, e.g. 'forgetful:recall=0.6'")
    return text, ""


def _find_class(target: str, spec: str) -> tuple[type[Bot], str, str]:
    """The class a target names, its display name and where it comes from."""
    if ":" not in target:
        if _names_file(target) and Path(target).is_file():
            raise BotSpecError(f"bot spec {spec!r}: name the class: {target}:Class "
                               f"({_bot_classes_in(Path(target), spec)})")
        registered = {b.name: b for b in registered_bots()}
        if target not in registered:
            guess = did_you_mean(target, registered)
            known = "`arena bots` lists them" if guess else (
                "known: " + (", ".join(registered) or "none installed"))
            raise BotSpecError(f"bot spec {spec!r}: no registered bot {target!r} "
                               f"({guess}{known}); "
                               f"use 'package.module:Class' or 'path/file.py:Class'")
        bot = registered[target]
        cls = _check_bot_class(bot.load(), spec)
        return cls, target, f"{bot.distribution} ({bot.target})"
    where, _, class_name = target.rpartition(":")
    if not class_name.isidentifier():
        raise BotSpecError(f"bot spec {spec!r}: {class_name!r} is not a class name")
    if _names_file(where):
        module = _import_file(Path(where), spec)
        name, origin = escape(f"{Path(where).stem}:{class_name}"), escape(str(Path(where)))
    else:
        module = _import_module(where, spec)
        name, origin = f"{where}:{class_name}", where
    obj = getattr(module, class_name, None)
    if obj is None:
        found = _bot_classes(module)
        raise BotSpecError(f"bot spec {spec!r}: no class {class_name!r} in {where} "
                           f"({did_you_mean(class_name, found)}{_listed(found)})")
    return _check_bot_class(obj, spec), name, origin


def _bot_classes(module: Any) -> list[str]:
    """The bot classes a module defines (not those it imports)."""
    return [name for name, obj in vars(module).items()
            if inspect.isclass(obj) and issubclass(obj, Bot) and obj is not Bot
            and obj.__module__ == module.__name__]


def _listed(classes: list[str]) -> str:
    return (f"classes that are bots here: {', '.join(classes)}" if classes
            else "it defines no bot class: subclass arena.api.Bot")


def _bot_classes_in(path: Path, spec: str) -> str:
    """What a bot file given without a class holds: the bot classes it defines."""
    return _listed(_bot_classes(_import_file(path, spec)))


def _check_bot_class(obj: Any, spec: str) -> type[Bot]:
    if not (inspect.isclass(obj) and issubclass(obj, Bot)):
        what = obj.__name__ if inspect.isclass(obj) else type(obj).__name__ + " object"
        raise BotSpecError(f"bot spec {spec!r}: {what} is not a bot (subclass arena.api.Bot)")
    return obj


ARENA_PACKAGES = ("arena", "bots")
"""The arena's top-level packages a bot may import, imported before a bot's folder goes
on the import path: an editable install finds them after every folder of the path, where a
bot's `bots.py` would otherwise stand in for the bundled bots."""


def _import_file(path: Path, spec: str) -> Any:
    """Import a bot file as a module of a package of its folder's own, with that folder on the
    import path: its helpers import as `from helper import x` and as `from .helper import x`,
    in-process and sandboxed alike."""
    if not path.is_file():
        raise BotSpecError(f"bot spec {spec!r}: file {str(path)!r} not found")
    folder = str(path.resolve().parent)
    package = _folder_package(folder)
    module_name = f"{package}.{path.resolve().stem}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    loader_spec = importlib.util.spec_from_file_location(module_name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise BotSpecError(f"bot spec {spec!r}: cannot import {str(path)!r}")
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[module_name] = module
    if folder not in sys.path:  # last: a helper never hides a module of Python's or the arena's
        for package in ARENA_PACKAGES:  # nor one an editable install finds only after the path
            importlib.import_module(package)
        sys.path.append(folder)
    try:
        loader_spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:
        del sys.modules[module_name]
        raise BotSpecError(f"bot spec {spec!r}: importing {str(path)!r} raised "
                           f"{type(exc).__name__}: {_first_line(exc)}") from None
    return module


def _folder_package(folder: str) -> str:
    """The name of a package made for a bot's `folder` (its modules are that package's), made
    on first use."""
    package = f"arena_user_bot_{abs(hash(folder))}"
    if package not in sys.modules:
        found = importlib.machinery.ModuleSpec(package, None, is_package=True)
        found.submodule_search_locations = [folder]
        sys.modules[package] = importlib.util.module_from_spec(found)
    return package


def _import_module(name: str, spec: str) -> Any:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and name.startswith(exc.name):
            raise BotSpecError(f"bot spec {spec!r}: no module named {name!r}") from None
        raise BotSpecError(f"bot spec {spec!r}: importing {name!r} raised "
                           f"ModuleNotFoundError: {_first_line(exc)}") from None
    except (Exception, SystemExit) as exc:
        raise BotSpecError(f"bot spec {spec!r}: importing {name!r} raised "
                           f"{type(exc).__name__}: {_first_line(exc)}") from None


def _import_attribute(target: str, what: str) -> Any:
    module_name, _, attr = target.partition(":")
    module = _import_module(module_name, what)
    try:
        return getattr(module, attr)
    except AttributeError:
        raise BotSpecError(f"{what}: no {attr!r} in {module_name}") from None


def _bind_params(cls: type[Bot], text: str, spec: str) -> dict[str, Any]:
    if not text:
        return {}
    try:
        raw = parse_assignments(text, f"bot spec {spec!r}")
    except ValueError as exc:
        raise BotSpecError(str(exc)) from None
    init: Callable[..., Any] = cls.__init__
    accepted = {n: p for n, p in inspect.signature(init).parameters.items()
                if n != "self" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    hints = typing.get_type_hints(init)
    params: dict[str, Any] = {}
    for key, value in raw.items():
        name = key.replace("-", "_")
        if name not in accepted:
            known = ", ".join(accepted) or "none"
            raise BotSpecError(f"bot spec {spec!r}: {cls.__name__} has no parameter {key!r} "
                               f"(parameters: {known})")
        try:
            params[name] = parse_value(hints.get(name, str), value)
        except ValueError as exc:
            raise BotSpecError(f"bot spec {spec!r}: parameter {key!r}: {exc}") from None
    return params


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else ""
