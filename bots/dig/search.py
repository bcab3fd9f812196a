"""`dig-search`: determinized search for Dig, with a fast playout engine, a sharp playout
policy, and an exact endgame.

The generic `search` (bots/algorithms/search.py) plays Dig's playouts on the engine's own
`DigState`, which
logs every event and re-checks every action, and with a weak policy (a random card other than an
eight). Here a sampled state is copied once into `FastDig`, a bare Dig on bit masks (the same
rules: follow suit or rank, eights wild, dig until a card follows, pass when the stock is out, two
passes in a row block the game), and played out by `sharp_play` and `sharp_name`: a cheap
version of `dig-sharp`'s rules that may look at both hands, since a sampled deal hides nothing.
Each player keeps its eights until nothing else follows, and leaves on the pile the card (or
names the suit or rank) that the other hand cannot follow, else the one its own hand follows
most. Playouts that fast allow many more samples a decision.

Search itself is PIMC as in `search`: at a decision with more than one legal action, the
sampler (`DigSampler`, here reading an eight the opponent plays with cards left as "nothing
else followed", which is how `dig-sharp` plays) deals the hidden cards again `samples` times; on
every sample each legal action is played and then played out `rollouts` times; the action of
best mean final margin (cards left in the opponent's hand less one's own, the game's score) is
played. The same samples serve every action (common random numbers). Once the stock is out
(`exact`), nothing is hidden any more (the unseen cards are the opponent's hand): `Endgame`
then solves the position exactly, when it can within `limit` positions (else it plays it out
`samples` times). All chance comes from the bot's rng; `budget` (ms, 0 = none) stops adding
samples once a decision has used that much time.
"""

from __future__ import annotations

import random
import time
from typing import Any, ClassVar

from arena.api import Action, Bot, Event, GameInfo, Observation
from arena.cards import Card, Rank, Suit
from arena.engine import Knowledge, State
from arena.games.dig import WILD, Phase
from arena.games.dig import actions as act
from arena.games.dig.sampler import DigSampler
from arena.games.dig.state import DigState
from arena.games.dig.variants import DigParams, Naming, StockOut
from bots.algorithms.hints import Playout, SearchHints
from bots.algorithms.search_base import params_of
from bots.dig.heuristic import DigSimpleBot

NONE = -1
"""A target's suit or rank that is not asked."""

EIGHT = WILD.value - 1
"""The rank index of an eight (ranks are 0 for the ace to 12 for the king)."""

_SUITS = tuple(Suit)
_SUIT_INDEX = {s: i for i, s in enumerate(_SUITS)}
SUIT_OF = tuple(c // 13 for c in range(52))
"""The suit index of each card number."""
RANK_OF = tuple(c % 13 for c in range(52))
"""The rank index of each card number."""

SHARP_WEIGHT = 3
"""What a card the other hand cannot follow is worth in the playout policy, in cards of one's own
hand that follow (`dig-sharp`'s `pressure`, and likewise doubled near the end)."""


EIGHTS = sum(1 << c for c in range(52) if RANK_OF[c] == EIGHT)
"""The mask of the four eights (card number c is bit c)."""
SUIT_MASK = tuple(sum(1 << c for c in range(52) if SUIT_OF[c] == s) for s in range(4))
RANK_MASK = tuple(sum(1 << c for c in range(52) if RANK_OF[c] == r) for r in range(13))


def accepted(suit: int, rank: int) -> int:
    """The mask of the cards a pile asking for `suit` or `rank` accepts (eights always)."""
    mask = EIGHTS
    if suit != NONE:
        mask |= SUIT_MASK[suit]
    if rank != NONE:
        mask |= RANK_MASK[rank]
    return mask


FOLLOWS = tuple(accepted(SUIT_OF[c], RANK_OF[c]) for c in range(52))
"""The mask of the cards that may follow card number c (eights included)."""


def number(card: Card) -> int:
    """A card's number in `FastDig`: suit index times 13 plus rank index."""
    assert card.suit is not None
    return _SUIT_INDEX[card.suit] * 13 + card.rank.value - 1


def card_of(n: int) -> Card:
    """The card of a `FastDig` number."""
    return Card(Rank(RANK_OF[n] + 1), _SUITS[SUIT_OF[n]])


def mask_of(numbers: list[int]) -> int:
    """The mask of some card numbers."""
    mask = 0
    for c in numbers:
        mask |= 1 << c
    return mask


def numbers_of(mask: int) -> list[int]:
    """The card numbers of a mask, in hand order."""
    out = []
    while mask:
        bit = mask & -mask
        out.append(bit.bit_length() - 1)
        mask ^= bit
    return out


class FastDig:
    """A bare game of Dig on card numbers, for playouts: hands as bit masks, no events, no
    checks."""

    __slots__ = (
        "accept",
        "hands",
        "max_turns",
        "naming",
        "over",
        "passes",
        "pile",
        "rank",
        "ranks_named",
        "reshuffle",
        "rng",
        "seat",
        "stock",
        "suit",
        "turns",
    )

    def __init__(self, hands: list[int], stock: list[int], pile: list[int], suit: int,
                 rank: int, seat: int, naming: bool, passes: int, turns: int, ranks_named: bool,
                 reshuffle: bool, max_turns: int, rng: random.Random) -> None:
        """The position: hands (masks), stock (card numbers, the next card dug last), pile (top
        last), what the pile asks for (`NONE` where a part is not asked), the seat to act,
        whether it must name, passes in a row, turns played, and the variant's rules."""
        self.hands = hands
        self.stock = stock
        self.pile = pile
        self.suit = suit
        self.rank = rank
        self.accept = accepted(suit, rank)
        self.seat = seat
        self.naming = naming
        self.passes = passes
        self.turns = turns
        self.over = False
        self.ranks_named = ranks_named
        self.reshuffle = reshuffle
        self.max_turns = max_turns
        self.rng = rng

    @classmethod
    def of(cls, state: DigState, rng: random.Random) -> FastDig:
        """The engine's state as a `FastDig` (a sampled state: the seat to act has a choice)."""
        params: DigParams = state.params
        target = state.target
        game = cls([mask_of([number(c) for c in h]) for h in state.hands],
                   [number(c) for c in state.stock], [number(c) for c in state.pile],
                   _SUIT_INDEX[target.suit] if target.suit is not None else NONE,
                   target.rank.value - 1 if target.rank is not None else NONE,
                   state.seat, state.phase is Phase.NAME, state.passes, state.turns,
                   params.naming is Naming.SUIT_OR_RANK, params.stock_out is StockOut.RESHUFFLE,
                   params.max_turns, rng)
        game.over = state.phase is Phase.OVER
        return game

    def copy(self) -> FastDig:
        """An independent copy (the rng is shared)."""
        twin = FastDig.__new__(FastDig)
        twin.hands = self.hands[:]
        twin.stock = self.stock[:]
        twin.pile = self.pile[:]
        twin.suit = self.suit
        twin.rank = self.rank
        twin.accept = self.accept
        twin.seat = self.seat
        twin.naming = self.naming
        twin.passes = self.passes
        twin.turns = self.turns
        twin.over = self.over
        twin.ranks_named = self.ranks_named
        twin.reshuffle = self.reshuffle
        twin.max_turns = self.max_turns
        twin.rng = self.rng
        return twin

    def follows(self, card: int) -> bool:
        """Whether `card` may be played now."""
        return bool(self.accept >> card & 1)

    def margin(self, seat: int) -> int:
        """Cards in the other hand less cards in the seat's own: the seat's score."""
        return self.hands[1 - seat].bit_count() - self.hands[seat].bit_count()

    def play(self, card: int) -> None:
        """The seat to act plays `card` (it must follow)."""
        seat = self.seat
        hand = self.hands[seat] ^ (1 << card)
        self.hands[seat] = hand
        self.pile.append(card)
        if not hand:
            self.turns += 1
            self.over = True
        elif RANK_OF[card] == EIGHT:
            self.naming = True
        else:
            self.suit, self.rank = SUIT_OF[card], RANK_OF[card]
            self.accept = FOLLOWS[card]
            self._end_turn()

    def name(self, suit: int, rank: int) -> None:
        """The seat to act, having played an eight, names a suit or a rank (the other `NONE`)."""
        self.suit, self.rank = suit, rank
        self.accept = accepted(suit, rank)
        self.naming = False
        self._end_turn()

    def begin(self) -> None:
        """Dig (or pass) for the seat to act until it can play: for a position whose seat to act
        may not have a playable card yet."""
        self._begin_turn()

    def _end_turn(self) -> None:
        self.turns += 1
        self.passes = 0
        self.seat = 1 - self.seat
        if self.turns >= self.max_turns:
            self.over = True
        else:
            self._begin_turn()

    def _begin_turn(self) -> None:
        while not self.hands[self.seat] & self.accept and not self._dig():
            self.turns += 1
            self.passes += 1
            self.seat = 1 - self.seat
            if self.passes >= 2 or self.turns >= self.max_turns:
                self.over = True
                return

    def _dig(self) -> bool:
        """Dig for the seat to act until a card follows; False if none came."""
        stock = self.stock
        accept = self.accept
        hand = self.hands[self.seat]
        try:
            while True:
                if not stock:
                    if not self.reshuffle or len(self.pile) < 2:
                        return False
                    top = self.pile.pop()
                    stock = self.stock = self.pile
                    self.rng.shuffle(stock)
                    self.pile = [top]
                bit = 1 << stock.pop()
                hand |= bit
                if bit & accept:
                    return True
        finally:
            self.hands[self.seat] = hand


def sharp_play(game: FastDig) -> int:
    """The playout policy's card: an eight only when nothing else follows (or it is the last
    card); else the card the other hand cannot follow, then the one its own hand follows most
    (ties at random)."""
    seat = game.seat
    hand = game.hands[seat]
    plays = hand & game.accept
    others = plays & ~EIGHTS
    if not others or not plays & (plays - 1):
        return (plays & -plays).bit_length() - 1
    opp = game.hands[1 - seat]
    weight = SHARP_WEIGHT * (2 if opp.bit_count() <= 2 else 1)
    plain = hand & ~EIGHTS
    best, value, ties = 0, -1, 0
    while others:
        bit = others & -others
        others ^= bit
        c = bit.bit_length() - 1
        follows = FOLLOWS[c]
        v = (plain & follows).bit_count()  # the card itself counts: the same for every card
        if not opp & follows:
            v += weight
        if v > value:
            best, value, ties = c, v, 1
        elif v == value:
            ties += 1
            if game.rng.randrange(ties) == 0:
                best = c
    return best


def sharp_name(game: FastDig) -> tuple[int, int]:
    """The playout policy's naming: the suit (or rank, where allowed) the other hand cannot
    follow, then the one its own hand holds most of; as (suit, rank), one of them `NONE`."""
    seat = game.seat
    plain = game.hands[seat] & ~EIGHTS
    opp = game.hands[1 - seat]
    weight = 0 if opp & EIGHTS else SHARP_WEIGHT * (2 if opp.bit_count() <= 2 else 1)
    best, value = (0, NONE), -1
    for s in range(4):
        mask = SUIT_MASK[s]
        v = (plain & mask).bit_count() + (0 if opp & mask else weight)
        if v > value:
            best, value = (s, NONE), v
    if game.ranks_named:
        for r in range(13):
            if r == EIGHT:
                continue
            mask = RANK_MASK[r]
            v = (plain & mask).bit_count() + (0 if opp & mask else weight)
            if v > value:
                best, value = (NONE, r), v
    return best


def play_out(game: FastDig) -> None:
    """Play `game` to its end with the sharp playout policy for both seats."""
    while not game.over:
        if game.naming:
            suit, rank = sharp_name(game)
            game.name(suit, rank)
        else:
            game.play(sharp_play(game))


def apply_action(game: FastDig, action: Action) -> None:
    """Apply one of Dig's plain actions (a play or a naming) to `game`."""
    if action[0] == act.PLAY:  # type: ignore[index]
        game.play(number(act.read_play(action)))
        return
    choice = act.read_name(action)
    if isinstance(choice, Suit):
        game.name(_SUIT_INDEX[choice], NONE)
    else:
        game.name(NONE, choice.value - 1)


class TooBig(Exception):
    """The endgame solver met more positions than it may."""


class Endgame:
    """Exact play of a Dig position with nothing hidden (a sample, or the real game once the
    stock is out): alpha-beta negamax on the final margin over every play and naming, digs taken
    from the stock in its order. Positions are remembered (with bounds) by the hands, the stock
    left, and which live cards the pile accepts, so namings that accept the same live cards are
    one. Standard Dig only: the stock never comes back."""

    def __init__(self, limit: int = 20000) -> None:
        """`limit`: the positions it may search before it gives up (`TooBig`)."""
        self.limit = limit
        self.visits = 0
        self.memo: dict[tuple[int, int, int, int, int], tuple[int, int]] = {}
        self.stock: tuple[int, ...] = ()
        self.below: list[int] = [0]

    def value(self, game: FastDig) -> int:
        """The margin of the seat to act in `game` with exact play from here by both; `TooBig`
        once the positions searched (over every call on the same stock) pass the limit."""
        if game.over:
            return game.margin(game.seat)
        seat = game.seat
        me = game.hands[seat]
        opp = game.hands[1 - seat]
        stock = tuple(game.stock)
        if stock != self.stock or not self.memo:
            self.stock = stock
            self.below = [0]  # below[k]: the mask of the stock's first k cards
            for c in stock:
                self.below.append(self.below[-1] | 1 << c)
            self.memo = {}
        if game.naming:
            return self._name(me, opp, len(stock), -99, 99)
        return self._play(me, opp, len(stock), game.accept, game.passes, -99, 99)

    def _name(self, me: int, opp: int, k: int, alpha: int, beta: int) -> int:
        """The seat to act has played an eight and keeps `me`: its best naming."""
        live = me | opp | self.below[k]
        seen: set[int] = set()
        best = -99
        for mask in (*SUIT_MASK, *RANK_MASK):
            acc = (mask | EIGHTS) & live
            if acc in seen:
                continue
            seen.add(acc)
            value = -self._play(opp, me, k, acc, 0, -beta, -alpha)
            if value > best:
                best = value
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        return best

    def _play(self, me: int, opp: int, k: int, acc: int, passes: int, alpha: int,
              beta: int) -> int:
        key = (me, opp, k, acc & (me | opp | self.below[k]), passes)
        low, high = self.memo.get(key, (-99, 99))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        self.visits += 1
        if self.visits > self.limit:
            raise TooBig
        start = alpha
        playable = me & acc
        if not playable:
            while k:
                k -= 1
                bit = 1 << self.stock[k]
                me |= bit
                if bit & acc:
                    break
            playable = me & acc
        if not playable:
            # blocked after the other's pass, else a pass
            best = (opp.bit_count() - me.bit_count() if passes
                    else -self._play(opp, me, k, acc, 1, -beta, -alpha))
            self.memo[key] = (best, best) if passes else self._bounds(best, start, beta)
            return best
        if playable == me and not me & (me - 1):
            self.memo[key] = (opp.bit_count(), opp.bit_count())
            return opp.bit_count()  # its last card: out
        best = -99
        for bit in self._order(playable, opp):
            rest = me ^ bit
            if bit & EIGHTS:
                value = self._name(rest, opp, k, alpha, beta)
            else:
                c = bit.bit_length() - 1
                value = -self._play(opp, rest, k, FOLLOWS[c], 0, -beta, -alpha)
            if value > best:
                best = value
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        self.memo[key] = self._bounds(best, start, beta)
        return best

    @staticmethod
    def _bounds(best: int, alpha: int, beta: int) -> tuple[int, int]:
        """What a search in the window (alpha, beta) that found `best` proves."""
        if best <= alpha:
            return (-99, best)
        if best >= beta:
            return (best, 99)
        return (best, best)

    @staticmethod
    def _order(playable: int, opp: int) -> list[int]:
        """The cards to try, as bits: first those the other hand cannot follow, eights last."""
        first, then, eights = [], [], []
        while playable:
            bit = playable & -playable
            playable ^= bit
            if bit & EIGHTS:
                eights.append(bit)
                continue
            c = bit.bit_length() - 1
            (then if opp & FOLLOWS[c] else first).append(bit)
        return first + then + eights


class DigSearchBot(Bot):
    """PIMC for Dig: samples the hidden cards, tries every action on each sample, plays out with
    a fast sharp policy, and plays the action of best mean margin."""

    games: ClassVar[tuple[str, ...]] = ("dig",)

    def __init__(self, samples: int = 100, rollouts: int = 1, budget: float = 0.0,
                 eights_last: bool = True, exact: int = 0, limit: int = 10000) -> None:
        """`samples`: hidden states sampled a decision; `rollouts`: playouts of each action on
        each sample; `budget`: ms a decision may take before it stops sampling (0: no limit,
        deterministic); `eights_last`: the sampler reads an eight the opponent plays with cards
        left as "nothing else followed" (true of `dig-sharp`, see `DigBelief`); `exact`: with
        at most this many cards in the stock (-1: never), each sample is solved exactly
        (`Endgame`) instead of played out, where that takes at most `limit` positions (with
        the stock out nothing is hidden, so one sample is the real game)."""
        if samples < 1 or rollouts < 1 or budget < 0 or exact < -1 or limit < 1:
            raise ValueError("samples, rollouts and limit must be at least 1, budget at least "
                             "0, exact at least -1")
        self.samples = samples
        self.rollouts = rollouts
        self.budget = budget
        self.eights_last = eights_last
        self.exact = exact
        self.limit = limit

    def start(self, info: GameInfo) -> None:
        """Nothing seen yet."""
        super().start(info)
        self.sampler = DigSampler(self.eights_last)
        self.params: DigParams = params_of(info)  # type: ignore[assignment]
        self.seen: list[Event] = []

    def act(self, obs: Observation[Any]) -> Action:
        """The legal action of best mean margin over the sampled deals."""
        self.seen += obs.events
        if len(obs.legal) == 1:
            return obs.legal[0]
        knowledge = Knowledge(self.params, self.info.players, obs.seat, tuple(self.seen),
                              obs.view)
        totals = self.evaluate(knowledge, obs.legal)
        best = max(range(len(obs.legal)), key=lambda i: (totals[i], -i))
        return obs.legal[best]

    def evaluate(self, knowledge: Knowledge, legal: tuple[Action, ...]) -> list[float]:
        """The total margin of each legal action over the samples and rollouts."""
        deadline = time.perf_counter() + self.budget / 1000 if self.budget else None
        totals = [0.0] * len(legal)
        seat = knowledge.seat
        rng = self.rng
        stock = knowledge.view.stock
        solve = (self.params.stock_out is StockOut.PASS and stock <= self.exact)
        known = solve and stock == 0  # nothing hidden: one sample is the game itself
        rollouts = self.rollouts * (self.samples if known else 1)
        for state in self.sampler.sample(knowledge, 1 if known else self.samples, rng):
            assert isinstance(state, DigState)
            root = FastDig.of(state, rng)
            if solve:
                values = self.solved(root, legal, seat)
                if values is not None:
                    for i, value in enumerate(values):
                        totals[i] += value
                    continue
            for i, action in enumerate(legal):
                for _ in range(rollouts):
                    game = root.copy()
                    apply_action(game, action)
                    play_out(game)
                    totals[i] += game.margin(seat)
            if deadline is not None and time.perf_counter() > deadline:
                break
        return totals

    def solved(self, root: FastDig, legal: tuple[Action, ...], seat: int) -> list[int] | None:
        """The exact margin of each legal action on one sample, or None if that is too big."""
        solver = Endgame(self.limit)
        values = []
        for action in legal:
            game = root.copy()
            apply_action(game, action)
            try:
                value = solver.value(game)
            except TooBig:
                return None
            values.append(value if game.seat == seat else -value)
        return values


def dig_eights_last(state: State, seat: int, rng: random.Random) -> Action:
    """Dig's greedy playout policy: a random playable card other than an eight while there is
    one (an eight kept is a card that always follows later); after an eight, the suit held
    most."""
    legal = state.legal(seat)
    view = state.view(seat)
    if view.phase is Phase.NAME:
        counts = {suit: 0 for suit in act.SUITS}
        for card in view.hand:
            if card.rank is not WILD and card.suit is not None:
                counts[card.suit] += 1
        return act.name(max(act.SUITS, key=lambda s: counts[s]))
    others = [a for a in legal if act.read_play(a).rank is not WILD]
    pool = others or list(legal)
    return pool[rng.randrange(len(pool))]


SEARCH_HINTS = SearchHints(Playout.GREEDY, greedy=dig_eights_last, simple=DigSimpleBot)
"""What Dig tells the generic search: its greedy playouts measured best (docs/strategy.md,
section 9); its simple bot plays them when asked (`policy=simple`)."""
