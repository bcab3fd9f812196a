"""The human interface of a game: what a person at a terminal is shown, told and may type.

Every game gets one (`arena.tty.registry.interface_for`); this base class is the generic one: it
draws any view from its fields, tells any event in plain words, numbers the legal actions and
reads a number or an action's words ('play 7H', '7h', 'mine'). Games with a better drawing or
more natural input override `draw`, `describe`, `action_text`, `aliases` or `parse`.

Interfaces return plain text lines with cards in their short form ('7H'); the player's stream
turns card codes into suit symbols and colour (`Style.text`), except in grids, which style their
own cells to keep columns aligned.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from arena.api import Action, Event, GameInfo
from arena.engine import Params, find_game
from arena.errors import ArenaError
from arena.tty.generic import action_text, columns, event_text, view_lines, wrap
from arena.tty.style import PLAIN, Style

QUIT_WORDS = frozenset({"q", "quit", "exit"})
"""Typed alone, these leave the game (after a confirmation)."""

HELP_WORDS = frozenset({"?", "help"})
"""Typed alone, these print the help."""

_SEPARATORS = re.compile(r"[\s,;:_\-!.]+")
_TEN = re.compile(r"^t([cdhs])$")
_SYMBOLS = str.maketrans({"♣": "c", "♦": "d", "♥": "h", "♠": "s"})


class BadInput(Exception):
    """What the person typed is not a move now; the message says why, in one line."""


def normalise(text: str) -> str:
    """Typed text as comparable words: lower case, separators as single spaces, suit symbols as
    letters, 't' as ten in card codes ('TH' -> '10h')."""
    words = _SEPARATORS.sub(" ", text.translate(_SYMBOLS).lower()).split()
    return " ".join(_TEN.sub(r"10\1", w) for w in words)


def params_of(game: str, label: str) -> Params | None:
    """The variant parameters a GameInfo's variant label stands for ('standard,one-flip=true')."""
    preset, *rest = label.split(",")
    overrides = dict(part.split("=", 1) for part in rest if "=" in part)
    try:
        return find_game(game).variant(preset, overrides).params
    except (ArenaError, ValueError):
        return None


class HumanInterface:
    """How a person plays one game at a terminal: drawing, narration, choices, input, help."""

    spectator_safe: ClassVar[bool] = False
    """Whether a seat's view holds nothing private, so spectators may be shown it drawn."""

    list_limit: ClassVar[int] = 16
    """Up to this many legal actions are listed with every decision (more: on `?`)."""

    def __init__(self, style: Style = PLAIN) -> None:
        self.style = style
        self.game = ""
        self.variant = ""
        self.seat = 0
        self.players = 1
        self.params: Params | None = None
        self.seat_names: Sequence[str] = ()  # bot names, when spectators watch

    # -- the game and the seat ------------------------------------------------------------------

    def start(self, info: GameInfo) -> list[str]:
        """Take in the game and the seat; lines introducing the game to the person."""
        self.game, self.variant = info.game, info.variant
        self.seat, self.players = info.seat, info.players
        self.params = params_of(info.game, info.variant)
        others = self.players - 1
        table = ("You play alone (solitaire)." if not others else
                 f"You are seat {self.seat}; {others} other player{'s' if others > 1 else ''}.")
        return [f"{self.title()} ({self.variant}). {table}", *self.opening()]

    def title(self) -> str:
        """The game's title."""
        try:
            return find_game(self.game).title
        except ArenaError:
            return self.game

    def opening(self) -> list[str]:
        """Lines telling what the game will be (after the title)."""
        return []

    def name(self, seat: int | None) -> str:
        """How a seat is called in narration: 'seat 2', or 'seat 1 (you)' for the person."""
        if seat is None:
            return "the table"
        if self.seat_names:
            return self.seat_names[seat]
        return f"seat {seat} (you)" if seat == self.seat else f"seat {seat}"

    @property
    def names(self) -> list[str]:
        """Every seat's name, by seat."""
        return [self.name(s) for s in range(self.players)]

    # -- showing --------------------------------------------------------------------------------

    def draw(self, view: Any, seat: int) -> list[str]:
        """The table as `seat` sees it now."""
        return view_lines(view)

    def describe(self, event: Event, seat: int) -> list[str]:
        """Lines telling `seat` what an event did (none for an event not worth telling)."""
        return wrap(event_text(event, self.names))

    def action_text(self, action: Action) -> str:
        """An action in the words a person may type for it."""
        return action_text(action)

    def task(self, view: Any, legal: Sequence[Action]) -> str:
        """What the person is asked to do now, for the prompt."""
        return "your move"

    def choices(self, legal: Sequence[Action]) -> list[str]:
        """The legal actions, numbered from 1, in columns."""
        return columns([f"{i}) {self.action_text(a)}" for i, a in enumerate(legal, 1)])

    def listed(self, legal: Sequence[Action]) -> list[str]:
        """The choices shown with every decision: all of them if few, else a pointer to `?`."""
        if len(legal) <= self.list_limit:
            return self.choices(legal)
        return [f"  {len(legal)} choices: type ? to list them"]

    def help(self, legal: Sequence[Action]) -> list[str]:
        """What may be typed now: the legal actions and the input syntax."""
        return ["Choose one of:", *self.choices(legal),
                *wrap("Type its number, or its words (or enough of them to tell it from the "
                      "others): e.g. " + ", ".join(repr(self.action_text(a))
                                                   for a in legal[:2]) + "."),
                *self.syntax(), *self.commands(len(legal) == 1)]

    def syntax(self) -> list[str]:
        """Game-specific input hints for the help."""
        return []

    @staticmethod
    def commands(single: bool) -> list[str]:
        """The commands every game knows."""
        lines = ["? shows this help; q leaves the game (your seat forfeits)."]
        if single:
            lines.insert(0, "Only one move is possible: press Enter to make it.")
        return lines

    # -- reading --------------------------------------------------------------------------------

    def aliases(self) -> Mapping[str, str]:
        """Short words a person may type for an action's words ('y' -> 'mine')."""
        return {}

    def parse(self, text: str, legal: Sequence[Action], view: Any = None) -> Action:
        """The legal action the typed text stands for (read against the `view` the person was
        shown); BadInput saying why there is none."""
        return self.pick(text, legal)

    def pick(self, text: str, legal: Sequence[Action]) -> Action:
        """The generic reading: a choice number, an action's words, or a unique part of them."""
        words = normalise(text)
        if not words:
            if len(legal) == 1:
                return legal[0]
            raise BadInput("type a move (? lists them)")
        if words.isdigit():
            number = int(words)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            raise BadInput(f"there is no choice {number}: choose 1 to {len(legal)} "
                           f"(? lists them)")
        words = self.aliases().get(words, words)
        texts = [normalise(self.action_text(a)) for a in legal]
        found = [a for a, t in zip(legal, texts, strict=True) if t == words]
        if not found:
            tokens = words.split()
            found = [a for a, t in zip(legal, texts, strict=True) if _has_run(t.split(), tokens)]
        if not found:
            found = [a for a, t in zip(legal, texts, strict=True) if t.startswith(words)]
        if len(found) == 1:
            return found[0]
        if found:
            options = " or ".join(repr(self.action_text(a)) for a in found[:4])
            raise BadInput(f"{text.strip()!r} could be {options}: type more of it, or its number")
        raise BadInput(f"{text.strip()!r} is not a move now ({self.hint(legal)})")

    def hint(self, legal: Sequence[Action]) -> str:
        """A short reminder of what may be typed, for error messages."""
        return f"choose 1 to {len(legal)}, or type ? for help"


def _has_run(words: list[str], run: list[str]) -> bool:
    """Whether `run` appears in `words` as consecutive words."""
    n = len(run)
    return any(words[i:i + n] == run for i in range(len(words) - n + 1))
