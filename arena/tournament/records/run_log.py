"""A run's log file (`log.txt`): the 'arena' log sent there, from worker processes too, every
line escaped as `arena.text.escape_lines` makes it."""

from __future__ import annotations

import io
import logging
import multiprocessing
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import multiprocessing_logging

from arena.safe_files import open_append
from arena.text import escape_lines
from arena.tournament.records.results import LOG

log = logging.getLogger("arena")


def note_in_log(path: Path, message: str) -> None:
    """Add one line to a run directory's log."""
    with logging_to(path / LOG, False):
        log.info("%s", message)


class _EscapingFormatter(logging.Formatter):
    """Log lines as `arena.text.escape_lines` makes them: a bot's traceback keeps its lines, but
    no control character or bidi override of what the bot said reaches the log."""

    def format(self, record: logging.LogRecord) -> str:
        return escape_lines(super().format(record))


class _LogFile(logging.StreamHandler):  # type: ignore[type-arg]
    """A handler appending to a run's log file, opened never through a link."""

    def __init__(self, path: Path) -> None:
        super().__init__(io.TextIOWrapper(open_append(path), encoding="utf-8", newline="\n",
                                          errors="backslashreplace"))

    def close(self) -> None:
        try:
            self.flush()
            self.stream.close()
        finally:
            super().close()


@contextmanager
def logging_to(path: Path, from_workers: bool) -> Iterator[None]:
    """Send the 'arena' log to the run's log file, from worker processes too."""
    handler = _LogFile(path)
    handler.setFormatter(_EscapingFormatter("%(asctime)s %(processName)s %(levelname)s "
                                            "%(name)s: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    forwarding = from_workers and multiprocessing.get_start_method() == "fork"
    if forwarding:
        multiprocessing_logging.install_mp_handler(log)
    try:
        yield
    finally:
        for h in list(log.handlers):  # closing the forwarding handler closes the file too
            log.removeHandler(h)
            h.close()
