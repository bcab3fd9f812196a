"""The any-colour minimax: exact values against explicit search, the shipped table, the bot."""

from __future__ import annotations

import lzma
import math
import statistics
from functools import cache

import pytest

from arena.engine import find_game
from arena.games.concentration.minimax import Position, minimax
from arena.loader import resolve_bot
from arena.session import play_series
from bots.concentration import groups as g

# --------------------------------------------------------------------------------------------
# An independent model: explicit positions, every legal flip, groups of any size.
# A cell is REMOVED, UNSEEN or the (positive) label of the group of a card that has been seen.
# --------------------------------------------------------------------------------------------

REMOVED, UNSEEN = -1, 0
Table = tuple[tuple[int, ...], tuple[int, ...]]  # cells, unseen cards of each group (label - 1)


def layout(state: g.State) -> Table:
    """A representative table of a state: each group's seen cards, then all unseen cards."""
    cells: list[int] = []
    hidden: list[int] = []
    for kind, count in enumerate(state):
        a, s = g.KINDS[kind]
        for _ in range(count):
            hidden.append(a)
            cells += [len(hidden)] * s
    return tuple(cells + [UNSEEN] * sum(hidden)), tuple(hidden)


def signature(table: Table) -> g.State:
    """The state of a table: how many groups of each kind."""
    cells, hidden = table
    counts = [0] * len(g.KINDS)
    for label, a in enumerate(hidden, start=1):
        s = cells.count(label)
        if a + s:
            counts[g.KIND_INDEX[(a, s)]] += 1
    return tuple(counts)


def reveal(table: Table, p: int) -> list[tuple[float, Table, bool]]:
    """Each card position p may hold: (chance, table afterwards, whether it was unseen)."""
    cells, hidden = table
    if cells[p] != UNSEEN:
        return [(1.0, table, False)]
    u = sum(hidden)
    out = []
    for i, a in enumerate(hidden):
        if a:
            new_hidden = (*hidden[:i], a - 1, *hidden[i + 1:])
            out.append((a / u, ((*cells[:p], i + 1, *cells[p + 1:]), new_hidden), True))
    return out


@cache
def brute(state: g.State, again: bool) -> float:
    """Mover's best expected margin over every legal turn (no idle turns while a card is
    unseen; with none unseen, turns that take nothing only repeat the position: left out)."""
    table = layout(state)
    cells = table[0]
    live = [i for i, c in enumerate(cells) if c != REMOVED]
    if not live:
        return 0.0
    any_unseen = UNSEEN in cells
    best = -math.inf
    for p in live:
        value_p = 0.0
        for prob1, table1, new1 in reveal(table, p):
            cells1 = table1[0]
            best_q = -math.inf
            for q in live:
                if q == p:
                    continue
                completes = cells1[q] == cells1[p]
                if not (completes or (any_unseen and (new1 or cells1[q] == UNSEEN))):
                    continue
                value_q = 0.0
                for prob2, (cells2, hidden2), _ in reveal(table1, q):
                    if cells2[p] == cells2[q]:
                        out = list(cells2)
                        out[p] = out[q] = REMOVED
                        rest = brute(signature((tuple(out), hidden2)), again)
                        value_q += prob2 * (1.0 + (rest if again else -rest))
                    else:
                        value_q -= prob2 * brute(signature((cells2, hidden2)), again)
                best_q = max(best_q, value_q)
            value_p += prob1 * best_q
        best = max(best, value_p)
    return best


@pytest.mark.parametrize("again", [True, False])
def test_group_model_equals_explicit_search_over_every_legal_flip(again: bool) -> None:
    """Every state of up to three groups (twelve cards), groups of four and of two mixed."""
    value = g.solve(3, again)[0]
    for state in g.states(3):
        assert value[(0, state)] == pytest.approx(brute(state, again), abs=1e-9), state


@pytest.mark.parametrize("again", [True, False])
def test_groups_of_two_are_the_one_mate_game(again: bool) -> None:
    value = g.solve(5, again)[0]
    solved = minimax(again)
    for state in g.states(5):
        if not any(state[:5]):
            pos = Position(sum(state[5:]), state[6], state[7])
            assert value[(0, state)] == pytest.approx(solved.margin(pos), abs=1e-9), state


@pytest.mark.parametrize("again", [True, False])
def test_shipped_table_equals_a_fresh_solve_of_small_states(again: bool) -> None:
    """The table of `scripts/make_concentration_tables.py`, regenerated for up to 4 groups."""
    _, firsts, seconds = g.solve(4, again)
    shipped = g.TableStrategy(again)
    for state, action in firsts.items():
        assert shipped.first(state) == action, state
    for (state, kind), action in seconds.items():
        assert shipped.second(state, kind) == action, (state, kind)
    assert len(lzma.compress(g.encode(firsts, seconds, 4))) > 0


def test_rank_is_the_position_in_lexicographic_order() -> None:
    ordered = sorted(g.states(3))
    assert [g.rank(st, 3) for st in ordered] == list(range(len(ordered)))
    with pytest.raises(ValueError, match="more than 3 groups"):
        g.rank(g.start_state(4), 3)


@pytest.mark.parametrize("again", [True, False])
def test_no_best_response_gains_against_the_table(again: bool) -> None:
    """Exploitability 0 on five groups (20 cards), where the table's own choices are played."""
    table = g.TableStrategy(again)
    assert abs(g.best_response_edge(table.as_strategy(), 5, again)) < 1e-9
    # The same best response does gain against greedy, which never leaves a pair.
    assert g.best_response_edge(g.greedy_strategy(), 5, again) > 0.05


@pytest.mark.parametrize("preset", ["any-color", "any-color-jokers"])
def test_optimal_bot_beats_greedy_at_any_colour(preset: str) -> None:
    """Duplicate deals through the real match loop: the table's bot beats greedy (its exact
    expected edge is +3.27 pairs a deal at any-colour); the old `optimal` played as greedy."""
    variant = find_game("concentration").variant(preset)
    bots = [resolve_bot("optimal", "concentration"), resolve_bot("greedy", "concentration")]
    margins = []
    for game in play_series(variant, bots, 3000, 60, rotate=True):
        assert not game.record.faults
        seat = game.entries.index(0)
        margins.append(game.record.scores[seat] - game.record.scores[1 - seat])
    mean = statistics.mean(margins)
    error = statistics.stdev(margins) / math.sqrt(len(margins))
    assert mean > 2 * error
