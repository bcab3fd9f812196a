"""The browser the page tests use: it opens a local page, reads it, and hears its errors."""

from __future__ import annotations

from pathlib import Path

from tests.web.conftest import Browser


def test_the_browser_reads_a_page_and_hears_its_script_errors(
        browser: Browser, tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text("<!doctype html><p id=x>made</p>"
                    "<script>document.getElementById('x').textContent += ' here';"
                    "undefinedFunction();</script>")
    browser.open(page)
    assert browser.run("return document.getElementById('x').textContent") == "made here"
    errors = browser.errors()
    assert len(errors) == 1 and "undefinedFunction" in errors[0]
