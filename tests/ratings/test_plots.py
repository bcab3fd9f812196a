"""Results as pictures: a small run's report holds valid PNG images and a report.md showing them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arena.ratings.fold import Rater
from arena.ratings.plots import PlotsError, rating_history
from arena.ratings.pools import rating_pools
from arena.ratings.settings import TrueSkillSettings
from arena.tournament.config import parse_config
from arena.tournament.results import RunDirectory
from arena.tournament.run import run_ratings, run_tournament, write_report

pytest.importorskip("matplotlib")

PNG = b"\x89PNG\r\n\x1a\n"

CONFIG = """
name = "pictures"
[deals]
count = 3
base = 5
[[bots]]
spec = "greedy"
[[bots]]
spec = "optimal"
[[bots]]
spec = "random"
[[bots]]
spec = "forgetful:recall=0.5"
[[games]]
game = "concentration"
players = 2
variants = ["standard", { preset = "zebra", name = "stripes, with a comma" }]
[[games]]
game = "concentration"
players = 1
variants = ["standard"]
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small finished run: two 2-player variants and solitaire (a variant at two sizes)."""
    base = tmp_path_factory.mktemp("plots")
    out = base / "run"
    run_tournament(parse_config(CONFIG, base / "pictures.toml"), out)
    return out


def test_a_report_draws_every_pool(run: Path) -> None:
    written = write_report(run)
    pngs = [p for p in written if p.suffix == ".png"]
    pools = run_ratings(run).pools
    assert len(pools) == 3 and len(pngs) == 3 * len(pools)
    for png in pngs:
        data = png.read_bytes()
        assert data.startswith(PNG), png
        assert len(data) > 5000, png
        assert png.parent == run
    names = {p.name for p in pngs}
    assert {"ratings-concentration-standard-1-player.png",
            "progression-concentration-standard-2-players.png",
            "headtohead-concentration-stripes-with-a-comma.png"} <= names
    report = written[-1]
    assert report == run / "report.md"
    text = report.read_text()
    for name in names:
        assert f"]({name})" in text
    assert "## concentration / standard (2 players)" in text
    assert "| rank | bot" in text.replace("|   rank |", "| rank |")


def test_the_progression_is_the_one_pass_fold_in_task_order(run: Path) -> None:
    ratings = run_ratings(run)
    records = list(RunDirectory(run).records())
    history = rating_history(records)
    assert set(history) == {(p.game, p.variant) for p in ratings.pools}
    for pool in rating_pools(records):
        rater, folded = Rater(TrueSkillSettings()), {}
        for match in pool.matches:
            for bot in match.bots:
                folded.setdefault(bot, (25.0, 25 / 3))
            if len(set(match.bots)) > 1:
                folded.update(rater.rate(match, folded) or {})
        steps = history[(pool.game, pool.variant)].steps
        assert set(steps[-1].ratings) == set(folded)
        for bot, rating in folded.items():
            assert steps[-1].ratings[bot] == pytest.approx(rating)
        tasks = [step.task for step in steps]
        assert tasks == sorted(tasks)
    for pool in ratings.pools:  # it ends near the posterior, which weighs all games alike
        last = history[(pool.game, pool.variant)].steps[-1].ratings
        for row in pool.bots:
            assert abs(last[row.bot][0] - row.mu) < 4 * (row.sigma + last[row.bot][1])


def test_one_bot_alone_gets_its_ratings_only(tmp_path: Path) -> None:
    config = """
name = "alone"
[deals]
count = 2
base = 1
[[bots]]
spec = "greedy"
[[games]]
game = "concentration"
players = 1
variants = ["standard"]
"""
    out = tmp_path / "run"
    run_tournament(parse_config(config, tmp_path / "alone.toml"), out)
    written = write_report(out)
    assert [p.name for p in written] == ["ratings-concentration-standard.png", "report.md"]
    assert "headtohead" not in (out / "report.md").read_text()


def test_a_run_without_records_or_matplotlib(run: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "config.toml").write_text((run / "config.toml").read_text())
    with pytest.raises(PlotsError, match="no game records yet"):
        write_report(empty)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    with pytest.raises(PlotsError, match=r"pip install 'card-arena\[plots\]'"):
        write_report(run)
