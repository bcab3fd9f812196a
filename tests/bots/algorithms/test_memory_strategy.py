"""Tests for bots.algorithms.memory_strategy: exact values, brute-force agreement, simulation."""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections.abc import Iterator
from fractions import Fraction
from functools import cache

import pytest

from bots.algorithms.memory_strategy import (
    GREEDY,
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


def legal_second(cells: Cells, p: int, q: int, new1: bool) -> bool:
    """Whether q may be turned second after p (already revealed in `cells`).

    The no-idle-turn rule: if the first card had been seen before, the second must be unseen or
    complete the pair. With no unseen card left every card belongs to a known pair, and a turn
    that took nothing would only repeat the position, so it is left out there as well.
    """
    return q != p and cells[q] != REMOVED and (new1 or cells[q] in (UNSEEN, cells[p]))


@cache
def _margin_turn(sig: tuple[int, int, int], again: bool) -> float:
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
                if not legal_second(cells1, p, q, new1):
                    continue
                value_q = 0.0
                for prob2, cells2, _new2 in reveal(cells1, q):
                    if cells2[p] == cells2[q]:
                        rest = _margin_turn(signature(remove(cells2, p, q)), again)
                        outcome = 1.0 + (rest if again else -rest)
                    else:
                        outcome = -_margin_turn(signature(cells2), again)
                    value_q += prob2 * outcome
                best_q = max(best_q, value_q)
            value_p += prob1 * best_q
        best = max(best, value_p)
    return best


def _rotate(v: tuple[float, ...], step: int) -> tuple[float, ...]:
    step %= len(v)
    return v[-step:] + v[:-step] if step else v


@cache
def _race_turn(sig: tuple[int, int, int], again: bool, players: int) -> tuple[float, ...]:
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
                if not legal_second(cells1, p, q, new1):
                    continue
                value_q = zero
                for prob2, cells2, _new2 in reveal(cells1, q):
                    if cells2[p] == cells2[q]:
                        rest = _race_turn(signature(remove(cells2, p, q)), again, players)
                        rest = rest if again else _rotate(rest, 1)
                        outcome = (rest[0] + 1.0, *rest[1:])
                    else:
                        outcome = _rotate(_race_turn(signature(cells2), again, players), 1)
                    value_q = tuple(a + prob2 * b for a, b in zip(value_q, outcome, strict=True))
                if best_q is None or value_q[0] > best_q[0] + 1e-12:
                    best_q = value_q
            assert best_q is not None
            value_p = tuple(a + prob1 * b for a, b in zip(value_p, best_q, strict=True))
        if best is None or value_p[0] > best[0] + 1e-12:
            best = value_p
    assert best is not None
    return best


def brute_race(players: int, n: int, k: int, again: bool) -> tuple[float, ...]:
    """Own-pairs race value by exhaustive search over every legal turn."""
    return _race_turn((k, 0, 2 * n - k), again, players)


def brute_margin(singles: int, unseen_pairs: int, again: bool) -> float:
    """Two-player value (mover's margin) by exhaustive search over every legal turn."""
    return _margin_turn((singles, 0, singles + 2 * unseen_pairs), again)


@cache
def _solitaire_turn(sig: tuple[int, int, int]) -> float:
    """Fewest expected turns over every legal turn."""
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
                if not legal_second(cells1, p, q, new1):
                    continue
                value_q = 0.0
                for prob2, cells2, _new2 in reveal(cells1, q):
                    after = remove(cells2, p, q) if cells2[p] == cells2[q] else cells2
                    value_q += prob2 * (1.0 + _solitaire_turn(signature(after)))
                best_q = min(best_q, value_q)
            value_p += prob1 * best_q
        best = min(best, value_p)
    return best


def brute_solitaire(n: int, k: int) -> float:
    """Fewest expected turns from (n, k) by exhaustive search."""
    return _solitaire_turn((k, 0, 2 * n - k))


# --------------------------------------------------------------------------------------------
# A second independent model, by counts, for two players: k known singletons, d known pairs left
# on the table, u unseen cards. Like the search above it allows every legal turn, including
# leaving a pair on the table, but it is fast enough for 26 pairs. One seat can be held to the
# plan (take known pairs, unseen card first, the plan's second flip) while the other replies as
# well as it can.
# --------------------------------------------------------------------------------------------

State = tuple[int, int, int]
Outcome = tuple[float, bool, State]  # chance, whether a pair was taken, position afterwards
Shown = tuple[float, str, dict[str, list[Outcome]]]  # chance, first card, second flip -> outcomes


def _kept(*outcomes: Outcome) -> list[Outcome]:
    """The outcomes that can happen."""
    return [o for o in outcomes if o[0] > 0]


def count_turns(k: int, d: int, u: int) -> dict[str, list[Shown]]:
    """Every legal turn from (k, d, u), by the kind of the first flip."""
    turns: dict[str, list[Shown]] = {}
    if d:  # a card of a known pair; then its mate, or (rule) an unseen card
        seconds = {"mate": [(1.0, True, (k, d - 1, u))]}
        if u:
            seconds["unseen"] = _kept(
                (k / u, False, (k - 1, d + 1, u - 1)), ((u - k) / u, False, (k + 1, d, u - 1))
            )
        turns["pair"] = [(1.0, "pair", seconds)]
    if k:  # a known singleton; then (rule) an unseen card
        unseen = _kept(
            (1 / u, True, (k - 1, d, u - 1)),
            ((k - 1) / u, False, (k - 1, d + 1, u - 1)),
            ((u - k) / u, False, (k + 1, d, u - 1)),
        )
        turns["single"] = [(1.0, "single", {"unseen": unseen})]
    if u:  # an unseen card; then anything
        shown: list[Shown] = []
        if k:  # it completes a known singleton: take it, or leave the pair on the table
            seconds = {"mate": [(1.0, True, (k - 1, d, u - 1))]}
            if k - 1 + 2 * d:
                seconds["known"] = [(1.0, False, (k - 1, d + 1, u - 1))]
            if u - 1:
                seconds["unseen"] = _kept(
                    ((k - 1) / (u - 1), False, (k - 2, d + 2, u - 2)),
                    ((u - k) / (u - 1), False, (k, d + 1, u - 2)),
                )
            shown.append((k / u, "hit", seconds))
        if u - k:  # it is new
            seconds = {
                "unseen": _kept(
                    (1 / (u - 1), True, (k, d, u - 2)),
                    (k / (u - 1), False, (k, d + 1, u - 2)),
                    ((u - k - 2) / (u - 1), False, (k + 2, d, u - 2)),
                )
            }
            if k + 2 * d:
                seconds["known"] = [(1.0, False, (k + 1, d, u - 1))]
            shown.append(((u - k) / u, "fresh", seconds))
        turns["unseen"] = shown
    return turns


class CountGame:
    """Two-player margins over every legal turn, by counts; optionally one seat plays the plan."""

    def __init__(self, again: bool, plan: RacePlan | None = None) -> None:
        """`plan`: the policy of the held seat (None: both seats play their best)."""
        self.again = again
        self.plan = plan
        self._memo: dict[tuple[int, int, int, bool], float] = {}

    def _planned(self, k: int, d: int, u: int, turns: dict[str, list[Shown]]) -> float:
        """Value of the plan's turn: take a known pair, else unseen first, then the plan."""
        assert self.plan is not None
        if d:
            return self._outcomes(turns["pair"][0][2]["mate"], True)
        total = 0.0
        for chance, card, seconds in turns["unseen"]:
            second = "mate"
            if card == "fresh":
                keep = self.plan.second((k + u) // 2, k) is Second.KNOWN
                second = "known" if keep else "unseen"
            total += chance * self._outcomes(seconds[second], True)
        return total

    def _outcomes(self, outcomes: list[Outcome], held: bool) -> float:
        """Mover's expected margin over the outcomes of a chosen turn."""
        total = 0.0
        other = self.plan is not None and not held
        for chance, took, state in outcomes:
            if not took:
                total -= chance * self.margin(*state, held=other)
            elif self.again:
                total += chance * (1.0 + self.margin(*state, held=held))
            else:
                total += chance * (1.0 - self.margin(*state, held=other))
        return total

    def margin(self, k: int, d: int, u: int, held: bool = False) -> float:
        """Expected margin of the player to move; `held`: that player follows the plan."""
        key = (k, d, u, held)
        if key not in self._memo:
            turns = count_turns(k, d, u)
            if not turns:
                value = 0.0
            elif held:
                value = self._planned(k, d, u, turns)
            else:
                value = max(
                    sum(
                        chance * max(self._outcomes(o, False) for o in seconds.values())
                        for chance, _card, seconds in shown
                    )
                    for shown in turns.values()
                )
            self._memo[key] = value
        return self._memo[key]


def test_brute_force_forbids_idle_turns() -> None:
    """A known first card must be followed by an unseen card or its mate while any is unseen."""
    cells = layout(2, 1, 3)  # singletons 1 and 2, the known pair 3 3, three unseen cards
    assert [q for q in range(len(cells)) if legal_second(cells, 0, q, False)] == [4, 5, 6]
    assert [q for q in range(len(cells)) if legal_second(cells, 2, q, False)] == [3, 4, 5, 6]
    assert [q for q in range(len(cells)) if legal_second(cells, 4, q, True)] == [0, 1, 2, 3, 5, 6]
    only_pairs = layout(0, 2, 0)
    assert [q for q in range(4) if legal_second(only_pairs, 0, q, False)] == [1]


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


def test_solitaire_plan_equals_always_two_unseen() -> None:
    """The plan never turns a known card second, so it needs exactly the greedy number of turns."""
    plan = solitaire_plan()
    assert all(plan.second(n, k) is Second.UNSEEN for n in range(1, 101) for k in range(n))
    for n in range(31):
        assert solitaire_expected_turns(n) == pytest.approx(
            solitaire_expected_turns(n, GREEDY), abs=1e-12
        )


def test_solitaire_policy_with_zero_moves_costs_turns() -> None:
    """A fixed policy that always turns a known card second when it can needs more turns."""

    class Miser:
        """Turns a known card second whenever one is known."""

        def second(self, n: int, k: int) -> Second:
            return Second.KNOWN if k else Second.UNSEEN

    assert solitaire_expected_turns(10, Miser()) > solitaire_expected_turns(10) + 1


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
    Every turn turns up an unseen card first, so the game always ends with the table cleared."""
    players = len(policies)
    n = len(deal) // 2
    nxt = 0
    singles: set[int] = set()
    known_pair = False
    seat = 0
    score = [0] * players

    def took() -> int:
        score[seat] += 1
        return seat if again else (seat + 1) % players

    while n:
        k = len(singles)
        if known_pair:
            known_pair, n = False, n - 1
            seat = took()
            continue
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
    assert nxt == len(deal) and not singles
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
    assert all(sum(g) == 26 for g in games)
    exact = plan.value(26)
    for i, want in enumerate(exact):
        sample = [g[i] for g in games]
        error = statistics.stdev(sample) / math.sqrt(len(sample))
        assert abs(statistics.fmean(sample) - want) < 4 * error


@pytest.mark.parametrize("again", [True, False])
def test_two_player_dp_equals_brute_force(again: bool) -> None:
    """Two-player values equal an exhaustive search over every legal turn up to 8 pairs."""
    plan = race_plan(2, again)
    game = CountGame(again)
    for n in range(1, 9):
        for k in range(n + 1):
            expected = brute_margin(k, n - k, again)
            assert plan.margin(n, k) == pytest.approx(expected, abs=1e-9), (n, k)
            assert game.margin(k, 0, 2 * n - k) == pytest.approx(expected, abs=1e-9), (n, k)


def test_one_flip_two_player_plan_is_exact_to_26_pairs() -> None:
    """Without extra turns the plan is optimal over every legal turn, up to 26 pairs."""
    plan = race_plan(2, False)
    game = CountGame(False)
    for n in range(1, 27):
        for k in range(n + 1):
            assert plan.margin(n, k) == pytest.approx(game.margin(k, 0, 2 * n - k), abs=1e-9)
    # So no reply, however odd, gets more out of the plan than the game's value.
    held = CountGame(False, plan)
    assert held.margin(0, 0, 52, held=True) == pytest.approx(plan.margin(26), abs=1e-9)
    assert held.margin(0, 0, 52) == pytest.approx(plan.margin(26), abs=1e-9)


def test_two_player_standard_model_limit() -> None:
    """With extra turns, leaving a pair on the table pays for two players from 9 pairs on."""
    # Up to 8 pairs the plan is exact (above). In (9, 8) the mover must turn unseen cards and,
    # under the plan, keeps the turn with every pair until a new card hands the opponent the
    # rest; leaving a completed pair on the table passes that burden on. The exhaustive search
    # finds this, the model (which always takes pairs) does not.
    plan = race_plan(2, True)
    assert plan.margin(9, 8) == pytest.approx(-5 / 3, abs=1e-12)
    assert brute_margin(8, 1, True) == pytest.approx(-17 / 15, abs=1e-12)
    # At 26 pairs the game's value barely moves, but an opponent who leaves pairs on the table
    # at the right moments takes 1.13 pairs a game off the plan, averaged over both seatings.
    game = CountGame(True)
    assert game.margin(0, 0, 52) == pytest.approx(-0.009922, abs=1e-6)
    assert plan.margin(26) == pytest.approx(-0.009953, abs=1e-6)
    held = CountGame(True, plan)
    as_first = held.margin(0, 0, 52, held=True)
    as_second = -held.margin(0, 0, 52)
    assert as_first == pytest.approx(-1.137289, abs=1e-6)
    assert as_second == pytest.approx(-1.117374, abs=1e-6)


@pytest.mark.parametrize("players", [3, 4])
def test_one_flip_races_equal_brute_force(players: int) -> None:
    """Own-pairs races without extra turns equal an exhaustive search."""
    plan = race_plan(players, False)
    for n in range(1, 7):
        for k in range(n + 1):
            expected = brute_race(players, n, k, False)
            assert plan.value(n, k) == pytest.approx(expected, abs=1e-9), (n, k)


def test_three_player_standard_model_limit() -> None:
    """Where always taking pairs stops being optimal for three players."""
    # With a free extra turn after a match, three players agree with the exhaustive search up
    # to 4 pairs. From 5 pairs on, a player can do better by *not* taking a pair: leaving a
    # completed pair on the table, or turning a known card first so that a pair completed by
    # the unseen card goes to the next player, who must then move on from a bad position. The
    # plan, like the model it solves, always takes pairs. This test pins down that known limit.
    plan = race_plan(3, True)
    for n in range(1, 5):
        for k in range(n + 1):
            assert plan.value(n, k) == pytest.approx(brute_race(3, n, k, True), abs=1e-9)
    assert brute_race(3, 5, 2, True)[0] == pytest.approx(1.161905, abs=1e-6)
    assert plan.value(5, 2)[0] == pytest.approx(0.940476, abs=1e-6)


def test_two_player_zero_moves_appear_as_in_zwick_paterson() -> None:
    """Deliberate misses (0-moves) are part of optimal two-player play."""
    for again in (True, False):
        plan = race_plan(2, again)
        zeros = {
            (n, k) for n in range(1, 11) for k in range(n) if plan.second(n, k) is Second.KNOWN
        }
        assert (3, 1) in zeros
        assert len(zeros) >= 20
        # With nothing known a 0-move is impossible.
        assert all(plan.second(n, 0) is Second.UNSEEN for n in range(1, 40))


# Where the standard-rule plan breaks the parity rule: eight small positions, then (n, n - 7).
PARITY_EXCEPTIONS = {(6, 1), (7, 1), (7, 2), (8, 1), (8, 2), (8, 3), (9, 2), (9, 4)}
PARITY_EXCEPTIONS |= {(n, n - 7) for n in range(12, 16)}


def test_two_player_zero_moves_follow_parity_rule() -> None:
    """Standard rule: turn a known card second exactly when n + k is even, 1 <= k <= n - 2,
    except at twelve positions with n <= 15."""
    plan = race_plan(2, True)
    for n in range(1, 61):
        for k in range(n):
            rule = (n + k) % 2 == 0 and 1 <= k <= n - 2
            assert (plan.second(n, k) is Second.KNOWN) == (rule != ((n, k) in PARITY_EXCEPTIONS))


def test_every_race_claims_every_pair() -> None:
    """Without idle turns every game ends with the table cleared."""
    for players in range(2, 7):
        for again in (True, False):
            plan = race_plan(players, again)
            for n in (1, 5, 26):
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


@pytest.mark.parametrize(("again", "gain"), [(True, 2.423197), (False, 0.723578)])
def test_plan_beats_greedy_with_seats_swapped(again: bool, gain: float) -> None:
    """Over both seatings at 26 pairs the plan gains 2.4232 pairs a game against greedy play
    under the standard rule and 0.7236 under one-flip (exact)."""
    plan = race_plan(2, again)
    a = race_expected_pairs([plan, GREEDY], 26, again)
    b = race_expected_pairs([GREEDY, plan], 26, again)
    average = ((a[0] - a[1]) + (b[1] - b[0])) / 2
    assert average == pytest.approx(gain, abs=1e-6)
    # Greedy always takes pairs, so it plays inside the model, where the plan is minimax: in
    # either seat the plan does at least as well against it as the model's value.
    assert a[0] - a[1] >= plan.margin(26) - 1e-9
    assert b[1] - b[0] >= -plan.margin(26) - 1e-9


def test_many_players_value_vectors() -> None:
    """Three to six players: one entry per seat, every seat scores."""
    for players in range(3, 7):
        for again in (True, False):
            v = race_plan(players, again).value(26)
            assert len(v) == players
            assert all(x > 0 for x in v)


def test_large_tables_build_iteratively() -> None:
    """Sixty pairs and six players build without deep recursion."""
    plan = RacePlan(6, True)
    assert sum(plan.value(60)) == pytest.approx(60, abs=1e-8)
    assert solitaire_expected_turns(60) > 0


def test_ties_prefer_unseen() -> None:
    """An exact tie between the two second flips goes to an unseen card."""
    # One-flip: whichever the second flip, the turn is worth a margin of 0 to the mover in
    # (2, 1) and of 0.4 in (4, 3).
    plan = race_plan(2, False)
    assert plan.second(2, 1) is Second.UNSEEN
    assert plan.second(4, 3) is Second.UNSEEN


def test_edge_cases_and_bad_input() -> None:
    """Empty tables, all-known tables and impossible positions."""
    plan = race_plan(2, True)
    assert plan.value(0) == (0.0, 0.0)
    assert plan.value(3, 3) == (3.0, 0.0)  # every unseen card is a mate: the mover sweeps
    assert race_plan(2, False).value(3, 3) == pytest.approx((2.0, 1.0))
    with pytest.raises(ValueError):
        plan.second(3, 3)
    with pytest.raises(ValueError):
        solitaire_plan().second(0, 0)
    with pytest.raises(ValueError):
        plan.value(2, 3)
    with pytest.raises(ValueError):
        plan.value(-1)
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
