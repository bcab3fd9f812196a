"""The schedule: tables, seatings, clones, solitaire order, stable ids, laziness."""

from __future__ import annotations

from collections import Counter
from itertools import islice

from arena.tournament.schedule import (
    GamePlan,
    Schedule,
    Seating,
    VariantPlan,
    clone_seats,
    seatings,
    tables,
)

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
