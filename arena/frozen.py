"""Fast construction of frozen slotted dataclasses on hot paths (observations, views, events).

A frozen dataclass's generated `__init__` assigns each field through `object.__setattr__`, which
is slow enough to matter when a value is built for every decision of every game. `maker(cls)`
returns a function that builds the same, equally frozen, instance by writing each slot through
its descriptor. It takes every field positionally, in declaration order, and runs no
`__post_init__`; use it only where the arguments are known to be right.
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
