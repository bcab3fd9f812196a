"""The steps a replay page holds: views by seat and for the table, values kept once."""

from __future__ import annotations

from typing import Any

from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.tournament.records.seat_view import plain
from arena.viewer.game_steps import Pool, StepRecorder


def whole(pool: Pool, index: int) -> Any:
    patch = pool.patches.get(str(index))
    if patch is None:
        return pool.values[index]
    value = list(whole(pool, patch[0]))
    for place, item in patch[1]:
        value[place] = item
    return value


def test_a_list_changed_in_few_places_is_kept_as_a_patch_and_rebuilds_whole() -> None:
    pool = Pool()
    first = pool.ref(["down"] * 20)
    second = pool.ref(["down"] * 19 + ["KH"], like=first)
    assert pool.values[second] is None and pool.patches[str(second)] == [first, [[19, "KH"]]]
    assert whole(pool, second) == ["down"] * 19 + ["KH"]
    assert pool.ref(["down"] * 19 + ["KH"]) == second  # kept once
    third = pool.ref(["x"] * 20, like=second)  # changed everywhere: kept whole
    assert pool.values[third] == ["x"] * 20


def test_each_seat_holds_its_own_view_and_the_table_what_all_agree_on() -> None:
    variant = find_game("dig").variant(None, {})

    class Both(StepRecorder):
        def happened(self, state: Any, events: Any) -> None:
            super().happened(state, events)
            self.last = [plain(state.view(s)) for s in range(2)]

    recorder = Both()
    play_game(variant, [resolve_bot("random", "dig").make() for _ in range(2)], ["a", "b"], 2,
              recorder)
    step = recorder.steps[-1]
    views = [{k: whole(recorder.pool, i) for k, i in recorder.shapes.values[v].items()}
             for v in step["views"]]
    assert views[1] == recorder.last[0] and views[2] == recorder.last[1]
    assert "hand" not in views[0] and "seat" not in views[0]
    assert views[0] == {k: v for k, v in views[1].items() if views[2].get(k) == v}
