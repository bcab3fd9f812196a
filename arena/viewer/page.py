"""Building a self-contained HTML page: assets shipped with the package inlined, data embedded
as JSON in a script tag that no value can close or break (or, packed, as gzip in base64, which
the page's script unpacks with the browser's own `DecompressionStream`), and text escaped for
HTML."""

from __future__ import annotations

import base64
import gzip
import html
import json
import re
from importlib import resources
from typing import Any

DATA_ID = "arena-data"
"""The id of the script tag holding a page's data (`application/json`, or packed:
`PACKED_TYPE`)."""

PACKED_TYPE = "application/gzip-base64"
"""The type of a packed page's data tag: the JSON, gzipped (no time stamp), in base64."""


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


def packed_json(data: Any) -> str:
    """`data` as JSON, gzipped (the same bytes every time) and written in base64: a tenth of
    the size for a long game's steps, and nothing in it can end a script element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return base64.b64encode(gzip.compress(text.encode("utf-8"), 9, mtime=0)).decode("ascii")


def data_of(page: str) -> Any:
    """The data a page embeds (packed or not), as its script reads it."""
    found = re.search(f'<script type="([^"]+)" id="{DATA_ID}">(.*?)</script>', page, re.S)
    if found is None:
        raise ValueError("the page holds no data element")
    if found.group(1) == PACKED_TYPE:
        return json.loads(gzip.decompress(base64.b64decode(found.group(2))).decode("utf-8"))
    return json.loads(found.group(2))


def html_page(title: str, css: str, js: str, data: Any, packed: bool = False,
              connect: str = "") -> str:
    """A whole page: the title (escaped), inline CSS, the data as JSON (`packed`: as
    `packed_json`), then inline JS that reads it from the element with id `DATA_ID`. It may
    fetch nothing, but for `connect` (one address: the live table's WebSocket)."""
    kind, text = (PACKED_TYPE, packed_json(data)) if packed else ("application/json",
                                                                   script_json(data))
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            f"style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
            f"{'; connect-src ' + html.escape(connect) if connect else ''}\">\n"
            f"<title>{html.escape(title)}</title>\n<style>\n{script_text(css)}\n</style>\n"
            f"</head>\n<body>\n"
            f'<script type="{kind}" id="{DATA_ID}">{text}</script>\n'
            f"<script>\n{script_text(js)}\n</script>\n</body>\n</html>\n")
