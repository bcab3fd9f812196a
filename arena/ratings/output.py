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
    from tabulate import tabulate

    style = "github" if fmt is ReportFormat.MARKDOWN else "simple"
    align = ["left" if h in ("bot", "opponent", "status") else "right" for h in headers]
    return tabulate(rows, headers=list(headers), tablefmt=style, disable_numparse=True,
                    colalign=align)


def heading(text: str, fmt: ReportFormat) -> str:
    """A section heading line: plain for tables, '## ' for Markdown."""
    return f"## {text}" if fmt is ReportFormat.MARKDOWN else text


def json_number(value: float | int | None) -> float | int | None:
    """A number for JSON output: ints kept, floats rounded to 6 decimals, never -0.0."""
    if value is None or isinstance(value, int):
        return value
    return round(value, 6) + 0.0
