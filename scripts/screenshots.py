"""Screenshots of the replay page, one per game, from real games, and of a person's seat at the
live table: `python scripts/screenshots.py` writes docs/images/replay-<game>.png and
docs/images/table-<game>.png (headless Chromium and its driver, as the page tests use).

Each game is played afresh by the game's bundled bots at the hard level on a fixed seed, its
page is built by the arena and opened in the browser, and the page's own controls take it to
the step shown, so the pictures cannot drift from what the arena writes. The live table is the
arena's own server (`arena play --web`), a bundled bot at one seat and the browser, clicking
its first lit move, at the other."""

from __future__ import annotations

import argparse
import logging
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.engine import find_game  # noqa: E402
from arena.levels import level_spec, table_size  # noqa: E402
from arena.loader import resolve_bot  # noqa: E402
from arena.viewer.replay_page import (  # noqa: E402
    events_in,
    played_page,
    pooled,
    step_in,
    view_in,
)


@dataclass(frozen=True)
class Shot:
    """One picture: the game and preset, the seed, whose view, and how far into the game."""

    game: str
    preset: str | None = None
    seed: int = 1
    view: str = "table"  # "table" or a seat number
    at: float = 1.0  # the share of the game's steps played before the picture is taken
    players: int | None = None
    want: str | None = None  # from `at` on, the first step whose view has this field non-empty
    event: str | None = None  # from `at` on, the first step with a public event of this kind
    decides: bool = False  # from `at` on, the first step where the seat viewed decides
    name: str | None = None  # the picture's name (replay-<name>.png), else game and preset


SHOTS = (
    Shot("concentration", view="1", at=0.3, event="miss"),
    Shot("concentration", "duel", view="0", at=0.5),
    Shot("paved-with-gold", view="0", at=0.4, want="hand"),
    Shot("memorandum", view="0", at=0.3),
    Shot("animals", at=0.5),
    Shot("cuckoo", at=0.3),
    Shot("cuckoo", at=0.2, players=20, name="cuckoo-20"),
    Shot("old-mans-bundle", view="0", at=0.4, event="took"),
    Shot("dig", view="0", at=0.4, decides=True),
    Shot("frogs-in-the-pond", view="0", at=0.35, want="trick"),
    Shot("cribbage-square", at=1.0),
)


def page_of(shot: Shot) -> tuple[str, int]:
    """The HTML page of the shot's game, played now by bundled bots, and the step to show."""
    variant = find_game(shot.game).variant(shot.preset, {})
    seats = shot.players or table_size(variant, 0)
    spec = level_spec(shot.game, "hard")
    bots = [resolve_bot(spec, shot.game).make() for _ in range(seats)]
    page, _ = played_page(variant, bots, [f"{spec.split(':')[0]}-{s}" for s in range(seats)],
                          shot.seed)
    data, last = page.data, page.steps - 1
    step = round(last * shot.at)
    if shot.want is not None:
        key = 0 if shot.view == "table" else int(shot.view) + 1

        def has(i: int) -> bool:
            return bool(view_in(data, i, key).get(shot.want))

        step = next((i for i in range(step, last + 1) if has(i)), step)
    if shot.event is not None:
        step = next((i for i in range(step, last + 1)
                     if any(e.get("kind") == shot.event for e in events_in(data, i))), step)
    if shot.decides:
        seat = int(shot.view)
        step = next((i for i in range(step, last + 1)
                     if any(d[0] == seat and len(legal_of(data, d[1])) > 1
                            for d in step_in(data, i)["decisions"])), step)
    return page.html, step


def legal_of(data: Any, ref: int) -> Any:
    """A decision's legal moves as the page keeps them (a list, or a text of runs)."""
    form = pooled(data, ref)
    return form.split(" ") if isinstance(form, str) else form


TABLE_SHOTS = (("dig", 6), ("concentration", 9))
"""The live table's pictures: the game, and the person's moves made before the picture."""


def table_shot(driver: Any, game: str, moves: int, target: Path) -> None:
    """A person's seat at `game` on the arena's own server, after `moves` of its moves."""
    import threading
    import time

    from arena.match import play_game
    from arena.table.seat import PersonSeat, Table
    from arena.table.series import TableSeries
    from arena.table.server import TableServer

    variant = find_game(game).variant(None, {})
    table = Table(game, variant.game.title, variant.label, [0])
    table.pace = 0.0
    series = TableSeries(table)
    server = TableServer(table, series.pages)
    address = server.start()[0]
    person = PersonSeat(table.outboxes[0])
    spec = level_spec(game, "hard")
    thread = threading.Thread(target=lambda: play_game(
        variant, [person, resolve_bot(spec, game).make()], ["person", spec], 4, series),
        daemon=True)
    thread.start()
    try:
        driver.get(address)
        made = 0
        while made < moves and thread.is_alive():
            if driver.execute_script("const b = document.querySelector('#board .card.legal, "
                                     "#moves button.move'); if (b) { b.click(); return 1; }"
                                     "return 0;"):
                made += 1
            time.sleep(0.05)
        while not driver.execute_script("return !!document.querySelector('#moves button')"):
            time.sleep(0.05)
        time.sleep(0.3)
        driver.save_screenshot(str(target))
    finally:
        table.leave()
        thread.join(10)
        table.close("done")
        server.stop()


def main() -> int:
    """Write every screenshot; say where."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                    if shutil.which(n)), None)
    driver_path = shutil.which("chromedriver")
    if browser is None or driver_path is None:
        print("screenshots: needs Chromium and chromedriver on the PATH", file=sys.stderr)
        return 2
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1280,820", "--hide-scrollbars"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        with tempfile.TemporaryDirectory() as folder:
            for shot in SHOTS:
                page = Path(folder) / f"{shot.game}.html"
                html, step = page_of(shot)
                page.write_text(html, encoding="utf-8")
                driver.get(page.as_uri())
                while not driver.execute_script(
                        "return document.documentElement.dataset.ready"):
                    pass
                driver.execute_script("""
                    const [view, step] = arguments;
                    const select = document.getElementById('view');
                    select.value = view; select.dispatchEvent(new Event('change'));
                    const slider = document.getElementById('slider');
                    slider.value = step;
                    slider.dispatchEvent(new Event('input'));""", shot.view, step)
                name = shot.name or shot.game + (f"-{shot.preset}" if shot.preset else "")
                target = args.out / f"replay-{name}.png"
                driver.save_screenshot(str(target))
                print(f"wrote {target}")
        logging.getLogger("arena.bots").addHandler(logging.NullHandler())  # the seat's quit
        for game, moves in TABLE_SHOTS:
            target = args.out / f"table-{game}.png"
            table_shot(driver, game, moves, target)
            print(f"wrote {target}")
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
