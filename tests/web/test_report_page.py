"""The report page in a real browser: it loads without a script error, every link resolves, every
bot's row shows its mu and interval as `arena ratings --format json` gives them, drawn as a
bar, and nothing a bot says or is named becomes markup."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from tests.web.conftest import Browser

FAULTY = '''
from arena.api import Bot


class Faulty(Bot):
    def start(self, info):
        self.calls = 0

    def act(self, obs):
        self.calls += 1
        if self.calls == 3:
            raise RuntimeError("boom <img src=x onerror=alert(1)>")
        return obs.legal[0]
'''

CONFIG = """
name = "page"
[deals]
count = 4
base = 5
[[bots]]
spec = "greedy"
[[bots]]
spec = "optimal"
[[bots]]
spec = "random"
[[bots]]
spec = "faulty.py:Faulty"
name = "<b>faulty</b>"
isolation = "none"
[[games]]
game = "concentration"
players = 2
variants = ["standard"]
"""

OUTPUT = "hello <script>document.title='owned'</script> \x1b[31mred\x1b[0m\n"


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A small run with a faulting bot whose name and output are markup, and its page."""
    base = tmp_path_factory.mktemp("report-page")
    (base / "faulty.py").write_text(FAULTY)
    (base / "page.toml").write_text(CONFIG)
    run = base / "run"
    runner = CliRunner()
    result = runner.invoke(app, ["run", str(base / "page.toml"), "--out", str(run), "-q",
                                 "--workers", "1"])
    assert result.exit_code == 0, result.output
    (run / "bots").mkdir(exist_ok=True)
    (run / "bots" / "_b_faulty__b_.log").write_text(OUTPUT)  # as a sandboxed run keeps it
    result = runner.invoke(app, ["report", str(run), "--html", "--replays"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().splitlines()[-1] == str(run / "report.html")
    ratings = runner.invoke(app, ["ratings", str(run), "--format", "json"])
    assert ratings.exit_code == 0, ratings.output
    return run / "report.html", json.loads(ratings.stdout)


def test_every_link_resolves_and_no_script_fails(browser: Browser,
                                                 page: tuple[Path, dict]) -> None:
    path, _ = page
    browser.open(path)
    links = browser.run("return Array.from(document.querySelectorAll('a[href]'), "
                        "a => a.getAttribute('href'))")
    assert links
    replays = 0
    for href in links:
        if href.startswith("#"):
            assert browser.run("return document.getElementById(arguments[0]) !== null",
                               href[1:]), href
        else:
            assert "://" not in href and not href.startswith("/"), href  # nothing from outside
            if re.fullmatch(r"replays/\d+\.html", href):
                replays += 1  # the documented replay path, written, and the command
                assert (path.parent / href).exists(), href
                task = href.split("/")[1].split(".")[0]
                assert f"arena replay {path.parent} {task} --html {path.parent / href}" in \
                    browser.run("return document.body.textContent")
            else:
                assert (path.parent / href).exists(), href
    assert replays
    assert browser.errors() == []
    # nothing reaches out: no external source anywhere
    assert browser.run("return Array.from(document.querySelectorAll('[src]')).length") == 0


def test_every_bots_row_shows_its_mu_and_interval_as_the_ratings_json(
        browser: Browser, page: tuple[Path, dict]) -> None:
    path, ratings = page
    browser.open(path)
    rows = browser.run("""
        return Array.from(document.querySelectorAll('table.ratings tbody tr'), tr => {
          const scale = tr.querySelector('.scale').getBoundingClientRect();
          const ci = tr.querySelector('.ci').getBoundingClientRect();
          const dot = tr.querySelector('.dot').getBoundingClientRect();
          return {bot: tr.dataset.bot, rank: tr.querySelector('.rank').textContent,
                  name: tr.querySelector('.name a').textContent,
                  mu: tr.querySelector('.mu').textContent,
                  scale: [scale.left, scale.right], ci: [ci.left, ci.right],
                  dot: (dot.left + dot.right) / 2};
        });""")
    expected = [row for pool in ratings["pools"] for row in pool["bots"]]
    assert [r["bot"] for r in rows] == [row["bot"] for row in expected]
    for shown, row in zip(rows, expected, strict=True):
        assert shown["name"] == row["bot"]  # "<b>faulty</b>" shown as text
        assert shown["rank"] == row["rank_label"]
        assert shown["mu"] == f"{row['mu']:.2f} ± {row['mu_ci95']:.2f}"
        left, right = shown["ci"]
        assert left < shown["dot"] < right  # the bar spans the interval around mu
        assert shown["scale"][0] <= left and right <= shown["scale"][1] + 0.5
    # the bars share one scale: widths in proportion to the intervals
    widest = max(expected, key=lambda r: r["mu_ci95"])
    narrowest = min(expected, key=lambda r: r["mu_ci95"])
    width = {r["bot"]: r["ci"][1] - r["ci"][0] for r in rows}
    assert width[widest["bot"]] / width[narrowest["bot"]] == pytest.approx(
        widest["mu_ci95"] / narrowest["mu_ci95"], rel=0.05)


def test_the_heatmap_faults_and_output_are_shown_and_escaped(
        browser: Browser, page: tuple[Path, dict]) -> None:
    path, ratings = page
    browser.open(path)
    (pool,) = ratings["pools"]
    cells = browser.run("return Array.from(document.querySelectorAll('table.heat td.cell'), "
                        "td => [td.textContent, td.classList.contains('sig')])")
    assert len(cells) == len(pool["crosstable"])
    for (text, framed), h in zip(cells, pool["crosstable"], strict=True):
        assert f"({h['games']})" in text and f"{h['edge']:+.2f}" in text
        assert ("*" in text) == framed == h["significant"]
    assert browser.run("return document.title") == "page: report"  # the bot's script never ran
    assert browser.run("return document.querySelectorAll('script').length") == 1
    assert browser.run("return document.querySelectorAll('b, img').length") == 0
    text = browser.run("return document.body.textContent")
    assert "boom <img src=x onerror=alert(1)>" in text  # the fault's detail, as text
    assert "<script>document.title='owned'</script>" in text  # the output, as text
    assert "\x1b" not in text and "\\x1b[31mred" in text  # its controls escaped
