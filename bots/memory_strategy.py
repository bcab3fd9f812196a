"""Exact optimal play of Concentration (Memory) for players with perfect memory.

Pure mathematics: no engine, no randomness, standard library only. The derivation is in
docs/strategy.md; `python -m bots.memory_strategy` prints the figures quoted there.

A position is read at the start of a turn, when no known pair is left on the table:

* ``n``: pairs still on the table;
* ``k``: known singletons, i.e. cards seen whose mate has not been seen (``0 <= k <= n``);
* ``idle``: how many idle turns (passes) came just before, in a row (races only).

A turn is two flips. The first is EXPLORE (an unseen card) or PASS (two known cards that do not
match, which reveals nothing). If the explored card is new, the second flip is UNSEEN (another
unseen card, a "1-move") or KNOWN (a known card, a deliberate miss, a "0-move"). Known pairs are
always taken at once. Every pair of flips is one turn, also the extra turn earned by a match.

Public API:

* `First`, `Second`: the two decisions of a turn.
* `Policy`: the protocol of anything that makes them (`first(n, k, idle)`, `second(n, k)`).
* `SolitairePlan` / `solitaire_plan()`: fewest expected turns for one player to clear the table.
* `solitaire_expected_turns(n, policy=None)`: expected turns from ``n`` unseen pairs.
* `RacePlan` / `race_plan(players, again)`: optimal plan for a race of 2 or more players.
* `GREEDY`: the policy that always explores and always turns an unseen card second.
* `race_expected_pairs(policies, n, again)`: exact expected pairs per seat for given policies.
"""

from __future__ import annotations

import enum
import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

Vec = tuple[float, ...]

# Choices whose scores differ by less than this are ties; ties go to EXPLORE / UNSEEN.
_TIE = 1e-10


class First(enum.Enum):
    """The first flip of a turn."""

    EXPLORE = "explore"
    PASS = "pass"


class Second(enum.Enum):
    """The second flip of a turn whose first card turned out to be new."""

    UNSEEN = "unseen"
    KNOWN = "known"


class Policy(Protocol):
    """Anything that decides the two flips of a turn from the public position."""

    def first(self, n: int, k: int, idle: int = 0) -> First:
        """Choose the first flip at the start of a turn in position (n, k, idle)."""
        ...

    def second(self, n: int, k: int) -> Second:
        """Choose the second flip after a new first card, (n, k) read at the turn's start."""
        ...


@dataclass(frozen=True)
class GreedyPolicy:
    """Always explore; after a new first card always turn another unseen card."""

    def first(self, n: int, k: int, idle: int = 0) -> First:
        """Always EXPLORE."""
        return First.EXPLORE

    def second(self, n: int, k: int) -> Second:
        """Always UNSEEN."""
        return Second.UNSEEN


GREEDY = GreedyPolicy()


def _check(n: int, k: int, idle: int = 0, players: int = 1) -> None:
    """Reject positions that cannot occur."""
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got n={n}, k={k}")
    if not 0 <= idle < max(players, 1):
        raise ValueError(f"need 0 <= idle < players, got idle={idle}, players={players}")


def _check_second(n: int, k: int) -> None:
    """Reject asking for a second flip where the first card cannot be new."""
    _check(n, k)
    if k == n:
        raise ValueError(f"with k == n every unseen card is a mate: no new first card (n={n})")


# --------------------------------------------------------------------------------------------
# Solitaire: minimise the expected number of turns.
# --------------------------------------------------------------------------------------------

_SecondChooser = Callable[[int, int, float, float], Second]


def _solitaire_row(
    n: int, prev: list[float], choose: _SecondChooser
) -> tuple[list[float], list[Second | None]]:
    """Expected turns E(n, k) for k = 0..n and the second flips used, given the row for n - 1."""
    row = [0.0] * (n + 1)
    picks: list[Second | None] = [None] * (n + 1)
    for k in range(n, -1, -1):
        unseen_total = 2 * n - k
        fresh = 2 * (n - k)
        total = 1.0
        if k:
            total += k / unseen_total * prev[k - 1]
        if fresh:
            # After the new first card: 1 mate, k mates of old cards, fresh - 2 new cards.
            rest = unseen_total - 1
            one = prev[k] + k * (1.0 + prev[k])
            if fresh > 2:
                one += (fresh - 2) * row[k + 2]
            one /= rest
            zero = row[k + 1] if k else math.inf
            pick = choose(n, k, one, zero)
            picks[k] = pick
            total += fresh / unseen_total * (zero if pick is Second.KNOWN else one)
        row[k] = total
    return row, picks


def _cheaper(_n: int, _k: int, one: float, zero: float) -> Second:
    """The second flip with fewer expected turns; ties go to UNSEEN."""
    return Second.KNOWN if zero < one - _TIE else Second.UNSEEN


class SolitairePlan:
    """Optimal one-player plan: fewest expected turns to clear the table."""

    def __init__(self) -> None:
        """Start with the empty table; rows are added on demand."""
        self._turns: list[list[float]] = [[0.0]]
        self._second: list[list[Second | None]] = [[None]]

    def _grow(self, n: int) -> None:
        """Extend the tables up to n pairs, bottom-up."""
        for size in range(len(self._turns), n + 1):
            row, picks = _solitaire_row(size, self._turns[size - 1], _cheaper)
            self._turns.append(row)
            self._second.append(picks)

    def value(self, n: int, k: int = 0) -> float:
        """Expected turns still needed from (n, k) under optimal play."""
        _check(n, k)
        self._grow(n)
        return self._turns[n][k]

    def first(self, n: int, k: int, idle: int = 0) -> First:
        """Always EXPLORE: a pass leaves the position as it was and costs a turn."""
        _check(n, k)
        if n == 0:
            raise ValueError("no cards left")
        return First.EXPLORE

    def second(self, n: int, k: int) -> Second:
        """Second flip after a new first card, (n, k) read at the start of the turn."""
        _check_second(n, k)
        self._grow(n)
        pick = self._second[n][k]
        assert pick is not None
        return pick


@functools.cache
def solitaire_plan() -> SolitairePlan:
    """The shared, lazily grown solitaire plan."""
    return SolitairePlan()


def solitaire_expected_turns(n: int, policy: Policy | None = None) -> float:
    """Expected turns to clear n pairs, nothing seen, under a policy (default: optimal)."""
    _check(n, 0)
    if policy is None:
        return solitaire_plan().value(n)
    rows: list[list[float]] = [[0.0]]
    for size in range(1, n + 1):
        if any(policy.first(size, k) is First.PASS for k in range(size + 1)):
            # A fixed policy that passes repeats the same position for ever.
            return math.inf
        row, _ = _solitaire_row(size, rows[-1], lambda m, k, _a, _b: policy.second(m, k))
        rows.append(row)
    return rows[n][0]


# --------------------------------------------------------------------------------------------
# Races: 2 or more players, zero-sum margin for two, own pairs for more.
# --------------------------------------------------------------------------------------------

# at(n, k, idle, step): value vector of the position where the player `step` seats after the
# current mover is to move, re-indexed relative to the current mover.
_Lookup = Callable[[int, int, int, int], Vec]


def _add(a: Vec, b: Vec) -> Vec:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _scale(a: Vec, c: float) -> Vec:
    return tuple(x * c for x in a)


def _unit(players: int, seat: int) -> Vec:
    return tuple(1.0 if j == seat else 0.0 for j in range(players))


def _rotate(v: Vec, step: int) -> Vec:
    """Re-index a vector seen from the player `step` seats later to the current mover."""
    step %= len(v)
    return v[-step:] + v[:-step] if step else v


@dataclass(frozen=True)
class _Explore:
    """The parts of an EXPLORE turn: matched first card, or new first card then each second."""

    hit_prob: float
    hit: Vec | None
    unseen: Vec | None
    known: Vec | None

    def value(self, second: Second | None) -> Vec:
        """Expected vector of exploring when a new first card is followed by `second`."""
        total = _scale(self.hit, self.hit_prob) if self.hit is not None else None
        tail = self.known if second is Second.KNOWN else self.unseen
        if tail is not None:
            part = _scale(tail, 1.0 - self.hit_prob)
            total = part if total is None else _add(total, part)
        assert total is not None
        return total


def _explore(n: int, k: int, players: int, again: bool, at: _Lookup) -> _Explore:
    """Outcomes of exploring in (n, k); n >= 1."""
    unseen_total = 2 * n - k
    fresh = 2 * (n - k)
    own = _unit(players, 0)
    # Taking a pair: the taker moves again (again=True) or the turn passes on.
    after = 0 if again else 1
    hit = _add(own, at(n - 1, k - 1, 0, after)) if k else None
    unseen = known = None
    if fresh:
        rest = unseen_total - 1
        pair = _add(own, at(n - 1, k, 0, after))
        unseen = pair
        if k:
            # The second card is the mate of an old card: the next player takes that pair.
            gift = _add(_unit(players, 1), at(n - 1, k, 0, 1 + after))
            unseen = _add(unseen, _scale(gift, k))
        if fresh > 2:
            unseen = _add(unseen, _scale(at(n, k + 2, 0, 1), fresh - 2))
        unseen = _scale(unseen, 1.0 / rest)
        if k:
            known = at(n, k + 1, 0, 1)
    return _Explore(k / unseen_total, hit, unseen, known)


def _pass(n: int, k: int, idle: int, players: int, at: _Lookup) -> Vec | None:
    """Outcome of passing in (n, k, idle), or None when a pass is impossible."""
    if k < 2:
        return None
    if idle + 1 >= players:
        return tuple(0.0 for _ in range(players))
    return at(n, k, idle + 1, 1)


class RacePlan:
    """Optimal plan for a race of 2 or more perfect-memory players.

    Two players maximise the expected margin (own pairs minus the opponent's), a zero-sum game;
    three or more each maximise their own expected pairs. Values are vectors of expected future
    pairs indexed by seat relative to the mover (index 0 = mover, 1 = next player, ...).
    """

    def __init__(self, players: int, again: bool = True) -> None:
        """Set up empty tables for `players` players; `again`: a match earns another turn."""
        if players < 2:
            raise ValueError(f"a race needs at least 2 players, got {players}")
        self.players = players
        self.again = again
        zero = tuple(0.0 for _ in range(players))
        self._val: list[list[list[Vec]]] = [[[zero] * players]]
        self._first: list[list[list[First]]] = [[[First.EXPLORE] * players]]
        self._second: list[list[Second | None]] = [[None]]

    def _score(self, v: Vec) -> float:
        """What the mover maximises."""
        return v[0] - v[1] if self.players == 2 else v[0]

    def _at(self, n: int, k: int, idle: int, step: int) -> Vec:
        return _rotate(self._val[n][k][idle], step)

    def _grow(self, n: int) -> None:
        """Extend the tables up to n pairs, bottom-up (no recursion)."""
        m = self.players
        for size in range(len(self._val), n + 1):
            vals: list[list[Vec]] = [[] for _ in range(size + 1)]
            firsts: list[list[First]] = [[] for _ in range(size + 1)]
            seconds: list[Second | None] = [None] * (size + 1)
            self._val.append(vals)
            self._first.append(firsts)
            self._second.append(seconds)
            for k in range(size, -1, -1):
                parts = _explore(size, k, m, self.again, self._at)
                second: Second | None = None
                if parts.unseen is not None:
                    second = Second.UNSEEN
                    if parts.known is not None and (
                        self._score(parts.known) > self._score(parts.unseen) + _TIE
                    ):
                        second = Second.KNOWN
                seconds[k] = second
                explore = parts.value(second)
                row_val: list[Vec] = [explore] * m
                row_first = [First.EXPLORE] * m
                vals[k] = row_val
                firsts[k] = row_first
                for idle in range(m - 1, -1, -1):
                    passed = _pass(size, k, idle, m, self._at)
                    if passed is not None and self._score(passed) > self._score(explore) + _TIE:
                        row_val[idle] = passed
                        row_first[idle] = First.PASS

    def value(self, n: int, k: int = 0, idle: int = 0) -> Vec:
        """Expected future pairs per seat (relative to the mover) from (n, k, idle)."""
        _check(n, k, idle, self.players)
        self._grow(n)
        return self._val[n][k][idle]

    def margin(self, n: int, k: int = 0, idle: int = 0) -> float:
        """Mover's expected future pairs minus the mean of the other players'."""
        v = self.value(n, k, idle)
        return v[0] - sum(v[1:]) / (len(v) - 1)

    def first(self, n: int, k: int, idle: int = 0) -> First:
        """First flip at the start of a turn in (n, k, idle)."""
        _check(n, k, idle, self.players)
        if n == 0:
            raise ValueError("no cards left")
        self._grow(n)
        return self._first[n][k][idle]

    def second(self, n: int, k: int) -> Second:
        """Second flip after a new first card, (n, k) read at the start of the turn."""
        _check_second(n, k)
        self._grow(n)
        pick = self._second[n][k]
        assert pick is not None
        return pick


@functools.cache
def race_plan(players: int, again: bool = True) -> RacePlan:
    """The shared, lazily grown plan for `players` players and the given extra-turn rule."""
    return RacePlan(players, again)


def race_expected_pairs(policies: Sequence[Policy], n: int, again: bool = True) -> Vec:
    """Exact expected pairs per seat when seat i follows policies[i] and seat 0 moves first."""
    m = len(policies)
    if m < 2:
        raise ValueError("a race needs at least 2 policies")
    _check(n, 0)
    # val[size][k][idle][seat]: vector relative to `seat`, which is to move.
    val: list[list[list[list[Vec]]]] = [[[[tuple(0.0 for _ in range(m))] * m] * m]]
    for size in range(1, n + 1):
        rows: list[list[list[Vec]]] = [[] for _ in range(size + 1)]
        val.append(rows)
        for k in range(size, -1, -1):
            grid = [[tuple(0.0 for _ in range(m))] * m for _ in range(m)]
            rows[k] = grid
            for idle in range(m - 1, -1, -1):
                for seat, policy in enumerate(policies):

                    def at(a: int, b: int, i: int, step: int, seat: int = seat) -> Vec:
                        return _rotate(val[a][b][i][(seat + step) % m], step)

                    if policy.first(size, k, idle) is First.PASS:
                        passed = _pass(size, k, idle, m, at)
                        if passed is None:
                            raise ValueError(f"illegal PASS at n={size}, k={k}")
                        grid[idle][seat] = passed
                        continue
                    parts = _explore(size, k, m, again, at)
                    second = policy.second(size, k) if parts.unseen is not None else None
                    if second is Second.KNOWN and parts.known is None:
                        raise ValueError(f"illegal KNOWN second flip at n={size}, k={k}")
                    grid[idle][seat] = parts.value(second)
    return val[n][0][0][0]


# --------------------------------------------------------------------------------------------
# Figures for docs/strategy.md.
# --------------------------------------------------------------------------------------------


def _greedy_margin(n: int, again: bool) -> float:
    v = race_expected_pairs([GREEDY, GREEDY], n, again)
    return v[0] - v[1]


def _plan_vs_greedy(n: int, again: bool) -> float:
    """Plan's margin against GREEDY, averaged over both seatings."""
    plan = race_plan(2, again)
    a = race_expected_pairs([plan, GREEDY], n, again)
    b = race_expected_pairs([GREEDY, plan], n, again)
    return ((a[0] - a[1]) + (b[1] - b[0])) / 2


def _deviations(
    plan: RacePlan, top: int
) -> tuple[list[tuple[int, int]], list[tuple[int, int, int]]]:
    """Positions up to `top` pairs where the plan turns a known card second, or passes."""
    zeros = [
        (n, k) for n in range(1, top + 1) for k in range(n) if plan.second(n, k) is Second.KNOWN
    ]
    passes = [
        (n, k, i)
        for n in range(1, top + 1)
        for k in range(n + 1)
        for i in range(plan.players)
        if plan.first(n, k, i) is First.PASS
    ]
    return zeros, passes


def _options(plan: RacePlan, n: int, k: int, idle: int) -> tuple[float, float | None, float | None]:
    """Mover's score of (explore+unseen, explore+known, pass) in (n, k, idle)."""
    plan.value(n, k, idle)
    parts = _explore(n, k, plan.players, plan.again, plan._at)
    one = plan._score(parts.value(Second.UNSEEN))
    zero = plan._score(parts.value(Second.KNOWN)) if parts.known is not None else None
    passed = _pass(n, k, idle, plan.players, plan._at)
    return one, zero, (plan._score(passed) if passed is not None else None)


def main() -> None:
    """Print the figures quoted in docs/strategy.md as Markdown."""
    sizes = [*range(1, 11), 26, 52]
    print("## Solitaire: expected turns\n")
    print("| n | optimal | always 1-move | 0-moves chosen at (n, k) |")
    print("|---:|---:|---:|---|")
    plan1 = solitaire_plan()
    for n in sizes:
        zeros = [k for k in range(n) if plan1.second(n, k) is Second.KNOWN]
        print(
            f"| {n} | {solitaire_expected_turns(n):.6f} "
            f"| {solitaire_expected_turns(n, GREEDY):.6f} | {zeros or '-'} |"
        )
    for again in (True, False):
        label = "standard (match moves again)" if again else "one-flip (a match ends the turn)"
        plan = race_plan(2, again)
        print(f"\n## Two players, {label}: expected margin of the first mover\n")
        print("| n | optimal vs optimal | greedy vs greedy | plan vs greedy, seats averaged |")
        print("|---:|---:|---:|---:|")
        for n in sizes:
            print(
                f"| {n} | {plan.margin(n):+.6f} | {_greedy_margin(n, again):+.6f} "
                f"| {_plan_vs_greedy(n, again):+.6f} |"
            )
        zeros, passes = _deviations(plan, 10)
        print(f"\n0-moves (n, k), n <= 10: {zeros}")
        print(f"passes (n, k, idle), n <= 10: {passes}")
        print("\nSample decisions (mover's margin of each option):\n")
        print("| n | k | idle | explore+unseen | explore+known | pass | plan |")
        print("|---:|---:|---:|---:|---:|---:|---|")
        picks = sorted({(n, k, 0) for n, k in zeros[:4]} | {p for p in passes[:4]})
        for n, k, i in picks:
            one, zero, passed = _options(plan, n, k, i)
            choice = plan.first(n, k, i).value
            if choice == "explore" and k < n:
                choice += "+" + plan.second(n, k).value
            cells = [f"{x:+.4f}" if x is not None else "-" for x in (one, zero, passed)]
            print(f"| {n} | {k} | {i} | {' | '.join(cells)} | {choice} |")
    print("\n## Three to six players, n = 26: expected pairs by seat (first mover first)\n")
    print("| players | rule | expected pairs by seat | 0-moves / passes for n <= 10 |")
    print("|---:|---|---|---|")
    for m in range(3, 7):
        for again in (True, False):
            plan = race_plan(m, again)
            seats = ", ".join(f"{x:.4f}" for x in plan.value(26))
            zeros, passes = _deviations(plan, 10)
            rule = "standard" if again else "one-flip"
            print(f"| {m} | {rule} | {seats} | {len(zeros)} / {len(passes)} |")


if __name__ == "__main__":
    main()
