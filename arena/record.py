"""What a finished game leaves behind: the game record and the faults in it."""

from __future__ import annotations

import enum
import json
import os
import sys
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arena.engine import ScoreOrder


class FaultKind(enum.Enum):
    """How a bot misbehaved."""

    EXCEPTION = "exception"
    ILLEGAL = "illegal"
    MALFORMED = "malformed"
    TIMEOUT = "timeout"
    CRASH = "crash"
    MEMORY = "memory"


class BotFault(Exception):
    """Raised by a bot stand-in (such as a sandboxed bot) to report how its bot misbehaved."""

    def __init__(self, kind: FaultKind, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


def exception_detail(exc: BaseException, method: str, bot: type | None) -> str:
    """The one-line detail of what a bot's `method` raised: its type, the first line of its
    message, and where in the bot's own files it was raised (`file.py:LINE in act`; not known
    without the bot's class)."""
    text = str(exc).strip().split("\n")  # a line as a record's is: "\r" and U+2028 are escaped
    described = f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
    place = None if bot is None else bot_place(exc, bot)
    return f"{method} raised {described}" + (f" (at {place})" if place else "")


def bot_place(exc: BaseException, bot: type) -> str | None:
    """`file.py:LINE in function` of the innermost frame of `exc`'s traceback in the bot's own
    files (those beside the file of its class, libraries installed there left out); None if no
    frame is."""
    module = sys.modules.get(bot.__module__)
    where = getattr(module, "__file__", None)
    if not where:
        return None
    root = os.path.join(os.path.dirname(os.path.realpath(where)), "")
    found = None
    for frame in traceback.extract_tb(exc.__traceback__):
        path = os.path.realpath(frame.filename)
        if path.startswith(root) and "site-packages" not in path[len(root):].split(os.sep):
            found = f"{os.path.basename(path)}:{frame.lineno} in {frame.name}"
    return found


@dataclass(frozen=True, slots=True)
class Fault:
    """A bot's misbehaviour: which seat, at which decision, what kind, and a one-line detail."""

    seat: int
    decision: int
    kind: FaultKind
    detail: str

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"seat": self.seat, "decision": self.decision, "kind": self.kind.value,
                "detail": self.detail}


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game: enough to identify it, replay it, and rate the seats."""

    game: str
    variant: str
    seed: int
    seats: tuple[str, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    turns: int
    faults: tuple[Fault, ...]
    final: Mapping[str, Any]
    duration: float | None = None
    teams: tuple[tuple[int, ...], ...] | None = None
    order: ScoreOrder = ScoreOrder.HIGHER_WINS
    times: tuple[tuple[float, ...], ...] | None = None
    """Per seat, the seconds each of its bot's decisions took (its `act` calls, in order; none
    once it forfeits); timings like `duration`, so kept out of the record unless asked for."""
    luck: tuple[float, ...] | None = None
    """Per seat, the luck the game's chance gave it (arena/luck/), in score units; None where the
    game has no luck model or its value function failed."""
    luck_model: str | None = None
    """The id of the luck model (`name/version`) that gave `luck`."""

    def to_json(self, timings: bool = False) -> dict[str, Any]:
        """A JSON-ready dict with fixed key order; `duration` and the per-decision `times` (in
        whole microseconds) only when `timings` is asked for."""
        out: dict[str, Any] = {
            "game": self.game,
            "variant": self.variant,
            "seed": self.seed,
            "seats": list(self.seats),
            "scores": [_number(s) for s in self.scores],
            "ranks": list(self.ranks),
            "order": self.order.value,
            "turns": self.turns,
            "faults": [f.to_json() for f in self.faults],
            "final": dict(self.final),
        }
        if self.teams is not None:
            out["teams"] = [list(team) for team in self.teams]
        if self.luck is not None:
            out["luck"] = [_number(v) for v in self.luck]
            out["luck_model"] = self.luck_model
        if timings and self.times is not None:
            out["times"] = [[round(t * 1e6) for t in seat] for seat in self.times]
        if timings and self.duration is not None:
            out["duration"] = round(self.duration, 6)
        return out

    def to_line(self, timings: bool = False) -> str:
        """The record as one compact JSON line."""
        return json.dumps(self.to_json(timings), separators=(",", ":"), ensure_ascii=False)


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value
