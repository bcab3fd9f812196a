"""Fast building and pickling of the frozen values made on every decision (observations, views,
events), which the match loop and the sandbox handle by the million.

A frozen dataclass's generated `__init__` assigns each field through `object.__setattr__`, which
is slow enough to matter here. `maker(cls)` returns a function that builds the same, equally
frozen, instance by writing each slot through its descriptor. It takes every field positionally,
in declaration order, and runs no `__post_init__`; use it only where the arguments are known to be
right. `FastPickle` (a mixin) and `enum_by_name` make such values cheap to send to a sandboxed bot.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def maker(cls: type[T]) -> Callable[..., T]:
    """A positional constructor for the frozen slotted dataclass `cls`."""
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    if not names or getattr(cls, "__post_init__", None) is not None:
        raise TypeError(f"{cls.__name__} needs its own __init__")
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    namespace.update({f"set_{n}": getattr(cls, n).__set__ for n in names})
    lines = [f"def make({', '.join(names)}):", "    obj = new(cls)"]
    lines += [f"    set_{n}(obj, {n})" for n in names]
    lines.append("    return obj")
    exec("\n".join(lines), namespace)  # the same technique dataclasses uses for __init__
    made: Callable[..., T] = namespace["make"]
    made.__doc__ = f"Build a {cls.__name__} from all its fields, in order."
    return made


_MAKERS: dict[type, Callable[..., Any]] = {}
_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    return names


def rebuild(cls: type[T], values: tuple[Any, ...]) -> T:
    """Unpickle a FastPickle value: build it from its field values."""
    make = _MAKERS.get(cls)
    if make is None:
        make = _MAKERS[cls] = maker(cls)
    return make(*values)  # type: ignore[no-any-return]


class FastPickle:
    """Mixin for frozen slotted dataclasses sent to sandboxed bots on every decision: pickles as
    its field values, several times faster than the default for slotted dataclasses."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        cls = type(self)
        return rebuild, (cls, tuple([getattr(self, n) for n in _field_names(cls)]))


def enum_by_name(member: Any, protocol: int) -> str:
    """`__reduce_ex__` for enums sent on every decision: pickled as their qualified global name
    (one lookup to unpickle, instead of a call through the enum's metaclass)."""
    return f"{type(member).__qualname__}.{member.name}"
