"""The person's seat without the web: nothing hidden in any message, the same record as
`arena play`, and a person who leaves recorded as a quit."""

from __future__ import annotations

from typing import Any

import pytest

from arena.engine import find_game
from tests.table.helpers import GAMES, play_with_person, replayed
from tests.web.test_replay_page import Sight, cards_in

RULE_CARDS = {"frogs-in-the-pond": {"JS"}}
"""Cards the rules name (the tadpole): narration may name them without showing one."""


def leaked(messages: list[dict[str, Any]], sight: Sight, game: str) -> list[str]:
    """Cards a message holds that seat 0 may not have seen by then."""
    found = []
    step = 0
    for message in messages:
        if message["type"] == "step":
            step = message["step"]
        if message["type"] in ("hello", "over"):  # a game's hello comes before its steps
            continue
        extra = cards_in(message) - sight.ever[step][0] - RULE_CARDS.get(game, set())
        if extra:
            found.append(f"{message['type']} at step {step}: {sorted(extra)}")
    return found


@pytest.mark.parametrize("game", GAMES)
def test_no_message_to_a_persons_page_holds_a_card_the_seat_may_not_see(game: str) -> None:
    sight = Sight()
    played = play_with_person(game, None, 5, sight)
    messages = played.table.outboxes[0].sent
    assert [m["type"] for m in messages].count("step") == len(sight.now)
    assert not leaked(messages, sight, game)
    assert {m["type"] for m in messages} == {"hello", "step", "act", "over"}
    # nothing but the seat's own view: every step's view is the game's view(0)
    assert all(set(m) == {"type", "step", "view", "events", "told", "lines", "acted", "next"}
               for m in messages if m["type"] == "step")


def test_the_leak_check_finds_a_hidden_card_slipped_into_a_message() -> None:
    sight = Sight()
    played = play_with_person("dig", None, 5, sight)
    messages = list(played.table.outboxes[0].sent)
    everything = {str(c) for c in find_game("dig").new_state(
        find_game("dig").variant(None, {}).params, 2, __import__("random").Random(0)
    ).inventory()}
    hidden = sorted(everything - sight.ever[1][0])[0]
    messages.insert(3, {"type": "step", "step": 1, "view": {"hand": [hidden]}})
    assert leaked(messages, sight, "dig") == [f"step at step 1: ['{hidden}']"]


@pytest.mark.parametrize("game", GAMES)
def test_a_game_at_the_table_is_recorded_as_arena_play_records_it(game: str) -> None:
    played = play_with_person(game, None, 7)
    assert played.moves
    assert played.record == replayed(played, game, None, 7)
    over = played.table.outboxes[0].sent[-1]
    assert over["type"] == "over" and over["scores"] == played.record["scores"]


def test_a_person_who_leaves_quits_and_the_game_is_recorded_with_the_quit() -> None:
    from tests.table import helpers

    table_left: list[Any] = []

    def answer(legal: list[Any], rng: Any) -> int:
        if len(table_left) >= 2:
            played_box.left.set()
            return -1  # not a move: the seat asks again, then sees it left
        table_left.append(1)
        return 0

    played_box: Any = None
    original = helpers.PersonSeat

    class Watching(original):  # type: ignore[misc, valid-type]
        def __init__(self, box: Any) -> None:
            nonlocal played_box
            played_box = box
            super().__init__(box)

    helpers.PersonSeat = Watching  # type: ignore[misc]
    try:
        played = play_with_person("dig", None, 3, answer=answer)
    finally:
        helpers.PersonSeat = original  # type: ignore[misc]
    faults = played.record["faults"]
    assert [f["seat"] for f in faults] == [0] and "left the table" in faults[0]["detail"]
    assert played.table.left and len(played.moves) == 2


def test_two_people_at_one_table_each_see_their_own_seat_and_play_a_whole_game() -> None:
    import json
    import random
    import threading
    import time

    from arena.levels import level_spec
    from arena.loader import resolve_bot
    from arena.match import play_game
    from arena.table.seat import PersonSeat, Table
    from arena.table.series import TableSeries
    from tests.table.helpers import Script

    variant = find_game("memorandum").variant(None, {})
    table = Table("memorandum", "Memorandum", variant.label, [0, 1])
    table.pace = 0.0
    series = TableSeries(table)
    people = [PersonSeat(table.outboxes[0]), PersonSeat(table.outboxes[1])]
    done = threading.Event()

    def page(seat: int) -> None:
        box, rng, seen = table.outboxes[seat], random.Random(seat), 0
        while not done.is_set():
            with box.lock:
                new = box.sent[seen:]
            seen += len(new)
            for message in new:
                if message["type"] == "act":
                    box.answers.put({"move": rng.randrange(len(message["legal"]))})
            if not new:
                time.sleep(0.001)

    pages = [threading.Thread(target=page, args=(s,), daemon=True) for s in (0, 1)]
    for thread in pages:
        thread.start()
    spec = level_spec("memorandum", "easy")
    names = ["ann", "bob", spec]
    try:
        record = play_game(variant, [*people, resolve_bot(spec, "memorandum").make()], names, 2,
                           series)
    finally:
        done.set()
    sight = Sight()
    again = play_game(variant, [Script(people[0].moves), Script(people[1].moves),
                                resolve_bot(spec, "memorandum").make()], names, 2, sight)
    assert json.loads(record.to_line()) == json.loads(again.to_line())
    for seat in (0, 1):
        steps = [m for m in table.outboxes[seat].sent if m["type"] == "step"]
        assert len(steps) == len(sight.now) and all(m["view"] is not None for m in steps)
        for message in table.outboxes[seat].sent:
            if message["type"] == "step":
                extra = cards_in(message) - sight.ever[message["step"]][seat]
                assert not extra, (seat, message["step"], extra)
    assert table.outboxes[0].sent[0]["you"] == 0 and table.outboxes[1].sent[0]["you"] == 1
