"""What the table's tests share: a game with a person's seat played to its end by a stand-in for
the page, every message kept, and the bots that play a recorded list of moves again."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from arena.api import Bot, Event, Observation
from arena.engine import State, Variant, find_game
from arena.levels import level_spec, table_size
from arena.loader import resolve_bot
from arena.match import play_game
from arena.table.seat import PersonSeat, Table
from arena.table.series import TableSeries


@dataclass
class Both:
    """Two match watchers as one (the table's and a test's own)."""

    first: Any
    second: Any

    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        self.first.dealt(state, variant, seed, names)
        self.second.dealt(state, variant, seed, names)

    def decided(self, seat: int, action: Any) -> None:
        for one in (self.first, self.second):
            if hasattr(one, "decided"):
                one.decided(seat, action)

    def happened(self, state: State, events: Sequence[Event]) -> None:
        self.first.happened(state, events)
        self.second.happened(state, events)


@dataclass
class Played:
    """A game with a person's seat: its table, its record (JSON) and the person's moves."""

    table: Table
    record: dict[str, Any]
    moves: list[int]
    names: list[str]
    spec: str


def bot_spec(game: str) -> str:
    """A quick bundled bot of the game (its easy level)."""
    return level_spec(game, "easy")


def play_with_person(game: str, preset: str | None, seed: int, watcher: Any = None,
                     answer: Callable[[list[Any], random.Random], int] | None = None) -> Played:
    """Play a game with a person in seat 0, the page stood in for by a thread answering each
    `act` with a random legal move (or `answer`'s)."""
    variant = find_game(game).variant(preset, {})
    seats = table_size(variant, 1)
    table = Table(game, variant.game.title, variant.label, [0])
    table.pace = 0.0
    series = TableSeries(table)
    person = PersonSeat(table.outboxes[0])
    spec = bot_spec(game)
    names = ["person", *[f"{spec}-{s}" for s in range(1, seats)]]
    done = threading.Event()
    box = table.outboxes[0]
    pick = answer or (lambda legal, rng: rng.randrange(len(legal)))

    def page() -> None:
        rng = random.Random(seed)
        seen = 0
        while not done.is_set():
            with box.lock:
                new = box.sent[seen:]
            seen += len(new)
            for message in new:
                if message["type"] == "act":
                    box.answers.put({"move": pick(message["legal"], rng)})
            if not new:
                time.sleep(0.001)

    thread = threading.Thread(target=page, daemon=True)
    thread.start()
    try:
        bots: list[Bot] = [person, *[resolve_bot(spec, game).make() for _ in range(1, seats)]]
        record = play_game(variant, bots, names, seed,
                           Both(series, watcher) if watcher is not None else series)
        series.finished(record)
    finally:
        done.set()
        thread.join(5)
    return Played(table, json.loads(record.to_line()), list(person.moves), names, spec)


class Script(Bot):
    """Plays a list of moves (places among the legal moves) again."""

    games = ("*",)

    def __init__(self, moves: Sequence[int]) -> None:
        self.moves = list(moves)

    def act(self, obs: Observation[Any]) -> Any:
        return obs.legal[self.moves.pop(0)]


def replayed(played: Played, game: str, preset: str | None, seed: int) -> dict[str, Any]:
    """The record `arena play` makes of the same seats, seed and moves (the person's as a
    script), as JSON."""
    variant: Variant = find_game(game).variant(preset, {})
    bots: list[Bot] = [Script(played.moves),
                       *[resolve_bot(played.spec, game).make() for _ in played.names[1:]]]
    return json.loads(play_game(variant, bots, played.names, seed).to_line())


GAMES = [game.name for game in __import__("arena.engine", fromlist=["all_games"]).all_games()]
