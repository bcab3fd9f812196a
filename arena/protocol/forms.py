"""The line protocol's messages as JSON: what the arena sends (`start`, `act`, `end`) and what a
bot answers, read without trusting a byte of it."""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Mapping, Sequence
from typing import Any

from arena.api import GameInfo, Move, Observation, Remove, Result, Reveal
from arena.cards import Card
from arena.engine import plain_action
from arena.errors import ArenaError
from arena.text import escape

PROTOCOL_VERSION = 1
"""The protocol's version, sent with `start`; a change that breaks a bot raises it."""

LINE_LIMIT = 1 << 20
"""The longest line a bot may send, in bytes (its line end included)."""


class ProtocolError(ArenaError):
    """A bot's answer that breaks the protocol (its one-line detail says how)."""


def to_json(value: Any) -> Any:
    """A value a bot sees as JSON: a card as its short text (`10H`), an enum as its value, a
    tuple, list or range as an array, a mapping as an object, an event or other dataclass as an
    object of its fields (an event's `kind` first, and its `layout` kind if it has one).

    Converted by a function per type, made once (a decision's view and events are hundreds of
    values); `act`'s hot path writes its text directly instead (`act_line`)."""
    convert = _CONVERTERS.get(type(value))
    if convert is None:
        convert = _converter(type(value))
    return convert(value)


def _same(value: Any) -> Any:
    return value


def _items(value: Any) -> list[Any]:
    converters = _CONVERTERS
    out = []
    for item in value:
        convert = converters.get(type(item))
        out.append(item if convert is _same else to_json(item) if convert is None
                   else convert(item))
    return out


def _mapping(value: Mapping[Any, Any]) -> dict[str, Any]:
    return {str(to_json(key)): to_json(item) for key, item in value.items()}


def _unordered(value: Any) -> list[Any]:
    return _items(sorted(value, key=repr))


def _converter(cls: type) -> Any:
    """The function that converts values of `cls` (ValueError-free: TypeError if it has none)."""
    if issubclass(cls, bool | int | float | str) and not issubclass(cls, enum.Enum):
        convert: Any = _same if cls in (bool, int, float, str) else (
            lambda value: cls.__mro__[-2](value))  # a subclass: as its plain base
    elif cls is type(None):
        convert = _same
    elif issubclass(cls, Card):
        texts: dict[Card, str] = {}

        def convert(card: Card) -> str:
            text = texts.get(card)
            if text is None:
                text = texts[card] = str(card)
            return text
    elif issubclass(cls, enum.Enum):
        values = {member: to_json(member.value) for member in cls}
        convert = values.__getitem__
    elif issubclass(cls, tuple | list | range):
        convert = _items
    elif issubclass(cls, frozenset | set):
        convert = _unordered
    elif issubclass(cls, Mapping):
        convert = _mapping
    elif dataclasses.is_dataclass(cls):
        convert = _dataclass_converter(cls)
    else:
        raise TypeError(f"{cls.__name__} has no JSON form")
    _CONVERTERS[cls] = convert
    return convert


def _dataclass_converter(cls: type) -> Any:
    head: dict[str, Any] = {}
    kind = getattr(cls, "kind", None)
    if isinstance(kind, str):
        head["kind"] = kind
        layout = layout_kind(cls)
        if layout is not None and layout != kind:
            head["layout"] = layout
    names = tuple(f.name for f in dataclasses.fields(cls))

    def convert(value: Any) -> dict[str, Any]:
        out = dict(head)
        for name in names:
            out[name] = to_json(getattr(value, name))
        return out
    return convert


_CONVERTERS: dict[type, Any] = {int: _same, str: _same, bool: _same, float: _same,
                                type(None): _same}


def layout_kind(cls: type) -> str | None:
    """Which layout event (`reveal`, `remove`, `move`) an event class is a kind of, if any: a
    game's own event may be one (Concentration's `claim` removes cards), and then says so in a
    `layout` field, so that a bot's memory of the layout need not know every game's events."""
    for base in (Reveal, Remove, Move):
        if issubclass(cls, base):
            return base.kind
    return None


def seed_text(info: GameInfo) -> str:
    """The bot's own seed material, as hex: the bytes its Python rng is seeded with (a text seed
    as its UTF-8 bytes, which seed a `random.Random` as the text does), so that a bot in any
    language can seed a generator of its own from it (`random.Random(bytes.fromhex(seed))` is
    the rng a Python bot gets)."""
    material = getattr(info.rng, "seed_material", None)
    if isinstance(material, str):
        material = material.encode()
    if isinstance(material, bytes):
        return material.hex()
    return f"{info.rng.getrandbits(128):032x}"


def seed_words(seed: str) -> list[int]:
    """The 32-bit words (least significant first) that Python's `random.seed` hands the Mersenne
    Twister's `init_by_array` for seed bytes `seed` (hex): the material and its SHA-512, read as
    one big-endian integer. A bot that implements MT19937 gets, from these, the very numbers a
    Python bot's rng draws (`getrandbits(k)` is the next 32-bit output shifted right by 32-k)."""
    import hashlib

    material = bytes.fromhex(seed)
    number = int.from_bytes(material + hashlib.sha512(material).digest(), "big")
    words = []
    while True:
        words.append(number & 0xFFFFFFFF)
        number >>= 32
        if not number:
            return words


def start_message(info: GameInfo) -> dict[str, Any]:
    """The `start` message of a game."""
    seed = seed_text(info)
    return {"type": "start", "protocol": PROTOCOL_VERSION, "game": info.game,
            "variant": info.variant, "parameters": to_json(info.params), "seat": info.seat,
            "players": info.players, "seed": seed, "seed_words": seed_words(seed),
            "api_version": info.api_version}


def act_message(obs: Observation[Any]) -> dict[str, Any]:
    """The `act` message of a decision: legal actions (plain forms), events, the seat's view."""
    legal = obs.legal
    plain = legal if all(type(a) is int for a in legal) else [
        to_json(plain_action(a)) for a in legal]
    return {"type": "act", "seat": obs.seat, "legal": to_json(plain),
            "events": [to_json(e) for e in obs.events], "view": to_json(obs.view)}


def act_line(obs: Observation[Any]) -> bytes:
    """The `act` message of a decision as its line: `encode(act_message(obs))`, byte for byte,
    written directly (the arena's cost per decision of a program bot: less than building the
    message's objects first and encoding them)."""
    legal = obs.legal
    plain = legal if all(type(a) is int for a in legal) else [plain_action(a) for a in legal]
    return (_ACT % (obs.seat, _sequence(plain), _sequence(obs.events),
                    json_text(obs.view))).encode()


_ACT = '{"type":"act","seat":%d,"legal":%s,"events":%s,"view":%s}\n'


def json_text(value: Any) -> str:
    """A value as `to_json` makes it, written as compact JSON text (as `encode` writes it)."""
    write = _WRITERS.get(type(value))
    if write is None:
        write = _writer(type(value))
    return write(value)


def _sequence(value: Any) -> str:
    writers = _WRITERS
    parts = []
    for item in value:
        write = writers.get(type(item))
        parts.append(json_text(item) if write is None else write(item))
    return "[" + ",".join(parts) + "]"


def _string(value: str) -> str:
    text = _STRINGS.get(value)
    if text is None:
        text = _ENCODE(value)
        if len(_STRINGS) < _STRINGS_KEPT:
            _STRINGS[value] = text
    return text


_STRINGS: dict[str, str] = {}  # the strings of games' values (cards, enums' values) as JSON
_STRINGS_KEPT = 4096


def _writer(cls: type) -> Any:
    """The function that writes values of `cls` as JSON text (as `_converter` converts them)."""
    if cls is bool:
        write: Any = _bool
    elif cls is int:
        write = int.__repr__
    elif cls is str:
        write = _string
    elif cls is type(None):
        write = _null
    elif issubclass(cls, Card | enum.Enum):
        texts: dict[Any, str] = {}
        convert = _CONVERTERS.get(cls) or _converter(cls)

        def write(value: Any) -> str:
            text = texts.get(value)
            if text is None:
                text = texts[value] = json_text(convert(value))
            return text
    elif issubclass(cls, tuple | list | range):
        write = _sequence
    elif dataclasses.is_dataclass(cls):
        write = _dataclass_writer(cls)
    else:  # anything else as its converted form (a float, a set, a mapping, a subclass)
        convert = _CONVERTERS.get(cls) or _converter(cls)

        def write(value: Any) -> str:
            return _ENCODE(convert(value))
    _WRITERS[cls] = write
    return write


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _null(value: None) -> str:
    return "null"


def _dataclass_writer(cls: type) -> Any:
    head = ""
    kind = getattr(cls, "kind", None)
    if isinstance(kind, str):
        head = '"kind":' + _ENCODE(kind) + ","
        layout = layout_kind(cls)
        if layout is not None and layout != kind:
            head += '"layout":' + _ENCODE(layout) + ","
    names = [f.name for f in dataclasses.fields(cls)]
    keys = [("," if i else "") + _ENCODE(name) + ":" for i, name in enumerate(names)]
    pairs = tuple(zip(names, keys, strict=True))
    if not pairs:
        head = head.rstrip(",")

    def write(value: Any) -> str:
        writers = _WRITERS
        out = ["{", head]
        for name, key in pairs:
            item = getattr(value, name)
            write = writers.get(type(item))
            out.append(key)
            out.append(json_text(item) if write is None else write(item))
        out.append("}")
        return "".join(out)
    return write


_WRITERS: dict[type, Any] = {}


def end_message(result: Result) -> dict[str, Any]:
    """The `end` message of a game: scores and ranks by seat, the last events, the final tally."""
    return {"type": "end", "seat": result.seat, "scores": list(result.scores),
            "ranks": list(result.ranks), "events": [to_json(e) for e in result.events],
            "final": to_json(result.final)}


_ENCODE = json.JSONEncoder(separators=(",", ":")).encode  # made once: ASCII, no spaces


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as one line (ASCII: anything else escaped as JSON allows)."""
    return _ENCODE(message).encode() + b"\n"


def shown(line: bytes) -> str:
    """A bot's line as a short, safe excerpt for a fault's detail."""
    text = line.decode("utf-8", "replace").rstrip("\n")
    return escape(text if len(text) <= 40 else text[:37] + "...")


MAX_DEPTH = 64
"""The deepest an answer's arrays and objects may nest: no action or acknowledgement is nested
more than a few levels, and a deeper one would recurse through the arena's own code."""


def read_answer(line: bytes, op: str) -> Any:
    """A bot's answer line parsed: ProtocolError if it is not one JSON value (not UTF-8 among
    the reasons), or one nested deeper than `MAX_DEPTH`."""
    try:
        answer = json.loads(line)
    except UnicodeDecodeError as exc:
        raise ProtocolError(f"{op}: the bot's answer is not UTF-8: {shown(line)!r}") from exc
    except RecursionError as exc:
        raise ProtocolError(f"{op}: the bot's answer is nested deeper than {MAX_DEPTH} "
                            "levels") from exc
    except ValueError as exc:
        raise ProtocolError(f"{op}: the bot's answer is not JSON: {shown(line)!r}") from exc
    if deeper(answer, MAX_DEPTH):
        raise ProtocolError(f"{op}: the bot's answer is nested deeper than {MAX_DEPTH} levels")
    return answer


def deeper(value: Any, most: int) -> bool:
    """Whether `value` (parsed JSON) nests arrays and objects more than `most` levels deep;
    found without recursion."""
    level: list[Any] = [value]
    for _ in range(most + 1):
        inner: list[Any] = []
        for item in level:
            if isinstance(item, list):
                inner.extend(item)
            elif isinstance(item, dict):
                inner.extend(item.values())
        if not inner:
            return False
        level = inner
    return True


def answer_line(data: bytes, op: str) -> Any:
    """What a bot sent for one message (`data`: what was read, up to and including its first
    line end, or the whole if it has none) as one JSON value, checked: one line (not more, not
    unended, at most `LINE_LIMIT` bytes), JSON, and for `start` and `end` an object.
    ProtocolError, with a one-line detail, for anything else."""
    if data[-1:] != b"\n":
        if len(data) >= LINE_LIMIT:
            raise ProtocolError(f"{op}: the bot's answer is a line longer than "
                                f"{LINE_LIMIT >> 20} MB")
        raise ProtocolError(f"{op}: the bot's answer has no line end (its standard output was "
                            "closed after it)")
    if b"\n" in data[:-1]:
        raise ProtocolError(f"{op}: the bot sent more than one line (one answer a message; what "
                            "is not an answer goes to standard error)")
    answer = read_answer(data, op)
    if op != "act" and not isinstance(answer, dict):
        raise ProtocolError(f"{op}: the bot's acknowledgement is not a JSON object (send "
                            "{\"ok\": true})")
    return answer


def chosen_action(answer: Any, legal: Sequence[Any]) -> Any:
    """The action an `act` answer names: `{"index": N}` (or a bare N) is the Nth legal action;
    `{"action": A}` is A, a plain action as JSON (arrays as tuples), which the arena then checks
    is legal. ProtocolError for anything else."""
    if isinstance(answer, dict) and "index" in answer:
        answer = answer["index"]
    if isinstance(answer, int) and not isinstance(answer, bool):
        if not 0 <= answer < len(legal):
            raise ProtocolError(f"act: index {answer} is out of range "
                                f"({len(legal)} legal actions, 0 to {len(legal) - 1})")
        return legal[answer]
    if isinstance(answer, dict) and "action" in answer:
        return hashable(answer["action"])
    raise ProtocolError("act: the answer names no action (send {\"index\": N}, N, or "
                        "{\"action\": ...})")


def hashable(value: Any) -> Any:
    """JSON arrays as tuples, so that an action read from JSON compares as a plain action."""
    if isinstance(value, list):
        return tuple(hashable(item) for item in value)
    if isinstance(value, dict):
        raise ProtocolError("act: an action is never a JSON object")
    return value
