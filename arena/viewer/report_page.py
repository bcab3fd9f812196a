"""A run's or a league round's report as one self-contained HTML page: per pool its ratings with
their intervals drawn as bars (shared ranks marked), its crosstable as a heatmap (edge, games
met, significance), its progression and its league history drawn as SVG, and a section per bot
(results, faults with its output, worst games linked to their replay pages).

The page is a pure function of a `ReportPage`: no file is read here, nothing is fetched by the
page (inline CSS and a few lines of inline JS, no network). Every text on it, bot names above
all, is escaped twice over: a bot's words made printable (`arena.text.escape`), then HTML
escaped. No JSON is put inside the script: the data the script needs rides on `data-`
attributes, escaped like any other attribute.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena.ratings.plain import shared_ranks_in_words
from arena.ratings.plots import coinciding_lines
from arena.ratings.tables import BotRow, HeadToHead, PoolRatings
from arena.text import escape, escape_lines
from arena.viewer.glossary import glossary_html

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896",
           "#c5b0d5", "#c49c94", "#f7b6d2", "#c7c7c7", "#dbdb8d", "#9edae5")
"""Line colours (matplotlib's tab10, then tab20): one per bot over the whole page, in the order
the bots first appear."""


@dataclass(frozen=True)
class WorstGame:
    """One of a bot's worst games: where to see it, and what happened."""

    task: int
    seat: int
    variant: str
    seed: int
    seats: tuple[str, ...]
    scores: tuple[float, ...]
    margin: float | None
    replay: str | None
    """The relative path of its replay page; None where no such page is written (the command
    below writes it)."""
    command: str
    """The command that writes that page."""


@dataclass(frozen=True)
class FaultLine:
    """One fault a bot committed: in which game, at which decision, what kind, its detail."""

    task: int
    decision: int
    kind: str
    detail: str


@dataclass(frozen=True)
class BotSection:
    """What the page says of one bot in one pool beyond its table row."""

    worst: tuple[WorstGame, ...] = ()
    faults: tuple[FaultLine, ...] = ()
    faults_total: int = 0
    """All its faults in the pool (the lines above may be the first few)."""
    output: str | None = None
    """The end of what it printed (its log), as stored; None where there is none."""
    output_source: str = ""


@dataclass(frozen=True)
class ProgressPoint:
    """A pool's table at one point of its growth: bot -> (mu, half-width of its 95% interval)."""

    x: float
    ratings: Mapping[str, tuple[float, float]]
    moved: frozenset[str] = frozenset()
    """The bots whose move since the point before is significant at 95% (a league's rounds)."""


@dataclass(frozen=True)
class PoolSection:
    """One pool of the page."""

    ratings: PoolRatings
    progression: tuple[ProgressPoint, ...] = ()
    progression_axis: str = "deals played"
    history: tuple[ProgressPoint, ...] = ()
    """The league's standings round by round (x: the round), empty outside a league."""
    bots: Mapping[str, BotSection] = field(default_factory=dict)
    note: str | None = None


@dataclass(frozen=True)
class ReportPage:
    """Everything a report page shows."""

    title: str
    intro: str
    pools: tuple[PoolSection, ...]
    fault_share: float = 0.25
    footer: str = ""


def _t(text: object) -> str:
    """Any text made printable, then HTML-escaped (attributes included)."""
    return html.escape(escape(str(text)), quote=True)


def _block(text: str) -> str:
    """A log made printable line by line, then HTML-escaped."""
    return html.escape(escape_lines(text), quote=True)


def report_html(page: ReportPage) -> str:
    """The page, one self-contained HTML document."""
    toc = []
    body = []
    colours = bot_colours(page.pools)
    for p, section in enumerate(page.pools):
        pool = section.ratings
        toc.append(f'<li><a href="#pool-{p}">{_t(pool.game)} / {_t(pool.variant)}</a></li>')
        body.append(_pool(p, section, page.fault_share, colours))
    toc.append('<li><a href="#glossary">the words used</a></li>')
    return "".join([
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        f"<title>{_t(page.title)}</title><style>{_STYLE}</style></head><body>\n",
        f"<header><h1>{_t(page.title)}</h1><p class=\"intro\">{_t(page.intro)} "
        '<a href="#glossary">What the words mean.</a></p>',
        f"<nav><ul>{''.join(toc)}</ul></nav></header>\n",
        "\n".join(body),
        "\n" + glossary_html(),
        f"\n<footer>{_t(page.footer)}</footer>" if page.footer else "",
        f"\n<script>{_SCRIPT}</script>\n</body></html>\n"])


def bot_colours(pools: Sequence[PoolSection]) -> dict[str, str]:
    """One colour per bot over the whole page: in the order the bots first appear (each pool's
    table in turn, then those only in its history)."""
    colours: dict[str, str] = {}
    for section in pools:
        names = [row.bot for row in section.ratings.bots]
        names += sorted({b for point in section.history for b in point.ratings} - set(names))
        for bot in names:
            colours.setdefault(bot, PALETTE[len(colours) % len(PALETTE)])
    return colours


def _pool(p: int, section: PoolSection, fault_share: float,
          colours: Mapping[str, str]) -> str:
    pool = section.ratings
    names = {row.bot: f"bot-{p}-{i}" for i, row in enumerate(pool.bots)}
    games = sum(row.games for row in pool.bots)
    parts = [f'<section class="pool" id="pool-{p}">',
             f"<h2>{_t(pool.game)} / {_t(pool.variant)}</h2>",
             f'<p class="facts">{pool.deals:,} deal{"s" if pool.deals != 1 else ""} played; '
             f"{games:,} seats taken by the bots in all"
             + (f"; {pool.skipped} games left unrated" if pool.skipped else "")
             + ("" if pool.converged else f"; the ratings stopped after {pool.sweeps:,} rounds "
                "of calculation, short of their precision: treat them as approximate")
             + "</p>",
             _ratings_table(pool, names, fault_share, colours)]
    if pool.crosstable:
        parts.append(_heatmap(pool, names))
    if section.progression:
        parts.append(_chart(f"progression-{p}", pool, section.progression,
                            f"How the ratings settled: each bot's rating and 95% interval "
                            f"over the games of the first n {section.progression_axis.split()[0]}"
                            f" (it ends on the table above; a band starts once the interval "
                            f"fits the chart)",
                            section.progression_axis, colours))
    if section.history:
        parts.append(_chart(f"history-{p}", pool, section.history,
                            "League standings round by round: each bot's rating and 95% "
                            "interval, every round on the latest round's scale (a ring: a "
                            "move significant at 95% since the round before)",
                            "round", colours, whole=True))
    if section.note:
        parts.append(f'<p class="note">{_t(section.note)}</p>')
    parts.append("<h3>Bots</h3>")
    for row in pool.bots:
        parts.append(_bot(row, names, section.bots.get(row.bot, BotSection()), pool,
                          f"#pool-{p}"))
    parts.append("</section>")
    return "\n".join(parts)


def _ratings_table(pool: PoolRatings, names: Mapping[str, str], fault_share: float,
                   colours: Mapping[str, str]) -> str:
    rows = pool.bots
    lows = [r.mu - r.mu_ci95 for r in rows]
    highs = [r.mu + r.mu_ci95 for r in rows]
    lo, hi = min(lows, default=0.0), max(highs, default=1.0)
    pad = (hi - lo) * 0.04 or 1.0
    lo, hi = lo - pad, hi + pad

    def at(x: float) -> str:
        return f"{100 * (x - lo) / (hi - lo):.2f}%"

    out = ['<h3>Ratings</h3><table class="ratings"><thead><tr><th>rank</th><th>bot</th>'
           '<th>rating (95%)</th><th class="barhead">interval<span class="axis">'
           f'<span>{lo:.1f}</span><span>{hi:.1f}</span></span></th><th>games</th><th>W</th>'
           '<th>D</th><th>L</th><th>mean score (95%)</th><th>faults</th></tr></thead><tbody>']
    shared: dict[int, int] = {}
    for r in rows:
        shared[r.rank] = shared.get(r.rank, 0) + 1
    group = 0
    previous = None
    for i, r in enumerate(rows):
        if r.rank != previous:
            group += 1
            previous = r.rank
        colour = colours.get(r.bot, PALETTE[i % len(PALETTE)])
        classes = ["shared"] if shared[r.rank] > 1 else []
        classes.append(f"g{group % 2}")
        flagged = r.fault_share() > fault_share
        marks = (' <span class="flag" title="faulted in more than '
                 f'{fault_share:.0%} of its games">!</span>' if flagged else "")
        if r.beats_above:
            marks += (' <span class="flag" title="beats head to head, significantly, a bot '
                      f'above it: {_t(", ".join(r.beats_above))}">^</span>')
        if r.outscores_in_rank:
            marks += (' <span class="flag" title="beats head to head, significantly, a bot '
                      f'sharing its rank: {_t(", ".join(r.outscores_in_rank))}">~</span>')
        edge = dict(pool.edges).get(r.bot)
        if edge is not None:
            marks += (f' <span class="flag" title="{edge} in every game it played: its interval '
                      'is as wide as one game ending otherwise would move it">'
                      f'{"↓" if edge == "last" else "↑"}</span>')
        near = next((n for n in pool.near_edges if n[0] == r.bot), None)
        if near is not None:
            _, where, off, deals = near
            marks += (f' <span class="flag" title="{where} in every game but those of {off} of '
                      f'its {deals} deals: its interval is as wide as leaving one of them out '
                      f'would move it">{"≈↓" if where == "last" else "≈↑"}</span>')
        title = (f"rank {r.rank_label}: shared with the bots it cannot be told apart from at "
                 "95%" if shared[r.rank] > 1 else f"rank {r.rank}")
        out.append(
            f'<tr class="{" ".join(classes)}" data-bot="{_t(r.bot)}" data-mu="{r.mu!r}" '
            f'data-ci="{r.mu_ci95!r}">'
            f'<td class="rank" title="{title}">{_t(r.rank_label)}</td>'
            f'<td class="name"><a href="#{names[r.bot]}">{_t(r.bot)}</a>{marks}</td>'
            f'<td class="num mu">{r.mu:.2f} ± {r.mu_ci95:.2f}</td>'
            f'<td class="bar"><div class="scale" title="{r.mu - r.mu_ci95:.2f} to '
            f'{r.mu + r.mu_ci95:.2f}"><span class="ci" style="left:{at(r.mu - r.mu_ci95)};'
            f'width:{at(lo + 2 * r.mu_ci95)};background:{colour}"></span>'
            f'<span class="dot" style="left:{at(r.mu)};background:{colour}"></span></div></td>'
            f'<td class="num">{r.games}</td><td class="num">{r.wins}</td>'
            f'<td class="num">{r.draws}</td><td class="num">{r.losses}</td>'
            f'<td class="num">{r.mean_score:.2f} ± {r.score_ci95:.2f}</td>'
            f'<td class="num">{r.faults}</td></tr>')
    out.append("</tbody></table>")
    words = shared_ranks_in_words(pool)
    if words:
        out.append('<p class="plain">' + "<br>".join(_t(line) for line in words) + "</p>")
    out.append('<p class="legend">The rating only means something next to the other ratings '
               "of this pool; the bar is its 95% interval, from how much the results varied "
               "from deal to deal. Bots that cannot be told apart share a rank (=n), banded "
               "together; ! faulted often; ^ beats a bot above it head to head; ~ beats a bot "
               "of its shared rank head to head; ↓ ↑ last (first) in every game (hover for "
               'more). <a href="#glossary">The words.</a></p>')
    return "".join(out)


def _edge_colour(edge: float, span: float) -> str:
    """Blue for a positive edge, red for a negative one, white at 0 (RdBu-like)."""
    t = max(-1.0, min(1.0, edge / span)) if span else 0.0
    end = (33, 102, 172) if t > 0 else (178, 24, 43)
    a = abs(t)
    r, g, b = (round(255 + (c - 255) * a) for c in end)
    return f"rgb({r},{g},{b})"


def _heatmap(pool: PoolRatings, names: Mapping[str, str]) -> str:
    bots = [r.bot for r in pool.bots]
    cells: dict[tuple[str, str], HeadToHead] = {(h.bot, h.opponent): h for h in pool.crosstable}
    span = max((abs(h.edge) for h in pool.crosstable), default=0.0) or 1.0
    out = ['<h3>Head to head</h3><div class="scroll"><table class="heat"><thead><tr>'
           '<th class="corner">bot \\ opponent</th>']
    out += [f'<th class="col"><a href="#{names[b]}">{_t(b)}</a></th>' for b in bots]
    out.append("</tr></thead><tbody>")
    for a in bots:
        out.append(f'<tr><th class="row"><a href="#{names[a]}">{_t(a)}</a></th>')
        for b in bots:
            h = cells.get((a, b))
            if a == b:
                out.append('<td class="self"></td>')
            elif h is None:
                out.append('<td class="none" title="never met">·</td>')
            else:
                dark = abs(h.edge) > 0.6 * span
                mark = "*" if h.significant else ""
                out.append(
                    f'<td class="cell{" sig" if h.significant else ""}{" dark" if dark else ""}"'
                    f' style="background:{_edge_colour(h.edge, span)}"'
                    f' data-games="{h.games}" data-edge="{h.edge!r}"'
                    f' title="{_t(a)} vs {_t(b)}: edge {h.edge:+.2f} ± {h.edge_ci95:.2f} per '
                    f'deal, p {h.p_value:.3g}, {h.wins}-{h.draws}-{h.losses} in {h.games} games '
                    f'on {h.deals} deals">'
                    f'<span class="edge">{h.edge:+.2f}{mark}</span>'
                    f'<span class="games">({h.games})</span></td>')
        out.append("</tr>")
    out.append("</tbody></table></div>")
    out.append('<p class="legend">edge: the row bot\'s mean score advantage over the column '
               "bot per deal (blue: the row bot did better); games met in brackets; * and a "
               "frame: significant at 95% (more than the luck of the deals would give). "
               '<a href="#glossary">The words.</a>'
               + ("" if pool.luck_text() is None else " " + _t(pool.luck_text()))
               + "</p>")
    return "".join(out)


def _chart(ident: str, pool: PoolRatings, points: Sequence[ProgressPoint], title: str,
           axis: str, colours: Mapping[str, str], whole: bool = False) -> str:
    """An SVG line chart of each bot's mu with its 95% interval: a band over the deals played
    (from two deals on, where the interval first fits the chart: with one deal the luck of the
    deal is not measured, with two it is measured from two numbers), or whiskers per round
    (`whole`, bots side by side). The axis fits the ratings and the last point's intervals;
    wider early bands are cut at its edge. Bots whose lines coincide are drawn apart, and the
    legend says whose line they share; a ring marks a significant move (`ProgressPoint.moved`)."""
    width, height, left, right, top, bottom = 760, 300, 56, 16, 12, 40
    xs = [p.x for p in points]
    mus = [m for p in points for m, _ in p.ratings.values()]
    if not mus:
        return ""
    ends = [v for m, h in points[-1].ratings.values() for v in (m - h, m + h)]
    y0, y1 = min(mus + ends), max(mus + ends)
    pad = (y1 - y0) * 0.05 or 1.0
    y0, y1 = y0 - pad, y1 + pad
    x0, x1 = (min(xs) - 0.5, max(xs) + 0.5) if whole else (min(xs), max(xs))
    if x1 <= x0:
        x0, x1 = x0 - 0.5, x1 + 0.5

    def sx(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * (width - left - right)

    def sy(y: float) -> float:
        return top + (y1 - y) / (y1 - y0) * (height - top - bottom)

    clip = f"{ident}-clip"
    out = [f'<figure class="chart" id="{ident}"><figcaption>{_t(title)}</figcaption>'
           f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{_t(title)}">'
           f'<defs><clipPath id="{clip}"><rect x="{left}" y="{top}" '
           f'width="{width - left - right}" height="{height - top - bottom}"/></clipPath>'
           f"</defs>"]
    for tick in _ticks(y0, y1):
        out.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{sy(tick):.1f}" '
                   f'y2="{sy(tick):.1f}"/><text class="tick" x="{left - 6}" '
                   f'y="{sy(tick) + 4:.1f}" text-anchor="end">{tick:g}</text>')
    xticks = sorted(set(xs)) if whole else _ticks(x0, x1)
    for tick in xticks:
        out.append(f'<text class="tick" x="{sx(tick):.1f}" y="{height - bottom + 16}" '
                   f'text-anchor="middle">{tick:g}</text>')
    out.append(f'<text class="label" x="{(left + width - right) / 2}" y="{height - 6}" '
               f'text-anchor="middle">{_t(axis)}</text>')
    out.append(f'<line class="axis" x1="{left}" x2="{left}" y1="{top}" '
               f'y2="{height - bottom}"/><line class="axis" x1="{left}" x2="{width - right}" '
               f'y1="{height - bottom}" y2="{height - bottom}"/>')
    legend = []
    bots = [r.bot for r in pool.bots]
    bots += sorted({b for p in points for b in p.ratings} - set(bots))
    lines = {bot: [(p.x, *p.ratings[bot], bot in p.moved) for p in points if bot in p.ratings]
             for bot in bots}
    shares = coinciding_lines({bot: [(x, m, h) for x, m, h, _ in line]
                               for bot, line in lines.items()})
    step = min(6.0, 0.35 * (sx(x0 + 1) - sx(x0)) / max(1, len(bots))) if whole else 4.0
    for i, bot in enumerate(bots):
        colour = colours.get(bot, PALETTE[i % len(PALETTE)])
        line = lines[bot]
        if not line:
            continue
        under = shares.get(bot)
        # side by side in a round; off the shared line by a few pixels over deals
        dx = (i - (len(bots) - 1) / 2) * step if whole else (
            step * (bots.index(bot) - bots.index(under)) if under else 0.0)
        dash = ' stroke-dasharray="6 4"' if under else ""
        if whole:
            for x, m, h, _ in line:
                out.append(f'<line class="whisker" clip-path="url(#{clip})" '
                           f'x1="{sx(x) + dx:.1f}" x2="{sx(x) + dx:.1f}" y1="{sy(m + h):.1f}" '
                           f'y2="{sy(m - h):.1f}" stroke="{colour}"/>')
        else:
            # from two deals on, and from where the interval first fits the chart: a band
            # wider than the axis (t on one degree of freedom is 12.7) would hide the others
            start = next((i for i, (x, _, h, _) in enumerate(line)
                          if x >= 2 and 2 * h <= y1 - y0), len(line))
            banded = [(x, m, h) for x, m, h, _ in line[start:]]
            if len(banded) >= 2:
                upper = " ".join(f"{sx(x) + dx:.1f},{sy(m + h):.1f}" for x, m, h in banded)
                lower = " ".join(f"{sx(x) + dx:.1f},{sy(m - h):.1f}"
                                 for x, m, h in reversed(banded))
                out.append(f'<polygon class="band" clip-path="url(#{clip})" '
                           f'points="{upper} {lower}" fill="{colour}"/>')
        path = " ".join(f"{sx(x) + dx:.1f},{sy(m):.1f}" for x, m, _, _ in line)
        out.append(f'<polyline class="line" clip-path="url(#{clip})" data-bot="{_t(bot)}" '
                   f'points="{path}" stroke="{colour}"{dash}/>')
        for x, m, h, moved in line:
            what = f"{_t(bot)}: {m:.2f} ± {h:.2f} at {x:g}" + (
                ", a significant move since the round before" if moved else "")
            out.append(f'<circle cx="{sx(x) + dx:.1f}" cy="{sy(m):.1f}" r="2.6" '
                       f'fill="{colour}"><title>{what}</title></circle>')
            if moved:
                out.append(f'<circle class="moved" cx="{sx(x) + dx:.1f}" cy="{sy(m):.1f}" '
                           f'r="6.5" stroke="{colour}"><title>{what}</title></circle>')
        gone = bot not in {r.bot for r in pool.bots}
        legend.append(f'<li><span class="swatch" style="background:{colour}"></span>'
                      f'{_t(bot)}{" (left)" if gone else ""}'
                      + (f' <span class="same">(on {_t(under)}\'s line: the same ratings)'
                         "</span>" if under else "") + "</li>")
    out.append(f'</svg><ul class="keys">{"".join(legend)}</ul></figure>')
    return "".join(out)


def _ticks(lo: float, hi: float, count: int = 6) -> list[float]:
    """Round numbers spread over [lo, hi]."""
    raw = (hi - lo) / max(1, count)
    if raw <= 0 or not math.isfinite(raw):
        return [lo]
    step = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * step:
            step *= m
            break
    first = math.ceil(lo / step) * step
    return [round(first + k * step, 10) for k in range(int((hi - first) / step) + 1)]


def _bot(row: BotRow, names: Mapping[str, str], section: BotSection, pool: PoolRatings,
         back: str) -> str:
    ident = names[row.bot]
    out = [f'<article class="bot" id="{ident}"><h4>{_t(row.bot)} <small>rank '
           f'{_t(row.rank_label)} in {_t(pool.game)} / {_t(pool.variant)}</small> '
           f'<a class="up" href="{back}">↑</a></h4>',
           f'<p>rating {row.mu:.2f} ± {row.mu_ci95:.2f}; {row.games} games: {row.wins} won, '
           f"{row.draws} drawn, {row.losses} lost; mean place {row.mean_place:.2f}; mean "
           f"score {row.mean_score:.2f} ± {row.score_ci95:.2f}; {row.faults} faults"
           + (" (" + ", ".join(f"{_t(k)} {n}" for k, n in row.fault_kinds) + ")"
              if row.fault_kinds else "") + ".</p>"]
    opponents = [h for h in pool.crosstable if h.bot == row.bot]
    if opponents:
        out.append('<table class="small"><thead><tr><th>against</th><th>games</th><th>W-D-L'
                   '</th><th>edge (95%)</th></tr></thead><tbody>')
        for h in opponents:
            out.append(f'<tr><td><a href="#{names[h.opponent]}">{_t(h.opponent)}</a></td>'
                       f'<td class="num">{h.games}</td><td class="num">{h.wins}-{h.draws}-'
                       f'{h.losses}</td><td class="num">{h.edge:+.2f} ± {h.edge_ci95:.2f}'
                       f'{" *" if h.significant else ""}</td></tr>')
        out.append("</tbody></table>")
    if section.faults:
        more = section.faults_total - len(section.faults)
        out.append(f"<h5>Faults ({section.faults_total})</h5><table class=\"small faults\">"
                   "<thead><tr><th>game</th><th>decision</th><th>kind</th><th>detail</th></tr>"
                   "</thead><tbody>")
        for f in section.faults:
            out.append(f'<tr><td class="num">{f.task}</td><td class="num">{f.decision}</td>'
                       f"<td>{_t(f.kind)}</td><td><code>{_t(f.detail)}</code></td></tr>")
        out.append("</tbody></table>" + (f"<p>… and {more} more.</p>" if more > 0 else ""))
    if section.output:
        out.append(f"<details><summary>its output: the end of {_t(section.output_source)}"
                   f"</summary><pre class=\"output\">{_block(section.output)}</pre></details>")
    if section.worst:
        out.append("<h5>Worst games</h5><ol class=\"worst\">")
        for g in section.worst:
            others = ", ".join(f"{_t(b)} {s:g}" for b, s in zip(g.seats, g.scores, strict=False))
            margin = "" if g.margin is None else f", margin {g.margin:+g}"
            name = (f'<a class="replay" href="{_t(g.replay)}">game {g.task}</a>'
                    if g.replay is not None else f"game {g.task}")
            out.append(f'<li>{name} '
                       f"({_t(g.variant)}, deal {g.seed}, seat {g.seat}{margin}): {others}"
                       f'<br><code class="cmd">{_t(g.command)}</code></li>')
        out.append("</ol>")
    out.append("</article>")
    return "\n".join(out)


_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;color:#222;max-width:72em;margin:0 auto;padding:1em}
h1{font-size:1.5em;margin:.2em 0}h2{border-bottom:2px solid #ccc;margin-top:2em}
h4 small{font-weight:normal;color:#666}.intro,.legend,.facts,.note{color:#555}
.legend{font-size:.88em}nav ul{columns:3;padding-left:1.2em}
table{border-collapse:collapse;margin:.4em 0}th,td{padding:.2em .5em;text-align:left}
.ratings tbody tr{border-top:1px solid #eee}.ratings tr.shared td.rank{font-weight:bold}
.ratings tr.g1{background:#f6f8fb}.ratings tr.shared td:first-child{border-left:4px solid #8aa}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.bar{width:32%;min-width:12em}.scale{position:relative;height:14px;background:#f0f0f0;
border-radius:3px}.ci{position:absolute;top:3px;height:8px;border-radius:4px;opacity:.55}
.dot{position:absolute;top:1px;width:12px;height:12px;margin-left:-6px;border-radius:50%;
border:1px solid #fff}.barhead .axis{display:flex;justify-content:space-between;
font-weight:normal;font-size:.8em;color:#777}.flag{color:#b00;font-weight:bold;cursor:help}
.scroll{overflow-x:auto}.heat td,.heat th{border:1px solid #fff;font-size:.85em}
.heat th.col{writing-mode:vertical-rl;transform:rotate(180deg);max-height:12em}
.heat td.cell{text-align:center;min-width:3.6em;line-height:1.15}
.heat td.cell span{display:block}.heat td.dark{color:#fff}.heat .games{font-size:.85em}
.heat td.sig{outline:2px solid #222;outline-offset:-3px;font-weight:bold}
.heat td.self{background:#ddd}.heat td.none{color:#aaa;text-align:center}
.chart{margin:1em 0}.chart svg{width:100%;max-width:760px;height:auto;display:block}
.chart .grid{stroke:#eee}.chart .axis{stroke:#999}.chart .tick{font-size:11px;fill:#666}
.chart .label{font-size:12px;fill:#333}.chart .band{opacity:.1}
.chart .whisker{stroke-width:2;opacity:.45}.chart .moved{fill:none;stroke-width:1.6}
.same{color:#666;font-size:.9em}.plain{background:#f3f6ee;border-left:4px solid #9b6;
padding:.35em .6em;margin:.5em 0}dl.glossary dt{font-weight:bold;margin-top:.4em}
dl.glossary dd{margin-left:1.2em}
.chart .line{fill:none;stroke-width:2}.keys{list-style:none;padding:0;display:flex;
flex-wrap:wrap;gap:.3em 1.2em;font-size:.9em}.swatch{display:inline-block;width:.9em;
height:.9em;margin-right:.35em;border-radius:2px;vertical-align:-.1em}
.bot{border-top:1px solid #ddd;padding:.3em 0}.bot h4{margin:.5em 0 .2em}
.small{font-size:.9em}.faults code{white-space:pre-wrap;word-break:break-all}
pre.output{background:#f7f7f7;padding:.5em;max-height:16em;overflow:auto;font-size:.85em;
white-space:pre-wrap;word-break:break-all}.cmd{font-size:.85em;color:#555}
.up{text-decoration:none;color:#999}th.sorted::after{content:" ▾"}
.ratings th{cursor:pointer}footer{margin-top:2em;color:#777;font-size:.85em}
"""

_SCRIPT = """
(function () {
  // sort a ratings table by a column when its heading is clicked (rank order again on rank)
  document.querySelectorAll("table.ratings").forEach(function (table) {
    var heads = table.querySelectorAll("thead th");
    heads.forEach(function (th, col) {
      th.addEventListener("click", function () {
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var key = function (row) {
          var text = row.cells[col].textContent.replace(/^=/, "");
          var n = parseFloat(text);
          return isNaN(n) ? text.toLowerCase() : n;
        };
        var numeric = col !== 1;
        rows.sort(function (a, b) {
          var x = key(a), y = key(b);
          if (col === 0) { return x < y ? -1 : x > y ? 1 : 0; }
          if (numeric) { return y - x; }
          return x < y ? -1 : x > y ? 1 : 0;
        });
        rows.forEach(function (row) { body.appendChild(row); });
        heads.forEach(function (h) { h.classList.remove("sorted"); });
        th.classList.add("sorted");
      });
    });
  });
})();
"""
