"""The live table's page: the replay viewer's board (`board.js`) and style, and the table's own
player (`table.js`, `table.css`), which talks to the server over one WebSocket."""

from __future__ import annotations

from importlib import resources

from arena.viewer.page import asset, html_page


def table_asset(name: str) -> str:
    """The text of a file shipped in the `arena.table` package."""
    return resources.files("arena.table").joinpath(name).read_text(encoding="utf-8")


def table_page(title: str, origin: str, socket: str) -> str:
    """The page of a person's seat: it connects to `socket` (an address on `origin`, e.g.
    `ws://127.0.0.1:8000`, holding the seat's token) and to nothing else."""
    return html_page(f"{title}: your seat", asset("replay.css") + table_asset("table.css"),
                     asset("board.js") + table_asset("table.js"), {"socket": socket},
                     connect=origin)
