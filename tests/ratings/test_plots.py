"""Results as pictures: a small run's report holds valid PNG images and a report.md showing them."""

from __future__ import annotations

import sys
from dataclasses import replace
from importlib.util import find_spec
from pathlib import Path

import pytest

from arena.ratings.plots import PlotsError
from arena.ratings.tables import HeadToHead, PoolRatings
from arena.tournament.planning.config import parse_config
from arena.tournament.rating import run_ratings, write_report
from arena.tournament.records.results import RunDirectory
from arena.tournament.run import run_tournament

# looked for, not imported: every test process collects this module, one draws its pictures
pytestmark = pytest.mark.skipif(find_spec("matplotlib") is None,
                                reason="matplotlib (the plots extra) is not installed")

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


def test_the_progression_ends_on_the_table_by_deals_played(run: Path) -> None:
    """The progression is the table's own quantity (the posterior, its 95% interval) over the
    games of the first n deals: its last point is the table's row, its x-axis deals played."""
    from arena.ratings.plots import plot_progression, rating_progression

    ratings = run_ratings(run)
    progressions = rating_progression(list(RunDirectory(run).records()))
    for pool in ratings.pools:
        progression = progressions[(pool.game, pool.variant)]
        deals = [point.deals for point in progression.points]
        assert deals == sorted(set(deals)) and deals[-1] == pool.deals
        last = progression.points[-1]
        assert last.games == pool.matches
        for row in pool.bots:
            assert last.ratings[row.bot] == pytest.approx((row.mu, row.mu_ci95))
        ax = plot_progression(pool, progression).axes[0]
        assert "deals played" in ax.get_xlabel()
        ends = {str(line.get_label()).split(" (on ")[0]:
                (line.get_xdata()[-1], line.get_ydata()[-1]) for line in ax.get_lines()}
        for row in pool.bots:
            assert ends[row.bot] == pytest.approx((pool.deals, row.mu))


def _twelve(pool: PoolRatings) -> PoolRatings:
    """A 12-bot pool made from a real one's rows, every pair met, some edges significant."""
    rows = tuple(replace(pool.bots[0], bot=f"bot-{i:02}", rank=i + 1, rank_label=str(i + 1))
                 for i in range(12))
    cross = tuple(HeadToHead(a.bot, b.bot, 10 + i + j, 5, 3, 1, 1, 0.1 * (j - i), 0.2, 0.04,
                             0.6, (i + j) % 3 == 0)
                  for i, a in enumerate(rows) for j, b in enumerate(rows) if i != j)
    return replace(pool, bots=rows, crosstable=cross)


def test_the_heatmap_shows_games_met_and_marks_significance_in_every_cell(run: Path) -> None:
    from arena.ratings.plots import plot_head_to_head

    for pool in (run_ratings(run).pools[0], _twelve(run_ratings(run).pools[0])):
        fig = plot_head_to_head(pool)
        assert fig is not None
        ax = fig.axes[0]
        names = [row.bot for row in pool.bots]
        cells = {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text()
                 for t in ax.texts}
        for h in pool.crosstable:
            text = cells[(names.index(h.bot), names.index(h.opponent))]
            assert f"({h.games})" in text, text
            assert ("*" in text) == h.significant, text
        assert "games met in brackets" in ax.get_title()
        assert "* significant" in ax.get_title()


def test_the_ratings_caption_is_not_cut_off(run: Path) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from arena.ratings.plots import plot_ratings

    for pool in run_ratings(run).pools:
        fig = plot_ratings(pool)
        canvas = FigureCanvasAgg(fig)
        canvas.draw()
        renderer = canvas.get_renderer()
        box = fig.axes[0].xaxis.label.get_window_extent(renderer)
        assert box.x0 >= 0 and box.x1 <= fig.bbox.x1, (box, fig.bbox)
        assert box.y0 >= 0


def test_a_bot_keeps_its_colour_in_every_picture_of_a_report() -> None:
    """Issue 39 (6): each bot had a different colour in each pool (its place in the table)."""
    pytest.importorskip("matplotlib")
    from arena.ratings.plots import bot_colours

    palette = {"greedy": 0, "random": 1, "ada": 2}
    one = dict(zip(["greedy", "random", "ada"], bot_colours(["greedy", "random", "ada"],
                                                            palette), strict=True))
    other = dict(zip(["random", "ada"], bot_colours(["random", "ada"], palette), strict=True))
    assert other == {bot: one[bot] for bot in other}
    assert len(set(one.values())) == 3


def test_bots_with_equal_ratings_are_drawn_apart_and_named_in_the_progression(run: Path
                                                                            ) -> None:
    """Issue 39 (6): bots that play alike (ada, cy and greedy) were drawn under one line in
    the progression PNG (nested strips of line widths), though the legend listed all; the page
    draws them apart and names whose line they share, and so must the picture."""
    import numpy as np

    from arena.ratings.plots import Point, Progression, plot_progression

    pool = run_ratings(run).pools[0]
    first, second, third = (row.bot for row in pool.bots[:3])
    points = []
    for deals in (1, 2, 3):
        ratings = {row.bot: (20.0 + deals + i, 3.0) for i, row in enumerate(pool.bots)}
        ratings[second] = ratings[third] = ratings[first]  # three bots, one line
        points.append(Point(deals, 10 * deals, ratings))
    fig = plot_progression(pool, Progression(tuple(points)))
    fig.canvas.draw()
    ax = fig.axes[0]
    drawn = {line.get_label(): line.get_transform().transform(
        np.column_stack([line.get_xdata(), line.get_ydata()])) for line in ax.get_lines()}
    labels = {label.split(" ")[0]: label for label in drawn}
    assert labels[second] == f"{second} (on {first}'s line: the same ratings)"
    assert labels[third] == f"{third} (on {first}'s line: the same ratings)"
    paths = [drawn[labels[bot]] for bot in (first, second, third)]
    for one, other in ((0, 1), (0, 2), (1, 2)):  # apart on screen by a few pixels everywhere
        assert np.linalg.norm(paths[one] - paths[other], axis=1).min() >= 2.0
    assert ax.get_lines()[0].get_linestyle() == "-"
    assert {drawn_line.get_linestyle() for drawn_line in ax.get_lines()
            if "line:" in str(drawn_line.get_label())} == {"--"}


def test_the_progression_s_axis_fits_the_ratings_and_its_band_starts_where_it_fits(
        run: Path) -> None:
    """Issue 39 (6): the PNG's band was far wider after 2 deals than after 1 (t on one degree
    of freedom), on an axis from -20 to 60 for ratings between 3 and 41; the page fits its axis
    to the ratings and starts the band where it fits, and so must the picture."""
    from arena.ratings.plots import Point, Progression, plot_progression

    pool = run_ratings(run).pools[0]
    halves = {1: 9.0, 2: 60.0, 3: 4.0, 4: 3.0}  # two deals: t on one degree of freedom
    points = tuple(Point(deals, 10 * deals, {row.bot: (20.0 + 5 * i, half)
                                             for i, row in enumerate(pool.bots)})
                   for deals, half in halves.items())
    ax = plot_progression(pool, Progression(points)).axes[0]
    low, high = ax.get_ylim()
    top = 20.0 + 5 * (len(pool.bots) - 1)
    assert 20.0 - 3.0 - 2 <= low < 20.0 - 3.0 and top + 3.0 < high <= top + 3.0 + 2
    for band in ax.collections:  # the bands start at three deals, where they first fit
        xs = band.get_paths()[0].vertices[:, 0]
        assert xs.min() == 3.0
