"""Building a self-contained HTML page: assets shipped with the package inlined, data embedded
as JSON in a script tag that no value can close or break, and text escaped for HTML."""

from __future__ import annotations

import html
import json
from importlib import resources
from typing import Any

DATA_ID = "arena-data"
"""The id of the script tag holding a page's data (`application/json`)."""


def asset(name: str) -> str:
    """The text of a file shipped in the `arena.viewer` package (a page's JS or CSS)."""
    return resources.files("arena.viewer").joinpath(name).read_text(encoding="utf-8")


def script_json(data: Any) -> str:
    """`data` as JSON safe inside a `<script>` element: `<`, `>` and `&` written as `\\u003c`
    and the like (so no `</script>` or `<!--` can end or bend the element), and the line
    separators U+2028 and U+2029 escaped (older parsers take them for line ends)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def script_text(code: str) -> str:
    """Inline JS or CSS from the package, checked to hold nothing that would end its element."""
    lowered = code.lower()
    if "</script" in lowered or "</style" in lowered or "<!--" in code:
        raise ValueError("an inlined asset holds a closing tag or a comment opener")
    return code


def html_page(title: str, css: str, js: str, data: Any) -> str:
    """A whole page: the title (escaped), inline CSS, the data as JSON, then inline JS that
    reads it from the element with id `DATA_ID`."""
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            f"style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
            f"<title>{html.escape(title)}</title>\n<style>\n{script_text(css)}\n</style>\n"
            f"</head>\n<body>\n"
            f'<script type="application/json" id="{DATA_ID}">{script_json(data)}</script>\n'
            f"<script>\n{script_text(js)}\n</script>\n</body>\n</html>\n")
