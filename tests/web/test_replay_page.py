"""The replay page in a real browser: every game and preset, stepped through by the page's own
controls, shows the recorded scores, one step per action, no script error, and no seat's view
(its drawing or its data) ever holds a card hidden from that seat."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from arena.api import Event
from arena.engine import State, all_games, find_game
from arena.levels import level_spec, table_size
from arena.loader import resolve_bot
from arena.match import play_game
from arena.tournament.records.seat_view import plain
from arena.viewer.game_steps import StepRecorder, legal_actions
from arena.viewer.replay_page import events_in, page_data, pooled, render, step_in, view_in
from tests.helpers import slow_unless
from tests.web.conftest import Browser

RULE_CARDS = {"frogs-in-the-pond": {"JS"}}
"""Cards the rules name (Frogs in the Pond's tadpole, the jack of spades): any narration may
name them without showing where one lies."""

# every game's first preset in the default run; every preset, slow
CASES = [slow_unless(preset == next(iter(game.presets)), game.name, preset,
                     id=f"{game.name}-{preset}")
         for game in all_games() for preset in game.presets]
CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[CDHS](?![A-Za-z0-9])|(?<![A-Za-z])JK[A-Z]?\b")


@dataclass
class Sight:
    """A spectator beside the page's recorder: at every step, the cards each seat may see face
    up now, and those it may ever have seen or been told of until then."""

    recorder: StepRecorder = field(default_factory=StepRecorder)
    now: list[list[set[str]]] = field(default_factory=list)
    ever: list[list[set[str]]] = field(default_factory=list)
    public: int = 0
    mark: int = 0

    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        self.recorder.dealt(state, variant, seed, names)
        self.public += sum(1 for i in range(len(state.log)) if i not in state.private)
        self._look(state, len(names))

    def decided(self, seat: int, action: Any) -> None:
        self.recorder.decided(seat, action)

    def happened(self, state: State, events: Sequence[Event]) -> None:
        self.recorder.happened(state, events)
        self.public += len(events)
        self._look(state, len(self.now[0]))

    def _look(self, state: State, players: int) -> None:
        now = [{str(c) for c in state.visible_cards(s)} for s in range(players)]
        told = [cards_in([plain(e) for e in state.seen_by(s, self.mark, len(state.log))])
                for s in range(players)]
        self.mark = len(state.log)
        last = self.ever[-1] if self.ever else [set() for _ in range(players)]
        self.now.append(now)
        self.ever.append([last[s] | now[s] | told[s] for s in range(players)])


def cards_in(value: Any) -> set[str]:
    """Every card named in plain data (strings that are cards, anywhere inside)."""
    if isinstance(value, str):
        return {value} if CARD.fullmatch(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


def seat_data(data: dict[str, Any], step: int, seat: int) -> dict[str, Any]:
    """A seat's view at a step, as the page's data holds it, with the events told to it."""
    return {"view": view_in(data, step, seat + 1), "told": events_in(data, step, seat)}


def leaks(data: dict[str, Any], sight: Sight) -> list[str]:
    """Cards the page's data puts in a seat's view that the seat may not see at that step."""
    found = []
    for step in range(len(data["steps"])):
        for seat in range(len(data["seats"])):
            mine = seat_data(data, step, seat)
            extra = cards_in(mine["view"]) - sight.now[step][seat]
            extra |= cards_in(mine["told"]) - sight.ever[step][seat]
            if extra:
                found.append(f"step {step}, seat {seat}: {sorted(extra)}")
    return found


def built(game: str, preset: str, seed: int = 3) -> tuple[str, dict[str, Any], dict[str, Any],
                                                            Sight]:
    """One short game between the game's hard bundled bots: its page, data, record and what
    each seat could see. (Not the experts: some of them search, seconds of CPU a game, and what
    a page shows depends on the game's events, not on how well its bots play.)"""
    variant = find_game(game).variant(preset, {})
    seats = table_size(variant, 0)
    spec = level_spec(game, "hard")
    sight = Sight()
    played = play_game(variant, [resolve_bot(spec, game).make() for _ in range(seats)],
                       [f"{spec}[{s}]" for s in range(seats)], seed, sight)
    record = json.loads(played.to_line())
    page = render(page_data(record, sight.recorder))
    return page.html, dict(page.data), record, sight


STEPS_LOOKED_AT = 40
"""In the browser, each seat's drawing is read at about this many steps spread over the game
(its data is checked at every step)."""

AT_STEPS = """
const [seat, steps] = arguments;
const view = document.getElementById('view'), slider = document.getElementById('slider');
view.value = seat;
view.dispatchEvent(new Event('change'));
return steps.map(i => {
  slider.value = i;
  slider.dispatchEvent(new Event('input'));
  const board = Array.from(document.querySelectorAll('#board [data-card]'), e => e.dataset.card);
"""
"""The start of a script run in a replay page: a seat's view (`seat`), then, for each of `steps`,
the page taken to it and the cards on its board (`board`); the rest says what to return."""

LOOK = AT_STEPS + """
  const lines = Array.from(document.querySelectorAll('#narration a.line:not([hidden])'),
                           a => a.textContent);
  return [Number(slider.value), board,
          lines.join(' | ') + ' | ' + document.getElementById('told').textContent];
});
"""


# a folder per test (no test reads another's page), so that the tests may be shared between
# test processes (see tests/conftest.py)
@pytest.fixture
def pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield tmp_path_factory.mktemp("replays")


@pytest.mark.parametrize(("game", "preset"), CASES)
def test_the_replay_page_plays_the_game_to_its_recorded_end(
        browser: Browser, pages: Path, game: str, preset: str) -> None:
    html, data, record, sight = built(game, preset)
    assert not leaks(data, sight)
    path = pages / f"{game}-{preset}.html"
    path.write_text(html, encoding="utf-8")
    browser.open(path)
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    body = browser.driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.END)  # the keyboard takes the page to the last step
    total = browser.run("return Number(document.getElementById('counter').dataset.steps)")
    assert total == len(sight.now) == len(data["steps"])  # the deal, then one per action
    assert sum(len(events_in(data, s)) for s in range(total)) == sight.public
    assert browser.run("return document.getElementById('counter').textContent") == (
        f"step {total - 1} of {total - 1}")
    shown = browser.run("return Array.from(document.querySelectorAll('.final-score'),"
                        " e => [Number(e.dataset.seat), Number(e.textContent)])")
    assert shown == [[seat, score] for seat, score in enumerate(record["scores"])]
    body.send_keys(Keys.ARROW_LEFT)
    assert browser.run("return document.getElementById('slider').value") == str(total - 2)
    looked = sorted({*range(0, total, -(-total // STEPS_LOOKED_AT)), total - 1})
    public: list[set[str]] = []
    for i in range(total):
        public.append((public[-1] if public else set()) | cards_in(events_in(data, i)))
    for seat in range(len(record["seats"])):
        for step, board, narration in browser.run(LOOK, str(seat), looked):
            named = set(CARD.findall(narration)) - RULE_CARDS.get(game, set())
            hidden = (set(board) | named) - sight.ever[step][seat]
            assert not hidden, f"seat {seat} is shown hidden cards at step {step}: {hidden}"
            assert set(board) <= cards_in(seat_data(data, step, seat)) | public[step], (
                "the drawing shows a card that neither its view nor a public event holds")
    assert browser.errors() == []


def test_the_leak_check_finds_a_card_put_into_a_seats_view() -> None:
    """The check above can fail: a hidden card slipped into a seat's data is found."""
    _, data, _, sight = built("dig", "standard")
    assert not leaks(data, sight)
    everything = {str(c) for c in find_game("dig").new_state(
        find_game("dig").variant(None, {}).params, 2, __import__("random").Random(0)).inventory()}
    hidden = sorted(everything - sight.ever[0][0])[0]
    data["pool"].append({"cards": [hidden]})
    views = data["step_fields"].index("views")
    shape = data["shapes"][data["steps"][0][views][1]]
    data["fields"].append([*data["fields"][shape[0]], "slipped"])
    data["shapes"].append([len(data["fields"]) - 1, *shape[1:], len(data["pool"]) - 1])
    data["steps"][0][views][1] = len(data["shapes"]) - 1
    assert leaks(data, sight) == [f"step 0, seat 0: ['{hidden}']"]


def test_a_hostile_name_is_shown_as_text_and_the_controls_answer(
        browser: Browser, pages: Path) -> None:
    variant = find_game("dig").variant(None, {})
    names = ["<img src=x onerror=document.title='owned'>", "</script><b id=bold>b</b>"]
    recorder = StepRecorder()
    played = play_game(variant, [resolve_bot("dig-sharp", "dig").make() for _ in names], names,
                       1, recorder)
    path = pages / "hostile.html"
    path.write_text(render(page_data(json.loads(played.to_line()), recorder)).html,
                    encoding="utf-8")
    browser.open(path)
    assert browser.run("return document.querySelectorAll('img, b').length") == 0
    assert names[0] in browser.run("return document.querySelector('header').textContent")
    assert browser.run("return document.title") != "owned"
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    body = browser.driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert browser.run("return document.getElementById('slider').value") == "2"
    body.send_keys(Keys.SPACE)  # plays
    assert browser.run("return document.getElementById('play').textContent") == "pause"
    body.send_keys(Keys.SPACE)  # pauses
    assert browser.run("return document.getElementById('play').textContent") == "play"
    assert browser.errors() == []


SEEN = AT_STEPS + """  const panel = document.getElementById('decision');
  const moves = panel.hidden ? null : document.querySelectorAll('#decision .move').length;
  const chosen = Array.from(document.querySelectorAll('#decision .move'))
    .findIndex(e => e.classList.contains('chosen'));
  return [board, moves, chosen];
});
"""


def seen_at(data: dict[str, Any], sight: Sight, step: int, seat: int) -> set[str]:
    """The cards `seat` saw at `step`: come face up for it then, or named by what it was shown
    then (the step's public events and those told to it alone), and both cards of a miss."""
    before = sight.now[step - 1][seat] if step else set()
    seen = (sight.now[step][seat] - before) | cards_in(events_in(data, step)) | cards_in(
        events_in(data, step, seat))
    for event in events_in(data, step):
        if isinstance(event, dict) and event.get("kind") == "miss":
            for position in event["positions"]:
                seen.add(last_revealed(data, step, position))
    return seen


def last_revealed(data: dict[str, Any], step: int, position: int) -> str:
    """The card last turned up at a Concentration position, up to a step."""
    for s in range(step, -1, -1):
        for event in reversed(events_in(data, s)):
            if isinstance(event, dict) and event.get("kind") == "reveal" \
                    and event["position"] == position:
                return str(event["card"])
    raise AssertionError(f"no card was turned at {position}")


def check_seen_and_decisions(browser: Browser, pages: Path, game: str, preset: str,
                             every: bool) -> None:
    """In each seat's view: every card it saw is on the board at that step, and each of its
    decisions shows all its legal moves with its choice marked (every step, or ~60 of them)."""
    html, data, _, sight = built(game, preset)
    path = pages / f"seen-{game}-{preset}.html"
    path.write_text(html, encoding="utf-8")
    browser.open(path)
    total = len(data["steps"])
    looked = list(range(total)) if every else sorted(
        {*range(0, total, -(-total // 60)), total - 1})
    for seat in range(len(data["seats"])):
        for step, (board, moves, chosen) in zip(looked, browser.run(SEEN, str(seat), looked),
                                                strict=True):
            missing = seen_at(data, sight, step, seat) - set(board)
            assert not missing, f"seat {seat}, step {step}: {sorted(missing)} not on the board"
            mine = {d[0]: d for d in step_in(data, step)["decisions"]}
            if seat in mine:
                _, legal, choice = mine[seat]
                form = pooled(data, legal)
                count = len(legal_actions(form))
                assert (moves, chosen) == (count, choice), f"seat {seat}, step {step}"
                assert choice >= 0
            else:
                assert moves is None
    assert browser.errors() == []


DEFAULTS = [(game.name, game.presets[0] if "standard" not in game.presets else "standard")
            for game in all_games()]


BESIDE_THE_END = ("concentration", "cuckoo")
"""Games whose pages the default run checks beyond playing them to their end (a two-seat game
and one of many seats); the other games, slow: each game's page plays to its end in the
default run."""


@pytest.mark.parametrize(("game", "preset"), [
    slow_unless(game in BESIDE_THE_END, game, preset, id=f"{game}-{preset}")
    for game, preset in DEFAULTS])
def test_a_seat_sees_on_its_board_every_card_it_saw_and_at_its_decisions_its_moves(
        browser: Browser, pages: Path, game: str, preset: str) -> None:
    check_seen_and_decisions(browser, pages, game, preset, every=False)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "preset"), CASES)
def test_in_every_preset_and_at_every_step_a_seat_sees_what_it_saw_and_its_moves(
        browser: Browser, pages: Path, game: str, preset: str) -> None:
    check_seen_and_decisions(browser, pages, game, preset, every=True)


def test_a_concentration_miss_shows_both_cards_face_up_on_its_step(
        browser: Browser, pages: Path) -> None:
    html, data, _, _ = built("concentration", "standard")
    misses = [s for s in range(len(data["steps"]))
              if any(e.get("kind") == "miss" for e in events_in(data, s))]
    path = pages / "misses.html"
    path.write_text(html, encoding="utf-8")
    browser.open(path)
    shown = browser.run(SEEN, "table", misses[:20])
    for step, (board, _, _) in zip(misses, shown, strict=False):
        miss = next(e for e in events_in(data, step) if e.get("kind") == "miss")
        both = {last_revealed(data, step, p) for p in miss["positions"]}
        assert both <= set(board), f"step {step}: {both} not both face up"


NARRATION = """
const slider = document.getElementById('slider');
slider.value = arguments[0];
slider.dispatchEvent(new Event('input'));
const lines = Array.from(document.querySelectorAll('#narration a.line')).filter(a => !a.hidden);
const now = lines.filter(a => a.classList.contains('now')).map(a => Number(a.dataset.step));
return [lines.length, lines.map(a => a.textContent), now,
        lines.every(a => a.href.includes('#step-'))];
"""


def test_the_narration_is_the_whole_game_so_far_and_a_line_takes_you_to_its_step(
        browser: Browser, pages: Path) -> None:
    html, data, _, _ = built("dig", "standard")
    path = pages / "narration.html"
    path.write_text(html, encoding="utf-8")
    browser.open(path)
    step = len(data["steps"]) // 2
    count, texts, now, links = browser.run(NARRATION, step)
    so_far = [data["texts"][i] for s in range(step + 1) for i in step_in(data, s)["lines"]]
    assert texts == so_far and count == len(so_far) and links
    assert now and set(now) == {step}
    browser.run("document.querySelector('#narration a.line[data-step=\"3\"]').click()")
    assert browser.run("return document.getElementById('slider').value") == "3"


ENGINE_WORDS = {"phase", "to act", "role", "field", "hands", "named suit", "named rank",
                "claim positions", "last winner", "deal limit", "frogs left", "tricks won ",
                "pack size", "hand size"}
"""Field names of the games' views that a player would not say (a label with `_` neither)."""

LABELS = """
const view = document.getElementById('view'), slider = document.getElementById('slider');
const found = new Set();
for (const key of ['table', ...Array.from(view.options, o => o.value)]) {
  view.value = key; view.dispatchEvent(new Event('change'));
  for (const i of arguments[0]) {
    slider.value = i; slider.dispatchEvent(new Event('input'));
    document.querySelectorAll('#board .label, #board .key')
      .forEach(e => found.add(e.textContent.trim()));
  }
}
return Array.from(found);
"""


@pytest.mark.parametrize("game", [slow_unless(game.name in BESIDE_THE_END, game.name,
                                              id=game.name) for game in all_games()])
def test_every_label_on_the_board_is_a_players_word(browser: Browser, pages: Path,
                                                    game: str) -> None:
    html, data, _, _ = built(game, DEFAULTS[[g for g, _ in DEFAULTS].index(game)][1])
    path = pages / f"words-{game}.html"
    path.write_text(html, encoding="utf-8")
    browser.open(path)
    total = len(data["steps"])
    labels = browser.run(LABELS, sorted({0, 1, total // 3, total // 2, total - 1}))
    wrong = [label for label in labels
             if "_" in label or label.rstrip(":").strip() in ENGINE_WORDS]
    assert labels and not wrong, wrong
