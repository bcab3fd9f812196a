"""Rating a run: its ratings and report recomputed from its config and records, and the ratings,
crosstable and report files written into its directory."""

from __future__ import annotations

from pathlib import Path

from arena.ratings.formats import format_crosstable, format_ratings, unconverged_text
from arena.ratings.plots import draw_report, require_matplotlib
from arena.ratings.tables import Ratings, rate
from arena.safe_files import check_entry, write_text
from arena.tournament.planning.config import OnFault, TournamentConfig
from arena.tournament.records.results import (
    REPORT,
    REPORT_IMAGES,
    REPORT_SUFFIXES,
    RunDirectory,
    run_config,
)
from arena.tournament.records.run_log import note_in_log


def run_ratings(path: Path, luck: bool = True) -> Ratings:
    """The ratings of a run directory, recomputed from its config and records (its edges
    adjusted for luck where the records allow, unless `luck` is False)."""
    return rated_run(path, luck)[0]


def run_report(path: Path, fmt: str = "table", variant: str | None = None,
               crosstable: bool = False, luck: bool = True) -> str:
    """A run's ratings report (or its crosstables alone), bots flagged by the run's fault share;
    edges adjusted for luck where the records allow, unless `luck` is False."""
    ratings, config = rated_run(path, luck)
    share = config.limits.fault_share
    if crosstable:
        return format_crosstable(ratings, fmt, variant)
    return format_ratings(ratings, fmt, variant, share)


def rated_run(path: Path, luck: bool = True) -> tuple[Ratings, TournamentConfig]:
    """A run's ratings and the config they follow from, read once (its fault share flags the
    bots; a league update keeps its deals' seeds beside the ratings)."""
    config = run_config(path)
    ratings = rate(RunDirectory(path).records(), {g.game: g.trueskill for g in config.games},
                   disqualify=config.limits.on_fault is OnFault.DISQUALIFY, luck=luck)
    return ratings, config


def write_ratings(path: Path) -> str:
    """Write ratings.* and crosstable.* into a run directory; returns the text report."""
    ratings, config = rated_run(path)
    share = config.limits.fault_share
    for pool in ratings.pools:
        if not pool.converged:
            note_in_log(path, f"ratings of {pool.game} / {pool.variant}: {unconverged_text(pool)}")
    for suffix, fmt in REPORT_SUFFIXES.items():
        for name, text in (("ratings", format_ratings(ratings, fmt, None, share)),
                           ("crosstable", format_crosstable(ratings, fmt))):
            write_text(path / f"{name}.{suffix}", text + "\n")
    return format_ratings(ratings, "table", None, share)


def write_report(path: Path, luck: bool = True) -> list[Path]:
    """Draw a run's ratings as PNG pictures and write its report.md (matplotlib needed); the
    files written. Edges are adjusted for luck where the records allow, unless `luck` is
    False."""
    require_matplotlib()
    config = run_config(path)
    # what the report writes must be regular files or nothing, checked before anything is drawn
    for target in (path / REPORT, *(p for pattern in REPORT_IMAGES for p in path.glob(pattern))):
        check_entry(target)
    return draw_report(path, path / REPORT, config.name, list(RunDirectory(path).records()),
                       {g.game: g.trueskill for g in config.games},
                       config.limits.on_fault is OnFault.DISQUALIFY, config.limits.fault_share,
                       luck)
