"""Tests for bots.memory_strategy: exact values, brute-force agreement, simulation."""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections.abc import Iterator
from fractions import Fraction
from functools import cache

import pytest

from bots.memory_strategy import (
    GREEDY,
    First,
    RacePlan,
    Second,
    SolitairePlan,
    race_expected_pairs,
    race_plan,
    solitaire_expected_turns,
    solitaire_plan,
)

# --------------------------------------------------------------------------------------------
# An independent model of the table: explicit positions, every legal flip.
#
# A cell is REMOVED, UNSEEN, or a positive label for a card that has been seen. The public
# position depends only on how many labels are seen once (s), seen twice (d) and how many cards
# are unseen (u), since cards of the same kind are interchangeable; the brute force memoises on
# that signature but enumerates moves over explicit positions of a representative layout.
# --------------------------------------------------------------------------------------------

REMOVED = -1
UNSEEN = 0
Cells = tuple[int, ...]


def layout(singles: int, pairs: int, unseen: int) -> Cells:
    """A representative table: `singles` known singletons, `pairs` known pairs, unseen cards."""
    cells = list(range(1, singles + 1))
    for label in range(singles + 1, singles + pairs + 1):
        cells += [label, label]
    return tuple(cells + [UNSEEN] * unseen)


def signature(cells: Cells) -> tuple[int, int, int]:
    """(known singletons, known pairs, unseen cards) of a table."""
    seen: dict[int, int] = {}
    for c in cells:
        if c > 0:
            seen[c] = seen.get(c, 0) + 1
    singles = sum(1 for v in seen.values() if v == 1)
    return singles, len(seen) - singles, cells.count(UNSEEN)


def reveal(cells: Cells, p: int) -> Iterator[tuple[float, Cells, bool]]:
    """Each identity position p may have: (probability, table afterwards, was it unseen)."""
    if cells[p] != UNSEEN:
        yield 1.0, cells, False
        return
    counts: dict[int, int] = {}
    for c in cells:
        if c > 0:
            counts[c] = counts.get(c, 0) + 1
    unseen = cells.count(UNSEEN)
    lonely = [label for label, c in counts.items() if c == 1]
    for label in lonely:
        yield 1.0 / unseen, (*cells[:p], label, *cells[p + 1 :]), True
    fresh = unseen - len(lonely)
    if fresh:
        label = max(counts, default=0) + 1
        yield fresh / unseen, (*cells[:p], label, *cells[p + 1 :]), True


def remove(cells: Cells, p: int, q: int) -> Cells:
    """Take the pair at p and q off the table."""
    out = list(cells)
    out[p] = out[q] = REMOVED
    return tuple(out)


@cache
def _margin_turn(sig: tuple[int, int, int], idle: int, again: bool) -> float:
    """Mover's best expected margin over every legal turn in a two-player position."""
    cells = layout(*sig)
    live = [i for i, c in enumerate(cells) if c != REMOVED]
    if not live:
        return 0.0
    best = -math.inf
    for p in live:
        value_p = 0.0
        for prob1, cells1, new1 in reveal(cells, p):
            best_q = -math.inf
            for q in live:
                if q == p:
                    continue
                value_q = 0.0
                for prob2, cells2, new2 in reveal(cells1, q):
                    if cells2[p] == cells2[q]:
                        rest = _margin_turn(signature(remove(cells2, p, q)), 0, again)
                        outcome = 1.0 + (rest if again else -rest)
                    else:
                        after = 0 if new1 or new2 else idle + 1
                        if after >= 2:
                            outcome = 0.0
                        else:
                            outcome = -_margin_turn(signature(cells2), after, again)
                    value_q += prob2 * outcome
                best_q = max(best_q, value_q)
            value_p += prob1 * best_q
        best = max(best, value_p)
    return best


def _rotate(v: tuple[float, ...], step: int) -> tuple[float, ...]:
    step %= len(v)
    return v[-step:] + v[:-step] if step else v


@cache
def _race_turn(
    sig: tuple[int, int, int], idle: int, again: bool, players: int
) -> tuple[float, ...]:
    """Expected pairs per seat (relative to the mover) when each player maximises their own,
    over every legal turn; unseen cards are tried first so ties go the way the plan breaks them."""
    cells = layout(*sig)
    live = sorted((i for i, c in enumerate(cells) if c != REMOVED), key=lambda i: cells[i] > 0)
    zero = (0.0,) * players
    if not live:
        return zero
    best: tuple[float, ...] | None = None
    for p in live:
        value_p = zero
        for prob1, cells1, new1 in reveal(cells, p):
            best_q: tuple[float, ...] | None = None
            for q in live:
                if q == p:
                    continue
                value_q = zero
                for prob2, cells2, new2 in reveal(cells1, q):
                    if cells2[p] == cells2[q]:
                        rest = _race_turn(signature(remove(cells2, p, q)), 0, again, players)
                        rest = rest if again else _rotate(rest, 1)
                        outcome = (rest[0] + 1.0, *rest[1:])
                    else:
                        after = 0 if new1 or new2 else idle + 1
                        if after >= players:
                            outcome = zero
                        else:
                            outcome = _rotate(
                                _race_turn(signature(cells2), after, again, players), 1
                            )
                    value_q = tuple(a + prob2 * b for a, b in zip(value_q, outcome, strict=True))
                if best_q is None or value_q[0] > best_q[0] + 1e-12:
                    best_q = value_q
            assert best_q is not None
            value_p = tuple(a + prob1 * b for a, b in zip(value_p, best_q, strict=True))
        if best is None or value_p[0] > best[0] + 1e-12:
            best = value_p
    assert best is not None
    return best


def brute_race(players: int, n: int, k: int, idle: int, again: bool) -> tuple[float, ...]:
    """Own-pairs race value by exhaustive search over every legal turn."""
    return _race_turn((k, 0, 2 * n - k), idle, again, players)


def brute_margin(singles: int, unseen_pairs: int, idle: int, again: bool) -> float:
    """Two-player value (mover's margin) by exhaustive search over every legal turn."""
    return _margin_turn((singles, 0, singles + 2 * unseen_pairs), idle, again)


@cache
def _solitaire_turn(sig: tuple[int, int, int]) -> float:
    """Fewest expected turns over every legal turn; turns that reveal and take nothing are
    left out, since they only repeat the position at the cost of a turn."""
    cells = layout(*sig)
    live = [i for i, c in enumerate(cells) if c != REMOVED]
    if not live:
        return 0.0
    best = math.inf
    for p in live:
        value_p = 0.0
        for prob1, cells1, new1 in reveal(cells, p):
            best_q = math.inf
            for q in live:
                if q == p:
                    continue
                value_q = 0.0
                for prob2, cells2, new2 in reveal(cells1, q):
                    if cells2[p] == cells2[q]:
                        after = remove(cells2, p, q)
                    elif new1 or new2:
                        after = cells2
                    else:
                        value_q = math.inf
                        break
                    value_q += prob2 * (1.0 + _solitaire_turn(signature(after)))
                best_q = min(best_q, value_q)
            value_p += prob1 * best_q
        best = min(best, value_p)
    return best


def brute_solitaire(n: int, k: int) -> float:
    """Fewest expected turns from (n, k) by exhaustive search."""
    return _solitaire_turn((k, 0, 2 * n - k))


# --------------------------------------------------------------------------------------------
# Solitaire.
# --------------------------------------------------------------------------------------------


def test_solitaire_known_value_for_26_pairs() -> None:
    """A full deck takes 41.4435 turns on average under optimal play."""
    assert round(solitaire_expected_turns(26), 4) == 41.4435


def test_solitaire_small_values_exact() -> None:
    """Values small enough to work out by hand."""
    # Small cases worked by hand: 1 pair takes 1 turn, 2 pairs take 8/3, 3 pairs take 13/3.
    assert solitaire_expected_turns(0) == 0.0
    assert solitaire_expected_turns(1) == pytest.approx(1.0, abs=1e-12)
    assert solitaire_expected_turns(2) == pytest.approx(8 / 3, abs=1e-12)
    assert solitaire_expected_turns(3) == pytest.approx(13 / 3, abs=1e-12)


def matchings(points: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every way to split the points into pairs; each is one equally likely deal."""
    if not points:
        yield []
        return
    first, rest = points[0], points[1:]
    for i, mate in enumerate(rest):
        for tail in matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, mate), *tail]


def play_solitaire(deal: list[int], plan: SolitairePlan) -> int:
    """Turns the plan needs on one deal (deal[i] = label at position i), unseen cards turned
    in position order."""
    n = len(deal) // 2
    nxt = 0  # every position from here on is unseen
    singles: set[int] = set()
    known_pair = False
    turns = 0
    while n:
        turns += 1
        if known_pair:
            known_pair = False
            n -= 1
            continue
        a = deal[nxt]
        nxt += 1
        if a in singles:
            singles.remove(a)
            n -= 1
            continue
        if plan.second(n, len(singles)) is Second.KNOWN:
            singles.add(a)
            continue
        b = deal[nxt]
        nxt += 1
        if b == a:
            n -= 1
        elif b in singles:
            singles.remove(b)
            singles.add(a)
            known_pair = True
        else:
            singles.update((a, b))
    return turns


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_solitaire_dp_equals_enumeration_of_every_deal(n: int) -> None:
    """Playing the plan on every deal and averaging gives the DP value."""
    plan = solitaire_plan()
    total = Fraction(0)
    count = 0
    for matching in matchings(list(range(2 * n))):
        deal = [0] * (2 * n)
        for label, (p, q) in enumerate(matching):
            deal[p] = deal[q] = label
        total += play_solitaire(deal, plan)
        count += 1
    assert count == math.prod(range(1, 2 * n, 2))
    assert float(total / count) == pytest.approx(plan.value(n), abs=1e-12)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_solitaire_dp_is_optimal_over_every_legal_turn(n: int) -> None:
    """No legal turn, however odd, beats the plan."""
    plan = solitaire_plan()
    for k in range(n + 1):
        assert plan.value(n, k) == pytest.approx(brute_solitaire(n, k), abs=1e-9)


def test_solitaire_plan_not_worse_than_always_two_unseen() -> None:
    """The plan never needs more turns than always turning two unseen cards."""
    for n in range(31):
        assert solitaire_expected_turns(n) <= solitaire_expected_turns(n, GREEDY) + 1e-12


def test_solitaire_never_passes_and_passing_policy_never_ends() -> None:
    """Passing is never chosen, and a policy that passes never finishes."""
    plan = solitaire_plan()
    assert all(plan.first(n, k) is First.EXPLORE for n in range(1, 20) for k in range(n + 1))

    class Stubborn:
        """Passes whenever it can."""

        def first(self, n: int, k: int, idle: int = 0) -> First:
            return First.PASS if k >= 2 else First.EXPLORE

        def second(self, n: int, k: int) -> Second:
            return Second.UNSEEN

    assert solitaire_expected_turns(5, Stubborn()) == math.inf


def test_solitaire_monte_carlo_agrees() -> None:
    """A seeded simulation of 2,000 deals agrees with the exact value."""
    rng = random.Random(20240611)
    plan = solitaire_plan()
    labels = [i // 2 for i in range(52)]
    results = []
    for _ in range(2000):
        rng.shuffle(labels)
        results.append(play_solitaire(labels, plan))
    mean = statistics.fmean(results)
    error = statistics.stdev(results) / math.sqrt(len(results))
    assert abs(mean - 41.4435) < 4 * error


# --------------------------------------------------------------------------------------------
# Races.
# --------------------------------------------------------------------------------------------


def play_race(deal: list[int], policies: list[RacePlan], again: bool) -> list[int]:
    """Pairs each seat takes on one deal (seat 0 starts); unseen cards turned in position order.
    The game stops after as many passes in a row as there are players."""
    players = len(policies)
    n = len(deal) // 2
    nxt = 0
    singles: set[int] = set()
    known_pair = False
    idle = 0
    seat = 0
    score = [0] * players

    def took() -> int:
        score[seat] += 1
        return seat if again else (seat + 1) % players

    while n:
        k = len(singles)
        if known_pair:
            known_pair, n, idle = False, n - 1, 0
            seat = took()
            continue
        if policies[seat].first(n, k, idle) is First.PASS:
            idle += 1
            if idle == players:
                break
            seat = (seat + 1) % players
            continue
        idle = 0
        a = deal[nxt]
        nxt += 1
        if a in singles:
            singles.remove(a)
            n -= 1
            seat = took()
            continue
        if policies[seat].second(n, k) is Second.KNOWN:
            singles.add(a)
        else:
            b = deal[nxt]
            nxt += 1
            if b == a:
                n -= 1
                seat = took()
                continue
            if b in singles:
                singles.remove(b)
                known_pair = True
                singles.add(a)
            else:
                singles.update((a, b))
        seat = (seat + 1) % players
    return score


@pytest.mark.parametrize(("players", "again"), [(2, True), (2, False), (3, True)])
def test_race_monte_carlo_agrees(players: int, again: bool) -> None:
    """Seeded simulations of the plan against itself agree with its exact values."""
    rng = random.Random(players * 10 + again)
    plan = race_plan(players, again)
    labels = [i // 2 for i in range(52)]
    games = []
    for _ in range(2000):
        rng.shuffle(labels)
        games.append(play_race(labels, [plan] * players, again))
    exact = plan.value(26)
    checks = [[g[i] for g in games] for i in range(players)] + [[sum(g) for g in games]]
    for sample, want in zip(checks, [*exact, sum(exact)], strict=True):
        error = statistics.stdev(sample) / math.sqrt(len(sample))
        assert abs(statistics.fmean(sample) - want) < 4 * error + 1e-9


@pytest.mark.parametrize("again", [True, False])
def test_two_player_dp_equals_brute_force(again: bool) -> None:
    """Two-player values equal an exhaustive search over every legal turn."""
    plan = race_plan(2, again)
    for n in range(1, 9):
        for k in range(n + 1):
            for idle in range(2):
                expected = brute_margin(k, n - k, idle, again)
                assert plan.margin(n, k, idle) == pytest.approx(expected, abs=1e-9), (n, k, idle)


@pytest.mark.parametrize("players", [3, 4])
def test_one_flip_races_equal_brute_force(players: int) -> None:
    """Own-pairs races without extra turns equal an exhaustive search."""
    plan = race_plan(players, False)
    for n in range(1, 7):
        for k in range(n + 1):
            for idle in range(players):
                expected = brute_race(players, n, k, idle, False)
                assert plan.value(n, k, idle) == pytest.approx(expected, abs=1e-9), (n, k, idle)


def test_three_player_standard_model_limit() -> None:
    """Where always taking pairs stops being optimal for three players."""
    # With a free extra turn after a match, three players agree with the exhaustive search up
    # to 4 pairs. From 5 pairs on, a player can do better by *not* taking a pair (leaving it to
    # the next player, who must then move on from a bad position); the plan, like the model it
    # solves, always takes pairs. This test pins down that known limit.
    plan = race_plan(3, True)
    for n in range(1, 5):
        for k in range(n + 1):
            for idle in range(3):
                assert plan.value(n, k, idle) == pytest.approx(brute_race(3, n, k, idle, True))
    assert brute_race(3, 5, 2, 0, True)[0] > plan.value(5, 2, 0)[0] + 0.1


def test_two_player_stall_positions_checked_by_brute_force() -> None:
    """The first position where both players would rather stall than explore."""
    # (5, 4) is the smallest position where both players would rather end the game than explore.
    plan = race_plan(2, True)
    assert plan.first(5, 4, 0) is First.PASS
    assert plan.first(5, 4, 1) is First.PASS
    assert brute_margin(4, 1, 0, True) == pytest.approx(0.0, abs=1e-12)
    assert plan.margin(5, 4) == 0.0


def test_two_player_zero_moves_appear_as_in_zwick_paterson() -> None:
    """Deliberate misses (0-moves) are part of optimal two-player play."""
    plan = race_plan(2, True)
    zeros = {(n, k) for n in range(1, 11) for k in range(n) if plan.second(n, k) is Second.KNOWN}
    assert (3, 1) in zeros
    assert len(zeros) >= 10
    # With nothing known a 0-move is impossible; a pass needs two known cards.
    assert all(plan.second(n, 0) is Second.UNSEEN for n in range(1, 40))
    assert all(plan.first(n, k, 0) is First.EXPLORE for n in range(1, 40) for k in range(2))


def test_one_flip_two_players_never_pass_and_claim_everything() -> None:
    """Under one-flip rules two players never stall."""
    plan = race_plan(2, False)
    for n in range(1, 31):
        assert all(plan.first(n, k, i) is First.EXPLORE for k in range(n + 1) for i in range(2))
        assert sum(plan.value(n)) == pytest.approx(n, abs=1e-9)


def greedy_pairs_recursion(n: int) -> Fraction:
    """First mover's expected pairs when both players always turn two unseen cards."""

    @cache
    def e(k: int, u: int) -> Fraction:
        # k known singletons, u unseen cards; (k + u) / 2 pairs remain.
        if u == k:
            return Fraction(k)
        left = Fraction(k + u, 2)
        out = Fraction(k, u) * (e(k - 1, u - 1) + 1) if k else Fraction(0)
        new = Fraction(u - k, u)
        out += new * Fraction(1, u - 1) * (e(k, u - 2) + 1)
        if k:
            out += new * Fraction(k, u - 1) * (left - 1 - e(k, u - 2))
        if u - k - 2:
            out += new * Fraction(u - k - 2, u - 1) * (left - e(k + 2, u - 2))
        return out

    return e(0, 2 * n)


def test_greedy_match_agrees_with_direct_recursion() -> None:
    """Greedy against greedy matches a separate exact recursion."""
    for n in range(1, 16):
        first, second = race_expected_pairs([GREEDY, GREEDY], n, True)
        assert first == pytest.approx(float(greedy_pairs_recursion(n)), abs=1e-9)
        assert first + second == pytest.approx(n, abs=1e-9)


@pytest.mark.parametrize("again", [True, False])
def test_plan_evaluated_against_itself_matches_its_value(again: bool) -> None:
    """Evaluating the plan as a policy reproduces its own values."""
    for players in (2, 3, 4):
        plan = race_plan(players, again)
        got = race_expected_pairs([plan] * players, 12, again)
        assert got == pytest.approx(plan.value(12), abs=1e-9)


@pytest.mark.parametrize("again", [True, False])
def test_plan_beats_greedy_with_seats_swapped(again: bool) -> None:
    """The plan gains against greedy play over both seatings."""
    plan = race_plan(2, again)
    a = race_expected_pairs([plan, GREEDY], 26, again)
    b = race_expected_pairs([GREEDY, plan], 26, again)
    average = ((a[0] - a[1]) + (b[1] - b[0])) / 2
    assert average > 0.5 if again else average > 0.1
    # Minimax: against any opponent the plan does at least as well as the game's value.
    assert a[0] - a[1] >= plan.margin(26) - 1e-9
    assert b[1] - b[0] >= -plan.margin(26) - 1e-9


def test_many_players_value_vectors() -> None:
    """Three to six players: one entry per seat, and no pair is left over."""
    for players in range(3, 7):
        for again in (True, False):
            plan = race_plan(players, again)
            v = plan.value(26)
            assert len(v) == players
            # Nobody profits from a stall with own-pairs goals, so every pair gets claimed.
            assert sum(v) == pytest.approx(26, abs=1e-9)
            assert all(x > 0 for x in v)


def test_large_tables_build_iteratively() -> None:
    """Sixty pairs and six players build without deep recursion."""
    plan = RacePlan(6, True)
    assert sum(plan.value(60)) == pytest.approx(60, abs=1e-8)
    assert solitaire_expected_turns(60) > 0


def test_ties_prefer_explore() -> None:
    """An exact tie between exploring and passing goes to exploring."""
    # In (4, 3) exploring and passing are worth exactly the same to the mover.
    plan = race_plan(2, True)
    assert plan.first(4, 3, 0) is First.EXPLORE


def test_edge_cases_and_bad_input() -> None:
    """Empty tables, all-known tables and impossible positions."""
    plan = race_plan(2, True)
    assert plan.value(0) == (0.0, 0.0)
    assert plan.value(3, 3) == (3.0, 0.0)  # every unseen card is a mate: the mover sweeps
    assert race_plan(2, False).value(3, 3) == pytest.approx((2.0, 1.0))
    with pytest.raises(ValueError):
        plan.second(3, 3)
    with pytest.raises(ValueError):
        plan.first(0, 0)
    with pytest.raises(ValueError):
        plan.value(2, 3)
    with pytest.raises(ValueError):
        plan.value(2, 0, 2)
    with pytest.raises(ValueError):
        RacePlan(1)
    with pytest.raises(ValueError):
        race_expected_pairs([GREEDY], 3)
    assert race_plan(3, True) is race_plan(3, True)
    assert list(itertools.islice(matchings([0, 1, 2, 3]), 5)) == [
        [(0, 1), (2, 3)],
        [(0, 2), (1, 3)],
        [(0, 3), (1, 2)],
    ]
