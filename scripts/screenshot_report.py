"""The report page's screenshot in the docs (docs/images/report.png), made from a real run so
that it cannot drift: a small Memorandum tournament of the bundled bots (the shipped config,
on fewer deals) is played, its page written with `arena report RUN --html`, and the page shot
in headless Chromium (Debian's `chromium` and `chromium-driver`, driven by selenium).

    python scripts/screenshot_report.py [--deals 4] [--out docs/images/report.png]
"""

from __future__ import annotations

import argparse
import base64
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "configs" / "memorandum.toml"
WIDTH = 1100


def make_run(folder: Path, deals: int) -> Path:
    """Play the shipped Memorandum config on `deals` deals into `folder/run`."""
    from arena.tournament.planning.config import parse_config
    from arena.tournament.run import run_tournament

    text = CONFIG.read_text(encoding="utf-8").replace("count = 30", f"count = {deals}")
    os.chdir(folder)  # the page's commands name the run as `run`, not a temporary path
    out = Path("run")
    run_tournament(parse_config(text, CONFIG), out, workers=2)
    return out


def shoot(page: Path, png: Path, height: int) -> None:
    """A screenshot of the top `height` CSS pixels of a page, WIDTH wide."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                    if shutil.which(n)), None)
    driver_path = shutil.which("chromedriver")
    if browser is None or driver_path is None:
        sys.exit("needs Chromium and chromedriver on the PATH "
                 "(Debian: apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 f"--window-size={WIDTH},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    try:
        driver.get(page.resolve().as_uri())
        shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": WIDTH, "height": height, "scale": 1}})
        png.write_bytes(base64.b64decode(shot["data"]))
    finally:
        driver.quit()


def main() -> None:
    """Play, write the page, shoot it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--height", type=int, default=1900)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images" / "report.png")
    parser.add_argument("--keep", type=Path, help="keep the run and its page in this folder")
    args = parser.parse_args()
    from arena.viewer.report_run import write_run_page

    args.out = args.out.resolve()
    here = Path.cwd()
    with tempfile.TemporaryDirectory() as temporary:
        folder = (args.keep or Path(temporary)).resolve()
        folder.mkdir(parents=True, exist_ok=True)
        run = make_run(folder, args.deals)
        page = write_run_page(run).page
        args.out.parent.mkdir(parents=True, exist_ok=True)
        shoot(page, args.out, args.height)
        page = page.resolve()
        os.chdir(here)
    print(f"{args.out}: {args.out.stat().st_size:,} bytes, from {page}")


if __name__ == "__main__":
    main()
