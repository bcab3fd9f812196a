"""`bundle-search`: determinized search for Stealing the Old Man's Bundle, with the last round
solved exactly.

Suits never matter in the Bundle, so a position is kept as ranks alone (`Position`): the two
hands, the count of each rank on the table, each bundle's size and top rank, the stock in deal
order. Play on it is a few list operations, fast enough for many playouts a decision.

- **Last round** (the stock empty): every card is known (the unseen cards are exactly the
  opponent's hand), so the bot solves the rest of the game exactly by minimax on the margin
  (`solve`) and plays the best move outright.
- **Earlier rounds**: Perfect Information Monte Carlo over the game's own sampler
  (`BundleSampler`): on each sampled deal every distinct move (verb and rank) is played, then
  the game is played out by `reply_aware` for both seats (the gain of a move less the best
  immediate reply it allows the opponent, from the opponent's cards in that sample: a cheap
  version of `bundle-sharp`'s rule), and the move of best mean margin is chosen. The last
  round of each playout can itself be solved exactly (`exact_tail`), but that costs about 40 s
  a game against half a second without it, so it is off by default.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, ClassVar

from arena.api import Action, Observation
from arena.engine import Knowledge, State
from arena.games.old_mans_bundle import BundleState, Leftover, TakeRule, Verb
from arena.games.old_mans_bundle import actions as bundle_actions
from bots.algorithms.hints import Playout, SearchHints
from bots.algorithms.search import SearchBot
from bots.old_mans_bundle.heuristic import BundleSimpleBot

STEAL, TAKE, TRAIL = 0, 1, 2
"""The verbs of a move on a `Position`, in the order the engine lists them."""

_VERBS = {Verb.STEAL: STEAL, Verb.TAKE: TAKE, Verb.TRAIL: TRAIL}

Move = tuple[int, int]
"""A move on a `Position`: (verb, rank)."""


class Position:
    """A game of the Bundle reduced to ranks (1 to 13): mutable, for playouts and the solver."""

    __slots__ = (
        "hands",
        "last",
        "seat",
        "sizes",
        "stock",
        "table",
        "take_one",
        "to_last",
        "tops",
    )

    def __init__(self, hands: list[list[int]], table: list[int], sizes: list[int],
                 tops: list[int], stock: list[int], seat: int, last: int, take_one: bool,
                 to_last: bool) -> None:
        """`table`: the count of each rank (index 0 unused); `tops`: 0 for an empty bundle;
        `stock`: the next card to deal last; `seat`: to move (-1 at the end); `last`: the last
        seat to capture (-1: none yet); `take_one`, `to_last`: the variant's rules."""
        self.hands = hands
        self.table = table
        self.sizes = sizes
        self.tops = tops
        self.stock = stock
        self.seat = seat
        self.last = last
        self.take_one = take_one
        self.to_last = to_last

    def copy(self) -> Position:
        """An independent copy."""
        return Position([list(self.hands[0]), list(self.hands[1])], list(self.table),
                        list(self.sizes), list(self.tops), list(self.stock), self.seat,
                        self.last, self.take_one, self.to_last)


def from_state(state: BundleState) -> Position:
    """The engine's state as ranks (the same deal order, so both play on identically)."""
    table = [0] * 14
    for card in state.table:
        table[card.rank.value] += 1
    return Position(
        [[c.rank.value for c in hand] for hand in state.hands], table,
        [len(b) for b in state.bundles], [b[-1].rank.value if b else 0 for b in state.bundles],
        [c.rank.value for c in state.stock], -1 if state.seat is None else state.seat,
        -1 if state.last_taker is None else state.last_taker,
        state.params.take is TakeRule.ONE, state.params.leftover is Leftover.LAST_TAKER)


def moves(pos: Position) -> list[Move]:
    """The distinct moves of the seat to move: per rank in hand, steal, take, then trail."""
    me = pos.seat
    top = pos.tops[1 - me]
    out: list[Move] = []
    previous = 0
    for rank in pos.hands[me]:
        if rank == previous:
            continue
        previous = rank
        if rank == top:
            out.append((STEAL, rank))
        if pos.table[rank]:
            out.append((TAKE, rank))
        out.append((TRAIL, rank))
    return out


def play(pos: Position, move: Move) -> None:
    """Play `move` for the seat to move; deal the next round, or end the game, as the engine
    does."""
    verb, rank = move
    me = pos.seat
    other = 1 - me
    pos.hands[me].remove(rank)
    if verb == STEAL:
        pos.sizes[me] += pos.sizes[other] + 1
        pos.sizes[other] = 0
        pos.tops[other] = 0
        pos.tops[me] = rank
        pos.last = me
    elif verb == TAKE:
        taken = 1 if pos.take_one else pos.table[rank]
        pos.table[rank] -= taken
        pos.sizes[me] += taken + 1
        pos.tops[me] = rank
        pos.last = me
    else:
        pos.table[rank] += 1
    pos.seat = other
    if not pos.hands[other] and not pos.hands[me]:
        if pos.stock:
            stock = pos.stock
            dealt = [stock.pop() for _ in range(8)]
            pos.hands = [sorted(dealt[0::2]), sorted(dealt[1::2])]
            pos.seat = 0
        else:
            pos.seat = -1


def margin(pos: Position, seat: int) -> int:
    """The seat's bundle less the opponent's, counting the cards left on the table where the
    variant gives them to the last taker (at the end of the game)."""
    value = pos.sizes[seat] - pos.sizes[1 - seat]
    if pos.to_last and pos.last >= 0 and pos.seat == -1:
        left = sum(pos.table)
        value += left if pos.last == seat else -left
    return value


def solve(pos: Position, memo: dict[tuple[Any, ...], int] | None = None) -> int:
    """The exact margin of seat 0 at the end of the game with best play by both seats from
    `pos` (minimax, with the positions met remembered in `memo`). Meant for the last round,
    where it is quick; it plays later rounds from the stock as dealt."""
    if pos.seat == -1:
        return margin(pos, 0)
    memo = {} if memo is None else memo
    key = (tuple(pos.hands[0]), tuple(pos.hands[1]), tuple(pos.table), pos.sizes[0],
           pos.sizes[1], pos.tops[0], pos.tops[1], pos.seat, pos.last if pos.to_last else 0,
           len(pos.stock))
    found = memo.get(key)
    if found is not None:
        return found
    values = []
    for move in moves(pos):
        child = pos.copy()
        play(child, move)
        values.append(solve(child, memo))
    value = max(values) if pos.seat == 0 else min(values)
    memo[key] = value
    return value


def solve_moves(pos: Position) -> dict[Move, int]:
    """Each move's exact margin for the seat to move (see `solve`)."""
    memo: dict[tuple[Any, ...], int] = {}
    sign = 1 if pos.seat == 0 else -1
    out = {}
    for move in moves(pos):
        child = pos.copy()
        play(child, move)
        out[move] = sign * solve(child, memo)
    return out


def reply_aware(pos: Position, rng: random.Random) -> Move:
    """The playout policy: the move of best gain (in the bundle difference: a steal of n cards
    2n + 1, a take of k cards k + 1) less the opponent's best immediate reply to it, read from
    the opponent's cards in this (sampled) position; ties broken at random."""
    me = pos.seat
    other = 1 - me
    theirs = pos.hands[other]
    if not theirs and pos.stock:  # the round ends: seat 0 (`other`) gets the next hand
        theirs = pos.stock[-1::-2][:4]
    table = pos.table
    mine, top, their_size = pos.sizes[me], pos.tops[me], pos.sizes[other]
    take_one = pos.take_one
    best: list[Move] = []
    best_value = -1_000
    for move in moves(pos):
        verb, rank = move
        taken = 0
        if verb == STEAL:
            gain, size, new_top = 2 * their_size + 1, mine + their_size + 1, rank
        elif verb == TAKE:
            taken = 1 if take_one else table[rank]
            gain, size, new_top = taken + 1, mine + taken + 1, rank
        else:
            gain, size, new_top = 0, mine, top
        reply = 0
        for r in theirs:
            value = 2 * size + 1 if r == new_top and size else 0
            count = table[r]
            if r == rank:
                count += 1 if verb == TRAIL else -taken if verb == TAKE else 0
            if count > 0:
                value = max(value, (1 if take_one else count) + 1)
            if value > reply:
                reply = value
        value = gain - reply
        if value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


def random_policy(pos: Position, rng: random.Random) -> Move:
    """A uniformly random move (for comparison)."""
    options = moves(pos)
    return options[rng.randrange(len(options))]


POLICIES: dict[str, Callable[[Position, random.Random], Move]] = {
    "reply": reply_aware, "random": random_policy,
}
"""The playout policies of `bundle-search`."""


def play_out(pos: Position, policy: Callable[[Position, random.Random], Move],
             rng: random.Random, exact_tail: bool) -> int:
    """Play `pos` to the end with `policy` and return seat 0's margin; with `exact_tail`, the
    last round (once the stock is empty) is solved exactly instead."""
    while pos.seat != -1:
        if exact_tail and not pos.stock:
            return solve(pos)
        play(pos, policy(pos, rng))
    return margin(pos, 0)


class BundleSearchBot(SearchBot):
    """PIMC with rank-level playouts by a reply-aware policy, and the last round solved
    exactly."""

    games: ClassVar[tuple[str, ...]] = ("old-mans-bundle",)

    def __init__(self, samples: int = 40, rollouts: int = 1, budget: float = 0.0,
                 policy: str = "reply", exact_tail: bool = False) -> None:
        """`samples`: deals sampled a decision; `rollouts`: playouts of each move on each
        sample; `budget`: ms a decision may take before it stops sampling (0: no limit,
        deterministic); `policy`: `reply` or `random`; `exact_tail`: solve the last round of
        each playout exactly (slow: off by default)."""
        if policy not in POLICIES:
            raise ValueError(f"policy is reply or random, not {policy!r}")
        super().__init__(samples=samples, rollouts=rollouts, budget=budget, policy="random")
        self.playout = POLICIES[policy]
        self.exact_tail = exact_tail

    def act(self, obs: Observation[Any]) -> Action:
        """The exact best move in the last round, else the move of best mean playout margin."""
        self.seen += obs.events
        if len(obs.legal) == 1:
            return obs.legal[0]
        first: dict[Move, Action] = {}
        for action in obs.legal:
            read = bundle_actions.read(action)
            first.setdefault((_VERBS[read.verb], read.card.rank.value), action)
        if len(first) == 1:
            return obs.legal[0]
        knowledge = Knowledge(self.params, self.info.players, obs.seat, tuple(self.seen),
                              obs.view)
        if obs.view.stock == 0:  # nothing is hidden: the one sample is the real position
            state = self.sampler.sample(knowledge, 1, self.rng)[0]
            assert isinstance(state, BundleState)
            values = solve_moves(from_state(state))
            return first[max(first, key=lambda m: values[m])]
        totals = self.totals(knowledge, list(first))
        return first[max(first, key=lambda m: totals[m])]

    def totals(self, knowledge: Knowledge, options: list[Move]) -> dict[Move, float]:
        """Each move's total margin over the samples and playouts."""
        deadline = time.perf_counter() + self.budget / 1000 if self.budget else None
        seat = knowledge.seat
        sign = 1 if seat == 0 else -1
        totals = dict.fromkeys(options, 0.0)
        for state in self.sampler.sample(knowledge, self.samples, self.rng):
            assert isinstance(state, BundleState)
            root = from_state(state)
            for move in options:
                for _ in range(self.rollouts):
                    pos = root.copy()
                    play(pos, move)
                    totals[move] += sign * play_out(pos, self.playout, self.rng,
                                                    self.exact_tail)
            if deadline is not None and time.perf_counter() > deadline:
                break
        return totals


def bundle_greedy(state: State, seat: int, rng: random.Random) -> Action:
    """The Old Man's Bundle's playout policy: the capture that gains most at once (a steal of n
    cards gains 2n + 1, a take of k cards k + 1), else a random trail. `bundle-simple` takes a
    capture at random, which makes playouts misjudge steals, the game's biggest swings."""
    legal = state.legal(seat)
    view = state.view(seat)
    best, gain = None, 0
    for action in legal:
        move = bundle_actions.read(action)
        if move.verb is Verb.STEAL:
            value = 2 * view.bundles[1 - seat] + 1
        elif move.verb is Verb.TAKE:
            value = 1 + sum(1 for t in view.table if t.rank == move.card.rank
                            and (move.target is None or t == move.target))
        else:
            continue
        if value > gain:
            best, gain = action, value
    if best is not None:
        return best
    return legal[rng.randrange(len(legal))]


SEARCH_HINTS = SearchHints(Playout.GREEDY, greedy=bundle_greedy, simple=BundleSimpleBot, depth=8)
"""What the Old Man's Bundle tells the generic search: greedy playouts (docs/strategy.md,
section 9) of eight plies: a playout stops after a round's worth of plays and counts the bundles
as they stand: what one move changes is settled by then, and later rounds only add the noise of
random trails and steals."""
