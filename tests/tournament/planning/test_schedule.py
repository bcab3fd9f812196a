"""The schedule: tables, seatings, clones, solitaire order, stable ids, laziness; sampled and
gauntlet tables."""

from __future__ import annotations

import functools
import os
import random
import subprocess
import sys
from collections import Counter
from itertools import combinations, islice
from typing import Any

import pytest

from arena.tournament.planning.schedule import (
    MAX_SWAPS,
    SWAPS_PER_TABLE,
    Draw,
    FieldStep,
    Format,
    GamePlan,
    Schedule,
    Seating,
    VariantPlan,
    clone_seats,
    grown_tables,
    replay_draw,
    sampled_tables,
    seatings,
    table_count,
    tables,
)
from tests.helpers import slow_unless

STANDARD = (VariantPlan("standard", "standard"),)


def test_tables_are_the_combinations_of_the_pool() -> None:
    assert tables(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert len(tables([str(i) for i in range(10)], 4)) == 210


def test_clones_fill_tables_larger_than_the_pool() -> None:
    assert tables(["a", "b"], 3) == [("a", "a", "b"), ("a", "b", "b")]
    assert clone_seats(("a", "b", "a")) == (2,)
    assert clone_seats(("a", "a", "a")) == (1, 2)
    assert clone_seats(("a", "b")) == ()


def test_rotations_and_permutations() -> None:
    assert seatings(("a", "b", "c"), Seating.ROTATIONS) == [
        ("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert len(seatings(("a", "b", "c"), Seating.PERMUTATIONS)) == 6
    assert seatings(("a", "a"), Seating.ROTATIONS) == [("a", "a")]  # no repeated seating


def test_every_bot_sits_in_every_seat_of_every_deal() -> None:
    schedule = Schedule([GamePlan("concentration", 3, STANDARD)], ["a", "b", "c", "d"], [7, 8])
    tasks = list(schedule)
    assert len(tasks) == len(schedule) == 4 * 3 * 2  # tables x rotations x deals
    seats = Counter((t.seed, t.table, i, name) for t in tasks for i, name in enumerate(t.seats))
    for table in tables(["a", "b", "c", "d"], 3):
        for seed in (7, 8):
            for bot in table:
                assert all(seats[(seed, table, i, bot)] == 1 for i in range(3))


def test_ids_are_stable_and_in_order() -> None:
    plans = [GamePlan("concentration", 2, (VariantPlan("standard", "standard"),
                                           VariantPlan("zebra", "zebra")))]
    one = list(Schedule(plans, ["a", "b", "c"], range(5)))
    two = list(Schedule(plans, ["a", "b", "c"], range(5)))
    assert one == two
    assert [t.task for t in one] == list(range(len(one)))
    assert [t.variant for t in one[:30]] == ["standard"] * 30


def test_solitaire_plays_each_deal_by_every_bot_together() -> None:
    schedule = Schedule([GamePlan("concentration", 1, STANDARD)], ["a", "b", "c"], [5, 6])
    tasks = list(schedule)
    assert [(t.seed, t.seats) for t in tasks] == [
        (5, ("a",)), (5, ("b",)), (5, ("c",)), (6, ("a",)), (6, ("b",)), (6, ("c",))]


def test_the_schedule_is_lazy() -> None:
    huge = Schedule([GamePlan("concentration", 4, STANDARD)], [str(i) for i in range(30)],
                    range(10_000))
    assert len(huge) == 27_405 * 4 * 10_000
    first = list(islice(huge, 3))
    assert [t.task for t in first] == [0, 1, 2]


def test_neighbours_change_from_deal_to_deal_under_rotations() -> None:
    schedule = Schedule([GamePlan("cuckoo", 6, STANDARD)], ["r", "s", "x"], range(40))
    tasks = list(schedule)
    assert len(tasks) == len(schedule)
    left_of = Counter()
    for t in tasks:
        if t.table == ("r", "r", "r", "r", "s", "x"):
            i = t.seats.index("s")
            left_of[t.seats[(i + 1) % 6]] += 1
    assert left_of["x"] > 0 and left_of["r"] > left_of["x"]  # not always the same neighbour
    first = [t.seats for t in tasks if t.seed == 0][:6]
    again = [t.seats for t in Schedule([GamePlan("cuckoo", 6, STANDARD)], ["r", "s", "x"],
                                       range(40)) if t.seed == 0][:6]
    assert first == again  # seeded: the same schedule every time


def _pairs(tables_: list[tuple[str, ...]]) -> Counter[tuple[str, str]]:
    """How often each pair of bots sat at one table."""
    return Counter(pair for table in tables_ for pair in combinations(sorted(table), 2))


def _field(bots: int, players: int, per_bot: int) -> Any:
    """A field to draw, under slow only if its evening out tries the most swaps it may
    (MAX_SWAPS: seconds of swaps; 100 bots at 134 tables): each bot's count is set by the
    greedy draw every field goes through, and a swap between two tables keeps it."""
    capped = table_count(bots, players, per_bot) * SWAPS_PER_TABLE >= MAX_SWAPS
    return slow_unless(not capped, bots, players, per_bot, id=f"{bots}-{players}-{per_bot}")


@pytest.mark.parametrize(("bots", "players", "per_bot"), [
    _field(*shape) for shape in [(30, 8, 8), (10, 4, 6), (12, 2, 3), (5, 3, 2), (100, 6, 8),
                                 (30, 8, 1)]])
def test_sampled_tables_seat_every_bot_equally_often_give_or_take_one(
        bots: int, players: int, per_bot: int) -> None:
    names = [f"b{i:03d}" for i in range(bots)]
    drawn = sampled_tables(names, players, per_bot, random.Random("t"))
    assert len(drawn) == table_count(bots, players, per_bot)
    assert all(len(set(t)) == players for t in drawn)  # distinct bots at every table
    seated = Counter(name for table in drawn for name in table)
    assert set(seated) == set(names)
    assert min(seated.values()) >= per_bot and max(seated.values()) <= per_bot + 1


@pytest.mark.parametrize(("bots", "players", "per_bot"), [(7, 3, 3), (9, 3, 4)])
def test_sampled_pairs_meet_exactly_once_where_a_design_allows_it(
        bots: int, players: int, per_bot: int) -> None:
    # 7 bots in 7 tables of 3 (the Fano plane) and 9 in 12 of 3 (a Kirkman design): every
    # pair can meet exactly once, and the draw finds it
    names = [f"b{i}" for i in range(bots)]
    met = _pairs(sampled_tables(names, players, per_bot, random.Random("t")))
    assert len(met) == bots * (bots - 1) // 2 and set(met.values()) == {1}


def test_sampled_pairs_meet_evenly_in_a_big_field() -> None:
    names = [f"b{i:02d}" for i in range(30)]
    drawn = sampled_tables(names, 8, 8, random.Random("t"))
    met = _pairs(drawn)
    counts = [met[pair] for pair in combinations(names, 2)]
    mean = sum(counts) / len(counts)  # 1.93
    assert max(counts) - min(counts) <= 4
    # far nearer the mean than tables drawn at random with the same seat counts
    shuffled = [tuple(random.Random(i).sample(names, 8)) for i in range(len(drawn))]
    spread = sum((c - mean) ** 2 for c in counts)
    assert spread < 0.5 * sum((met_r - mean) ** 2 for met_r in
                              (_pairs(shuffled)[p] for p in combinations(names, 2)))


def test_a_sampled_schedule_balances_seats_and_plays_every_deal_at_every_table() -> None:
    names = [f"b{i}" for i in range(10)]
    schedule = Schedule([GamePlan("memorandum", 4, STANDARD)], names, [5, 6, 7],
                        draw=Draw(Format.SAMPLED, 3))
    tasks = list(schedule)
    assert len(tasks) == len(schedule) == table_count(10, 4, 3) * 4 * 3
    seats = Counter((t.table, t.seed, i, name) for t in tasks for i, name in enumerate(t.seats))
    for table in schedule.tables_of(schedule.games[0]):
        for seed in (5, 6, 7):
            assert all(seats[table, seed, i, bot] == 1 for bot in table for i in range(4))


DRAW_IN_A_PROCESS = """
from arena.tournament.planning.schedule import Draw, Format, GamePlan, Schedule, VariantPlan
plan = GamePlan("cuckoo", 8, (VariantPlan("standard", "standard"),))
schedule = Schedule([plan], [f"b{i}" for i in range(30)], [1, 2], draw=Draw(Format.SAMPLED, 8))
print(repr([(t.task, t.seats, t.seed) for t in schedule]))
"""


def test_a_sampled_schedule_is_the_same_in_every_process() -> None:
    plan = GamePlan("cuckoo", 8, STANDARD)
    here = Schedule([plan], [f"b{i}" for i in range(30)], [1, 2], draw=Draw(Format.SAMPLED, 8))
    # drawn again in a process whose string hashes differ from this one's
    seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    there = subprocess.run([sys.executable, "-c", DRAW_IN_A_PROCESS], check=True, text=True,
                           capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
    assert there == repr([(t.task, t.seats, t.seed) for t in here]) + "\n"


def test_a_two_player_gauntlet_plays_every_challenger_against_every_field_bot() -> None:
    names = ["a", "new", "b", "c", "newer"]
    schedule = Schedule([GamePlan("concentration", 2, STANDARD)], names, [1, 2],
                        draw=Draw(Format.GAUNTLET, None, ("new", "newer")))
    drawn = schedule.tables_of(schedule.games[0])
    assert sorted(map(frozenset, drawn)) == sorted(
        frozenset((c, f)) for c in ("new", "newer") for f in ("a", "b", "c"))
    assert len(schedule) == len(list(schedule)) == 6 * 2 * 2


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_field_of_a_gauntlet_never_meets_itself(players: int) -> None:
    names = [f"f{i}" for i in range(12)] + ["x", "y"]
    schedule = Schedule([GamePlan("animals", players, STANDARD)], names, [1],
                        draw=Draw(Format.GAUNTLET, 4, ("x", "y")))
    drawn = schedule.tables_of(schedule.games[0])
    assert all(sum(b in ("x", "y") for b in t) == 1 and len(set(t)) == players for t in drawn)
    # both challengers face the same field tables, and each field bot sits at 4 or 5 of them
    fields = [tuple(b for b in t if b not in ("x", "y")) for t in drawn]
    assert fields[:len(fields) // 2] == fields[len(fields) // 2:]
    seated = Counter(b for f in fields[:len(fields) // 2] for b in f)
    assert set(seated.values()) <= {4, 5}


def test_a_round_robin_count_needs_no_table_list() -> None:
    big = Schedule([GamePlan("cuckoo", 8, STANDARD)], [f"b{i}" for i in range(30)], [1, 2])
    assert len(big) == 93_646_800  # the 30-bot class at 8-seat Cuckoo, on 2 deals
    small = Schedule([GamePlan("concentration", 3, STANDARD)], list("abcde"), [1, 2],
                     Seating.PERMUTATIONS)
    assert len(small) == len(list(small)) == 10 * 6 * 2


# a field that grows: the draw of a run is its first tables grown through its history


FIELD = [f"c{i:02d}" for i in range(30)]


@functools.cache
def cuckoo() -> list[tuple[str, ...]]:
    """The 30-bot class at 8 seats (drawn when a test first asks: a second of work, not at
    collection, which every test process does)."""
    return sampled_tables(FIELD, 8, 4, random.Random("t"))


@pytest.mark.parametrize("players", [2, 3, 8])
def test_a_new_bot_gets_its_tables_and_the_old_ones_all_stay(players: int) -> None:
    field = FIELD[:12] if players < 8 else FIELD
    before = cuckoo() if players == 8 else sampled_tables(field, players, 4, random.Random("t"))
    grown = grown_tables(before, [*field, "new"], players, 4, "key")
    assert grown[:len(before)] == before  # kept, in their order
    added = grown[len(before):]
    assert len(added) == 4 and all("new" in t and len(set(t)) == players for t in added)
    assert len(set(grown)) == len(grown)  # no table twice


def test_unrated_newcomers_meet_the_field_evenly() -> None:
    field = FIELD[:12]
    drawn = sampled_tables(field, 4, 6, random.Random("t"))
    grown = grown_tables(drawn, [*field, "n1", "n2"], 4, 6, "key")
    added = grown[len(drawn):]
    for new in ("n1", "n2"):
        # its 6 tables, 18 seats against 13 bots: every bot once before any twice
        met = Counter(b for t in added if new in t for b in t if b != new)
        assert sum(new in t for t in grown) == 6
        assert len(met) == 13 and set(met.values()) == {1, 2}
    seated = Counter(b for t in grown for b in t if b not in ("n1", "n2"))
    before = Counter(b for t in drawn for b in t)
    assert max(seated.values()) - min(seated.values()) <= max(before.values()) - min(
        before.values()) + 1  # the field's table counts stay even


def test_the_same_history_gives_the_same_draw_and_the_key_breaks_ties() -> None:
    history = [FieldStep((*FIELD, "new"), 4), FieldStep((*FIELD[1:], "new"), 4)]
    once = replay_draw(cuckoo(), history, 8, "key")
    assert once == replay_draw(cuckoo(), history, 8, "key")
    assert once == grown_tables(grown_tables(cuckoo(), history[0].bots, 8, 4, "key"),
                                history[1].bots, 8, 4, "key")
    assert once != replay_draw(cuckoo(), history, 8, "another key")
    # c00 left: its tables are dropped, the bots that sat with it topped up to 4 tables
    grown = replay_draw(cuckoo(), history[:1], 8, "key")
    seated = Counter(b for t in once for b in t)
    assert "c00" not in seated and min(seated.values()) == 4
    assert [t for t in grown if "c00" not in t] == once[:len(grown) - 4]  # the rest all kept


def test_a_rated_bot_short_of_tables_is_seated_near_its_rating() -> None:
    # a ring of 40 bots, each at 8 tables; "new" (rated 20) is short of all 8 of its own
    field = [f"b{i:02d}" for i in range(40)]
    ratings = {name: float(i) for i, name in enumerate(field)}  # 1 point apart
    ratings["new"] = 20.0
    drawn = [(a, field[(i + k) % 40]) for i, a in enumerate(field) for k in range(1, 5)]
    near = grown_tables(drawn, [*field, "new"], 2, 8, "key", ratings, width=2.0)
    even = grown_tables(drawn, [*field, "new"], 2, 8, "key")
    def gaps(drawn: list[tuple[str, ...]]) -> list[float]:
        return [abs(ratings[b] - 20.0) for t in drawn if "new" in t for b in t if b != "new"]
    assert len(gaps(near)) == 8 and max(gaps(near)) <= 6  # within three widths
    assert sum(gaps(even)) > 2 * sum(gaps(near))  # by meetings alone: anywhere in the field
