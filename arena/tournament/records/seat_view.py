"""The seat's-eye replay: a recorded game as one seat saw it, decision by decision.

A record holds the game, variant, deal seed and seating, not the moves, so the game is played
again (as `arena replay` does: the run's bots, isolation, limits and key) while one seat's bot
is listened to. At each of its decisions the observation the match loop handed it is kept: the
events it was shown since its last decision, its view of the table, its legal actions, and then
what it answered, with the time that decision took in the recorded game (the record's `times`;
older records have none). Between its decisions come the public events (what any spectator
sees), and at the end the recorded result and the seat's faults.

Everything is built as data first, frozen values that are JSON-able (`SeatView.to_json`), and
`seat_view_lines` renders them as text. Nothing here is taken from the game's state except
through what the seat was told (its observations and its result) and the public events, so the
seat's-eye view never shows what that seat could not see.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from arena.api import Bot, Event, Observation, Result
from arena.cards import Card
from arena.engine import State, legal_action, plain_action
from arena.text import escape
from arena.tournament.playing.tasks import _file_name
from arena.tournament.records.replay import Replayer, ReplayError, ReplayResult, opened
from arena.tournament.records.results import BOT_LOGS, CONFIG, GAMES

PLAIN_ITEMS = 10_000
"""At most this many items of one collection are kept in plain form (a view is small)."""


def plain(value: Any) -> Any:
    """A value a bot was given, as JSON-able data: cards as their short text (`10H`), enums as
    their values, events as their kind and fields, dataclasses (views) as their fields,
    tuples and sets as lists, mappings as objects with string keys; anything else as its
    escaped repr."""
    if value is None or isinstance(value, bool | int | str):
        return escape(value) if isinstance(value, str) else value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if isinstance(value, Event):
        return {"kind": value.kind, **{f.name: plain(getattr(value, f.name))
                                       for f in dataclasses.fields(value)}}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {escape(str(k)): plain(v) for k, v in list(value.items())[:PLAIN_ITEMS]}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value[:PLAIN_ITEMS]]
    if isinstance(value, set | frozenset):
        return sorted((plain(v) for v in list(value)[:PLAIN_ITEMS]), key=repr)
    return escape(repr(value))


def plain_observation(obs: Observation[Any]) -> dict[str, Any]:
    """An observation as data: its seat, events, view and legal actions (see `plain`)."""
    return {"seat": obs.seat, "events": plain(obs.events), "view": plain(obs.view),
            "legal": plain(obs.legal)}


@dataclass(frozen=True)
class Opening:
    """The game and the seat: who sits where, and whether the record timed its decisions."""

    task: int | None
    game: str
    variant: str
    seed: int
    seat: int
    seats: tuple[str, ...]
    timed: bool

    @property
    def name(self) -> str:
        """The bot in the seat."""
        return self.seats[self.seat]


@dataclass(frozen=True)
class PublicStep:
    """Public events between the seat's decisions, after `after` decisions of the game: as
    data and as a spectator's narration."""

    after: int
    events: tuple[Any, ...]
    lines: tuple[str, ...]

    kind: ClassVar[str] = "public"


@dataclass(frozen=True)
class Decision:
    """One of the seat's decisions: what it was shown, what it could do, what it answered, and
    how long it took in the recorded game (None: not recorded)."""

    number: int
    game_decision: int
    events: tuple[Any, ...]
    view: Any
    legal: tuple[Any, ...]
    answer: Any
    answer_text: str
    legal_answer: bool
    raised: str | None
    seconds: float | None

    kind: ClassVar[str] = "decision"

    def observation(self) -> dict[str, Any]:
        """The observation of this decision as `plain_observation` gives it (seat left out)."""
        return {"events": list(self.events), "view": self.view, "legal": list(self.legal)}


@dataclass(frozen=True)
class Ending:
    """How the game ended, from the record: scores and ranks of every seat, the events the
    seat was told with its result, the final summary, its faults and where its output is."""

    scores: tuple[Any, ...]
    ranks: tuple[Any, ...]
    events: tuple[Any, ...]
    final: Any
    faults: tuple[Mapping[str, Any], ...]
    log: str | None


@dataclass(frozen=True)
class SeatView:
    """A recorded game as one seat saw it: the opening, the steps in order (public events and
    the seat's decisions), the ending, and whether the replay reproduced the record."""

    opening: Opening
    steps: tuple[PublicStep | Decision, ...]
    ending: Ending
    differences: tuple[str, ...] = field(default=())

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """The seat's decisions, in order."""
        return tuple(s for s in self.steps if isinstance(s, Decision))

    @property
    def reproduced(self) -> bool:
        """Whether the replay gave the recorded result (so this is the recorded game)."""
        return not self.differences

    def to_json(self) -> dict[str, Any]:
        """The whole view as JSON-ready data; each step carries its `kind`."""
        return {"opening": {**dataclasses.asdict(self.opening), "name": self.opening.name},
                "steps": [{"kind": s.kind, **dataclasses.asdict(s)} for s in self.steps],
                "ending": dataclasses.asdict(self.ending),
                "reproduced": self.reproduced, "differences": list(self.differences)}


class _Listener:
    """Watches the replayed game: the public events as a spectator, and one seat's bot's calls."""

    def __init__(self, seat: int, names: Sequence[str], times: Sequence[float] | None) -> None:
        self.seat = seat
        # the narration tells seats apart by name: a name seated twice gets its seat number
        self.names = [f"{name}[{i}]" if list(names).count(name) > 1 else name
                      for i, name in enumerate(names)]
        self.times = times
        self.steps: list[PublicStep | Decision] = []
        self.done = 0  # decisions of the game so far (every seat's)
        self.pending: tuple[int, ...] = ()
        self.result: Result | None = None

    # -- the spectator's side (a match Watcher) --------------------------------------------------
    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        """The game starts: remember who decides first."""
        self.pending = state.to_act()

    def happened(self, state: State, events: Sequence[Event]) -> None:
        """Public events after the decisions of `pending`."""
        self.done += len(self.pending)
        self.pending = state.to_act()
        if events:
            lines = tuple(escape(part) for event in events
                          for line in state.narrate(event, self.names)
                          for part in line.split("\n"))
            self.steps.append(PublicStep(self.done, tuple(plain(e) for e in events), lines))

    # -- the seat's side -------------------------------------------------------------------------
    def tap(self, bots: Sequence[Bot]) -> None:
        """Listen to the seat's bot: its decisions and its result."""
        bot = bots[self.seat]
        act, end = bot.act, bot.end

        def listened_act(obs: Observation[Any]) -> Any:
            number = len(self.decisions()) + 1
            seat_index = self.pending.index(self.seat) if self.seat in self.pending else 0
            game_decision = self.done + seat_index + 1
            try:
                answer = act(obs)
            except BaseException as exc:
                self.steps.append(self._decision(obs, number, game_decision, None, exc))
                raise
            self.steps.append(self._decision(obs, number, game_decision, answer, None))
            return answer

        def listened_end(result: Result) -> None:
            self.result = result
            end(result)

        # the instance's own methods: the match loop still sees the bot's class (fault places)
        bot.act = listened_act  # type: ignore[method-assign]
        bot.end = listened_end  # type: ignore[method-assign]

    def decisions(self) -> list[Decision]:
        """The seat's decisions so far."""
        return [s for s in self.steps if isinstance(s, Decision)]

    def _decision(self, obs: Observation[Any], number: int, game_decision: int, answer: Any,
                  exc: BaseException | None) -> Decision:
        seen = plain_observation(obs)
        seconds = None
        if self.times is not None and number <= len(self.times):
            seconds = self.times[number - 1]
        if exc is not None:
            raised = escape(f"{type(exc).__name__}: {str(exc).strip().partition(chr(10))[0]}")
            return Decision(number, game_decision, tuple(seen["events"]), seen["view"],
                            tuple(seen["legal"]), None, "", False, raised, seconds)
        found = legal_action(obs.legal, answer)
        try:
            answered = plain(plain_action(answer))
        except Exception:  # no plain form (a bot's object of any kind): its repr tells
            answered = None
        return Decision(number, game_decision, tuple(seen["events"]), seen["view"],
                        tuple(seen["legal"]), answered, _repr(answer), found is not None, None,
                        seconds)


def seat_of(record: Mapping[str, Any], seat: str | int) -> int:
    """The seat a command line names in a record: a seat number, or the name of the bot in it
    (which must sit in one seat only)."""
    seats = [str(s) for s in record.get("seats") or ()]
    where = f"task {record['task']}" if isinstance(record.get("task"), int) else "the record"
    text = str(seat).strip()
    if text.lstrip("-").isdigit():
        number = int(text)
        if not 0 <= number < len(seats):
            raise ReplayError(f"{where}: no seat {number} (seats 0 to {len(seats) - 1}: "
                              f"{', '.join(map(escape, seats))})")
        return number
    held = [i for i, name in enumerate(seats) if name == text]
    if not held:
        raise ReplayError(f"{where}: no bot {escape(text)!r} at the table (seated: "
                          f"{', '.join(f'{i} {escape(n)}' for i, n in enumerate(seats))})")
    if len(held) > 1:
        raise ReplayError(f"{where}: {escape(text)!r} sits in seats "
                          f"{', '.join(map(str, held))}: say which with --seat N")
    return held[0]


def recorded_times(record: Mapping[str, Any], seat: int) -> tuple[float, ...] | None:
    """The seconds of each of a seat's decisions, as recorded (None when the record has no
    per-decision times, as records made before them do not, or they are not well formed)."""
    times = record.get("times")
    if not (isinstance(times, list) and len(times) == len(record.get("seats") or ())):
        return None
    mine = times[seat]
    if not (isinstance(mine, list) and all(type(t) is int and 0 <= t < 1 << 53 for t in mine)):
        return None
    return tuple(t / 1e6 for t in mine)


def seat_view_of(replayer: Replayer, record: Mapping[str, Any], seat: int,
                 run_dir: Path | None = None) -> SeatView:
    """Replay a record with `replayer` and return the game as `seat` saw it (`run_dir`: the
    run it comes from, where its bots' output logs are)."""
    seats = tuple(escape(str(s)) for s in record.get("seats") or ())
    if not 0 <= seat < len(seats):
        raise ReplayError(f"the record has no seat {seat}")
    times = recorded_times(record, seat)
    listener = _Listener(seat, seats, times)
    result: ReplayResult = replayer.replay(record, listener, listener.tap)
    task = record.get("task")
    opening = Opening(task if isinstance(task, int) else None, escape(str(record.get("game"))),
                      escape(str(record.get("variant"))), int(record.get("seed") or 0), seat,
                      seats, times is not None)
    faults = tuple(plain(f) for f in record.get("faults") or ()
                   if isinstance(f, Mapping) and f.get("seat") == seat)
    told = listener.result
    ending = Ending(tuple(plain(record.get("scores") or ())), tuple(plain(record.get("ranks")
                                                                        or ())),
                    tuple(plain(told.events)) if told is not None else (),
                    plain(record.get("final")), faults, _log_of(run_dir, record, seat))
    differences = tuple(line.strip() for line in result.lines()[2:])
    return SeatView(opening, tuple(listener.steps), ending, differences)


def seat_view(path: Path, task: int | None, seat: str | int, bots: Sequence[str] = (),
              config: Path | None = None) -> SeatView:
    """The seat's-eye replay of a game named as `arena replay` names it (a run directory and
    task, or a record file; `bots` and `config` as for `replay_path`), for a seat given by
    number or by the name of the bot in it."""
    with opened(path, task, bots, config) as (replayer, record):
        chosen = seat_of(record, seat)
        run_dir = path if path.is_dir() else (
            path.parent if path.name == GAMES and (path.parent / CONFIG).is_file() else None)
        return seat_view_of(replayer, record, chosen, run_dir)


def _log_of(run_dir: Path | None, record: Mapping[str, Any], seat: int) -> str | None:
    """The bot's output log in the run directory, if it has one (sandboxed bots do)."""
    if run_dir is None:
        return None
    log = run_dir / BOT_LOGS / f"{_file_name(str(record['seats'][seat]))}.log"
    return escape(str(log)) if log.is_file() and not log.is_symlink() else None


def _repr(value: Any, width: int = 200) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"a {type(value).__name__} whose repr fails"
    text = escape(text)
    return text if len(text) <= width else text[: width - 3] + "..."


# -- text ------------------------------------------------------------------------------------------

WIDTH = 100
"""Lines of the text rendering wrap at this width."""


def seat_view_lines(view: SeatView) -> list[str]:
    """The seat's-eye replay as text, for people."""
    out = opening_lines(view)
    for step in view.steps:
        out += step_lines(step, view)
    return out + ending_lines(view)


def opening_lines(view: SeatView) -> list[str]:
    """Which game, which seat, and whether the times were recorded."""
    o = view.opening
    where = f"task {o.task}: " if o.task is not None else ""
    others = ", ".join(f"{name} (seat {i})" for i, name in enumerate(o.seats) if i != o.seat)
    out = [f"{where}{o.game} / {o.variant}, seed {o.seed}",
           f"{o.name} in seat {o.seat} of {len(o.seats)}"
           + (f", against {others}" if others else "") + ": the game as it saw it"]
    if not o.timed:
        out.append("(time not recorded: this record has no per-decision times)")
    if not view.reproduced:
        out.append("WARNING: the replay differs from the record, so this is the replayed game, "
                   "not the recorded one:")
        out += [f"  {d}" for d in view.differences]
    return out


def step_lines(step: PublicStep | Decision, view: SeatView) -> list[str]:
    """One step: public events, or one of the seat's decisions."""
    if isinstance(step, PublicStep):
        return [f"  | {line}" for line in step.lines]
    took = ("time not recorded" if step.seconds is None else f"took {_seconds(step.seconds)}")
    out = ["", f"== its decision {step.number} (the game's {step.game_decision}), {took} =="]
    if step.events:
        out.append(f"events it was told since its last decision ({len(step.events)}):")
        out += [f"  {_event_text(e)}" for e in step.events]
    else:
        out.append("events it was told since its last decision: none")
    out.append("what it sees:")
    out += _fields(step.view)
    out += _wrapped(f"legal ({len(step.legal)}): ", [_short(a) for a in step.legal])
    if step.raised is not None:
        out.append(f"chose: nothing; act raised {step.raised}")
    elif step.legal_answer:
        out.append(f"chose: {_short(step.answer)}")
    else:
        out.append(f"chose: {step.answer_text}, which is not a legal action")
    return out


def ending_lines(view: SeatView) -> list[str]:
    """The recorded result, the events the seat was told with it, its faults and its log."""
    e, o = view.ending, view.opening
    scores = ", ".join(f"{name} {_short(score)}" for name, score
                       in zip(o.seats, e.scores, strict=False))
    out = ["", f"== the end: {scores} =="]
    if o.seat < len(e.ranks):
        out.append(f"{o.name} placed {_short(e.ranks[o.seat])} of {len(e.ranks)}")
    if e.events:
        out.append(f"events it was told with the result ({len(e.events)}):")
        out += [f"  {_event_text(ev)}" for ev in e.events]
    if e.final:
        out += _wrapped("final: ", [_short(e.final)])
    for fault in e.faults:
        out.append(f"fault at the game's decision {fault.get('decision')}: "
                   f"{fault.get('kind')}: {fault.get('detail')}")
    if e.log is not None:
        out.append(f"its output: {e.log}")
    elif e.faults:
        out.append("its output: none kept (in-process bots' tracebacks go to the run's log.txt)")
    out.append("reproduced: the replay gives the recorded result" if view.reproduced
               else "MISMATCH: the replay differs from the record (see the warning at the top)")
    return out


def _seconds(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def _short(value: Any) -> str:
    """A plain value in few characters: strings bare, the rest as compact JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "[" + " ".join(value) + "]"
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _event_text(event: Any) -> str:
    if isinstance(event, Mapping):
        kind = event.get("kind", "event")
        rest = " ".join(f"{k}={_short(v)}" for k, v in event.items() if k != "kind")
        return f"{kind}: {rest}" if rest else str(kind)
    return _short(event)


def _fields(view: Any) -> list[str]:
    if isinstance(view, Mapping):
        return [line for k, v in view.items() for line in _wrapped(f"  {k}: ", [_short(v)])]
    return _wrapped("  ", [_short(view)])


def _wrapped(head: str, items: Iterable[str]) -> list[str]:
    text = head + " ".join(items)
    return textwrap.wrap(text, WIDTH, subsequent_indent=" " * min(len(head), 8),
                         break_long_words=True, break_on_hyphens=False) or [head]
