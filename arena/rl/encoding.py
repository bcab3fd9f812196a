"""Fixed-shape encodings of a game for learning agents: actions as indices, views and events as
numpy arrays. Needs numpy only (a sandboxed policy bot imports this module, never pettingzoo)."""

from __future__ import annotations

import dataclasses
import enum
import typing
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from arena.api import Event, Move, Remove, Reveal
from arena.cards import Card, Colour, Rank, standard_deck
from arena.engine import Params, PlainAction, Variant, find_game, plain_action

CARDS = 54
"""Card slots of every card feature: 52 cards (clubs, diamonds, hearts, spades; ace to king),
then the red joker and the black joker (a plain joker counts as red)."""

PACK = tuple(standard_deck(jokers=True))


def card_index(card: Card) -> int:
    """The slot of a card in a card feature (see `CARDS`)."""
    if card.rank is Rank.JOKER:
        return 53 if card.joker_colour is Colour.BLACK else 52
    assert card.suit is not None
    return "CDHS".index(card.suit.value) * 13 + card.rank.value - 1


@dataclass(frozen=True)
class Feature:
    """One named slice of an observation vector: `kind` is `cards` (counts by card slot),
    `scalar` (a number) or `onehot` (one of `size` values)."""

    name: str
    start: int
    size: int
    kind: str
    high: float
    meaning: str

    @property
    def stop(self) -> int:
        """The end of the slice."""
        return self.start + self.size


class Layout:
    """Builds an observation layout feature by feature, then writes vectors by feature name."""

    def __init__(self) -> None:
        """An empty layout."""
        self.features: list[Feature] = []
        self.by_name: dict[str, Feature] = {}
        self.size = 0

    def add(self, name: str, size: int, kind: str, high: float, meaning: str) -> None:
        """Append a feature of `size` slots."""
        feature = Feature(name, self.size, size, kind, high, meaning)
        self.features.append(feature)
        self.by_name[name] = feature
        self.size += size

    def cards(self, name: str, meaning: str, high: float = 1.0) -> None:
        """A card feature: a count per card slot."""
        self.add(name, CARDS, "cards", high, meaning)

    def high(self) -> np.ndarray:
        """The upper bound of every slot."""
        out = np.zeros(self.size, dtype=np.float32)
        for f in self.features:
            out[f.start:f.stop] = f.high
        return out

    def low(self) -> np.ndarray:
        """The lower bound of every slot: -1 for scalars (None is -1), else 0."""
        out = np.zeros(self.size, dtype=np.float32)
        for f in self.features:
            if f.kind == "scalar":
                out[f.start:f.stop] = -1
        return out

    def put_cards(self, vec: np.ndarray, name: str, cards: Iterable[Card | None]) -> None:
        """Count `cards` (Nones skipped) into a card feature."""
        start = self.by_name[name].start
        for card in cards:
            if card is not None:
                vec[start + card_index(card)] += 1

    def put(self, vec: np.ndarray, name: str, values: float | Sequence[float | None]) -> None:
        """Write one scalar or a sequence of them (None as -1) into a feature."""
        f = self.by_name[name]
        if isinstance(values, int | float):
            vec[f.start] = values
            return
        for i, value in enumerate(values):
            vec[f.start + i] = -1 if value is None else value

    def put_onehot(self, vec: np.ndarray, name: str, index: int | None) -> None:
        """Set one slot of a one-hot feature (None sets none)."""
        if index is not None:
            vec[self.by_name[name].start + index] = 1


def relative(values: Sequence[Any], seat: int) -> list[Any]:
    """Per-seat values turned to the seat's point of view: yours first, then the next seats."""
    n = len(values)
    return [values[(seat + i) % n] for i in range(n)]


class Encoder(ABC):
    """A game's encoding at one variant and table size: the action list and the view layout."""

    game: typing.ClassVar[str]
    table_module: typing.ClassVar[str]
    def __init__(self, params: Params, players: int) -> None:
        """Enumerate the actions and lay out the observation for this variant and table."""
        self.params = params
        self.players = players
        self.actions: tuple[PlainAction, ...] = tuple(self.enumerate_actions())
        self.index: dict[PlainAction, int] = {a: i for i, a in enumerate(self.actions)}
        if len(self.index) != len(self.actions):
            raise AssertionError(f"{self.game}: the action list repeats an action")
        self.layout = Layout()
        self.lay_out(self.layout)
        self.history = HistoryLayout(self.event_types(), players)

    @abstractmethod
    def enumerate_actions(self) -> Iterable[PlainAction]:
        """Every plain action that can ever be legal in this variant, in index order."""

    @abstractmethod
    def lay_out(self, layout: Layout) -> None:
        """Declare the observation's features."""

    @abstractmethod
    def write(self, vec: np.ndarray, view: Any, seat: int) -> None:
        """Write a view into a zeroed vector of the layout."""

    def event_types(self) -> list[type[Event]]:
        """The events of the game (those of its `table` module and the layout events)."""
        import importlib

        module = importlib.import_module(self.table_module)
        found = {v for v in vars(module).values()
                 if isinstance(v, type) and issubclass(v, Event) and v is not Event}
        found |= {Reveal, Remove, Move}
        return sorted(found, key=lambda t: (t.kind, t.__name__))

    @property
    def size(self) -> int:
        """How many actions there are (the `Discrete` size)."""
        return len(self.actions)

    def encode_action(self, action: Any) -> int:
        """The index of an action (or its plain form); KeyError if it is not in the list."""
        return self.index[plain_action(action)]

    def decode_action(self, index: int) -> PlainAction:
        """The plain action of an index."""
        return self.actions[int(index)]

    def mask(self, legal: Iterable[Any]) -> np.ndarray:
        """The action mask (int8) of the legal actions."""
        out = np.zeros(len(self.actions), dtype=np.int8)
        for action in legal:
            out[self.encode_action(action)] = 1
        return out

    def encode(self, view: Any, seat: int) -> np.ndarray:
        """The observation vector (float32) of a seat's view."""
        vec = np.zeros(self.layout.size, dtype=np.float32)
        self.write(vec, view, seat)
        return vec


# -- history: the events a seat has seen, one row each ------------------------------------------


def _mentions_card(hint: Any) -> bool:
    return "Card" in repr(hint)


class HistoryLayout:
    """One row per event: its kind (one-hot), its seat (one-hot, last slot for the table), card
    slots (counts of the cards of each card-holding field, in field order) and number slots
    (each int, bool or enum field as a number, None as -1; a tuple of ints padded to the table
    size). Fields of other types are not encoded."""

    def __init__(self, kinds: Sequence[type[Event]], players: int) -> None:
        """Lay out rows for these event types at a table of `players`."""
        self.kinds = list(kinds)
        self.players = players
        self.plans: dict[type[Event], tuple[list[str], list[tuple[str, int]]]] = {}
        for kind in self.kinds:
            hints = typing.get_type_hints(kind)
            cards, numbers = [], []
            for f in dataclasses.fields(kind):
                if f.name == "seat":
                    continue
                hint = hints[f.name]
                if _mentions_card(hint):
                    cards.append(f.name)
                elif "tuple" in repr(hint) and "int" in repr(hint) and "tuple[tuple" not in repr(
                        hint):
                    numbers.append((f.name, players))
                elif hint in (int, bool) or "int" in repr(hint) or (
                        isinstance(hint, type) and issubclass(hint, enum.Enum)) or "enum" in repr(
                        hint).lower() or _is_enum_union(hint):
                    numbers.append((f.name, 1))
            self.plans[kind] = (cards, numbers)
        self.card_slots = max((len(c) for c, _ in self.plans.values()), default=0)
        self.number_slots = max((sum(n for _, n in ns) for _, ns in self.plans.values()),
                                default=0)
        self.kind_start = 0
        self.seat_start = len(self.kinds)
        self.card_start = self.seat_start + players + 1
        self.number_start = self.card_start + self.card_slots * CARDS
        self.width = self.number_start + self.number_slots
        self.index = {kind: i for i, kind in enumerate(self.kinds)}

    def row(self, event: Event) -> np.ndarray:
        """The row of one event."""
        out = np.zeros(self.width, dtype=np.float32)
        kind = type(event)
        out[self.index[kind]] = 1
        out[self.seat_start + (self.players if event.seat is None else event.seat)] = 1
        cards, numbers = self.plans[kind]
        for slot, name in enumerate(cards):
            base = self.card_start + slot * CARDS
            for card in cards_in(getattr(event, name)):
                out[base + card_index(card)] += 1
        at = self.number_start
        for name, width in numbers:
            value = getattr(event, name)
            values = list(value) if isinstance(value, tuple) else [value]
            for i, item in enumerate(values[:width]):
                out[at + i] = _number(item)
            at += width
        return out

    def card_rows(self, rows: np.ndarray) -> list[int]:
        """The card slots counted anywhere in some rows (for the leak test)."""
        block = rows[:, self.card_start:self.number_start].reshape(len(rows), -1, CARDS)
        totals = block.sum(axis=(0, 1))
        return [i for i in range(CARDS) for _ in range(int(totals[i]))]


def _is_enum_union(hint: Any) -> bool:
    return any(isinstance(a, type) and issubclass(a, enum.Enum) for a in typing.get_args(hint))


def _number(item: Any) -> float:
    if item is None:
        return -1.0
    if isinstance(item, enum.Enum):
        return float(list(type(item)).index(item))
    if isinstance(item, int | float):
        return float(item)
    return 0.0


def cards_in(value: Any) -> list[Card]:
    """Every card inside a value (through tuples, lists and dataclasses)."""
    found: list[Card] = []
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, Card):
            found.append(item)
        elif isinstance(item, tuple | list):
            todo.extend(item)
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            todo.extend(getattr(item, f.name) for f in dataclasses.fields(item))
    return found


class History:
    """The rows of the events one seat has seen, most recent `rows` kept (padded with zeros)."""

    def __init__(self, layout: HistoryLayout, rows: int) -> None:
        """An empty history of `rows` rows."""
        self.layout = layout
        self.rows = rows
        self.array = np.zeros((rows, layout.width), dtype=np.float32)
        self.count = 0

    def add(self, events: Iterable[Event]) -> None:
        """Append the rows of some events (the oldest fall off once `rows` are kept)."""
        for event in events:
            if self.count >= self.rows:
                self.array[:-1] = self.array[1:]
                self.array[-1] = self.layout.row(event)
            else:
                self.array[self.count] = self.layout.row(event)
            self.count += 1


# -- variants ----------------------------------------------------------------------------------


def variant_of(game: str, label: str | None = None,
               options: Mapping[str, str] | None = None) -> Variant:
    """A game's variant from a preset name or a record's label ('preset,key=value,...')."""
    found = find_game(game)
    preset, overrides = None, dict(options or {})
    if label:
        preset, *rest = label.split(",")
        for part in rest:
            key, _, value = part.partition("=")
            overrides[key] = value
    return found.variant(preset or None, overrides or None)
