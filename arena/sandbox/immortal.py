"""Immortal objects before a fork: a process whose children only read its objects' reference
counts need not have them written, and so copied, page by page, in every child.

CPython writes an object's reference count each time a reference to it is taken or dropped, so a
forked process that merely runs a function copies (on write) the pages of the function, its code,
its module's dictionary and every constant it touches. From Python 3.12, objects can be immortal
(PEP 683, made for this case): their counts are never written. The interpreter makes only its own
objects immortal; `immortalize` makes those of a process that forks them so, where the running
interpreter's object layout is known (CPython 3.12 and 3.13 with the GIL, 64-bit).

An immortal object is never freed, nor is what it refers to. So an object stays mortal if it
holds a resource that must be released when its last reference goes (its type finalizes it, as
a socket, a file, a generator or a subprocess does; a memory map; a frame), or refers to such an
object directly. What only refers to one through another object is kept for good: call this
where nothing of that kind is meant to be dropped later.
"""

from __future__ import annotations

import ctypes
import functools
import gc
import sys
import types
from typing import Any

_IMMORTAL = 0xFFFFFFFF  # the reference count CPython 3.12 and 3.13 give immortal objects (64-bit)


def supported() -> bool:
    """Whether this interpreter's immortal objects are known to `immortalize`."""
    if not (sys.implementation.name == "cpython" and (3, 12) <= sys.version_info[:2] <= (3, 13)
            and sys.maxsize > 2 ** 32):
        return False
    import sysconfig  # here, not in every host: only where immortal objects exist

    return not sysconfig.get_config_var("Py_GIL_DISABLED") and _works()


def _works() -> bool:
    """A new object, made immortal, keeps its reference count when references come and go."""
    probe = [object()]  # a new object: only its own count is written
    _make_immortal(probe)
    before = sys.getrefcount(probe)
    more = [probe, probe]
    after = sys.getrefcount(probe)
    del more
    return before == after == sys.getrefcount(probe)


def _make_immortal(value: Any) -> None:
    ctypes.c_ssize_t.from_address(id(value)).value = _IMMORTAL


def holds_resource(value: Any) -> bool:
    """Whether `value` must be freed when its last reference goes (see the module's docstring)."""
    return _is_resource_kind(type(value))


@functools.cache
def _is_resource_kind(kind: type) -> bool:
    return hasattr(kind, "__del__") or issubclass(kind, _released_without_finalizer())


@functools.cache
def _released_without_finalizer() -> tuple[type, ...]:
    """Types that release a resource when freed, with no finalizer to show it."""
    import mmap
    import select

    kinds = (types.FrameType, mmap.mmap, getattr(select, "epoll", None),
             getattr(select, "kqueue", None))
    return tuple(kind for kind in kinds if kind is not None)


def immortalize() -> int:
    """Make immortal every object this process holds, but those that hold a resource or refer
    to one directly; how many were made so (0 where `supported()` is false). For a process about
    to fork children that share its objects: call it last, after `gc.freeze()`."""
    if not supported():
        return 0
    pending: list[Any] = gc.get_objects()
    pending.extend(sys.modules.values())
    seen: set[int] = set()
    made = 0
    while pending:
        value = pending.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if type(value) is types.CodeType:  # code is not tracked by the collector, nor its parts
            referents = [value.co_consts, value.co_names, value.co_filename, value.co_name,
                         value.co_qualname, value.co_linetable, value.co_exceptiontable]
        else:
            referents = gc.get_referents(value)
        if not (holds_resource(value) or any(map(holds_resource, referents))):
            _make_immortal(value)
            made += 1
        pending.extend(referents)
    return made
