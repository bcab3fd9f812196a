"""What the arena sends a sandboxed bot's game process: pickles with one memo per game, so what
was sent once (a card, an unchanged layout) travels again as a reference.

The arena only ever pickles here (the bot process is the party that unpickles trusted data); what
a bot answers is JSON, read by `arena.sandbox`.
"""

from __future__ import annotations

import array
import copyreg
import io
import operator
import pickle
import random
from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from arena.api import GameInfo, Result
from arena.frozen import FastPickle, rebuild
from arena.match import BotRandom


class Outbox:
    """The arena's messages to one game process: each a pickle, with one memo for the whole game
    (what was sent once, such as a card or an unchanged layout, is sent again as a reference).

    This relies on what bots receive being immutable values, as the player API promises.
    """

    __slots__ = ("_buffer", "_pickler")

    def __init__(self) -> None:
        self._buffer = io.BytesIO()
        self._pickler = pickle.Pickler(self._buffer, pickle.HIGHEST_PROTOCOL)
        self._pickler.dispatch_table = _DISPATCH

    def pack(self, op: str, payload: Any) -> bytes:
        """The message `(op, payload)`, pickled."""
        buffer = self._buffer
        self._pickler.dump((op, payload))
        data = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return data


def rng_from_state(version: int, words: bytes, gauss: float | None) -> random.Random:
    """Unpickle a bot's rng from its state, its 625 words packed as bytes.

    A `random.Random` pickles by default as a call that seeds it from the operating system
    first, only to overwrite that, and its state as 625 separate integers: several times slower
    to send and to read, once for every sandboxed bot in every game.
    """
    rng = random.Random(0)
    rng.setstate((version, tuple(array.array("I", words)), gauss))
    return rng


def _rng_reduce(rng: random.Random) -> tuple[Any, ...]:
    version, words, gauss = rng.getstate()
    return rng_from_state, (version, array.array("I", words).tobytes(), gauss)


class _Reducers(dict[type, Any]):
    """The picklers' dispatch table: `copyreg`'s, a bot's rng, and for the frozen values sent on
    every decision (`FastPickle`) the same reduction as their own, made a little faster. Every
    other class gets its own `__reduce_ex__` from here, the pickler's fallback, so that its first
    value in each game (a card, say) costs no KeyError."""

    def __missing__(self, cls: type) -> Any:
        if issubclass(cls, type):  # a class whose metaclass is not `type`: pickled by its name
            raise KeyError(cls)
        if not issubclass(cls, FastPickle):
            self[cls] = _OWN_REDUCTION
            return _OWN_REDUCTION
        names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
        get = operator.attrgetter(*names)
        if len(names) == 1:
            reduce = lambda value: (rebuild, (cls, (get(value),)))  # noqa: E731
        else:
            reduce = lambda value: (rebuild, (cls, get(value)))  # noqa: E731
        self[cls] = reduce
        return reduce


_OWN_REDUCTION = operator.methodcaller("__reduce_ex__", pickle.HIGHEST_PROTOCOL)
_DISPATCH = _Reducers({**copyreg.dispatch_table, random.Random: _rng_reduce})


def start_payload(info: GameInfo) -> GameInfo:
    """What a game process gets with `start` (read-only mappings do not pickle): a bot's rng,
    not drawn from yet, as what it was seeded with (32 bytes, not a state of 2.5 kB)."""
    rng: Any = info.rng
    if type(rng) is BotRandom:
        rng = _Unused(rng.seed_material)
    return replace(info, params=_thawed(info.params), rng=rng)


class _Unused:
    """A bot's rng at the start of a game, which unpickles as a new one from the same seed."""

    __slots__ = ("seed",)

    def __init__(self, seed: str | bytes) -> None:
        self.seed = seed

    def __reduce__(self) -> tuple[Any, ...]:
        return BotRandom, (self.seed,)


def end_payload(result: Result) -> Result:
    """What a game process gets with `end`."""
    return replace(result, final=_thawed(result.final))



def _thawed(value: Any) -> Any:
    """Read-only mappings (which do not pickle) as plain dicts, recursively."""
    if isinstance(value, Mapping):
        return {k: _thawed(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(_thawed(v) for v in value)
    return value
