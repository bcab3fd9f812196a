"""Concentration (Memory, Pelmanism) with every variant of the sources, as parameters and presets.

Rules in our words: docs/rules/concentration.md. Positions are numbered row by row from 0; in the
duel the second player's field follows the first's.
"""

from __future__ import annotations

import enum
import functools
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from types import MappingProxyType
from typing import Any, ClassVar

from arena.api import Event, Move, Remove, Reveal
from arena.cards import Card, Colour, Suit, standard_deck
from arena.engine import Game, Logged, Outcome, Params, ScoreOrder, State, register
from arena.errors import VariantError
from arena.frozen import maker
from arena.show import fit

TURN_LIMIT_PER_CARD = 25
"""With `max_turns = 0` a game stops after this many turns per card dealt (see the rulings)."""


class MatchRule(enum.Enum):
    """Which cards make a set."""

    RANK_COLOUR = "rank-colour"
    RANK = "rank"
    OPPOSITE_COLOUR = "opposite-colour"
    IDENTICAL = "identical"


class Scoring(enum.Enum):
    """How sets turn into scores."""

    SETS = "sets"
    CHIPS_WINNER = "chips-winner"
    CHIPS_PER_PAIR = "chips-per-pair"


class Back(enum.Enum):
    """The back of a face-down card: plain, or the pack's colour in the checkerboard variant."""

    PLAIN = "plain"
    RED = "red"
    BLUE = "blue"


class Role(enum.Enum):
    """What the seat to act is doing: flipping (every variant) or answering (the duel)."""

    FLIP = "flip"
    ANSWER = "answer"


class End(enum.Enum):
    """Why a game ended."""

    CLEARED = "cleared"
    TURN_LIMIT = "turn-limit"


def cards_match(a: Card, b: Card, rule: MatchRule) -> bool:
    """Whether two cards belong to one set under `rule`; jokers match only each other."""
    if a.is_joker or b.is_joker:
        return a.is_joker and b.is_joker
    if a.rank != b.rank:
        return False
    if rule is MatchRule.RANK:
        return True
    if rule is MatchRule.RANK_COLOUR:
        return a.colour is b.colour
    if rule is MatchRule.OPPOSITE_COLOUR:
        return a.colour is not b.colour
    return a.suit is b.suit


_SUIT_ORDER = list(Suit)


def match_key(card: Card, rule: MatchRule) -> int:
    """A small int per card: under every rule but opposite-colour, cards match when their keys
    are equal; under opposite-colour a card's mates have its key with the lowest bit flipped."""
    if card.is_joker:
        return -1
    if rule is MatchRule.RANK:
        return card.rank.value
    if rule is MatchRule.IDENTICAL:
        return card.rank.value * 8 + _SUIT_ORDER.index(card.suit)  # type: ignore[arg-type]
    return card.rank.value * 2 + (card.colour is Colour.RED)


def mate_key(key: int, rule: MatchRule) -> int:
    """The key of the cards that match a card with key `key`."""
    return key ^ 1 if rule is MatchRule.OPPOSITE_COLOUR and key >= 0 else key


@functools.cache
def key_table(rule: MatchRule) -> dict[Card, int]:
    """Every card's match key under `rule`, computed once per rule (shared: do not modify)."""
    return {card: match_key(card, rule) for card in standard_deck(jokers=True)}


def is_set(cards: tuple[Card, ...] | list[Card], rule: MatchRule) -> bool:
    """Whether every two of `cards` match."""
    if len(cards) == 2:
        return cards_match(cards[0], cards[1], rule)
    return all(cards_match(a, b, rule) for a, b in combinations(cards, 2))


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


@dataclass(frozen=True, slots=True)
class Claim(Remove):
    """`seat` took a set: these positions held these cards, worth `points`."""

    cards: tuple[Card, ...]
    points: int

    kind: ClassVar[str] = "claim"


@dataclass(frozen=True, slots=True)
class Miss(Event):
    """The cards turned up this turn did not make a set and went face down again."""

    positions: tuple[int, ...]

    kind: ClassVar[str] = "miss"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended: the table is clear, or the turn limit was reached."""

    reason: End

    kind: ClassVar[str] = "game-over"


@dataclass(frozen=True, slots=True)
class ConcentrationView:
    """What every seat sees: the layout (face down, face up this turn, taken), scores, the turn."""

    rows: int
    cols: int
    cells: tuple[Card | Back | None, ...]
    face_up: tuple[int, ...]
    scores: tuple[int, ...]
    turn: int
    role: Role
    field: range


_view = maker(ConcentrationView)
_reveal = maker(Reveal)


class ConcentrationState(State):
    """A game of Concentration in progress."""

    def __init__(self, params: ConcentrationParams, players: int, rng: random.Random,
                 layout: Sequence[Card] | None = None) -> None:
        """Deal from `rng`, or lay out `layout` (cards by position, for stacked-deck tests)."""
        self.params = params
        self.players = players
        self.rng = rng
        self.rule = params.match
        self.set_size, self.duel, self.moves = params.set_size, params.duel, params.moves
        self.turn_passes_after_claim = params.duel or params.one_flip
        self.log: list[Logged] = []
        cards, self.backs = _deal(params, rng)
        if layout is not None:
            if sorted(map(str, layout)) != sorted(map(str, cards)):
                raise ValueError("a stacked layout must hold exactly the variant's cards")
            cards = list(layout)
        self.cards: list[Card | None] = list(cards)
        table = key_table(params.match)
        self.keys = [table[c] for c in cards]  # match key by position (see match_key)
        self.size = len(cards)
        self.cells: list[Card | Back | None] = list(self.backs)  # the public layout
        # by position: turned face up since its card last moved (what the no-idle rule asks)
        self.seen = [False] * self.size
        per = self.size // params.fields
        self.fields = [range(f * per, (f + 1) * per) for f in range(params.fields)]
        self.live = [list(field) for field in self.fields]
        # tuples of the layout and of each field's live positions, kept until the next claim
        self._layout: tuple[Card | Back | None, ...] | None = None
        self._live_tuples: list[tuple[int, ...] | None] = [None] * params.fields
        self.up: list[int] = []
        self.points = [0] * players
        self.sets = [0] * players
        self.seat = 0
        self.turns = 0
        self.turn_revealed_new = False
        self.limit = params.max_turns or TURN_LIMIT_PER_CARD * self.size
        self.ended: End | None = None
        self._to_act: tuple[int, ...] = (0,)
        self._shown: dict[int, Card] = {}  # narration: cards turned up this turn

    # -- the protocol ---------------------------------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        """The seat flipping (or answering, in the duel) now."""
        return self._to_act

    def acting_field(self) -> int:
        """The field the acting seat flips in: its own in the duel, else the only one."""
        return self._to_act[0] if self.params.duel else 0

    def legal(self, seat: int) -> tuple[int, ...]:
        """Face-down positions the seat may turn up (see the no-idle-turn rule)."""
        up = self.up
        field = self._to_act[0] if self.duel else 0
        live = self.live[field]
        if not up:
            return self._live_tuples[field] or self._freeze_live(field)
        if len(up) == self.params.set_size - 1 and not self.turn_revealed_new:
            return self._last_flip_choices(live)
        if len(up) == 1 and up[0] in live:
            i = live.index(up[0])
            return (*live[:i], *live[i + 1:])
        return tuple(p for p in live if p not in up)

    def _freeze_live(self, field: int) -> tuple[int, ...]:
        self._live_tuples[field] = frozen = tuple(self.live[field])
        return frozen

    def _last_flip_choices(self, live: list[int]) -> tuple[int, ...]:
        """Every card turned up so far was seen: the last must be unseen, or complete a set."""
        seen, up, keys = self.seen, self.up, self.keys
        if all(seen[p] or p in up for p in live):
            return tuple(p for p in live if p not in up)
        first = keys[up[0]]
        wanted = mate_key(first, self.rule) if all(keys[p] == first for p in up) else None
        return tuple([p for p in live if p not in up and (not seen[p] or keys[p] == wanted)])

    def view(self, seat: int) -> ConcentrationView:
        """The public layout; every seat sees the same table."""
        up = self.up
        if up:
            cells = self.cells.copy()
            for p in up:
                cells[p] = self.cards[p]
            layout = tuple(cells)
        else:
            layout = self._layout or self._freeze_layout()
        duel = self.params.duel
        field = self.fields[self._to_act[0] if duel else 0]
        role = Role.ANSWER if duel and up else Role.FLIP
        return _view(self.params.rows, self.params.cols, layout, tuple(up), tuple(self.points),
                     self.turns, role, field)

    def _freeze_layout(self) -> tuple[Card | Back | None, ...]:
        self._layout = tuple(self.cells)
        return self._layout

    def apply(self, seat: int, action: Any) -> None:
        """Turn up the card at position `action`; a full turn is then scored."""
        pos: int = action  # type: ignore[assignment]  # the match loop passes a value of legal()
        up = self.up
        up.append(pos)
        if not self.seen[pos]:
            self.seen[pos] = True
            self.turn_revealed_new = True
        self.log.append(Logged(_reveal(seat, pos, self.cards[pos]), None))  # type: ignore[arg-type]
        if len(up) == self.set_size:
            self._finish_turn()
        elif self.duel:
            self._to_act = (1 - seat,)

    def outcome(self) -> Outcome:
        """Scores by the chosen scoring; in solitaire the score is the number of turns."""
        final: dict[str, Any] = {
            "end": (self.ended or End.CLEARED).value,
            "sets": list(self.sets),
            "points": list(self.points),
            "left": sum(len(f) for f in self.live),
        }
        if self.players == 1:
            return Outcome((float(self.turns),), ScoreOrder.LOWER_WINS, self.turns, final)
        scores: list[float] = [float(p) for p in self.points]
        if self.params.scoring is not Scoring.SETS:
            scores = [float(c) for c in _chips(self.points, self.params.scoring)]
            final["chips"] = [int(c) for c in scores]
        return Outcome(tuple(scores), ScoreOrder.HIGHER_WINS, self.turns, final)

    def visible_cards(self, seat: int) -> Collection[Card]:
        """The cards face up this turn."""
        return [self._card(p) for p in self.up]

    def _card(self, pos: int) -> Card:
        card = self.cards[pos]
        assert card is not None, f"no card at position {pos}"
        return card

    # -- turn resolution ------------------------------------------------------------------------

    def _finish_turn(self) -> None:
        up, self.up = self.up, []
        self.turns += 1
        flipper = self.seat
        taker = self._to_act[0]  # the answering seat in the duel, else the flipper
        keys = self.keys
        wanted = mate_key(keys[up[0]], self.rule)
        claimed = True
        for p in up[1:]:
            if keys[p] != wanted:
                claimed = False
                break
        if claimed:
            self._claim(taker, up)
        else:
            self.log.append(Logged(Miss(flipper, tuple(up)), None))
        self.turn_revealed_new = False
        if not any(self.live):
            return self._end(End.CLEARED)
        if self.turns >= self.limit:
            return self._end(End.TURN_LIMIT)
        if not claimed and self.moves:
            self._move_cards()
        if not claimed or self.turn_passes_after_claim:
            self.seat = (flipper + 1) % self.players
        self._to_act = (self.seat,)

    def _claim(self, taker: int, up: list[int]) -> None:
        cards = tuple([self._card(p) for p in up])
        worth = 2 if cards[0].is_joker and self.rule is MatchRule.RANK else 1
        self.points[taker] += worth
        self.sets[taker] += 1
        for p in up:
            self.cards[p] = None
            self.cells[p] = None
            field = self._field_of(p)
            self.live[field].remove(p)
            self._live_tuples[field] = None
        self._layout = None
        self.log.append(Logged(Claim(taker, tuple(up), cards, worth), None))

    def _end(self, reason: End) -> None:
        self.ended = reason
        self._to_act = ()
        self.log.append(Logged(GameOver(None, reason), None))

    def _field_of(self, pos: int) -> int:
        return pos * self.params.fields // self.size

    def _move_cards(self) -> None:
        count = self.rng.randint(0, self.params.moves)
        swaps: list[tuple[int, int]] = []
        live = self.live[0]
        for _ in range(count):
            a = self.rng.choice(live)
            mates = [p for p in live if p != a and self.backs[p] is self.backs[a]]
            if not mates:
                continue
            b = self.rng.choice(mates)
            self.cards[a], self.cards[b] = self.cards[b], self.cards[a]
            self.keys[a], self.keys[b] = self.keys[b], self.keys[a]
            self.seen[a], self.seen[b] = self.seen[b], self.seen[a]
            swaps.append((a, b))
        shown = tuple(swaps) if self.params.show_moves else None
        if swaps and shown is None:  # nobody knows any more which card lies where
            self.seen = [False] * self.size
        self.log.append(Logged(Move(None, len(swaps), shown), None))

    # -- spectators -----------------------------------------------------------------------------

    def render(self, shown: Mapping[int, Card] | None = None) -> str:
        """The table as text: '##' face down ('r#'/'b#' by back), cards face up, '..' taken."""
        shown = dict(shown or {})
        for p in self.up:
            shown[p] = self._card(p)
        cols = self.params.cols
        per = self.size // self.params.fields
        lines = ["     " + "".join(f"{c + 1:>4}" for c in range(cols))]
        for field in range(self.params.fields):
            if self.params.fields > 1:
                lines.append(f"  field of seat {field}")
            for r in range(self.params.rows):
                row = []
                for c in range(cols):
                    p = field * per + r * cols + c
                    row.append(f"{_cell_text(self.cards[p], self.backs[p], shown.get(p)):>4}")
                lines.append(f"  {_row_name(r)}  " + "".join(row))
        return "\n".join(lines)

    def narrate_deal(self) -> list[str]:
        """The layout as dealt, all face down."""
        return [self.render(), ""]

    def narrate(self, event: Event, names: Sequence[str]) -> list[str]:
        """Spectator lines: the turn, each card turned, the layout at the end of a turn, scores."""
        who = names[event.seat] if event.seat is not None else ""
        if isinstance(event, Reveal):
            lines = []
            if not self._shown:
                lines.append(f"Turn {self.turns + 1}: {who}")
            self._shown[event.position] = event.card
            lines.append(f"  {who} turns up {event.card} at "
                         f"{self.position_name(event.position)}")
            return lines
        if isinstance(event, Claim | Miss):
            shown, self._shown = self._shown, {}
            cards = " ".join(str(c) for c in shown.values())
            verdict = (f"  {who} takes {cards}" + (f" ({event.points} points)"
                                                     if event.points > 1 else "")
                       if isinstance(event, Claim) else f"  no match: {cards} go face down")
            scores = ", ".join(f"{n} {p}" for n, p in zip(names, self.points, strict=True))
            return [self.render(shown), verdict, *fit(f"score: {scores}"), ""]
        if isinstance(event, Move):
            where = (" (" + ", ".join(f"{self.position_name(a)}<->{self.position_name(b)}"
                                      for a, b in event.swaps) + ")") if event.swaps else ""
            return [f"  {event.count} swap(s) of face-down cards{where}", ""]
        if isinstance(event, GameOver):
            return [f"Game over ({event.reason.value}) after {self.turns} turns"]
        return super().narrate(event, names)

    def position_name(self, pos: int) -> str:
        """A position as row letter and column number, e.g. 'B7' (with the field in the duel)."""
        per = self.size // self.params.fields
        field, rest = divmod(pos, per)
        name = f"{_row_name(rest // self.params.cols)}{rest % self.params.cols + 1}"
        return f"{name}/{field}" if self.params.fields > 1 else name


def _row_name(row: int) -> str:
    return chr(ord("A") + row)


def _cell_text(card: Card | None, back: Back, shown: Card | None) -> str:
    if shown is not None:
        return str(shown)
    if card is None:
        return ".."
    return {Back.PLAIN: "##", Back.RED: "r#", Back.BLUE: "b#"}[back]


def layout_backs(params: ConcentrationParams) -> tuple[Back, ...]:
    """The back of the card at each position: a checkerboard of red and blue, or all plain."""
    size = params.field_size * params.fields
    if not params.checkerboard:
        return (Back.PLAIN,) * size
    return tuple(Back.RED if (p // params.cols + p % params.cols) % 2 == 0 else Back.BLUE
                 for p in range(size))


def _deal(params: ConcentrationParams, rng: random.Random) -> tuple[list[Card], tuple[Back, ...]]:
    """Shuffle and lay out the cards; returns the cards by position and the backs by position."""
    backs = layout_backs(params)
    if params.checkerboard:
        packs = {Back.RED: standard_deck(params.jokers), Back.BLUE: standard_deck(params.jokers)}
        for pack in packs.values():
            rng.shuffle(pack)
        return [packs[b].pop() for b in backs], backs
    if params.duel:
        cards: list[Card] = []
        for _ in range(2):  # each player shuffles a pack of their own
            pack = standard_deck(params.jokers)
            rng.shuffle(pack)
            cards += pack
        return cards, backs
    cards = standard_deck(params.jokers) * params.decks
    rng.shuffle(cards)
    return cards, backs


def _chips(points: list[int], scoring: Scoring) -> list[int]:
    """Net chips: the leaders take one from each other player, or one per pair from each other."""
    n = len(points)
    if scoring is Scoring.CHIPS_PER_PAIR:
        total = sum(points)
        return [n * p - total for p in points]
    best = max(points)
    leaders = [s for s in range(n) if points[s] == best]
    if len(leaders) == n:
        return [0] * n
    return [(n - len(leaders)) if s in leaders else -len(leaders) for s in range(n)]


class Concentration(Game):
    """Concentration: turn up cards two at a time (four in four-of-a-kind) and take the sets."""

    name = "concentration"
    title = "Concentration (Memory, Pelmanism)"
    params_type = ConcentrationParams
    presets = PRESETS
    default_preset = "standard"

    def new_state(self, params: Params, players: int, rng: random.Random) -> ConcentrationState:
        """Shuffle and lay out a new game."""
        assert isinstance(params, ConcentrationParams)
        return ConcentrationState(params, players, rng)


GAME = register(Concentration())
