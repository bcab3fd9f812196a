"""The replay page: one self-contained HTML file that plays a recorded game back in the browser.

The page holds the game as steps (see `game_steps`), the record's result and faults (with the
faulty bots' output in the replayed game, escaped), and one generic player (`replay.js`,
`replay.css`, shipped with this package) that draws each game with its own renderer.
Spectator or any seat's view, play and pause, step, slider, speed and the keyboard are the
player's; nothing is fetched from anywhere.
"""

from __future__ import annotations

import dataclasses
import json
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.api import Bot, Event
from arena.engine import State, Variant, find_game
from arena.errors import ArenaError
from arena.match import Watcher, play_game
from arena.record import GameRecord
from arena.safe_files import check_entry, read_lines, write_text
from arena.text import escape
from arena.tournament.playing.tasks import _file_name
from arena.tournament.records.replay import Replayer, ReplayResult, opened
from arena.tournament.records.seat_view import plain
from arena.viewer.game_steps import StepRecorder
from arena.viewer.page import html_page

FORMAT = 2
"""The version of the page's data layout (`data.format`)."""

OUTPUT_LINES = 60
"""At most this many of a faulty bot's last output lines go into the page."""


@dataclass(frozen=True)
class ReplayPage:
    """A built page: its HTML and the data it embeds (for tests and benchmarks)."""

    html: str
    data: Mapping[str, Any]

    @property
    def steps(self) -> int:
        """How many steps the page plays (the deal, then one per action)."""
        return len(self.data["steps"])


def page_data(record: Mapping[str, Any], recorder: StepRecorder,
              outputs: Mapping[int, Sequence[str]] | None = None,
              differences: Sequence[str] = ()) -> dict[str, Any]:
    """The page's data: the game's steps from `recorder` and the result from `record`."""
    game = find_game(str(record.get("game")))
    seats = [escape(str(s)) for s in record.get("seats") or recorder.names]
    faults = [plain(f) for f in record.get("faults") or () if isinstance(f, Mapping)]
    task = record.get("task")
    times = record.get("times")
    return {
        "format": FORMAT, "game": game.name, "title": game.title,
        "variant": escape(str(record.get("variant"))), "seed": plain(record.get("seed")),
        "task": task if isinstance(task, int) else None, "seats": seats,
        "pool": recorder.pool.values, "patches": recorder.pool.patches,
        **_compact(recorder.shapes.values, recorder.steps), "texts": recorder.texts.values,
        "result": {"scores": plain(record.get("scores") or []),
                   "ranks": plain(record.get("ranks") or []),
                   "turns": plain(record.get("turns")), "final": plain(record.get("final")),
                   "faults": faults,
                   "outputs": {str(k): [escape(x) for x in v] for k, v in (outputs or {}).items()}},
        "differences": [escape(d) for d in differences],
        "times": plain(times) if isinstance(times, list) else None,
    }


STEP_FIELDS = ("acted", "next", "events", "lines", "views", "told", "decisions")
"""A step of the page's data is a list of these, in this order."""


def _compact(shapes: Sequence[Mapping[str, int]], steps: Sequence[Mapping[str, Any]]
             ) -> dict[str, Any]:
    """Views and steps as lists, not objects, so no field name is repeated a thousand times:
    a view is `[names, ref, ref, ...]` with `names` an index into `fields` (its field names),
    a step lists `STEP_FIELDS` in order."""
    names: dict[tuple[str, ...], int] = {}
    compact = []
    for shape in shapes:
        key = tuple(shape)
        compact.append([names.setdefault(key, len(names)), *shape.values()])
    return {"fields": [list(k) for k in names], "shapes": compact,
            "step_fields": list(STEP_FIELDS),
            "steps": [[step[k] for k in STEP_FIELDS] for step in steps]}


def step_in(data: Mapping[str, Any], step: int) -> dict[str, Any]:
    """Step `step` of a page's data as an object (see `STEP_FIELDS`)."""
    return dict(zip(data["step_fields"], data["steps"][step], strict=True))


def pooled(data: Mapping[str, Any], index: int) -> Any:
    """A value of a page's pool, rebuilt from its patch where it is kept as one."""
    patch = data["patches"].get(str(index))
    if patch is None:
        return data["pool"][index]
    value = list(pooled(data, patch[0]))
    for place, item in patch[1]:
        value[place] = item
    return value


def view_in(data: Mapping[str, Any], step: int, view: int) -> dict[str, Any]:
    """A view at a step of a page's data, whole (`view` 0: the table's; N + 1: seat N's)."""
    shape = data["shapes"][step_in(data, step)["views"][view]]
    return {name: pooled(data, ref) for name, ref in zip(data["fields"][shape[0]], shape[1:],
                                                          strict=True)}


def events_in(data: Mapping[str, Any], step: int, seat: int | None = None) -> list[Any]:
    """The public events of a step of a page's data, or (with `seat`) those told to it alone."""
    found = step_in(data, step)
    refs = found["events"] if seat is None else found["told"].get(str(seat), [])
    return [pooled(data, ref) for ref in refs]


def render(data: Mapping[str, Any]) -> ReplayPage:
    """The HTML page for page data."""
    from arena.viewer.page import asset

    title = f"{data['title']} / {data['variant']}, seed {data['seed']}: " + " vs ".join(
        data["seats"])
    return ReplayPage(html_page(title, asset("replay.css"), asset("board.js") + asset("replay.js"),
                                data, packed=True), data)


def played_page(variant: Variant, bots: Sequence[Bot], names: Sequence[str], seed: int,
                key: str = "") -> tuple[ReplayPage, dict[str, Any]]:
    """Play a game and return its page and its record (as `arena play` does)."""
    recorder = StepRecorder()
    played = play_game(variant, list(bots), list(names), seed, recorder, key)
    page = render(page_data(json.loads(played.to_line(timings=True)), recorder))
    return page, json.loads(played.to_line())


def replayed_page(replayer: Replayer, record: Mapping[str, Any]
                  ) -> tuple[ReplayPage, ReplayResult]:
    """Replay a record and return its page and the replay's verdict. The sandboxed bots'
    output of this game is caught as it replays, and a faulty bot's shows with its fault."""
    recorder = StepRecorder()
    with tempfile.TemporaryDirectory(prefix="arena-replay-") as folder:
        logs = Path(folder)
        sandboxing = replayer.player.sandboxing
        replayer.player.sandboxing = dataclasses.replace(sandboxing, logs=logs)
        try:
            result = replayer.replay(record, recorder)
        finally:
            replayer.close()  # the hosts end, so their logs are whole
            replayer.player.sandboxing = sandboxing
        faulty = sorted({f.get("seat") for f in record.get("faults") or ()
                         if isinstance(f, Mapping) and isinstance(f.get("seat"), int)})
        outputs = {seat: _output(logs, record, seat) for seat in faulty}
    data = page_data(record, recorder, outputs,
                     result.lines()[1:] if not result.reproduced else ())
    return render(data), result


def replay_html(path: Path, task: int | None = None, bots: Sequence[str] = (),
                config: Path | None = None) -> tuple[ReplayPage, ReplayResult]:
    """The replay page of a game named as `arena replay` names it (a run directory and task,
    or a record file; `bots` and `config` as for `replay_path`), and the replay's verdict."""
    with opened(path, task, bots, config) as (replayer, record):
        return replayed_page(replayer, record)


def write_page(path: Path, page: ReplayPage) -> None:
    """Write a page to `path` (never through a link: see `safe_files.write_text`)."""
    write_text(path, page.html)


def _output(logs: Path, record: Mapping[str, Any], seat: int) -> list[str]:
    """The last lines a bot wrote in the replayed game (escaped), or a line saying why none."""
    seats = record.get("seats") or ()
    if not 0 <= seat < len(seats):
        return []
    log = logs / f"{_file_name(str(seats[seat]))}.log"
    if not log.is_file() or log.is_symlink():
        return ["(no output: an in-process bot's traceback goes to the log, not to the page)"]
    try:
        lines = [escape(line.decode("utf-8", "replace")) for _, line, _ in read_lines(log)]
    except ArenaError as exc:
        return [f"(its output cannot be read: {escape(str(exc))})"]
    except OSError as exc:
        return [f"(its output cannot be read: {escape(str(exc.strerror or exc))})"]
    head = [f"(its last {OUTPUT_LINES} lines of {len(lines)})"] if len(lines) > OUTPUT_LINES \
        else []
    return head + lines[-OUTPUT_LINES:] if lines else ["(it wrote nothing)"]


class SeriesPages:
    """A match watcher for a series of games (`arena play --html`): it records each game into a
    page of its own, passing everything on to `inner` (the --show spectator, if any)."""

    def __init__(self, out: Path, games: int, inner: Watcher | None = None) -> None:
        self.paths = page_paths(out, games)
        for path in self.paths:
            check_entry(path)  # a link or a folder in the way fails before any game is played
        self.inner = inner
        self.recorder = StepRecorder()
        self.written = 0

    def dealt(self, state: State, variant: str, seed: int, names: Sequence[str]) -> None:
        """A game starts: record it afresh."""
        self.recorder = StepRecorder()
        self.recorder.dealt(state, variant, seed, names)
        if self.inner is not None:
            self.inner.dealt(state, variant, seed, names)

    def decided(self, seat: int, action: Any) -> None:
        """A seat's choice, for the page (see `arena.match.DECIDED`)."""
        self.recorder.decided(seat, action)

    def happened(self, state: State, events: Sequence[Event]) -> None:
        """Record the step and pass it on."""
        self.recorder.happened(state, events)
        if self.inner is not None:
            self.inner.happened(state, events)

    def write(self, record: GameRecord) -> Path:
        """Write the page of the game just played (its record) to its file; return the file."""
        path = self.paths[min(self.written, len(self.paths) - 1)]
        line = ["(arena play prints a bot's output as it plays, each line marked [seat N]; "
                "arena replay --html puts it in the page)"]
        outputs = {f.seat: line for f in record.faults}
        write_page(path, render(page_data(json.loads(record.to_line(timings=True)),
                                          self.recorder, outputs)))
        self.written += 1
        return path


def page_paths(out: Path, games: int) -> list[Path]:
    """The files of a series' pages: `out` for one game, else `out` numbered per game
    (`game.html` gives `game-1.html`, `game-2.html`, ...)."""
    if games <= 1:
        return [out]
    width = len(str(games))
    suffix = out.suffix or ".html"
    return [out.with_name(f"{out.stem}-{i:0{width}d}{suffix}") for i in range(1, games + 1)]


def write_replay(run: Path, task: int, path: Path) -> ReplayPage:
    """Replay game `task` of a run directory and write its page to `path` (what `arena replay
    RUN TASK --html FILE` does; the report page's links to replays are written with it)."""
    page, _ = replay_html(run, task)
    write_page(path, page)
    return page
