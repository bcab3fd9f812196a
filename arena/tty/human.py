"""A person at the terminal, playing any game through its human interface (`arena.tty`).

`arena play concentration -b human -b forgetful` seats a person: each decision the bot tells
what happened since the person's last decision, draws the table from the observation's view
(only what the seat may see now: in a memory game, cards seen earlier are not shown again),
and reads a move until one is legal. `?` prints help, `q` leaves the game: `act` raises
`HumanQuit`, which the match records as a fault, and the seat forfeits.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any, ClassVar, TextIO

from arena.api import Action, Bot, GameInfo, Observation, Result
from arena.tty import BadInput, HumanInterface, Style, interface_for
from arena.tty.interface import HELP_WORDS, QUIT_WORDS

_YES = frozenset({"y", "yes"})

TARGET = "arena.tty.human:HumanBot"
"""Where the human seat lives; registered as the bot name `human`."""

FORMER_TARGET = "bots.human:HumanBot"
"""Where it lived before (`bots/human.py` still names it there, so that specs written so keep
working)."""


def is_human(spec: str) -> bool:
    """Whether a bot spec names the human seat ('human', 'arena.tty.human:HumanBot' or
    'bots.human:HumanBot'), importing nothing: such a seat must read this terminal, so it is
    never sandboxed or run in workers."""
    from arena.loader import by_target

    target = by_target(spec.strip())
    return (any(target == t or target.startswith(t + ":") for t in (TARGET, FORMER_TARGET))
            or spec.strip() == "human")


class HumanQuit(Exception):
    """The person at a human seat left the game: typed q, or the input ended."""


class HumanBot(Bot):
    """A person playing through the terminal (or any pair of text streams)."""

    games: ClassVar[tuple[str, ...]] = ("*",)

    def __init__(self, *, input: TextIO | None = None, output: TextIO | None = None) -> None:
        self.input = input if input is not None else sys.stdin
        self.output = output if output is not None else sys.stdout
        self.style = Style.for_stream(self.output)
        self.ui: HumanInterface = interface_for("", self.style)

    @classmethod
    def with_streams(cls, input: TextIO, output: TextIO) -> HumanBot:
        """A human seat reading moves from `input` and writing the table to `output`."""
        return cls(input=input, output=output)

    def start(self, info: GameInfo) -> None:
        """Introduce the game and the seat."""
        super().start(info)
        self.ui = interface_for(info.game, self.style)
        self._say(["", *self.ui.start(info), "Type ? at any prompt for help, q to leave."])

    def act(self, obs: Observation[Any]) -> Action:
        """Tell what happened, draw the table, and read moves until one is legal."""
        ui, legal = self.ui, obs.legal
        told = self._told(obs.events, obs.seat)
        self._say(["", *told, *([""] if told else []), *ui.draw(obs.view, obs.seat),
                   *ui.listed(legal)])
        task = (f"press Enter to {ui.action_text(legal[0])}" if len(legal) == 1
                else ui.task(obs.view, legal))
        prompt = f"[seat {obs.seat}] {task}> "
        while True:
            text = self._ask(prompt)
            word = text.strip().lower()
            if word in HELP_WORDS:
                self._say(ui.help(legal))
            elif word in QUIT_WORDS:
                if self._ask("Leave the game? Your seat forfeits. [y/N]> ").strip().lower() in _YES:
                    raise HumanQuit("you left the game")
            else:
                try:
                    return ui.parse(text, legal, obs.view)
                except BadInput as exc:
                    self._say([f"  {exc}"])

    def end(self, result: Result) -> None:
        """Tell the last events, the scores and the person's place."""
        lines = ["", *self._told(result.events, result.seat)]
        names = self.ui.names
        scores = ", ".join(f"{n} {s:g}" for n, s in zip(names, result.scores, strict=True))
        lines.append(f"Final scores: {scores}.")
        if len(result.ranks) > 1:
            rank = result.ranks[result.seat]
            shared = sum(1 for r in result.ranks if r == rank) > 1
            lines.append(f"You placed {_ordinal(rank)}{' (shared)' if shared else ''} "
                         f"of {len(result.ranks)}.")
        self._say(lines)

    # -- the streams ----------------------------------------------------------------------------

    def _told(self, events: Iterable[Any], seat: int) -> list[str]:
        return [line for event in events for line in self.ui.describe(event, seat)]

    def _say(self, lines: Iterable[str]) -> None:
        text = self.style.text
        self.output.write("".join(text(line) + "\n" for line in lines))
        self.output.flush()

    def _ask(self, prompt: str) -> str:
        """One line typed after the prompt; HumanQuit when the input has ended."""
        self.output.write(self.style.text(prompt))
        self.output.flush()
        line = self.input.readline()
        if not line:
            self.output.write("\n")
            self.output.flush()
            raise HumanQuit("the input ended")
        return line.rstrip("\r\n")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


__all__ = ["TARGET", "HumanBot", "HumanQuit", "is_human"]
