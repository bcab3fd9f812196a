"""Commands for a league: `arena submit`, and `arena league` new, list, withdraw, update,
standings, history and compare (docs/league.md)."""

import os
from pathlib import Path
from typing import Annotated

import typer

from arena.cli.app import (
    LUCK_HELP,
    BackendChoice,
    IsolationChoice,
    LuckChoice,
    app,
    fail,
    note,
    stopped,
)
from arena.errors import ArenaError
from arena.ratings.output import ReportFormat
from arena.text import escape

league_app = typer.Typer(no_args_is_help=True, help="A league that grows week by week: "
                         "submissions kept by version, rounds of standings (docs/league.md).")
app.add_typer(league_app, name="league")

LeagueArg = Annotated[Path, typer.Argument(metavar="LEAGUE", help="The league folder.")]


@app.command("submit")
def submit_command(
    league: LeagueArg,
    spec: Annotated[str, typer.Argument(
        metavar="BOT", help="A bot file (path/bot.py:Class) or a bundled bot's name.")],
    name: Annotated[str | None, typer.Option(
        help="The bot's name in the league (a bundled bot's defaults to its own).")] = None,
    folder: Annotated[bool, typer.Option(
        "--dir", help="Submit the bot's whole folder (every .py file in it), not its file "
                      "alone.")] = False,
    game: Annotated[list[str] | None, typer.Option(
        "--game", help="Play only these games of the league (repeatable); default: every "
                       "game of the league the bot declares.")] = None,
) -> None:
    """Submit a bot to a league: validated sandboxed, then kept by its digest.

    Each submission is a new version of its name; the latest version that passed validation
    plays. Bundled bots join by name, trusted."""
    from arena.league.folder import open_league
    from arena.league.submissions import submit

    try:
        version = submit(open_league(league), spec, name, folder, game or ())
    except ArenaError as exc:
        fail(str(exc))
    shown = f"{escape(name or spec)} v{version.number} ({version.kind}, {version.digest[:12]})"
    if not version.passed:  # the finding in full, in one line: the failing game's
        typer.echo(f"{shown}: FAILED validation: {version.validation[-1]}; it plays nothing "
                   f"(the name's last passing version, if any, plays on)")
        raise typer.Exit(1)
    for line in version.validation:
        typer.echo(f"  {line}")
    typer.echo(f"{shown}: passed; games: {', '.join(version.games)}")


@league_app.command("new")
def new_command(
    league: LeagueArg,
    game: Annotated[list[str] | None, typer.Option(
        "--game", metavar="GAME[:VARIANT[:PLAYERS]]",
        help="A game the league plays (repeatable): concentration, dig:suit-only, "
             "memorandum:standard:4.")] = None,
    config: Annotated[Path | None, typer.Option(
        "--config", metavar="FILE",
        help="Make it from this league.toml instead (configs/leagues/class.toml).")] = None,
    deals: Annotated[int, typer.Option(min=1, help="Deals per pairing.")] = 8,
    base: Annotated[int, typer.Option(help="The first deal's seed.")] = 1,
    name: Annotated[str | None, typer.Option(help="Its name (default: the folder's).")] = None,
) -> None:
    """Make a league folder: its league.toml, its deals and its key.

    Edit its league.toml for limits or a sampled schedule, or make it from one (--config)."""
    from arena.league.folder import CONFIG, league_from, new_league, parse_game

    if bool(game) == bool(config):
        fail("give the league's games (--game, repeatable) or a league.toml (--config), "
             "one of them")
    try:
        made = (league_from(league, config) if config else
                new_league(league, [parse_game(g) for g in game or ()], deals, base, name))
    except ArenaError as exc:
        fail(str(exc))
    pools = ", ".join(p.id for p in made.config.pools)
    typer.echo(f"league {made.config.name} in {league}: {pools} ({league / CONFIG})")


@league_app.command("list")
def list_command(league: LeagueArg) -> None:
    """The league's bots: versions, games, status."""
    from arena.league.folder import open_league
    from arena.league.submissions import read_submissions
    from arena.ratings.output import grid

    try:
        subs = read_submissions(open_league(league))
    except ArenaError as exc:
        fail(str(exc))
    rows = [[escape(s.name), str(len(s.versions)), s.versions[-1].submitted,
             ", ".join(s.versions[-1].games), s.status()] for s in subs.values()]
    typer.echo(grid(["bot", "versions", "last submitted", "games", "status"], rows,
                    ReportFormat.TABLE) if rows else "no bots yet ('arena submit')")


@league_app.command("withdraw")
def withdraw_command(
    league: LeagueArg,
    name: Annotated[str, typer.Argument(metavar="NAME", help="The bot's name.")],
) -> None:
    """Take a bot off the table; its versions, records and past standings are kept."""
    from arena.league.folder import open_league
    from arena.league.submissions import withdraw

    try:
        withdraw(open_league(league), name)
    except ArenaError as exc:
        fail(str(exc))
    typer.echo(f"{escape(name)} withdrawn; it plays no more games from the next update")


@league_app.command("update")
def update_command(
    league: LeagueArg,
    workers: Annotated[int | None, typer.Option(
        min=1, help="Worker processes (default: all cores).")] = None,
    isolation: Annotated[IsolationChoice | None, typer.Option(
        help="auto (sandbox what is not bundled), process, or none (only for bots you "
             "trust).")] = None,
    backend: Annotated[BackendChoice, typer.Option(
        help="Where games are played: local processes, or Ray (pip install 'card-arena\\[ray]')."
    )] = BackendChoice.LOCAL,
    address: Annotated[str | None, typer.Option(
        help="With --backend ray: the cluster to join; default: a local Ray instance.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    report_: Annotated[bool, typer.Option(
        "--report", help="Also draw the round's report (as 'arena league report'); skipped "
                         "with a note if matplotlib is missing.")] = False,
) -> None:
    """Bring every pool up to date on the league's deals; keep the standings as a round.

    Interrupted, run it again: it resumes."""
    from arena.cli.progress import progress_view
    from arena.league.folder import open_league
    from arena.league.rounds import PoolStart, standings, update
    from arena.tournament.playing.runner import Backend

    if address is not None and backend is not BackendChoice.RAY:
        fail("--address joins a Ray cluster: use it with --backend ray")
    chosen = None if isolation in (None, IsolationChoice.AUTO) else isolation.value
    try:
        opened = open_league(league)
        with progress_view(quiet) as view:  # one bar per pool's run, named by the pool

            def started(start: PoolStart) -> None:
                plan = start.plan
                note(f"{start.pool.id}: {len(start.bots)} bots; {plan.to_play:,} of "
                     f"{plan.kept + plan.to_play:,} games to play, {plan.kept:,} kept")
                if view is not None:
                    view.section(start.pool.id)

            report = update(opened, workers or os.cpu_count() or 1, view, chosen,
                            Backend(backend.value), address, started)
        for part in report.pools:
            if part.report is None:
                note(f"{part.pool.id}: not played: {part.waiting}")
                continue
            r = part.report
            again = " (its run started over on the same deals)" if part.restarted else ""
            # what the run kept and played, as the tournament says it where it does
            plan = getattr(r, "plan", None)
            said = f"; {plan.describe()}" if plan is not None else ""
            kept = ("; ratings kept from the round before (its games unchanged)"
                    if part.pool.id in report.kept_ratings else "")
            note(f"{part.pool.id}: {len(part.bots)} bots, {r.before + r.played} of {r.total} "
                 f"games ({r.played} played now){again}{said}{kept}")
        text = standings(opened, report.round)
    except KeyboardInterrupt:
        stopped(league)
    except ArenaError as exc:
        fail(str(exc))
    typer.echo(text)
    note(f"round {report.round} kept in {league / 'rounds' / str(report.round)}")
    if report_:
        from arena.league.reports import write_league_report
        from arena.ratings.plots import PlotsError

        try:
            drawn = write_league_report(opened, report.round)
            note(f"report of round {report.round} in {drawn.folder / 'report.md'} and "
                 f"report.html")
        except PlotsError as exc:
            note(f"report skipped: {exc}")
        except ArenaError as exc:
            fail(str(exc))


@league_app.command("report")
def report_command(
    league: LeagueArg,
    round_: Annotated[int | None, typer.Option(
        "--round", metavar="N", help="This round (default: the latest).")] = None,
    replays: Annotated[bool, typer.Option(
        "--replays", help="Also write the replay page of every game the page names.")] = False,
    luck: Annotated[LuckChoice, typer.Option(help=LUCK_HELP)] = LuckChoice.ON,
) -> None:
    """Draw a round's report: per pool its ratings, head to head and history as PNG, with
    report.md and a self-contained report.html, in rounds/N/report/ (pip install
    'card-arena\\[plots]')."""
    from arena.league.folder import open_league
    from arena.league.reports import write_league_report

    try:
        drawn = write_league_report(open_league(league), round_, replays,
                                    luck is LuckChoice.ON)
    except ArenaError as exc:
        fail(str(exc))
    for path in drawn.files:
        typer.echo(str(path))


@league_app.command("standings")
def standings_command(
    league: LeagueArg,
    round_: Annotated[int | None, typer.Option(
        "--round", metavar="N", help="This round (default: the latest).")] = None,
    variant: Annotated[str | None, typer.Option(help="Only this variant (standard@2p).")] = None,
    fmt: Annotated[ReportFormat, typer.Option(
        "--format", help="Output format.")] = ReportFormat.TABLE,
    luck: Annotated[LuckChoice, typer.Option(help=LUCK_HELP)] = LuckChoice.ON,
) -> None:
    """A round's standings, per game and variant."""
    from arena.league.folder import open_league
    from arena.league.rounds import standings

    try:
        typer.echo(standings(open_league(league), round_, fmt.value, variant,
                             luck is LuckChoice.ON))
    except ArenaError as exc:
        fail(str(exc))


@league_app.command("history")
def history_command(
    league: LeagueArg,
    fmt: Annotated[ReportFormat, typer.Option(
        "--format", help="Output format (table, markdown, json).")] = ReportFormat.TABLE,
) -> None:
    """Each bot's rating (mu ± 95% interval, rank) round by round, on one scale."""
    from arena.league.folder import open_league
    from arena.league.history import format_history, league_history

    if fmt is ReportFormat.CSV:
        fail("--format csv: the history is a table, markdown or json")
    try:
        typer.echo(format_history(league_history(open_league(league)), fmt.value))
    except ArenaError as exc:
        fail(str(exc))


@league_app.command("compare")
def compare_command(
    league: LeagueArg,
    before: Annotated[int, typer.Argument(metavar="N", help="The earlier round.")],
    after: Annotated[int, typer.Argument(metavar="M", help="The later round.")],
    variant: Annotated[str | None, typer.Option(help="Only this variant.")] = None,
    fmt: Annotated[ReportFormat, typer.Option(
        "--format", help="Output format.")] = ReportFormat.TABLE,
    anchor: Annotated[list[str] | None, typer.Option(
        "--anchor", metavar="BOT", help="Measure moves against this bot (repeatable).")] = None,
    luck: Annotated[LuckChoice, typer.Option(help=LUCK_HELP)] = LuckChoice.ON,
) -> None:
    """Who moved between two rounds, by how much (95%), and whether it is significant.

    As `arena compare` says it for two runs: who joined, left or changed code (another
    version), moves against the unchanged bots."""
    from arena.league.folder import open_league
    from arena.league.rounds import compare_rounds
    from arena.ratings.comparison import format_comparison

    try:
        comparison = compare_rounds(open_league(league), before, after, anchor or None,
                                    luck is LuckChoice.ON)
        typer.echo(format_comparison(comparison, fmt, variant))
    except ArenaError as exc:
        fail(str(exc))
