"""Screenshots of the replay page, one per game, from real games: `python scripts/screenshots.py`
writes docs/images/replay-<game>.png (headless Chromium and its driver, as the page tests use).

Each game is played afresh by the game's bundled bots at the hard level on a fixed seed, its
page is built by the arena and opened in the browser, and the page's own controls take it to
the step shown, so the pictures cannot drift from what the arena writes."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.engine import find_game  # noqa: E402
from arena.levels import level_spec, table_size  # noqa: E402
from arena.loader import resolve_bot  # noqa: E402
from arena.viewer.replay_page import played_page, view_in  # noqa: E402


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


SHOTS = (
    Shot("concentration", at=0.45, want="face_up"),
    Shot("concentration", "duel", view="0", at=0.5),
    Shot("paved-with-gold", view="0", at=0.4, want="hand"),
    Shot("memorandum", view="0", at=0.3),
    Shot("animals", at=0.5),
    Shot("cuckoo", at=0.3),
    Shot("old-mans-bundle", view="0", at=0.4),
    Shot("dig", view="0", at=0.4),
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
    return page.html, step


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
                driver.execute_script("""
                    const [view, step] = arguments;
                    const select = document.getElementById('view');
                    select.value = view; select.dispatchEvent(new Event('change'));
                    const slider = document.getElementById('slider');
                    slider.value = step;
                    slider.dispatchEvent(new Event('input'));""", shot.view, step)
                name = shot.game + (f"-{shot.preset}" if shot.preset else "")
                target = args.out / f"replay-{name}.png"
                driver.save_screenshot(str(target))
                print(f"wrote {target}")
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
