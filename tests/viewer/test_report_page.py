"""What the report page shows a reader who is not a statistician (issue 39, item 6 and 7):
every bot's line visible, bands and axes that fit the data, one colour per bot over the page,
the shared ranks in plain words, the glossary, and no jargon outside it."""

from __future__ import annotations

import re

from arena.ratings.tables import BotRow, PoolRatings
from arena.viewer.report_page import (
    BotSection,
    PoolSection,
    ProgressPoint,
    ReportPage,
    WorstGame,
    report_html,
)


def row(rank: int, label: str, bot: str, mu: float, ci: float = 2.0,
        above: float | None = 0.6) -> BotRow:
    return BotRow(rank, label, bot, mu, ci / 2, ci, above, 10, 5, 0, 5, 1.5, 10.0, 0.5, 0)


def pool(*rows: BotRow, variant: str = "standard", deals: int = 8) -> PoolRatings:
    return PoolRatings("concentration", variant, 40, 0, rows, (), deals)


TWINS = pool(row(1, "=1", "ada", 33.0), row(1, "=1", "cy", 33.0), row(1, "=1", "greedy", 33.0),
             row(4, "4", "random", 10.0, above=None))
GROWTH = tuple(ProgressPoint(n, {"ada": (30.0 + n, 40.0 / n), "cy": (30.0 + n, 40.0 / n),
                                 "greedy": (30.0 + n, 40.0 / n), "random": (12.0, 30.0 / n)})
               for n in range(1, 9))


def page(*sections: PoolSection) -> str:
    return report_html(ReportPage("t", "intro", sections))


def _chart(text: str, ident: str) -> str:
    return text.split(f'id="{ident}"')[1].split("</figure>")[0]


def test_bots_whose_lines_coincide_are_all_visible_and_named() -> None:
    """ada, cy and greedy played alike: their lines were drawn on top of one another, though
    the legend listed all three."""
    chart = _chart(page(PoolSection(TWINS, GROWTH)), "progression-0")
    lines = re.findall(r'<polyline class="line"[^>]*data-bot="(\w+)" points="([^"]+)"', chart)
    assert len({points for _, points in lines}) == len(lines) == 4
    assert "cy (on ada" in re.sub("<[^>]+>", "", chart).replace("&#x27;", "'")
    assert "greedy (on ada" in re.sub("<[^>]+>", "", chart).replace("&#x27;", "'")


def test_the_band_starts_where_the_interval_is_measured_and_the_axis_fits_the_ratings() -> None:
    """After one deal the luck of the deal is not measured; the band was drawn from it, and the
    axis ran from -20 to 60 for ratings between 3 and 41."""
    chart = _chart(page(PoolSection(TWINS, GROWTH)), "progression-0")
    ticks = [float(t) for t in re.findall(r'text-anchor="end">([-\d.]+)<', chart)]
    assert min(ticks) >= 12.0 - 30.0 / 8 - 3 and max(ticks) <= 38.0 + 40.0 / 8 + 3
    first_x = min(float(x) for x in re.findall(r'<circle cx="([\d.]+)"', chart))
    for band in re.findall(r'<polygon class="band"[^>]*points="([^"]+)"', chart):
        xs = [float(p.split(",")[0]) for p in band.split()]
        assert min(xs) > first_x + 1  # not at one deal
    assert "clip-path" in chart


def test_one_colour_per_bot_over_the_whole_page() -> None:
    other = pool(row(1, "1", "random", 30.0), row(2, "2", "cy", 20.0, above=None),
                 variant="zebra")
    text = page(PoolSection(TWINS), PoolSection(other))
    colours: dict[str, set[str]] = {}
    for bot, colour in re.findall(r'data-bot="(\w+)" data-mu="[^"]+" data-ci="[^"]+">.*?'
                                  r'background:(#\w+)', text):
        colours.setdefault(bot, set()).add(colour)
    assert colours["random"] and all(len(c) == 1 for c in colours.values())
    assert len(set.union(*colours.values())) == len(colours)


def test_a_plain_words_line_under_each_table() -> None:
    close = pool(row(1, "=1", "ada", 33.0, ci=4.0), row(1, "=1", "bo", 29.0, ci=4.0),
                 row(3, "3", "random", 10.0, above=None))
    text = re.sub("<[^>]+>", " ", page(PoolSection(close)))
    found = re.search(r"ada and bo share first place: about (\d+) more deals would likely "
                      r"tell them apart", text)
    assert found and int(found.group(1)) > 0
    assert "ada, cy and greedy share first place: they played alike" in \
        re.sub("<[^>]+>", " ", page(PoolSection(TWINS)))


def test_a_glossary_linked_from_the_page_and_no_jargon_outside_it() -> None:
    worst = WorstGame(3, 0, "standard", 5, ("ada", "random"), (1.0, 4.0), -3.0, None,
                      "arena replay RUN 3 --html x.html")
    text = page(PoolSection(TWINS, GROWTH, bots={"ada": BotSection(worst=(worst,))}))
    assert '<a href="#glossary">' in text and '<section id="glossary">' in text
    shown = re.sub("<[^>]+>", " ", text.split('<section id="glossary">')[0].split("<script>")[0])
    shown = re.sub(r'title="[^"]*"', "", shown)
    for word in ("posterior", "clustered", "two-sided", "LOS", " mu ", "sigma", "matches"):
        assert word not in shown, word
    assert 'href="x.html"' not in text and "game 3" in text  # no link to a page not written


def test_the_docs_glossary_is_the_pages() -> None:
    """docs/glossary.md is written from the page's glossary (scripts/glossary.py)."""
    from pathlib import Path

    from arena.viewer.glossary import glossary_markdown

    docs = Path(__file__).resolve().parents[2] / "docs" / "glossary.md"
    assert docs.read_text() == glossary_markdown()
