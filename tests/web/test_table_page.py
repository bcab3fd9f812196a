"""A person's seat in a real browser: headless Chromium plays a whole game of each of the nine
games by clicking the page (lit cards on the board, else the move buttons) against a bundled
bot; the record is the one `arena play` makes of the same seed and moves, the game's replay
page is one click away, and a click that is no legal move says why."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

pytest.importorskip("aiohttp")

from arena.engine import find_game
from arena.levels import table_size
from arena.loader import resolve_bot
from arena.match import play_game
from arena.table.seat import PersonSeat, Table
from arena.table.series import TableSeries
from arena.table.server import TableServer
from tests.helpers import slow_unless
from tests.table.helpers import GAMES, Played, bot_spec, replayed
from tests.web.conftest import Browser

CLICK = """
const lit = document.querySelector('#moves button.move.lit');
if (lit) { lit.click(); return 'button'; }
const card = document.querySelector('#board .card.legal');
if (card) { card.click(); return 'card'; }
const button = document.querySelector('#moves button.move');
if (button) { button.click(); return 'button'; }
return '';
"""


def play_in_browser(browser: Browser, game: str, seed: int,
                    before: Any = None) -> tuple[Played, TableServer, dict[int, str], list[str]]:
    """A whole game with the person in seat 0 played by clicking in the browser."""
    variant = find_game(game).variant(None, {})
    seats = table_size(variant, 1)
    table = Table(game, variant.game.title, variant.label, [0])
    table.pace = 0.0
    series = TableSeries(table)
    server = TableServer(table, series.pages)
    addresses = server.start()
    person = PersonSeat(table.outboxes[0])
    spec = bot_spec(game)
    names = ["person", *[f"{spec}-{s}" for s in range(1, seats)]]
    records: list[Any] = []

    def game_thread() -> None:
        bots = [person, *[resolve_bot(spec, game).make() for _ in range(1, seats)]]
        record = play_game(variant, bots, names, seed, series)
        series.finished(record)
        records.append(record)

    thread = threading.Thread(target=game_thread, daemon=True)
    thread.start()
    browser.driver.get(addresses[0])
    clicks: list[str] = []
    try:
        if before is not None:
            before()
        ends = time.monotonic() + 300
        while thread.is_alive() and time.monotonic() < ends:
            did = browser.run(CLICK)
            if did:
                clicks.append(did)
            else:
                time.sleep(0.005)
        thread.join(5)
        assert records, "the game did not end"
    except BaseException:
        table.leave()
        raise
    played = Played(table, json.loads(records[0].to_line()), list(person.moves), names, spec)
    return played, server, addresses, clicks


@pytest.mark.parametrize("game", [slow_unless(game in ("concentration", "cuckoo"), game, id=game)
                                  for game in GAMES])
def test_a_person_plays_a_whole_game_by_clicking_and_it_is_recorded_as_arena_play_does(
        browser: Browser, game: str) -> None:
    played, server, _, clicks = play_in_browser(browser, game, 11)
    try:
        assert played.moves and len(clicks) >= len(played.moves)
        assert played.record == replayed(played, game, None, 11)
        for _ in range(200):  # the result reaches the page
            if browser.run("return !!document.getElementById('replay-1')"):
                break
            time.sleep(0.02)
        shown = browser.run("return Array.from(document.querySelectorAll('.final-score'),"
                            " e => [Number(e.dataset.seat), Number(e.textContent)])")
        assert shown == [[s, score] for s, score in enumerate(played.record["scores"])]
        link = browser.run("return document.getElementById('replay-1').href")
        browser.driver.get(link)
        browser.wait_ready()
        assert browser.run("return document.getElementById('counter').dataset.steps") == str(
            len([m for m in played.table.outboxes[0].sent if m["type"] == "step"]))
        assert browser.errors() == []
    finally:
        played.table.close("done")
        server.stop()


def test_a_click_that_is_no_legal_move_says_why_in_words(browser: Browser) -> None:
    said: list[str] = []

    def try_an_illegal_card() -> None:
        for _ in range(400):
            if browser.run("return !!document.querySelector('#moves button.move')"):
                break
            time.sleep(0.01)
        said.append(browser.run(
            "const c = Array.from(document.querySelectorAll('#board .hand .card'))"
            ".find(e => !e.classList.contains('legal'));"
            "if (!c) return 'all legal'; c.click();"
            "return document.getElementById('say').textContent;"))

    played, server, _, _ = play_in_browser(browser, "dig", 2, try_an_illegal_card)
    try:
        assert said and "you can't use" in said[0] and "upcard" in said[0], said
    finally:
        played.table.close("done")
        server.stop()
