"""Concentration's variant parameters, their validation, and the named presets."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from arena.cards import Colour, standard_deck
from arena.engine import Params
from arena.errors import VariantError
from arena.games.concentration.matching import MatchRule

TURN_LIMIT_PER_CARD = 25
"""With `max_turns = 0` a game stops after this many turns per card dealt (see the rulings)."""


class Scoring(enum.Enum):
    """How sets turn into scores."""

    SETS = "sets"
    CHIPS_WINNER = "chips-winner"
    CHIPS_PER_PAIR = "chips-per-pair"


@dataclass(frozen=True)
class ConcentrationParams(Params):
    """Variant parameters of Concentration; see docs/rules/concentration.md for each."""

    match: MatchRule = MatchRule.RANK_COLOUR
    decks: int = 1
    jokers: bool = False
    rows: int = 4
    cols: int = 13
    set_size: int = 2
    one_flip: bool = False
    duel: bool = False
    checkerboard: bool = False
    moves: int = 0
    show_moves: bool = False
    scoring: Scoring = Scoring.SETS
    max_turns: int = 0

    @property
    def pack_size(self) -> int:
        """Cards in one pack: 52, or 54 with jokers."""
        return 54 if self.jokers else 52

    @property
    def field_size(self) -> int:
        """Cards in one field: the whole layout, or one player's half in the duel."""
        return self.pack_size if self.duel else self.pack_size * self.decks

    @property
    def fields(self) -> int:
        """Separate fields on the table: two in the duel, else one."""
        return 2 if self.duel else 1

    def players_allowed(self) -> range:
        """Duel: exactly two; chip scoring: two to six; otherwise one (solitaire) to six."""
        if self.duel:
            return range(2, 3)
        if self.scoring is not Scoring.SETS:
            return range(2, 7)
        return range(1, 7)

    def validate(self) -> None:
        """Reject values and combinations the sources do not allow, naming the parameter."""
        if self.decks not in (1, 2):
            raise VariantError(f"decks must be 1 or 2, not {self.decks}")
        if self.set_size not in (2, 4):
            raise VariantError(f"set-size must be 2 or 4, not {self.set_size}")
        if self.rows < 1 or self.cols < 1 or self.rows * self.cols != self.field_size:
            what = "each field" if self.duel else "the layout"
            raise VariantError(
                f"rows x cols must hold the {self.field_size} cards of {what}, "
                f"not {self.rows} x {self.cols}")
        if self.moves < 0 or self.max_turns < 0:
            bad = "moves" if self.moves < 0 else "max-turns"
            raise VariantError(f"{bad} must be 0 or more")
        if self.duel:
            self._validate_duel()
        if self.checkerboard and self.decks != 2:
            raise VariantError("checkerboard needs decks=2 (two packs with different backs)")
        if self.match is MatchRule.IDENTICAL and self.decks * (2 if self.duel else 1) < 2:
            raise VariantError("match=identical needs two decks (decks=2, or the duel)")
        if self.set_size == 4 and self.match is MatchRule.OPPOSITE_COLOUR:
            raise VariantError("set-size=4 cannot use match=opposite-colour: "
                               "four cards cannot all differ in colour")
        if not _can_partition(self):
            raise VariantError(
                f"set-size={self.set_size} with match={self.match.value}, decks={self.decks}, "
                f"jokers={str(self.jokers).lower()} leaves cards that can never form a set")

    def _validate_duel(self) -> None:
        if self.decks != 2 or self.match is not MatchRule.IDENTICAL or self.set_size != 2:
            raise VariantError("duel needs decks=2, match=identical and set-size=2")
        for name in ("checkerboard", "one_flip"):
            if getattr(self, name):
                raise VariantError(f"duel cannot combine with {name.replace('_', '-')}")
        if self.moves:
            raise VariantError("duel cannot combine with moves")


def _can_partition(params: ConcentrationParams) -> bool:
    """Whether the full set of cards splits into sets under the rule (a greedy check suffices)."""
    cards = standard_deck(params.jokers) * (params.decks if not params.duel else 2)
    if params.match is MatchRule.OPPOSITE_COLOUR:
        reds = sum(1 for c in cards if not c.is_joker and c.colour is Colour.RED)
        jokers = sum(1 for c in cards if c.is_joker)
        return reds * 2 == len(cards) - jokers and jokers % 2 == 0
    classes: dict[tuple[Any, ...], int] = {}
    for card in cards:
        key: tuple[Any, ...]
        if card.is_joker:
            key = ("joker",)
        elif params.match is MatchRule.RANK:
            key = (card.rank,)
        elif params.match is MatchRule.RANK_COLOUR:
            key = (card.rank, card.colour)
        else:
            key = (card.rank, card.suit)
        classes[key] = classes.get(key, 0) + 1
    return all(count % params.set_size == 0 for count in classes.values())


PRESETS: Mapping[str, ConcentrationParams] = MappingProxyType({
    "standard": ConcentrationParams(),
    "any-color": ConcentrationParams(match=MatchRule.RANK),
    "zebra": ConcentrationParams(match=MatchRule.OPPOSITE_COLOUR),
    "one-flip": ConcentrationParams(one_flip=True),
    "jokers": ConcentrationParams(jokers=True, rows=6, cols=9),
    "any-color-jokers": ConcentrationParams(match=MatchRule.RANK, jokers=True, rows=6, cols=9),
    "two-decks": ConcentrationParams(match=MatchRule.IDENTICAL, decks=2, rows=8, cols=13),
    "two-decks-jokers": ConcentrationParams(match=MatchRule.IDENTICAL, decks=2, jokers=True,
                                            rows=9, cols=12),
    "duel": ConcentrationParams(match=MatchRule.IDENTICAL, decks=2, duel=True),
    "checkerboard": ConcentrationParams(match=MatchRule.IDENTICAL, decks=2, rows=8, cols=13,
                                        checkerboard=True),
    "four-of-a-kind": ConcentrationParams(match=MatchRule.RANK, set_size=4),
    "moving": ConcentrationParams(moves=2),
    "chips-winner": ConcentrationParams(scoring=Scoring.CHIPS_WINNER),
    "chips-per-pair": ConcentrationParams(scoring=Scoring.CHIPS_PER_PAIR),
})
