"""Animals at a terminal: every up-pile's top card, and a call by animal name or noise."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.api import Action, Event
from arena.games.animals import narration
from arena.games.animals.table import QUIET, AnimalsView, Dealt
from arena.games.animals.variants import ANIMALS, AnimalsParams, CallStyle
from arena.tty.generic import wrap
from arena.tty.interface import BadInput, HumanInterface, normalise

_QUIET_WORDS = frozenset({"", "quiet", "nothing", "none", "shh"})
_EXTRA_NOISES = {"meow": "cat", "miaou": "cat", "bark": "dog", "moo": "cow"}


class AnimalsInterface(HumanInterface):
    """Players are named by their animal; Enter keeps quiet, an animal's name or noise calls it
    ('dog', 'woof')."""

    def name(self, seat: int | None) -> str:
        """'Dog (seat 0)', or 'Cat (you)'."""
        if seat is None or seat >= len(ANIMALS):
            return super().name(seat)
        animal = ANIMALS[seat][0]
        return f"{animal} (you)" if seat == self.seat else f"{animal} (seat {seat})"

    def _style(self) -> CallStyle:
        params = self.params
        return params.calls if isinstance(params, AnimalsParams) else CallStyle.NOISES

    def opening(self) -> list[str]:
        """Each seat's animal and noise, and yours."""
        animal, noise = ANIMALS[self.seat]
        heard = noise if self._style() is CallStyle.NOISES else f"{animal}!"
        table = ", ".join(f"{self.name(s)} {ANIMALS[s][1]}" for s in range(self.players))
        return [*wrap(f"The animals: {table}."),
                *wrap(f"You are the {animal}: the others call you with \"{heard}\". When your "
                      "top card has the rank of another player's, call that player's animal "
                      "first to win their up-pile; a wrong call costs you a card.")]

    def describe(self, event: Event, seat: int) -> list[str]:
        """The deal, each card faced, calls, races and penalties."""
        if isinstance(event, Dealt):
            held = ", ".join(f"{self.name(s)} {n}" for s, n in enumerate(event.cards))
            return wrap(f"{self.name(event.seat)} deals the pack out: {held}")
        lines = narration.describe(event, self.names, self._style())
        return lines if lines is not None else super().describe(event, seat)

    def draw(self, view: AnimalsView, seat: int) -> list[str]:
        """One line per seat: top card, up-pile and pack sizes; the card just faced marked."""
        width = max(len(self.name(s)) for s in range(view.players))
        lines = [f"Card {view.faces} faced (the game stops at {view.limit})"]
        for s in range(view.players):
            if view.places[s] is not None:
                lines.append(f"  {self.name(s):<{width}}  out (place {view.places[s]})")
                continue
            top = view.tops[s]
            mark = "  <- just faced" if s == view.facer else ""
            lines.append(f"  {self.name(s):<{width}}  top {str(top) if top else '--':>3}  "
                         f"up-pile {view.piles[s]:>2}  pack {view.packs[s]:>2}{mark}")
        return lines

    def action_text(self, action: Action) -> str:
        """'quiet', or 'call Dog'."""
        if action == QUIET:
            return "quiet"
        assert isinstance(action, tuple)
        return f"call {ANIMALS[action[1]][0]}"

    def task(self, view: AnimalsView, legal: Sequence[Action]) -> str:
        """Call or keep quiet."""
        return "call an animal, or Enter to keep quiet"

    def aliases(self) -> Mapping[str, str]:
        """Each animal's noise calls it."""
        out = {normalise(noise): f"call {name.lower()}" for name, noise in ANIMALS}
        out.update({k: f"call {v}" for k, v in _EXTRA_NOISES.items()})
        return out

    def syntax(self) -> list[str]:
        """Calls by name or noise; Enter for quiet."""
        return wrap("Press Enter (or type quiet) to keep quiet. Call a player by their "
                    "animal's name or noise: dog or woof, cat or miaow, cow or moo, lion or "
                    "roar, duck or quack, pig or oink.")

    def parse(self, text: str, legal: Sequence[Action], view: Any = None) -> Action:
        """Enter keeps quiet; a name or noise calls; numbers choose from the list."""
        words = normalise(text)
        if words in _QUIET_WORDS:
            return QUIET
        try:
            return self.pick(text, legal)
        except BadInput:
            called = self.aliases().get(words, words).removeprefix("call ")
            names = [ANIMALS[s][0].lower() for s in range(self.players)]
            if called in names:
                seat = names.index(called)
                why = "that is you" if seat == self.seat else "that player is out"
                raise BadInput(f"you cannot call the {called}: {why}") from None
            raise
