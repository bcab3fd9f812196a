"""A person's seat at a table in the browser, without the web: what the page is sent and what it
answers, as queues of JSON-able messages.

`Table` watches the game (a match watcher) and keeps, for each person's seat, an outbox of
messages: `hello` (the game and the seats), one `step` after the deal and after every action
(that seat's own view, as its bot would be given it, `view(seat)`; the public events and their
narration; the events told to that seat alone; who moved and who is to move), `act` when the
seat decides (its legal moves in plain form) and `over` when a game ends. Nothing else of the
game's state is ever put in a message. `PersonSeat` is the bot in that seat: at each decision it
waits for the page's answer (the place of a legal move), or for the person leaving (the tab
closed, Ctrl-C), which it raises as `SeatLeft` so the match records the seat's quit as a fault.
The web server (`arena/table/server.py`) only carries these messages.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.api import Bot, Event, GameInfo, Observation, Result
from arena.engine import State, plain_action
from arena.tournament.records.seat_view import plain

WAIT = 0.1
"""Seconds between looks at a seat's answers while it decides (Ctrl-C is seen within this)."""


class SeatLeft(Exception):
    """The person at a browser seat left the game: the tab was closed, or Ctrl-C was pressed."""


@dataclass
class Outbox:
    """What one person's page is sent (every message, in order: a page that connects again
    is sent the current game's from its `hello`) and what it answers."""

    seat: int
    sent: list[dict[str, Any]] = field(default_factory=list)
    answers: queue.Queue[dict[str, Any]] = field(default_factory=queue.Queue)
    left: threading.Event = field(default_factory=threading.Event)
    game_from: int = 0  # where the current game's messages start in `sent`
    why: str = "the person left the table (the page was closed)"  # said when `left` is set
    lock: threading.Lock = field(default_factory=threading.Lock)

    def send(self, message: dict[str, Any]) -> None:
        """Add a message for the page."""
        with self.lock:
            if message["type"] == "hello":
                self.game_from = len(self.sent)
            self.sent.append(message)


class Table:
    """The watcher of a series of games with people at it (see the module's docstring)."""

    def __init__(self, game: str, title: str, variant: str, people: Sequence[int]) -> None:
        self.game, self.title, self.variant = game, title, variant
        self.outboxes = {seat: Outbox(seat) for seat in people}
        self.names: list[str] = []
        self.pace = 0.6  # seconds between the bots' moves, set from the page
        self.step = 0
        self.told = 0
        self.pending: tuple[int, ...] = ()
        self.games = 0
        self.stopped = threading.Event()

    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        """A game starts: each page is told the table, then shown the deal."""
        self.names = [str(n) for n in names]
        self.step = 0
        self.told = 0
        self.games += 1
        for box in self.outboxes.values():
            box.send({"type": "hello", "game": self.game, "title": self.title,
                      "variant": self.variant, "seed": seed, "seats": plain(self.names),
                      "you": box.seat, "number": self.games})
        public = [e for i, e in enumerate(state.log) if i not in state.private]
        lines = [line for text in state.narrate_deal() for line in str(text).split("\n")]
        self._step(state, (), public, lines)

    def happened(self, state: State, events: Sequence[Event]) -> None:
        """A step: shown to each page, then, if bots move next, a pause a person can follow."""
        acted = self.pending
        lines = [line for event in events for text in state.narrate(event, self.names)
                 for line in str(text).split("\n")]
        self.step += 1
        self._step(state, acted, events, lines)
        if self.pending and not set(self.pending) & set(self.outboxes) \
                and not self.stopped.is_set():
            time.sleep(self.pace)

    def _step(self, state: State, acted: tuple[int, ...], events: Sequence[Event],
              lines: list[str]) -> None:
        self.pending = state.to_act()
        for seat, box in self.outboxes.items():
            told = [plain(state.log[i]) for i in range(self.told, len(state.log))
                    if i in state.private and seat in state.private[i]]
            try:
                view = plain(state.view(seat))
            except Exception:  # a game may not describe a seat's view once it is over
                view = None
            box.send({"type": "step", "step": self.step, "view": view,
                      "events": [plain(e) for e in events], "told": told,
                      "lines": plain(lines), "acted": list(acted),
                      "next": list(self.pending)})
        self.told = len(state.log)

    def over(self, record: Mapping[str, Any], replay: int | None,
             tally: Sequence[float]) -> None:
        """A game ended (its record, as JSON): its result, the running score over the games
        so far and the number of its replay page (`/replay/N` on the server)."""
        for box in self.outboxes.values():
            box.send({"type": "over", "scores": plain(record.get("scores")),
                      "ranks": plain(record.get("ranks")), "seed": plain(record.get("seed")),
                      "faults": plain(record.get("faults") or []),
                      "tally": plain(list(tally)), "replay": replay})

    def leave(self) -> None:
        """Everyone leaves (Ctrl-C): each person's seat quits at its next decision, and the
        bots stop pausing so the game ends at once."""
        self.stopped.set()
        for box in self.outboxes.values():
            box.why = "the game was stopped with Ctrl-C"
            box.left.set()

    @property
    def left(self) -> bool:
        """Whether a person left (their seat quit): the series stops after this game."""
        return any(box.left.is_set() for box in self.outboxes.values())

    def close(self, why: str) -> None:
        """The series is over: every page is told why."""
        self.stopped.set()
        for box in self.outboxes.values():
            box.send({"type": "closed", "why": why})


class PersonSeat(Bot):
    """The bot of a person's seat: sends each decision's legal moves to the page and waits."""

    games = ("*",)

    def __init__(self, box: Outbox) -> None:
        self.box = box
        self.moves: list[int] = []  # the place of each move chosen, in order

    def start(self, info: GameInfo) -> None:
        """Nothing to set up: the page has the table."""

    def act(self, obs: Observation[Any]) -> Any:
        """The legal move the page chose (its place among them); SeatLeft when the person
        leaves or Ctrl-C is pressed."""
        legal = [plain(plain_action(a)) for a in obs.legal]
        self.box.send({"type": "act", "legal": legal})
        try:
            while True:
                if self.box.left.is_set():
                    raise SeatLeft(self.box.why)
                try:
                    answer = self.box.answers.get(timeout=WAIT)
                except queue.Empty:
                    continue
                place = answer.get("move")
                if type(place) is int and 0 <= place < len(obs.legal):
                    self.moves.append(place)
                    return obs.legal[place]
                self.box.send({"type": "act", "legal": legal})  # not a move: ask again
        except KeyboardInterrupt:
            self.box.left.set()
            raise SeatLeft("the game was stopped with Ctrl-C") from None

    def end(self, result: Result) -> None:
        """The result reaches the page with the record (`Table.over`)."""
