"""The exact two-player minimax of Concentration when a card may have several mates (any-colour).

Pure mathematics: no engine, no randomness, standard library only. docs/strategy.md explains it;
`python scripts/make_concentration_tables.py` builds the shipped table
(bots/concentration/any_colour_minimax.xz), which holds the minimax's choices, and prints the
figures.

Under the any-colour rule (match on rank) the 52 cards form 13 *groups* of four, any two cards of
a group make a pair; a group that has given up one pair is left with two cards that match each
other. The public state is, for each group, how many of its cards are unseen (`a`) and how many
have been seen and are still on the table (`s`); groups are interchangeable, so the state is the
number of groups of each `Kind` (a, s). Two seen cards of a group are a known pair a player may
leave on the table. Rules and objective are those of bots.concentration.minimax: two players,
no idle turns, the mover's expected margin; `again`: a pair earns another turn.

The same model with groups of two only is the one-mate game of bots.concentration.minimax (kinds
(2, 0), (1, 1), (0, 2) are fresh pairs, singletons and known pairs); the tests check they agree.

Turns, by the first flip:

* a seen card of a group of kind K, then (rule) its seen mate (take the pair) or an unseen card;
* an unseen card, which lands in a group of kind K with chance ``a_K c_K / u``; then a seen card
  of the same group (take), a seen card of another group (a deliberate miss), or an unseen card.
"""

from __future__ import annotations

import functools
import lzma
import math
from collections.abc import Callable, Iterator
from importlib import resources

KINDS: tuple[tuple[int, int], ...] = ((4, 0), (3, 1), (2, 2), (1, 3), (0, 4),
                                      (2, 0), (1, 1), (0, 2))
"""Group kinds (unseen cards, seen cards on the table), in the order of a state's counts."""
KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}
UNSEEN_KINDS = tuple(i for i, (a, _) in enumerate(KINDS) if a)
"""Kinds a group can have when an unseen card of it is turned up first."""

State = tuple[int, ...]
"""How many groups of each kind are on the table (in the order of KINDS)."""

# First-flip actions: UNSEEN_FIRST, or a seen card of kind K followed by its mate or an unseen card.
UNSEEN_FIRST = 0


def seen_first(kind: int, take: bool) -> int:
    """The action code: a seen card of a group of `kind`, then its seen mate or an unseen card."""
    return 1 + 2 * kind + (0 if take else 1)


def decode_first(action: int) -> tuple[int, bool] | None:
    """(kind, take) of a seen-first action; None for an unseen first card."""
    if action == UNSEEN_FIRST:
        return None
    kind, rest = divmod(action - 1, 2)
    return kind, rest == 0


# Second-flip actions after an unseen first card.
SECOND_UNSEEN, SECOND_MATE, SECOND_KNOWN = 0, 1, 2
NO_CHOICE = 255

TIE = 1e-12


def start_state(groups: int = 13, pairs_of_two: int = 0) -> State:
    """Nothing seen: `groups` groups of four and `pairs_of_two` groups of two."""
    counts = [0] * len(KINDS)
    counts[KIND_INDEX[(4, 0)]] = groups
    counts[KIND_INDEX[(2, 0)]] = pairs_of_two
    return tuple(counts)


def unseen(state: State) -> int:
    """Unseen cards on the table."""
    return sum(c * KINDS[i][0] for i, c in enumerate(state))


def cards(state: State) -> int:
    """Cards on the table."""
    return sum(c * (KINDS[i][0] + KINDS[i][1]) for i, c in enumerate(state))


def _move(state: State, kind: int, to: tuple[int, int]) -> State:
    """One group of `kind` becomes `to` (gone if it has no card left)."""
    out = list(state)
    out[kind] -= 1
    if to != (0, 0):
        out[KIND_INDEX[to]] += 1
    return tuple(out)


# An outcome: (chance, whether the mover took a pair, state afterwards).
Outcome = tuple[float, bool, State]


def _reveal_other(state: State, exclude: int | None, u: int) -> Iterator[tuple[float, State]]:
    """An unseen card turned up in a group other than one group of kind `exclude`: each kind it
    may belong to, with its chance among the `u` unseen cards left."""
    for k in UNSEEN_KINDS:
        groups = state[k] - (1 if k == exclude else 0)
        if groups > 0:
            a, s = KINDS[k]
            yield groups * a / u, _move(state, k, (a - 1, s + 1))


def first_options(state: State) -> list[int]:
    """First-flip actions the rule allows, in tie-breaking order (unseen first)."""
    u = unseen(state)
    if cards(state) == 0:
        return []
    options = [UNSEEN_FIRST] if u else []
    for k, count in enumerate(state):
        s = KINDS[k][1]
        if count and s:
            if s >= 2:
                options.append(seen_first(k, True))
            if u:
                options.append(seen_first(k, False))
    return options


def first_outcomes(state: State, action: int) -> list[Outcome]:
    """Outcomes of a seen first card and the second flip that goes with it."""
    decoded = decode_first(action)
    assert decoded is not None
    k, take = decoded
    a, s = KINDS[k]
    if take:
        return [(1.0, True, _move(state, k, (a, s - 2)))]
    u = unseen(state)
    out: list[Outcome] = []
    if a:
        out.append((a / u, True, _move(state, k, (a - 1, s - 1))))
    out += [(c, False, after) for c, after in _reveal_other(state, k, u)]
    return out


def unseen_chances(state: State) -> list[tuple[float, int]]:
    """Where an unseen first card lands: (chance, kind of its group at the turn's start)."""
    u = unseen(state)
    return [(state[k] * KINDS[k][0] / u, k) for k in UNSEEN_KINDS if state[k]]


def second_options(state: State, kind: int) -> list[int]:
    """Second flips after an unseen first card of a group of `kind`, in tie-breaking order."""
    s = KINDS[kind][1]
    options = [SECOND_UNSEEN] if unseen(state) - 1 else []
    if s:
        options.append(SECOND_MATE)
    others = sum(c * KINDS[k][1] for k, c in enumerate(state)) - s
    if others:
        options.append(SECOND_KNOWN)
    return options


def second_outcomes(state: State, kind: int, second: int) -> list[Outcome]:
    """Outcomes of the second flip after an unseen first card of a group of `kind`."""
    a, s = KINDS[kind]
    if second == SECOND_MATE:
        return [(1.0, True, _move(state, kind, (a - 1, s - 1)))]
    shown = _move(state, kind, (a - 1, s + 1))
    if second == SECOND_KNOWN:
        return [(1.0, False, shown)]
    u = unseen(state) - 1
    out: list[Outcome] = []
    if a - 1:
        out.append(((a - 1) / u, True, _move(state, kind, (a - 2, s))))
    # A card of another group: the first card's group is already of kind (a - 1, s + 1).
    first_kind = KIND_INDEX[(a - 1, s + 1)]
    out += [(c, False, after) for c, after in _reveal_other(shown, first_kind, u)]
    return out


def states(groups: int) -> list[State]:
    """Every state with at most `groups` groups, each after every state it can lead to."""
    found: list[State] = []

    def fill(prefix: list[int], left: int) -> None:
        if len(prefix) == len(KINDS):
            found.append(tuple(prefix))
            return
        for c in range(left + 1):
            prefix.append(c)
            fill(prefix, left - c)
            prefix.pop()

    fill([], groups)
    return sorted(found, key=lambda st: (cards(st), unseen(st)))


FirstStrategy = Callable[[State], int]
SecondStrategy = Callable[[State, int], int]
Strategy = tuple[FirstStrategy, SecondStrategy]


Solved = tuple[dict[tuple[int, State], float], dict[State, int], dict[tuple[State, int], int]]
"""Values by (seat to move, state), seat 0's first flips, and its second flips by kind."""


def solve(groups: int, again: bool,
          strategies: tuple[Strategy | None, Strategy | None] = (None, None)) -> Solved:
    """Values of every state up to `groups` groups for each seat to move (maximising or following
    its strategy), and seat 0's choices: first flips, and second flips by the first card's kind.
    With both strategies None this is the minimax (one seat is solved; the values serve both)."""
    value: dict[tuple[int, State], float] = {}
    firsts: dict[State, int] = {}
    seconds: dict[tuple[State, int], int] = {}
    symmetric = strategies == (None, None)
    seats = (0,) if symmetric else (0, 1)
    other = (0, 0) if symmetric else (1, 0)

    def worth(seat: int, outcomes: list[Outcome]) -> float:
        total = 0.0
        for chance, took, after in outcomes:
            if took and again:
                total += chance * (1.0 + value[(seat, after)])
            elif took:
                total += chance * (1.0 - value[(other[seat], after)])
            else:
                total -= chance * value[(other[seat], after)]
        return total

    def best(options: list[int], score: Callable[[int], float]) -> tuple[int, float]:
        chosen, top = options[0], score(options[0])
        for option in options[1:]:
            if (v := score(option)) > top + TIE:
                chosen, top = option, v
        return chosen, top

    for state in states(groups):
        for seat in seats:
            options = first_options(state)
            if not options:
                value[(seat, state)] = 0.0
                continue
            fixed = strategies[seat]

            def second_value(kind: int, seat: int = seat, state: State = state,
                             fixed: Strategy | None = fixed) -> float:
                opts = second_options(state, kind)
                if fixed is not None:
                    pick = fixed[1](state, kind)
                    if pick not in opts:
                        raise ValueError(f"strategy chose second {pick} at {state}, not legal")
                    return worth(seat, second_outcomes(state, kind, pick))
                pick, v = best(opts, lambda o: worth(seat, second_outcomes(state, kind, o)))
                if seat == 0:
                    seconds[(state, kind)] = pick
                return v

            def first_value(action: int, seat: int = seat, state: State = state) -> float:
                if action == UNSEEN_FIRST:
                    return sum(c * second_value(kind) for c, kind in unseen_chances(state))
                return worth(seat, first_outcomes(state, action))

            if fixed is not None:
                pick = fixed[0](state)
                if pick not in options:
                    raise ValueError(f"strategy chose first {pick} at {state}, not legal")
                v = first_value(pick)
            else:
                pick, v = best(options, first_value)
                if seat == 0:
                    firsts[state] = pick
            value[(seat, state)] = v
    if symmetric:
        value.update({(1, st): v for (_, st), v in list(value.items())})
    return value, firsts, seconds


# The shipped table: the minimax's choices for every state of up to TABLE_GROUPS groups.

TABLE_GROUPS = 14
"""The shipped tables cover up to 14 groups: 13 ranks, and the two jokers of any-colour-jokers."""
TABLE_FILES = {True: "any_colour_minimax.xz", False: "any_colour_one_flip_minimax.xz"}
BYTES_PER_STATE = 1 + len(UNSEEN_KINDS)


@functools.cache
def _count(slots: int, total: int) -> int:
    """How many vectors of `slots` non-negative counts sum to at most `total`."""
    return math.comb(total + slots, slots) if total >= 0 else 0


def rank(state: State, groups: int = TABLE_GROUPS) -> int:
    """The index of `state` among all states of at most `groups` groups, in lexicographic order."""
    index, left = 0, groups
    slots = len(KINDS)
    for i, c in enumerate(state):
        for v in range(c):
            index += _count(slots - i - 1, left - v)
        left -= c
    if left < 0:
        raise ValueError(f"{state} has more than {groups} groups")
    return index


def encode(firsts: dict[State, int], seconds: dict[tuple[State, int], int],
           groups: int = TABLE_GROUPS) -> bytes:
    """The choices as a table: per state (in `rank` order) the first flip, then the second flip
    after an unseen first card of each kind that has unseen cards (NO_CHOICE where none)."""
    table = bytearray([NO_CHOICE]) * (_count(len(KINDS), groups) * BYTES_PER_STATE)
    for state, action in firsts.items():
        table[rank(state, groups) * BYTES_PER_STATE] = action
    for (state, kind), action in seconds.items():
        table[rank(state, groups) * BYTES_PER_STATE + 1 + UNSEEN_KINDS.index(kind)] = action
    return bytes(table)


@functools.cache
def shipped_table(again: bool) -> bytes:
    """The shipped choices of the minimax for `again` (decompressed once)."""
    data = resources.files("bots.concentration").joinpath(TABLE_FILES[again]).read_bytes()
    return lzma.decompress(data)


class TableStrategy:
    """The minimax strategy read from a table of choices (the shipped one by default)."""

    def __init__(self, again: bool, table: bytes | None = None,
                 groups: int = TABLE_GROUPS) -> None:
        """`table`: encoded choices for states of up to `groups` groups."""
        self.table = shipped_table(again) if table is None else table
        self.groups = groups

    def first(self, state: State) -> int:
        """The minimax's first flip in `state`."""
        return self.table[rank(state, self.groups) * BYTES_PER_STATE]

    def second(self, state: State, kind: int) -> int:
        """The minimax's second flip after an unseen first card of a group of `kind`."""
        return self.table[rank(state, self.groups) * BYTES_PER_STATE + 1
                          + UNSEEN_KINDS.index(kind)]

    def as_strategy(self) -> Strategy:
        """The (first, second) pair `solve` takes."""
        return self.first, self.second


def best_response_edge(strategy: Strategy, groups: int, again: bool,
                       pairs_of_two: int = 0) -> float:
    """What a best response to `strategy` wins per game over both seatings (its exploitability)."""
    start = start_state(groups, pairs_of_two)
    top = groups + pairs_of_two
    held_first = solve(top, again, (strategy, None))[0][(0, start)]
    reply_first = solve(top, again, (None, strategy))[0][(0, start)]
    return (reply_first - held_first) / 2


def greedy_strategy() -> Strategy:
    """`greedy`: take a known pair, else turn an unseen card, take a pair it completes, else turn
    another unseen card."""

    def first(state: State) -> int:
        for k, count in enumerate(state):
            if count and KINDS[k][1] >= 2:
                return seen_first(k, True)
        return UNSEEN_FIRST

    def second(state: State, kind: int) -> int:
        if KINDS[kind][1]:
            return SECOND_MATE
        return SECOND_UNSEEN if unseen(state) - 1 else SECOND_KNOWN

    return first, second


def expected_edge(a: Strategy, b: Strategy, groups: int, again: bool) -> float:
    """Exact expected margin of `a` over `b` per game, both seatings."""
    start = start_state(groups)
    a_first = solve(groups, again, (a, b))[0][(0, start)]
    b_first = solve(groups, again, (b, a))[0][(0, start)]
    return (a_first - b_first) / 2
