"""Plain words for any game: values, views and events drawn from their fields, for games
without a drawing of their own (and for parts of those that have one)."""

from __future__ import annotations

import dataclasses
import enum
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from arena.api import Event
from arena.cards import Card

WIDTH = 78
"""Lines for a person are wrapped to this many columns."""


def wrap(text: str, indent: str = "", width: int = WIDTH) -> list[str]:
    """The text in lines of at most `width` columns, continuation lines indented further."""
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent + "  ",
                         break_on_hyphens=False, break_long_words=False) or [indent.rstrip()]


def value_text(value: Any) -> str:
    """A readable form of a view or event value: cards as codes, enums by value, ranges."""
    if isinstance(value, Card):
        return str(value)
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, range):
        return f"{value.start}-{value.stop - 1}" if value else "-"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {value_text(v)}" for k, v in value.items()) or "-"
    if isinstance(value, tuple | list):
        if not value:
            return "-"
        if all(isinstance(v, Card) for v in value):
            return " ".join(map(str, value))
        if all(isinstance(v, tuple | list) for v in value):
            return " | ".join(value_text(v) for v in value)
        return ", ".join(value_text(v) for v in value)
    return str(value)


def label(name: str) -> str:
    """A field name as words: 'last_trick' -> 'last trick'."""
    return name.replace("_", " ")


def view_lines(view: Any) -> list[str]:
    """Every field of a view dataclass on a line of its own (or the view's text)."""
    if not dataclasses.is_dataclass(view) or isinstance(view, type):
        return wrap(value_text(view))
    shown = [(label(f.name), value_text(getattr(view, f.name))) for f in dataclasses.fields(view)]
    width = max((len(name) for name, _ in shown), default=0)
    lines: list[str] = []
    for name, text in shown:
        lines += wrap(f"{name:>{width}}: {text}", indent="  ")
    return lines


def event_text(event: Event, names: Sequence[str]) -> str:
    """One line for any event: who, what kind, and its other fields."""
    data = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}
    seat = data.pop("seat", None)
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "the table"
    parts = ", ".join(f"{label(k)} {value_text(v)}" for k, v in data.items())
    return f"{who}: {event.kind}" + (f" ({parts})" if parts else "")


def action_text(action: Any) -> str:
    """An action as words: tuples joined by spaces ('play 7H'), enums by value, cards by code."""
    if isinstance(action, tuple):
        return " ".join(action_text(a) for a in action if a != ()) or "-"
    if isinstance(action, enum.Enum):
        return str(action.value)
    return str(action)


def columns(items: Sequence[str], width: int = WIDTH, indent: str = "  ") -> list[str]:
    """Short items laid out in as many columns as fit the width, filled row by row."""
    if not items:
        return []
    cell = max(len(i) for i in items) + 3
    per_row = max(1, (width - len(indent)) // cell)
    return [indent + "".join(i.ljust(cell) for i in items[r:r + per_row]).rstrip()
            for r in range(0, len(items), per_row)]
