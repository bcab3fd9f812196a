"""Commands for ratings: a run's tables and crosstables, and two runs compared."""

from pathlib import Path
from typing import Annotated

import typer

from arena.cli.app import LUCK_HELP, LuckChoice, app, fail
from arena.errors import ArenaError
from arena.ratings.output import ReportFormat


@app.command("ratings")
def ratings_command(
    run: Annotated[Path, typer.Argument(help="A run directory.")],
    variant: Annotated[str | None, typer.Option(help="Only this variant.")] = None,
    fmt: Annotated[ReportFormat, typer.Option(
        "--format", help="Output format.")] = ReportFormat.TABLE,
    crosstable: Annotated[bool, typer.Option(
        "--crosstable", help="Only the crosstables (head to head on shared deals).")] = False,
    luck: Annotated[LuckChoice, typer.Option(help=LUCK_HELP)] = LuckChoice.ON,
) -> None:
    """Ratings tables (one per variant) and crosstables of a run, from its records."""
    from arena.tournament.rating import run_report

    try:
        typer.echo(run_report(run, fmt.value, variant, crosstable, luck is LuckChoice.ON))
    except ArenaError as exc:
        fail(str(exc))


@app.command("compare")
def compare_command(
    before: Annotated[Path, typer.Argument(help="The earlier run directory.")],
    after: Annotated[Path, typer.Argument(help="The later run directory.")],
    variant: Annotated[str | None, typer.Option(help="Only this variant.")] = None,
    fmt: Annotated[ReportFormat, typer.Option(
        "--format", help="Output format.")] = ReportFormat.TABLE,
    anchor: Annotated[list[str] | None, typer.Option(
        "--anchor", metavar="BOT",
        help="Measure moves against this bot (repeatable); its code must be the same in both "
             "runs. Default: every bot in both runs with unchanged code.")] = None,
    luck: Annotated[LuckChoice, typer.Option(help=LUCK_HELP)] = LuckChoice.ON,
) -> None:
    """Who moved between two runs, by how much (95%), and whether it is significant.

    Moves are measured against the bots whose code did not change (or the --anchor bots);
    what changed in the field, rank changes, head-to-head edges that changed, new and gone
    bots; a note first when the runs were not played on the same deals."""
    from arena.ratings.comparison import compare, format_comparison
    from arena.tournament.rating import run_ratings
    from arena.tournament.update.identity import code_between, deals_differ

    try:
        adjusted = luck is LuckChoice.ON
        comparison = compare(run_ratings(before, adjusted), run_ratings(after, adjusted),
                             deals_differ(before, after),
                             code_between(before, after), anchor or ())
        typer.echo(format_comparison(comparison, fmt, variant))
    except ArenaError as exc:
        fail(str(exc))
