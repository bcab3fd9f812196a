"""The report page of a run, without a browser: written whole and the same every time, every
name escaped, links refused, and the replay pages it links to written with it."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.safe_files import UnsafeFileError
from arena.tournament.planning.config import parse_config
from arena.tournament.rating import run_ratings
from arena.tournament.run import run_tournament
from arena.viewer.report_page import PoolSection, ReportPage, report_html
from arena.viewer.report_run import ReportPageError, write_run_page

CONFIG = """
name = "pages"
[deals]
count = 3
base = 2
[[bots]]
spec = "greedy"
[[bots]]
spec = "random"
[[bots]]
spec = "forgetful:recall=0.5"
[[games]]
game = "concentration"
players = 2
variants = ["standard"]
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("pages")
    out = base / "run"
    run_tournament(parse_config(CONFIG, base / "pages.toml"), out)
    return out


def test_the_page_is_written_whole_and_the_same_every_time(run: Path) -> None:
    first = write_run_page(run).page
    text = first.read_text()
    assert first == run / "report.html" and text.startswith("<!DOCTYPE html>")
    assert write_run_page(run).page.read_text() == text
    assert "http" not in text.replace('name="viewport"', "")  # nothing from the network
    for row in run_ratings(run).pools[0].bots:
        assert f"{row.mu:.2f} ± {row.mu_ci95:.2f}" in text


def test_every_name_is_escaped(run: Path) -> None:
    (pool,) = run_ratings(run).pools
    hostile = "\u202e<img src=x onerror=alert(1)>\x1b[2J"
    rows = (replace(pool.bots[0], bot=hostile), *pool.bots[1:])
    cross = tuple(replace(h, bot=hostile if h.bot == pool.bots[0].bot else h.bot,
                          opponent=hostile if h.opponent == pool.bots[0].bot else h.opponent)
                  for h in pool.crosstable)
    page = report_html(ReportPage("t", "i", (PoolSection(replace(pool, bots=rows,
                                                                 crosstable=cross)),)))
    assert "<img" not in page and "\u202e" not in page and "\x1b" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page and "\\u202e" in page


def test_a_link_where_the_page_goes_is_refused(run: Path, tmp_path: Path) -> None:
    target = tmp_path / "mine.html"
    target.write_text("mine")
    page = run / "report.html"
    page.unlink(missing_ok=True)
    page.symlink_to(target)
    try:
        with pytest.raises(UnsafeFileError):
            write_run_page(run)
        assert target.read_text() == "mine"
    finally:
        page.unlink()


def test_the_report_writes_the_replay_pages_it_links_to(run: Path) -> None:
    result = CliRunner().invoke(app, ["report", str(run), "--html", "--replays"])
    assert result.exit_code == 0, result.output
    page = (run / "report.html").read_text()
    linked = set(re.findall(r'href="replays/(\d+)\.html"', page))
    assert linked and {p.stem for p in (run / "replays").glob("*.html")} == linked
    result = CliRunner().invoke(app, ["report", str(run), "--replays"])
    assert result.exit_code == 2 and "--html" in result.output


def test_a_run_without_records(run: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "config.toml").write_text((run / "config.toml").read_text())
    with pytest.raises(ReportPageError, match="no game records yet"):
        write_run_page(empty)


def test_the_page_says_whether_its_edges_are_adjusted_for_luck(tmp_path: Path) -> None:
    import json
    import shutil

    out = tmp_path / "run"
    run_tournament(parse_config(CONFIG, tmp_path / "pages.toml"), out)
    games = out / "games.jsonl"
    records = [json.loads(line) for line in games.read_text().splitlines()]
    for record in records:  # a made-up luck, as games of a game with a luck model carry
        record["luck"], record["luck_model"] = [0.5, -0.5], "concentration-minimax/1"
    games.write_text("".join(json.dumps(r) + "\n" for r in records))
    text = write_run_page(out).page.read_text()
    assert "edges adjusted for luck (concentration-minimax/1)" in text
    shutil.rmtree(out / "replays", ignore_errors=True)
    result = CliRunner().invoke(app, ["report", str(out), "--html", "--luck", "off"])
    assert result.exit_code == 0, result.output
    assert ("edges raw (--luck off); the records carry luck from concentration-minimax/1"
            in (out / "report.html").read_text())
