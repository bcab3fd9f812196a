"""How reports are printed: the output formats (text, Markdown, CSV, JSON) and their parts —
stable JSON, CSV, text tables, headings, numbers rounded alike everywhere. Light to import: the
command line needs `ReportFormat` before it knows which command runs."""

from __future__ import annotations

import csv
import enum
import io
import json
from collections.abc import Iterable, Sequence
from typing import Any

from arena.errors import ArenaError


class ReportFormat(enum.Enum):
    """How a report is printed."""

    TABLE = "table"
    MARKDOWN = "markdown"
    CSV = "csv"
    JSON = "json"

    @classmethod
    def parse(cls, value: ReportFormat | str) -> ReportFormat:
        """The format named `value`; ArenaError listing the known ones otherwise."""
        if isinstance(value, ReportFormat):
            return value
        try:
            return cls(value.lower())
        except ValueError:
            known = ", ".join(f.value for f in cls)
            raise ArenaError(f"unknown format {value!r} (known: {known})") from None


def dump_json(document: Any) -> str:
    """Stable JSON text: sorted keys, two-space indent, no final newline."""
    return json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False)


def dump_csv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """CSV text with a header line and no final newline; floats rounded as in JSON."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([json_number(v) if isinstance(v, float) else v for v in row])
    return buffer.getvalue().removesuffix("\n")


def grid(headers: Sequence[str], rows: Sequence[Sequence[str]], fmt: ReportFormat) -> str:
    """A text table (tabulate 'simple' or 'github'); the first two columns left-aligned."""
    style = "github" if fmt is ReportFormat.MARKDOWN else "simple"
    left = [h in ("bot", "opponent", "status") for h in headers]
    laid = _laid_out(headers, rows, left, style == "github")
    if laid is not None:
        return laid
    from tabulate import tabulate

    return tabulate(rows, headers=list(headers), tablefmt=style, disable_numparse=True,
                    colalign=["left" if x else "right" for x in left])


def _laid_out(headers: Sequence[str], rows: Sequence[Sequence[str]], left: Sequence[bool],
              github: bool) -> str | None:
    """The table `tabulate` lays out for `grid`, laid out directly when every header and cell
    is printable text on one line and every row as long as the headers (what the reports
    pass): tabulate then pads each column to its widest cell (its header counted two wider),
    cells stripped, headers not, and strips each line's end. None (tabulate lays it out)
    otherwise. Most of tabulate's time goes to inferring the types of cells that are all text."""
    from tabulate import WIDE_CHARS_MODE, wcwidth

    wide = wcwidth is not None and WIDE_CHARS_MODE  # then widths are not lengths
    if not rows or any(len(row) != len(headers) for row in rows):
        return None
    for text in (*headers, *(cell for row in rows for cell in row)):
        if type(text) is not str or not text.isprintable() or (wide and not text.isascii()):
            return None
    cells = [[cell.strip() for cell in row] for row in rows]
    widths = [max(len(h) + 2, *(len(row[i]) for row in cells)) for i, h in enumerate(headers)]

    def line(values: Sequence[str]) -> str:
        padded = [v.ljust(w) if x else v.rjust(w)
                  for v, w, x in zip(values, widths, left, strict=True)]
        return ("| " + " | ".join(padded) + " |" if github else "  ".join(padded)).rstrip()

    rule = ("|" + "|".join("-" * (w + 2) for w in widths) + "|" if github
            else "  ".join("-" * w for w in widths))
    return "\n".join([line(headers), rule, *(line(row) for row in cells)])


def heading(text: str, fmt: ReportFormat) -> str:
    """A section heading line: plain for tables, '## ' for Markdown."""
    return f"## {text}" if fmt is ReportFormat.MARKDOWN else text


def json_number(value: float | int | None) -> float | int | None:
    """A number for JSON output: ints kept, floats rounded to 6 decimals, never -0.0."""
    if value is None or isinstance(value, int):
        return value
    return round(value, 6) + 0.0
