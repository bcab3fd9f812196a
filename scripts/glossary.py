"""Write docs/glossary.md from the glossary the report pages show (arena/viewer/glossary.py)."""

from __future__ import annotations

from pathlib import Path

from arena.viewer.glossary import glossary_markdown

DOCS = Path(__file__).resolve().parent.parent / "docs"


def main() -> None:
    """Write docs/glossary.md."""
    (DOCS / "glossary.md").write_text(glossary_markdown())


if __name__ == "__main__":
    main()
