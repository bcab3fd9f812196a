"""The league report's screenshots in the docs (docs/images/league-*.png), made from a real
league run as a teacher runs one from docs/league.md: four weeks of `arena` commands (students'
files, bundled baselines, two games; in week 2 a fix, a late joiner and a withdrawal; two weeks
with no change), then `compare`, `history` and `arena league report --replays`, the page shot in
headless Chromium (`chromium --headless --screenshot`).

    python scripts/screenshot_league.py [--deals 8] [--keep FOLDER]

Each command and its output are printed, so the run doubles as a walk through the docs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
WIDTH = 1100

STUDENT = '''from arena.api import Bot


class {cls}(Bot):
    """{doc}"""

    games = ("concentration",)

    def act(self, obs):
        return obs.legal[{pick}]
'''


def student(folder: Path, name: str, cls: str, pick: int, doc: str) -> Path:
    """A student's bot file, students/<name>/bot.py."""
    path = folder / "students" / name / "bot.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(STUDENT.format(cls=cls, pick=pick, doc=doc))
    return path


def arena(*args: str) -> str:
    """Run one `arena` command as the docs show it; its output (stops on a failure)."""
    print("$ arena " + " ".join(args), flush=True)
    done = subprocess.run([shutil.which("arena") or "arena", *args], capture_output=True,
                          text=True, check=False)
    print(done.stdout + done.stderr, flush=True)
    if done.returncode != 0:
        sys.exit(f"arena {' '.join(args)} failed ({done.returncode})")
    return done.stdout


def season(folder: Path, deals: int) -> Path:
    """The teacher's four weeks in `folder`; the round's report folder."""
    league = "class-2026"
    ada = student(folder, "ada", "AdaBot", 0, "The first card every time.")
    bo = student(folder, "bo", "BoBot", -1, "The last card every time.")
    cy = student(folder, "cy", "CyBot", 0, "Ada's idea, found on its own.")
    arena("league", "new", league, "--game", "concentration:standard:2", "--game", "dig",
          "--deals", str(deals))
    for bot in ("greedy", "random", "dig-sharp"):  # week 1
        arena("submit", league, bot)
    arena("submit", league, f"{ada.relative_to(folder)}:AdaBot", "--name", "ada")
    arena("submit", league, f"{bo.relative_to(folder)}:BoBot", "--name", "bo", "--dir")
    arena("submit", league, f"{cy.relative_to(folder)}:CyBot", "--name", "cy")
    arena("league", "update", league)
    student(folder, "ada", "AdaBot", -1, "The last card: the fix of week 2.")  # week 2
    arena("submit", league, f"{ada.relative_to(folder)}:AdaBot", "--name", "ada")
    arena("submit", league, "tracker")
    arena("league", "withdraw", league, "bo")
    arena("league", "update", league)
    arena("league", "update", league)  # week 3: no change
    arena("league", "update", league)  # week 4: no change
    arena("league", "standings", league)
    arena("league", "compare", league, "1", "2")
    arena("league", "compare", league, "3", "4")
    arena("league", "history", league)
    arena("league", "report", league, "--replays")
    return folder / league / "rounds" / "4" / "report"


def shoot(uri: str, png: Path, height: int) -> None:
    """A screenshot of a page's address (a fragment scrolls to its part), WIDTH wide."""
    browser = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                    if shutil.which(n)), None)
    if browser is None:
        sys.exit("needs Chromium on the PATH (Debian: apt-get install chromium)")
    png.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                    "--hide-scrollbars", f"--screenshot={png}",
                    f"--window-size={WIDTH},{height}", uri], check=True, capture_output=True,
                   timeout=120)
    print(png, flush=True)


HISTORY = ("header,.pool>*{display:none}.pool>h2,.pool>figure[id^=history]{display:block}"
           "#glossary{display:none}")
GLOSSARY = "header,.pool{display:none}"


def focus(page: Path, copy: Path, style: str) -> str:
    """The address of a copy of the page showing only what `style` leaves visible."""
    copy.write_text(page.read_text().replace("</style>", style + "</style>", 1))
    return copy.as_uri()


def main() -> None:
    """Play the season, draw the report, shoot it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--keep", type=Path, help="keep the league in this folder")
    parser.add_argument("--out", type=Path, default=IMAGES)
    args = parser.parse_args()
    out = args.out.resolve()
    with tempfile.TemporaryDirectory() as temporary:
        folder = (args.keep or Path(temporary)).resolve()
        folder.mkdir(parents=True, exist_ok=True)
        os.chdir(folder)  # the commands name the league and the students' files as the docs do
        report = season(folder, args.deals)
        page = report / "report.html"
        shoot(page.as_uri(), out / "league-report.png", 1500)
        # a part of the page alone: the same page, the rest hidden by a style of its own
        shoot(focus(page, folder / "history.html", HISTORY), out / "league-history.png", 1000)
        shoot(focus(page, folder / "glossary.html", GLOSSARY), out / "league-glossary.png",
              1100)


if __name__ == "__main__":
    main()
