"""Exact optimal play of Concentration (Memory) for players with perfect memory.

Pure mathematics: no engine, no randomness, standard library only. The derivation is in
docs/strategy.md; `python -m bots.algorithms.memory_strategy` prints the figures quoted there.

The rule: while any unseen card is left on the table, every turn must turn up at least one card
that has never been seen, unless it takes a pair (ruling 9, "No idle turns", under "Computer-play
rulings" in docs/rules/concentration.md). So there are no passes, and every game ends with all
pairs claimed.

A position is read at the start of a turn, when no known pair is left on the table:

* ``n``: pairs still on the table;
* ``k``: known singletons, i.e. cards seen whose mate has not been seen (``0 <= k <= n``).

That leaves ``2n - k >= n`` unseen cards, so while ``n > 0`` some card is unseen.

A turn is two flips. The first flip of a perfect-memory player is always an unseen card. Two
known cards that do not match (a pass) break the rule. A known card first and an unseen card
second is dominated by the reverse order: the unseen card shows the same thing either way, and if
it is new the known card can still come second. The two orders differ only when the unseen card
completes the pair of another known card: unseen-first takes that pair, known-first leaves it to
the next player, and taking is the better of the two wherever the model below is exact.

If the first card is the mate of a known card, the player takes the pair. If it is new, the
second flip is UNSEEN (another unseen card, a "1-move") or KNOWN (a known card on purpose, a
deliberate miss, a "0-move"). Known pairs are always taken at once. Every pair of flips is one
turn, also the extra turn earned by a match.

The plans are exact within this model. Exhaustive search over every legal flip agrees for two
players under the one-flip rule (checked up to 26 pairs), for one-flip races of 3 and 4 players,
and with the extra turn after a match for two players up to 8 pairs and three players up to 4.
Beyond that, with extra turns, leaving a pair to the next player can pay, which the model (and so
`RacePlan`) does not consider. See docs/strategy.md.

Public API:

* `Second`: the one decision of a turn (the second flip after a new first card).
* `Policy`: the protocol of anything that makes it (`second(n, k)`).
* `GreedyPolicy` / `GREEDY`: always turn an unseen card second.
* `SolitairePlan` / `solitaire_plan()`: fewest expected turns for one player to clear the table.
* `solitaire_expected_turns(n, policy=None)`: expected turns from ``n`` unseen pairs.
* `RacePlan` / `race_plan(players, again)`: optimal plan for a race of 2 or more players.
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

# Choices whose scores differ by less than this are ties; ties go to UNSEEN.
_TIE = 1e-10


class Second(enum.Enum):
    """The second flip of a turn whose first card turned out to be new."""

    UNSEEN = "unseen"
    KNOWN = "known"


class Policy(Protocol):
    """Anything that chooses the second flip of a turn from the public position."""

    def second(self, n: int, k: int) -> Second:
        """Choose the second flip after a new first card, (n, k) read at the turn's start."""
        ...


@dataclass(frozen=True)
class GreedyPolicy:
    """After a new first card always turn another unseen card."""

    def second(self, n: int, k: int) -> Second:
        """Always UNSEEN."""
        return Second.UNSEEN


GREEDY = GreedyPolicy()


def _check(n: int, k: int) -> None:
    """Reject positions that cannot occur."""
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got n={n}, k={k}")


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
            if pick is Second.KNOWN and not k:
                raise ValueError(f"illegal KNOWN second flip at n={n}, k=0")
            picks[k] = pick
            total += fresh / unseen_total * (zero if pick is Second.KNOWN else one)
        row[k] = total
    return row, picks


def _cheaper(_n: int, _k: int, one: float, zero: float) -> Second:
    """The second flip with fewer expected turns; ties go to UNSEEN."""
    return Second.KNOWN if zero < one - _TIE else Second.UNSEEN


class _Plan:
    """What both plans share: a table of second-flip choices, grown on demand."""

    _second: list[list[Second | None]]

    def _grow(self, n: int) -> None:
        raise NotImplementedError

    def second(self, n: int, k: int) -> Second:
        """Second flip after a new first card, (n, k) read at the start of the turn."""
        _check_second(n, k)
        self._grow(n)
        pick = self._second[n][k]
        assert pick is not None
        return pick


class SolitairePlan(_Plan):
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
        row, _ = _solitaire_row(size, rows[-1], lambda m, k, _a, _b: policy.second(m, k))
        rows.append(row)
    return rows[n][0]


# --------------------------------------------------------------------------------------------
# Races: 2 or more players, zero-sum margin for two, own pairs for more.
# --------------------------------------------------------------------------------------------

# at(n, k, step): value vector of the position where the player `step` seats after the current
# mover is to move, re-indexed relative to the current mover.
_Lookup = Callable[[int, int, int], Vec]


def _add(a: Vec, b: Vec) -> Vec:
    """Element-wise sum."""
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _scale(a: Vec, c: float) -> Vec:
    """Multiply every entry by c."""
    return tuple(x * c for x in a)


def _unit(players: int, seat: int) -> Vec:
    """One pair for `seat`, nothing for the others."""
    return tuple(1.0 if j == seat else 0.0 for j in range(players))


def _rotate(v: Vec, step: int) -> Vec:
    """Re-index a vector seen from the player `step` seats later to the current mover."""
    step %= len(v)
    return v[-step:] + v[:-step] if step else v


@dataclass(frozen=True)
class _Turn:
    """The parts of a turn: matched first card, or new first card then each second flip."""

    hit_prob: float
    hit: Vec | None
    unseen: Vec | None
    known: Vec | None

    def value(self, second: Second | None) -> Vec:
        """Expected vector of the turn when a new first card is followed by `second`."""
        total = _scale(self.hit, self.hit_prob) if self.hit is not None else None
        tail = self.known if second is Second.KNOWN else self.unseen
        if tail is not None:
            part = _scale(tail, 1.0 - self.hit_prob)
            total = part if total is None else _add(total, part)
        assert total is not None
        return total


def _turn(n: int, k: int, players: int, again: bool, at: _Lookup) -> _Turn:
    """Outcomes of a turn in (n, k), whose first flip is an unseen card; n >= 1."""
    unseen_total = 2 * n - k
    fresh = 2 * (n - k)
    own = _unit(players, 0)
    # Taking a pair: the taker moves again (again=True) or the turn passes on.
    after = 0 if again else 1
    hit = _add(own, at(n - 1, k - 1, after)) if k else None
    unseen = known = None
    if fresh:
        rest = unseen_total - 1
        unseen = _add(own, at(n - 1, k, after))
        if k:
            # The second card is the mate of an old card: the next player takes that pair.
            gift = _add(_unit(players, 1), at(n - 1, k, 1 + after))
            unseen = _add(unseen, _scale(gift, k))
        if fresh > 2:
            unseen = _add(unseen, _scale(at(n, k + 2, 1), fresh - 2))
        unseen = _scale(unseen, 1.0 / rest)
        if k:
            known = at(n, k + 1, 1)
    return _Turn(k / unseen_total, hit, unseen, known)


class RacePlan(_Plan):
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
        self._val: list[list[Vec]] = [[tuple(0.0 for _ in range(players))]]
        self._second: list[list[Second | None]] = [[None]]

    def _score(self, v: Vec) -> float:
        """What the mover maximises."""
        return v[0] - v[1] if self.players == 2 else v[0]

    def _at(self, n: int, k: int, step: int) -> Vec:
        """Value of (n, k) with the player `step` seats later to move, seen from the mover."""
        return _rotate(self._val[n][k], step)

    def _grow(self, n: int) -> None:
        """Extend the tables up to n pairs, bottom-up (no recursion)."""
        for size in range(len(self._val), n + 1):
            vals: list[Vec] = [()] * (size + 1)
            seconds: list[Second | None] = [None] * (size + 1)
            self._val.append(vals)
            self._second.append(seconds)
            for k in range(size, -1, -1):
                parts = _turn(size, k, self.players, self.again, self._at)
                second: Second | None = None
                if parts.unseen is not None:
                    second = Second.UNSEEN
                    if parts.known is not None and (
                        self._score(parts.known) > self._score(parts.unseen) + _TIE
                    ):
                        second = Second.KNOWN
                seconds[k] = second
                vals[k] = parts.value(second)

    def value(self, n: int, k: int = 0) -> Vec:
        """Expected future pairs per seat (relative to the mover) from (n, k)."""
        _check(n, k)
        self._grow(n)
        return self._val[n][k]

    def margin(self, n: int, k: int = 0) -> float:
        """Mover's expected future pairs minus the mean of the other players'."""
        v = self.value(n, k)
        return v[0] - sum(v[1:]) / (len(v) - 1)



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
    # val[size][k][seat]: vector relative to `seat`, which is to move.
    val: list[list[list[Vec]]] = [[[tuple(0.0 for _ in range(m))] * m]]
    for size in range(1, n + 1):
        rows: list[list[Vec]] = [[] for _ in range(size + 1)]
        val.append(rows)
        for k in range(size, -1, -1):
            rows[k] = [() for _ in range(m)]
            for seat, policy in enumerate(policies):

                def at(a: int, b: int, step: int, seat: int = seat) -> Vec:
                    return _rotate(val[a][b][(seat + step) % m], step)

                parts = _turn(size, k, m, again, at)
                second = policy.second(size, k) if parts.unseen is not None else None
                if second is Second.KNOWN and parts.known is None:
                    raise ValueError(f"illegal KNOWN second flip at n={size}, k={k}")
                rows[k][seat] = parts.value(second)
    return val[n][0][0]


# --------------------------------------------------------------------------------------------
# Figures for docs/strategy.md.
# --------------------------------------------------------------------------------------------


def _greedy_margin(n: int, again: bool) -> float:
    """First mover's margin when both players play GREEDY."""
    v = race_expected_pairs([GREEDY, GREEDY], n, again)
    return v[0] - v[1]


def _plan_vs_greedy(n: int, again: bool) -> float:
    """Plan's margin against GREEDY, averaged over both seatings."""
    plan = race_plan(2, again)
    a = race_expected_pairs([plan, GREEDY], n, again)
    b = race_expected_pairs([GREEDY, plan], n, again)
    return ((a[0] - a[1]) + (b[1] - b[0])) / 2


def _zero_moves(plan: RacePlan, top: int) -> list[tuple[int, int]]:
    """Positions up to `top` pairs where the plan turns a known card second."""
    return [
        (n, k) for n in range(1, top + 1) for k in range(n) if plan.second(n, k) is Second.KNOWN
    ]


def _parity_exceptions(plan: RacePlan, top: int) -> list[tuple[int, int]]:
    """Positions up to `top` pairs where the plan breaks "KNOWN iff n + k even, 1 <= k <= n-2"."""
    return [
        (n, k)
        for n in range(1, top + 1)
        for k in range(n)
        if (plan.second(n, k) is Second.KNOWN) != ((n + k) % 2 == 0 and 1 <= k <= n - 2)
    ]


def _options(plan: RacePlan, n: int, k: int) -> tuple[float, float | None]:
    """Mover's score of (unseen second, known second) after a new first card in (n, k)."""
    plan.value(n, k)
    parts = _turn(n, k, plan.players, plan.again, plan._at)
    one = plan._score(parts.value(Second.UNSEEN))
    zero = plan._score(parts.value(Second.KNOWN)) if parts.known is not None else None
    return one, zero


def _first_gift(plan: RacePlan, top: int) -> tuple[int, int] | None:
    """First (n, k), n <= top, where by the plan's own values a pair is better handed on than
    taken: the sign that leaving pairs would pay and the model is no longer exact."""
    m, step = plan.players, 0 if plan.again else 1
    for n in range(2, top + 1):
        for k in range(2, n + 1):
            rest = plan.value(n - 1, k - 1)
            take = plan._score(_add(_unit(m, 0), _rotate(rest, step)))
            give = plan._score(_add(_unit(m, 1), _rotate(rest, step + 1)))
            if give > take + _TIE:
                return n, k
    return None


_SAMPLES = {
    True: [(3, 1), (4, 2), (6, 1), (6, 2), (7, 1), (8, 2), (12, 5)],
    False: [(3, 1), (4, 2), (5, 2), (8, 4), (10, 2)],
}


def main() -> None:
    """Print the figures quoted in docs/strategy.md as Markdown."""
    sizes = [*range(1, 11), 26, 52]
    print("## Solitaire: expected turns\n")
    print("| n | optimal | always 1-move | 0-moves chosen at k |")
    print("|---:|---:|---:|---|")
    plan1 = solitaire_plan()
    for n in sizes:
        zeros = [k for k in range(n) if plan1.second(n, k) is Second.KNOWN]
        print(
            f"| {n} | {solitaire_expected_turns(n):.6f} "
            f"| {solitaire_expected_turns(n, GREEDY):.6f} | {zeros or '-'} |"
        )
    for again in (True, False):
        label = "standard (a match earns another turn)" if again else "one-flip (no extra turn)"
        plan = race_plan(2, again)
        print(f"\n## Two players, {label}\n")
        print("| n | plan vs plan | greedy vs greedy | plan vs greedy |")
        print("|---:|---:|---:|---:|")
        for n in sizes:
            print(
                f"| {n} | {plan.margin(n):+.6f} "
                f"| {_greedy_margin(n, again):+.6f} | {_plan_vs_greedy(n, again):+.6f} |"
            )
        print(f"\n0-moves (n, k) for n <= 10: {_zero_moves(plan, 10) or 'none'}\n")
        if again:
            print(
                "exceptions to 'known second iff n + k even, 1 <= k <= n - 2' for n <= 200: "
                f"{_parity_exceptions(plan, 200) or 'none'}\n"
            )
        print("| n | k | then unseen | then known | plan |")
        print("|---:|---:|---:|---:|---|")
        for n, k in _SAMPLES[again]:
            one, zero = _options(plan, n, k)
            cells = [f"{x:+.4f}" if x is not None else "-" for x in (one, zero)]
            print(f"| {n} | {k} | {' | '.join(cells)} | {plan.second(n, k).value} |")
    print("\n## Three to six players, n = 26\n")
    print("Right-hand column: how many positions with n <= 26 use a 0-move.\n")
    print("| players | rule | expected pairs by seat, first mover first | 0-moves |")
    print("|---:|---|---|---:|")
    for m in range(3, 7):
        for again in (True, False):
            plan = race_plan(m, again)
            seats = ", ".join(f"{x:.4f}" for x in plan.value(26))
            rule = "standard" if again else "one-flip"
            print(f"| {m} | {rule} | {seats} | {len(_zero_moves(plan, 26))} |")
    print("\n## Pair better handed on than taken (first position, n <= 60)\n")
    print("| players | standard | one-flip |")
    print("|---:|---|---|")
    for m in range(2, 7):
        cells = [str(_first_gift(race_plan(m, again), 60) or "none") for again in (True, False)]
        print(f"| {m} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
