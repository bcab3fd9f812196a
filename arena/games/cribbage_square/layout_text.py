"""Reading a written Cribbage Square layout and its starter, and the scored table `arena score`
prints.

A layout is written as four rows separated by '/', each four cards separated by spaces, top
row first: "QH QD QS QC / 5H 5D JS 5C / 6H 4D 6S 4C / 4H 6D 4S 6C". Cards are in the short form
('10H' or 'TH' for a ten, any case).
"""

from __future__ import annotations

from typing import Any

from arena.cards import Card, CardParseError, parse_card
from arena.errors import ArenaError
from arena.games.cribbage_square.scoring import SIDE, HandScore, LayoutScore, score_layout

SCORABLE = ("cribbage-square",)
"""The games `arena score` can score."""


class LayoutError(ArenaError):
    """A written layout or starter that is not a Cribbage Square deal."""


def read_card(text: str, where: str) -> Card:
    """One card of a layout ('TH' is the ten of hearts); LayoutError naming `where` if not."""
    code = text.strip()
    if len(code) == 2 and code[0] in "tT":
        code = "10" + code[1]
    try:
        card = parse_card(code)
    except CardParseError:
        raise LayoutError(f"{where}: unknown card {text!r} (cards are written like 10H, TH, "
                          f"QS, 5d)") from None
    if card.is_joker:
        raise LayoutError(f"{where}: {text!r} is a joker, and the game is played without them")
    return card


def parse_layout(text: str) -> tuple[tuple[Card, ...], ...]:
    """Four rows of four cards from 'QH QD QS QC / 5H ...'; LayoutError saying what is wrong."""
    parts = text.split("/")
    if len(parts) != SIDE:
        raise LayoutError(f"a layout is {SIDE} rows separated by '/', not {len(parts)}: "
                          f"e.g. 'QH QD QS QC / 5H 5D JS 5C / 6H 4D 6S 4C / 4H 6D 4S 6C'")
    rows = []
    seen: dict[Card, int] = {}
    for number, part in enumerate(parts, 1):
        words = part.replace(",", " ").split()
        if len(words) != SIDE:
            raise LayoutError(f"row {number} has {len(words)} card{'s' * (len(words) != 1)}, "
                              f"not {SIDE}: {part.strip()!r}")
        row = tuple(read_card(word, f"row {number}") for word in words)
        for card in row:
            if card in seen:
                where = (f"twice in row {number}" if seen[card] == number
                         else f"in rows {seen[card]} and {number}")
                raise LayoutError(f"{card} is laid {where}: a pack holds one of each card")
            seen[card] = number
        rows.append(row)
    return tuple(rows)


def parse_starter(text: str, rows: tuple[tuple[Card, ...], ...]) -> Card:
    """The starter card; LayoutError when unknown or already in the layout."""
    card = read_card(text, "the starter")
    for number, row in enumerate(rows, 1):
        if card in row:
            raise LayoutError(f"the starter {card} is also laid in row {number}: a pack holds "
                              f"one of each card")
    return card


def score_text(layout: str, starter: str) -> LayoutScore:
    """Read and score a written layout with its starter."""
    rows = parse_layout(layout)
    return score_layout(rows, parse_starter(starter, rows))


def check_game(game: str) -> None:
    """LayoutError unless `game` is one that can be scored."""
    if game.strip().lower() not in SCORABLE:
        raise LayoutError(f"cannot score {game!r}: the games that can be scored are "
                          f"{', '.join(SCORABLE)}")


def _line_row(name: str, hand: HandScore) -> list[Any]:
    return [name, " ".join(str(c) for c in hand.cards), hand.fifteens, hand.pairs, hand.runs,
            hand.flush, hand.nob, hand.total]


def format_score(score: LayoutScore) -> str:
    """The scored layout as a table: each row and column, what each item scored, the total."""
    from tabulate import tabulate

    lines = [_line_row(f"row {i}", h) for i, h in enumerate(score.rows, 1)]
    lines += [_line_row(f"column {i}", h) for i, h in enumerate(score.columns, 1)]
    table = tabulate(lines, headers=["line", "cards", "fifteens", "pairs", "runs", "flush",
                                     "nob", "total"], colalign=("left", "left"))
    rows = sum(h.total for h in score.rows)
    cols = sum(h.total for h in score.columns)
    return (f"{table}\n\nstarter {score.starter}: rows {rows} + columns {cols} = "
            f"{score.total}")


def _line_json(hand: HandScore) -> dict[str, Any]:
    return {"cards": [str(c) for c in hand.cards], "fifteens": hand.fifteens,
            "pairs": hand.pairs, "runs": hand.runs, "flush": hand.flush, "nob": hand.nob,
            "total": hand.total}


def score_json(score: LayoutScore) -> dict[str, Any]:
    """The scored layout as plain JSON: the starter, each row and column item by item, total."""
    return {"starter": str(score.starter), "rows": [_line_json(h) for h in score.rows],
            "columns": [_line_json(h) for h in score.columns], "total": score.total}
