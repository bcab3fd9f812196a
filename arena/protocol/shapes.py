"""Each game's JSON shapes for the line protocol (its parameters, view, events and actions),
read from the game's own definitions: the fields and type hints of its parameters, of the view
its state returns and of the events its `table` and `state` modules use, and the actions of a
seeded game. Adding a game documents it (docs/protocol.md holds the tables; a test checks them).
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import importlib
import inspect
import json
import types
import typing
from collections.abc import Iterator, Mapping
from typing import Any

from arena.api import Bot, Event, Observation
from arena.cards import Card
from arena.engine import Game, all_games, plain_action
from arena.protocol.forms import layout_kind, to_json

BEGIN = "<!-- shapes: written by `python scripts/protocol_shapes.py`; do not edit by hand -->"
END = "<!-- end of shapes -->"


def json_type(hint: Any) -> str:
    """A type hint as the JSON a bot reads."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is type(None):
        return "null"
    if origin in (typing.Union, types.UnionType):
        return " or ".join(json_type(arg) for arg in args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"[{json_type(args[0])}, ...]"
        return "[" + ", ".join(json_type(arg) for arg in args) + "]"
    if origin in (list, frozenset, set):
        return f"[{json_type(args[0])}, ...]" if args else "[...]"
    if origin is not None and isinstance(origin, type) and issubclass(origin, Mapping):
        return f"{{{json_type(args[0])}: {json_type(args[1])}}}" if args else "{...}"
    if hint is bool:
        return "bool"
    if hint is int:
        return "int"
    if hint is float:
        return "number"
    if hint is str:
        return "string"
    if hint is range:
        return "[int, ...]"
    if hint is Card:
        return "card"
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return " \\| ".join(f'"{member.value}"' if isinstance(member.value, str)
                           else str(member.value) for member in hint)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return f"{{{hint.__name__}}}"
    if hint is Any:
        return "any"
    return getattr(hint, "__name__", str(hint))


def fields_of(cls: type) -> list[tuple[str, str]]:
    """A dataclass's fields and their JSON types (class variables left out)."""
    hints = typing.get_type_hints(cls)
    return [(f.name, json_type(hints.get(f.name, Any))) for f in dataclasses.fields(cls)]


def _package(game: Game) -> str:
    return type(game).__module__.rpartition(".")[0] if type(game).__module__.count(".") > 2 \
        else type(game).__module__


def _modules(game: Game) -> list[Any]:
    found = []
    for part in ("table", "state"):
        with contextlib.suppress(ImportError):
            found.append(importlib.import_module(f"{_package(game)}.{part}"))
    return found


def event_types(game: Game) -> list[type[Event]]:
    """The events a game's `table` and `state` modules use, by kind."""
    found = {value for module in _modules(game) for value in vars(module).values()
             if inspect.isclass(value) and issubclass(value, Event) and value is not Event}
    return sorted(found, key=lambda cls: (cls.kind, cls.__name__))


def view_type(game: Game) -> type | None:
    """The class of the view a game's state gives a seat."""
    for module in _modules(game):
        for value in vars(module).values():
            if inspect.isclass(value) and value.__module__ == module.__name__ \
                    and "view" in vars(value):
                hint = typing.get_type_hints(value.view).get("return")
                if isinstance(hint, type):
                    return hint
    return None


def nested_types(cls: type) -> list[type]:
    """The dataclasses a dataclass's fields hold (not itself), depth first."""
    out: list[type] = []

    def visit(hint: Any) -> None:
        if isinstance(hint, type) and dataclasses.is_dataclass(hint) and hint is not Card \
                and hint not in out and hint is not cls:
            out.append(hint)
            for inner in typing.get_type_hints(hint).values():
                visit(inner)
        for arg in typing.get_args(hint):
            visit(arg)

    for hint in typing.get_type_hints(cls).values():
        visit(hint)
    return out


def action_shapes(game: Game, games: int = 3) -> list[tuple[str, Any]]:
    """The shapes of a game's actions as JSON (each with an example), from random games on
    seeds 0 upward at its default variant and smallest table of two or more."""
    from arena.match import play_game

    shapes: dict[str, Any] = {}

    class Sampler(Bot):
        def act(self, obs: Observation[Any]) -> Any:
            for action in obs.legal:
                plain = to_json(plain_action(action))
                shapes.setdefault(_shape(plain), plain)
            return obs.legal[self.rng.randrange(len(obs.legal))]

    variant = game.variant()
    allowed = variant.params.players_allowed()
    players = max(allowed.start, 2) if allowed.stop > 2 else allowed.start
    for seed in range(games):
        play_game(variant, [Sampler() for _ in range(players)],
                  [f"s{i}" for i in range(players)], seed, luck=False)
    return sorted(shapes.items())


def _shape(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "[" + ", ".join(_shape(item) for item in value) + "]"
    return type(value).__name__


def game_section(game: Game) -> Iterator[str]:
    """A game's shapes as Markdown."""
    yield f"### {game.name}"
    yield ""
    yield f"Parameters (`start`'s `parameters`, presets: {', '.join(game.presets)}):"
    yield ""
    yield "| parameter | JSON |"
    yield "|---|---|"
    for name, shape in fields_of(game.params_type):
        yield f"| `{name}` | {shape} |"
    view = view_type(game)
    if view is not None:
        yield ""
        yield f"The view (`act`'s `view`, `{view.__name__}`):"
        yield ""
        yield "| field | JSON |"
        yield "|---|---|"
        for name, shape in fields_of(view):
            yield f"| `{name}` | {shape} |"
        for inner in nested_types(view):
            yield ""
            yield f"`{{{inner.__name__}}}`:"
            yield ""
            yield "| field | JSON |"
            yield "|---|---|"
            for name, shape in fields_of(inner):
                yield f"| `{name}` | {shape} |"
    yield ""
    yield ("Events (in `act`'s and `end`'s `events`; every one has `kind` and `seat`, an int "
           "or null for the table):")
    yield ""
    yield "| kind | layout | fields |"
    yield "|---|---|---|"
    for cls in event_types(game):
        shown = ", ".join(f"`{name}`: {shape}" for name, shape in fields_of(cls)
                          if name != "seat")
        layout = layout_kind(cls)
        yield f"| `{cls.kind}` | {layout if layout and layout != cls.kind else ''} | {shown} |"
    yield ""
    yield ("Actions (`act`'s `legal`; the shapes seen in three seeded random games, each with "
           "an example):")
    yield ""
    yield "| shape | example |"
    yield "|---|---|"
    for shape, example in action_shapes(game):
        yield f"| {shape} | `{json.dumps(example)}` |"


def shapes_markdown() -> str:
    """Every game's shapes, as docs/protocol.md holds them between `BEGIN` and `END`."""
    lines = [BEGIN, ""]
    for game in all_games():
        lines += list(game_section(game))
        lines.append("")
    lines.append(END)
    return "\n".join(lines) + "\n"
