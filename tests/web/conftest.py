"""A real browser for the pages the arena writes: headless Chromium driven by selenium.

The tests that take the `browser` fixture skip, with the reason, where Chromium, its driver or
selenium is missing. `.ci/run` installs them on a Debian machine; elsewhere install the
packages `chromium` and `chromium-driver` (or any Chrome with a matching chromedriver on the
PATH) and `pip install selenium`.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
DRIVERS = ("chromedriver",)


@dataclass
class Browser:
    """A headless Chromium: open a page, then read its DOM and the errors its scripts logged."""

    driver: Any

    def open(self, page: Path) -> None:
        """Load a local page (and forget the log of the page before); a replay page is ready
        once it has unpacked its data and drawn its first step."""
        self.errors()
        self.driver.get(page.resolve().as_uri())
        self.wait_ready()

    def wait_ready(self, seconds: float = 20.0) -> None:
        """Wait until a page whose data is packed has drawn (`data-ready` on its root)."""
        import time

        packed = "return (document.getElementById('arena-data') || {}).type === " \
                 "'application/gzip-base64' && !document.documentElement.dataset.ready"
        ends = time.monotonic() + seconds
        while self.driver.execute_script(packed) and time.monotonic() < ends:
            time.sleep(0.05)

    def errors(self) -> list[str]:
        """The JavaScript errors (SEVERE console entries) logged since the last call."""
        return [entry["message"] for entry in self.driver.get_log("browser")
                if entry.get("level") == "SEVERE"]

    def run(self, script: str, *args: Any) -> Any:
        """Run JavaScript in the page and return its value."""
        return self.driver.execute_script(script, *args)


def _missing() -> str | None:
    """Why there is no browser to test in, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install selenium)"
    if not any(shutil.which(name) for name in BROWSERS):
        return "no Chromium on the PATH (Debian: apt-get install chromium chromium-driver)"
    if not any(shutil.which(name) for name in DRIVERS):
        return "no chromedriver on the PATH (Debian: apt-get install chromium-driver)"
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the whole session (skips, with the reason, without one)."""
    reason = _missing()
    if reason:
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    binary = next(shutil.which(name) for name in BROWSERS if shutil.which(name))
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1280,900"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
    try:
        yield Browser(driver)
    finally:
        driver.quit()
