"""Typed values from text: how `key=value` parameters on the command line become Python values."""

from __future__ import annotations

import enum
import types
import typing
from typing import Any


def parse_value(kind: Any, text: str) -> Any:
    """Parse `text` as `kind` (bool, int, float, str, an enum, or X | None), else ValueError."""
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        if text.strip().lower() in ("none", ""):
            return None
        kind = next(a for a in typing.get_args(kind) if a is not type(None))
    if kind is bool:
        low = text.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"{text!r} is not true or false")
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        try:
            return kind(text.strip().lower())
        except ValueError:
            allowed = ", ".join(str(m.value) for m in kind)
            raise ValueError(f"{text!r} is not one of {allowed}") from None
    if kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a valid {kind.__name__}") from None
    if kind in (str, Any, typing.Any) or kind is None:
        return text
    raise ValueError(f"parameters of type {kind!r} cannot be given as text")


def parse_assignments(text: str, where: str) -> dict[str, str]:
    """Split 'a=1,b=x' into {'a': '1', 'b': 'x'}; ValueError naming `where` if a part has no '='."""
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"{where}: {part!r} is not key=value")
        out[key.strip()] = value.strip()
    return out
