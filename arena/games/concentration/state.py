"""A game of Concentration in progress: the deal, the turns, the scoring and the narration."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from arena.api import Event, Move, Reveal
from arena.cards import Card, standard_deck
from arena.engine import Outcome, ScoreOrder, State
from arena.frozen import maker
from arena.games.common import fit, stacked
from arena.games.concentration.matching import MatchRule, key_table, mate_key
from arena.games.concentration.table import (
    Back,
    Claim,
    ConcentrationView,
    End,
    GameOver,
    Miss,
    Role,
    layout_backs,
)
from arena.games.concentration.variants import (
    TURN_LIMIT_PER_CARD,
    ConcentrationParams,
    Scoring,
)

# Built for every decision or turn: made through their slots (see arena/frozen.py).
_new_view = maker(ConcentrationView)
_new_reveal = maker(Reveal)
_new_miss = maker(Miss)
_new_claim = maker(Claim)


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
        super().__init__()
        cards, self.backs = _deal(params, rng)
        if layout is not None:
            cards = stacked(layout, cards, "layout")
        self.cards: list[Card | None] = list(cards)
        table = key_table(params.match)
        self.keys = [table[c] for c in cards]  # match key by position (see match_key)
        self.size = len(cards)
        self.cells: list[Card | Back | None] = list(self.backs)  # the public layout
        # by position: turned face up since its card last moved (what the no-idle rule asks)
        self.seen = [False] * self.size
        # by match key: how many of the cards still on the table were seen (the public
        # position a luck model reads at every flip, kept here rather than counted each time)
        self.known: dict[object, int] = {}
        per = self.size // params.fields
        self.fields = [range(f * per, (f + 1) * per) for f in range(params.fields)]
        self.live = [list(field) for field in self.fields]
        # tuples of the layout and of each field's live positions, kept until the next claim
        self._layout: tuple[Card | Back | None, ...] | None = None
        self._live_tuples: list[tuple[int, ...] | None] = [None] * params.fields
        self._scores: tuple[int, ...] | None = None
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
        # in the duel a seat sees the field of the seat to act; once the game is over, its own
        field = self.fields[(self._to_act[0] if self._to_act else seat) if duel else 0]
        role = Role.ANSWER if duel and up else Role.FLIP
        scores = self._scores or self._freeze_scores()
        return _new_view(self.params.rows, self.params.cols, layout, tuple(up), scores, self.turns,
                     role, field)

    def _freeze_scores(self) -> tuple[int, ...]:
        self._scores = tuple(self.points)
        return self._scores

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
            key = self.keys[pos]
            self.known[key] = self.known.get(key, 0) + 1
        self.log.append(_new_reveal(seat, pos, self.cards[pos]))  # type: ignore[arg-type]
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
            self.log.append(_new_miss(flipper, tuple(up)))
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
        self._scores = None
        self.sets[taker] += 1
        known = self.known
        for p in up:
            key = self.keys[p]
            known[key] -= 1  # every card turned up was seen
            if not known[key]:
                del known[key]
            self.cards[p] = None
            self.cells[p] = None
            field = self._field_of(p)
            self.live[field].remove(p)
            self._live_tuples[field] = None
        self._layout = None
        self.log.append(_new_claim(taker, tuple(up), cards, worth))

    def _end(self, reason: End) -> None:
        self.ended = reason
        self._to_act = ()
        self.log.append(GameOver(None, reason))

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
            self.known = {}
        self.log.append(Move(None, len(swaps), shown))

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
