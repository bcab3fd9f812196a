"""A round's report: every pool's pictures and tables in rounds/N/report/, report.md beside
them and a self-contained report.html; an earlier round without its progression; links refused.

A league after two rounds and the report of its latest are made once for the module
(`two_rounds`)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from arena.league.folder import League, new_league, parse_game
from arena.league.reports import LeagueReport, write_league_report
from arena.league.rounds import update
from arena.league.submissions import submit
from arena.safe_files import UnsafeFileError
from tests.league.conftest import passing

pytest.importorskip("matplotlib")

POOL = "concentration-standard-2p"
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def two_rounds(tmp_path_factory: pytest.TempPathFactory) -> tuple[League, LeagueReport]:
    """The `league` fixture's league after two rounds (greedy and random, then tracker joins),
    and the report of round 2 (no replay pages): read them, or copy the league to change it."""
    league = new_league(tmp_path_factory.mktemp("two") / "class",
                        [parse_game("concentration:standard:2")], deals=2)
    for bot in ("greedy", "random"):
        submit(league, bot, validator=passing)
    update(league, isolation="none")
    submit(league, "tracker", validator=passing)
    update(league, isolation="none")
    return league, write_league_report(league)


def test_a_rounds_report_has_every_pools_pictures_and_tables(
        two_rounds: tuple[League, LeagueReport]) -> None:
    league, latest = two_rounds
    folder = league.path / "rounds" / "2" / "report"
    assert latest.round == 2 and latest.folder == folder
    names = {p.name for p in latest.files}
    assert names == {f"{kind}-{POOL}.png" for kind in
                     ("ratings", "headtohead", "history", "progression")} | \
        {"report.md", "report.html"}
    assert all(p.read_bytes().startswith(PNG) for p in latest.files if p.suffix == ".png")
    markdown = (folder / "report.md").read_text()
    assert markdown.startswith("# class: round 2, ")
    assert f"](history-{POOL}.png)" in markdown and "| tracker" in markdown
    page = (folder / "report.html").read_text()
    # self-contained: drawn in the page, nothing fetched from elsewhere; links within the page
    # or to the replay pages beside it
    assert 'class="ratings"' in page and 'id="history-0"' in page and 'id="progression-0"' in page
    assert not re.search(r'src="', page)
    assert not re.search(r'href="(?!#|replays/)', page)
    assert "tracker" in page

    # round 1's report: its pool's games grew since, so no progression (said so), and the
    # history stops at round 1
    first = write_league_report(league, 1)
    assert {p.name for p in first.files} == {f"{kind}-{POOL}.png" for kind in
                                             ("ratings", "headtohead", "history")} | \
        {"report.md", "report.html"}
    assert "progression is drawn only" in (first.folder / "report.md").read_text()
    assert "tracker" not in (first.folder / "report.md").read_text()


def test_a_report_never_writes_through_a_link(league: League, tmp_path: Path) -> None:
    for bot in ("greedy", "random"):
        submit(league, bot, validator=passing)
    update(league, isolation="none")
    folder = league.path / "rounds" / "1" / "report"
    folder.mkdir()
    target = tmp_path / "elsewhere.md"
    target.write_text("mine\n")
    (folder / "report.md").symlink_to(target)
    with pytest.raises(UnsafeFileError):
        write_league_report(league)
    assert target.read_text() == "mine\n" and not list(folder.glob("*.png"))


def test_the_page_links_only_to_replay_pages_that_exist(
        two_rounds: tuple[League, LeagueReport], tmp_path: Path) -> None:
    """Issue 39 (6): the worst games linked to replays/<pool>/<task>.html, which `arena league
    report` never wrote; now it links a page only once written (`--replays` writes them)."""
    played, plain = two_rounds
    page = (plain.folder / "report.html").read_text()
    assert "game " in page and not re.findall(r'href="(replays/[^"]+)"', page)
    league = League(tmp_path / played.path.name, played.config)  # its report drawn again
    shutil.copytree(played.path, league.path)
    drawn = write_league_report(league, replays=True)
    page = (drawn.folder / "report.html").read_text()
    links = re.findall(r'href="(replays/[^"]+)"', page)
    assert links and all((drawn.folder / link).is_file() for link in links)
    assert {drawn.folder / link for link in links} <= set(drawn.files)
