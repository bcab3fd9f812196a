"""Write each game's JSON shapes into docs/protocol.md (between its markers), from the games' own
definitions: `python scripts/protocol_shapes.py` (`--check`: exit 1 if the docs differ)."""

from __future__ import annotations

import sys
from pathlib import Path

from arena.protocol.shapes import BEGIN, END, shapes_markdown

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def documented(text: str) -> str:
    """The shapes part of the docs' text (markers included)."""
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[start:end] + "\n"


def main(argv: list[str]) -> int:
    """Write (or with --check, compare) the shapes."""
    text = DOC.read_text(encoding="utf-8")
    fresh = shapes_markdown()
    if "--check" in argv:
        return 0 if documented(text) == fresh else 1
    start, end = text.index(BEGIN), text.index(END) + len(END)
    DOC.write_text(text[:start] + fresh.rstrip("\n") + text[end:], encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
