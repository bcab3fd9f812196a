"""A game as steps for the replay page: what the table shows and what each seat sees after the
deal and after every action, with the narration of each step.

`StepRecorder` is a match watcher: given to `play_game` (or to a replay), it keeps, per step,
the public events and their narration, the seats that acted, and the views: each seat's view is
the game's own `view(seat)` (what the rules let that seat know, as its bot was shown it) and the
events told to that seat alone; the table's view (the spectator's) keeps only the fields on
which every seat's view agrees, so it holds nothing any seat could not see (at a table of
one, it is that seat's). Views are stored as fields pointing into a pool of distinct values
(`pool`), each view once (`shapes`), and events (in `pool` too) and narration lines (`texts`)
once each, which keeps a long game small.

Each step also lists the decisions taken at it (`decisions`: one `[seat, legal, choice]` per
seat to act): the seat's legal actions (a pool index: a list of plain actions, or for a list
of numbers, as Concentration's positions are, a text of ranges such as `0-12 14 16-51`), and
the place of its choice among them (told by the match through `decided`; -1 until then).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.api import Event
from arena.engine import Action, State, plain_action
from arena.tournament.records.seat_view import plain

TABLE = 0
"""The place of the spectator's view in a step's views (seat N's is N + 1)."""


@dataclass
class Pool:
    """Distinct JSON values, each stored once and referred to by its index.

    A list that differs from an earlier one of the same length in few places is stored as a
    patch: `values` holds None at its index and `patches` the index of the earlier list and
    the changed places (`[[place, value], ...]`), as a layout of cards changes turn by turn."""

    values: list[Any] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)
    patches: dict[str, list[Any]] = field(default_factory=dict)
    whole: list[Any] = field(default_factory=list)  # every value in full, patched or not

    def ref(self, value: Any, like: int | None = None) -> int:
        """The index of `value` in the pool (added if new; patched from the list at `like`
        when that is shorter)."""
        key = json.dumps(value, sort_keys=True, separators=(",", ":"))
        found = self.index.get(key)
        if found is not None:
            return found
        found = self.index[key] = len(self.values)
        self.whole.append(value)
        base = self.whole[like] if like is not None else None
        if isinstance(value, list) and isinstance(base, list) and len(base) == len(value) > 8:
            changed = [[i, v] for i, (v, b) in enumerate(zip(value, base, strict=True)) if v != b]
            if len(changed) * 4 < len(value):
                self.values.append(None)
                self.patches[str(found)] = [like, changed]
                return found
        self.values.append(value)
        return found


@dataclass
class StepRecorder:
    """A match watcher that keeps the game as steps (see the module's docstring)."""

    pool: Pool = field(default_factory=Pool)
    shapes: Pool = field(default_factory=Pool)
    texts: Pool = field(default_factory=Pool)
    steps: list[dict[str, Any]] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    players: int = 0
    pending: tuple[int, ...] = ()
    told: int = 0  # events of the log looked at so far, for the private ones
    legal: dict[int, Sequence[Action]] = field(default_factory=dict)  # of the seats to act

    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        """The first step: the table as dealt."""
        self.names = [str(n) for n in names]
        self.players = len(names)
        lines = [line for text in state.narrate_deal() for line in str(text).split("\n")]
        public = [e for i, e in enumerate(state.log) if i not in state.private]
        self._step(state, (), public, lines)

    def happened(self, state: State, events: Sequence[Event]) -> None:
        """A step after each action (or joint action): its public events and narration."""
        acted = self.pending
        lines = [line for event in events for text in state.narrate(event, self.names)
                 for line in str(text).split("\n")]
        self._step(state, acted, events, lines)

    def _step(self, state: State, acted: tuple[int, ...], events: Sequence[Event],
              lines: list[str]) -> None:
        views: list[int] = []
        seen: list[Mapping[str, Any] | None] = []
        for seat in range(self.players):
            try:
                view = plain(state.view(seat))
            except Exception:  # a game may not describe a seat's view once it is over
                view = None
            if not isinstance(view, Mapping):
                view = {"view": view} if view is not None else None
            seen.append(view)
        table = _common([v for v in seen if v is not None]) if any(seen) else {}
        views.append(self._view(table, 0))
        private: dict[str, list[Any]] = {}
        for seat, view in enumerate(seen):
            if view is not None:
                views.append(self._view(view, seat + 1))
            elif self.steps:  # keep what it last saw
                views.append(self.steps[-1]["views"][seat + 1])
            else:
                views.append(self._view({}, seat + 1))
            mine = [plain(state.log[i]) for i in range(self.told, len(state.log))
                    if i in state.private and seat in state.private[i]]
            if mine:
                private[str(seat)] = [self.pool.ref(e) for e in mine]
        self.told = len(state.log)
        self.pending = state.to_act()
        self.legal = {seat: state.legal(seat) for seat in self.pending}
        decisions = [[seat, self.pool.ref(legal_form(self.legal[seat])), -1]
                     for seat in self.pending]
        self.steps.append({"acted": list(acted), "next": list(self.pending),
                           "events": [self.pool.ref(plain(e)) for e in events],
                           "lines": [self.texts.ref(plain(x)) for x in lines],
                           "views": views, "told": private, "decisions": decisions})

    def decided(self, seat: int, action: Action) -> None:
        """A seat's choice at the last step (see `arena.match.DECIDED`): its place among its
        legal actions is kept."""
        legal = self.legal.get(seat, ())
        place = next((i for i, a in enumerate(legal) if a is action), None)
        if place is None:
            place = next((i for i, a in enumerate(legal) if a == action), -1)
        for decision in self.steps[-1]["decisions"]:
            if decision[0] == seat:
                decision[2] = place

    def _view(self, view: Mapping[str, Any], key: int) -> int:
        """A view as the index (in `shapes`) of its fields' indexes in the value pool (a list
        field patched from the same view's field at the step before, where that is shorter)."""
        before = self.shapes.whole[self.steps[-1]["views"][key]] if self.steps else {}
        return self.shapes.ref({k: self.pool.ref(v, before.get(k)) for k, v in view.items()})


def legal_form(legal: Sequence[Action]) -> Any:
    """A decision's legal actions as the page keeps them: plain actions (see `plain_action`),
    or, when they are all numbers (ascending, none negative), a text of their runs
    (`0-12 14 16-51`), much shorter for the dozens of positions of a layout."""
    plains = [plain(plain_action(a)) for a in legal]
    if not plains or not all(type(p) is int and p >= 0 for p in plains) \
            or plains != sorted(set(plains)):
        return plains
    runs: list[str] = []
    start = prev = plains[0]
    for number in [*plains[1:], None]:
        if number is not None and number == prev + 1:
            prev = number
            continue
        runs.append(str(start) if start == prev else f"{start}-{prev}")
        if number is not None:
            start = prev = number
    return " ".join(runs)


def legal_actions(form: Any) -> list[Any]:
    """A decision's legal actions (plain) from the form `legal_form` keeps them in."""
    if not isinstance(form, str):
        return list(form)
    out: list[Any] = []
    for run in form.split(" "):
        first, _, last = run.partition("-")
        out += range(int(first), int(last or first) + 1)
    return out


def _common(views: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The fields on which every view agrees (what the whole table may see)."""
    first = views[0]
    return {k: v for k, v in first.items() if all(k in o and o[k] == v for o in views[1:])}
