"""The `arena` command line: parse, call the library, print. Errors become one line and exit 2."""

from __future__ import annotations

import enum
import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from arena.errors import ArenaError
from arena.ratings.output import ReportFormat

if TYPE_CHECKING:
    from arena.engine import Variant
    from arena.ratings.sprt import SprtState
    from arena.record import Fault, GameRecord
    from arena.session import SeriesTally
    from arena.tournament.runner import Progress as RunProgress
    from arena.tournament.runner import ProgressHook

PER_GAME_LINES = 20
"""Without --json, a line per game is printed for series of at most this many games."""


class OneLineErrors(TyperGroup):
    """Every usage mistake and ArenaError ends as one line on stderr and exit code 2."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        """Run the command line, turning errors into one line each."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        from typer._click.exceptions import ClickException, NoArgsIsHelpError

        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except NoArgsIsHelpError as exc:
            typer.echo(exc.format_message())
            sys.exit(0)
        except ClickException as exc:
            where = getattr(getattr(exc, "ctx", None), "command_path", "arena")
            message = exc.format_message().rstrip(".")
            typer.echo(f"arena: error: {message} (see '{where} --help')", err=True)
            sys.exit(exc.exit_code)
        except ArenaError as exc:
            _say_error(str(exc))
            sys.exit(2)
        sys.exit(code if isinstance(code, int) else 0)


class BackendChoice(enum.Enum):
    """Where a run's games are played (`arena.tournament.runner.Backend`, without importing the
    runner)."""

    LOCAL = "local"
    RAY = "ray"


class IsolationChoice(enum.Enum):
    """Which bots play sandboxed, in processes of their own."""

    AUTO = "auto"
    PROCESS = "process"
    NONE = "none"

    def sandboxes(self, spec: str) -> bool:
        """Whether a bot of this spec plays sandboxed under this choice."""
        from arena.loader import is_bundled

        return self is IsolationChoice.PROCESS or (
            self is IsolationChoice.AUTO and not is_bundled(spec))


app = typer.Typer(cls=OneLineErrors, add_completion=False, no_args_is_help=True,
                  help="Card Arena: AI bots play memory and children's card games.")


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"arena {version('card-arena')}")
        raise typer.Exit()


@app.callback()
def _options(version: Annotated[bool, typer.Option(
        "--version", callback=_show_version, is_eager=True,
        help="Print the installed version and exit.")] = False) -> None:
    """Card Arena: AI bots play memory and children's card games."""


def _say_error(message: str) -> None:
    typer.echo(f"arena: error: {message}", err=True)


def _warn(message: str) -> None:
    typer.echo(f"arena: warning: {message}", err=True)


def _fail(message: str) -> None:
    _say_error(message)
    raise typer.Exit(2)


@app.command("games")
def games_command(
    name: Annotated[str | None, typer.Argument(help="Show one game's presets in detail.")] = None,
) -> None:
    """List the games, their variant presets and player counts."""
    from tabulate import tabulate

    from arena.catalog import game_rows, preset_rows

    try:
        if name is None:
            typer.echo(tabulate(game_rows(), headers=["game", "players", "presets"]))
        else:
            typer.echo(tabulate(preset_rows(name), headers=["preset", "players", "parameters"]))
    except ArenaError as exc:
        _fail(str(exc))


@app.command("bots")
def bots_command() -> None:
    """List the registered bots: name, the games they play, where they come from."""
    from tabulate import tabulate

    from arena.catalog import bot_rows

    typer.echo(tabulate(bot_rows(), headers=["bot", "games", "from"]))


@app.command("play")
def play_command(
    game: Annotated[str, typer.Argument(help="Game name, e.g. concentration.")],
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", "-b", help="A bot spec per seat, in seat order (one bot: solitaire; "
        "'human' seats you).")] = None,
    variant: Annotated[str | None, typer.Option("--variant", "-v", help="Variant preset.")] = None,
    param: Annotated[list[str] | None, typer.Option(
        "--param", "-p", help="Override a variant parameter: key=value (repeatable).")] = None,
    seed: Annotated[int, typer.Option(help="Deal seed of the first game.")] = 0,
    games: Annotated[int, typer.Option(min=1, help="Deals to play, on seeds upward.")] = 1,
    rotate: Annotated[bool, typer.Option(
        "--rotate", help="Play each deal once per rotation of the seats (duplicate).")] = False,
    show: Annotated[bool, typer.Option("--show", help="Narrate each game as it unfolds.")] = False,
    delay: Annotated[float, typer.Option(
        min=0.0, help="With --show: seconds to pause after each step.")] = 0.0,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON record per game.")] = False,
    timings: Annotated[bool, typer.Option(help="Add each game's duration to --json.")] = False,
    isolation: Annotated[IsolationChoice, typer.Option(
        help="auto: sandbox bots that are not bundled; process: sandbox all; none: none."
    )] = IsolationChoice.AUTO,
    time_limit: Annotated[float | None, typer.Option(
        min=0.001, help="Seconds per decision for sandboxed bots.")] = None,
    level: Annotated[str | None, typer.Option(
        help="Fill the seats not given with -b with bundled bots of this level: easy, medium, "
        "hard, expert.")] = None,
    seats: Annotated[int | None, typer.Option(
        min=1, help="With --level: how many seats (default: the game's fewest, at least 2).")
    ] = None,
) -> None:
    """Play games between bots (or against them: -b human) and print the results."""
    from arena.engine import find_game
    from arena.levels import seat_bots
    from arena.loader import resolve_bot
    from arena.sandbox import Limits, sandboxed
    from arena.session import SeriesTally
    from arena.values import parse_assignments
    from bots.human import is_human

    try:
        found = find_game(game)
        overrides: dict[str, str] = {}
        for text in param or []:
            overrides.update(parse_assignments(text, f"--param {text!r}"))
        chosen = found.variant(variant, overrides)
        specs = seat_bots(chosen, bot or [], level, seats)
        if not specs:
            raise ArenaError("give the bots with -b, or a --level for the opponents")
        chosen.check_players(len(specs))
        person = any(is_human(spec) for spec in specs)
        if person and (show or json_out):
            raise ArenaError("--show and --json cannot be used with a human seat")
        limits = Limits(move_seconds=time_limit, overage_seconds=time_limit or 0.0)
        # with --rotate a bot changes seats from game to game: its output is marked by its place
        # among the -b options instead
        entries = [sandboxed(spec, found.name, limits,
                             echo=f"[bot {seat}] " if rotate else f"[seat {seat}] ")
                   if isolation.sandboxes(spec) and not is_human(spec)
                   else resolve_bot(spec, found.name) for seat, spec in enumerate(specs)]
    except (ArenaError, ValueError) as exc:
        _fail(str(exc))
    watcher = _watcher(found.name, delay) if show else None
    tally = SeriesTally([e.name for e in entries])
    total = games * (len(entries) if rotate else 1)
    tracebacks = _tracebacks_to_stderr()
    try:
        _play_and_print(chosen, entries, seed, games, rotate, watcher, tally, json_out, timings,
                        total <= PER_GAME_LINES or show)
    except KeyboardInterrupt:
        typer.echo("arena: stopped", err=True)
        raise typer.Exit(130) from None
    finally:
        logging.getLogger("arena.bots").removeHandler(tracebacks)
        for entry in entries:
            getattr(entry, "close", lambda: None)()
    if not json_out and total > 1:
        _print_summary(tally)


def _tracebacks_to_stderr() -> logging.Handler:
    """Send the tracebacks of in-process bots' exceptions to stderr (sandboxed bots' reach it as
    their output); the caller removes the handler."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("[%(message)s]"))
    logging.getLogger("arena.bots").addHandler(handler)
    return handler


def _play_and_print(chosen: Variant, entries: list[Any], seed: int, games: int, rotate: bool,
                    watcher: Any, tally: SeriesTally, json_out: bool, timings: bool,
                    lines: bool) -> None:
    from arena.session import play_series
    from arena.show import fit

    for played in play_series(chosen, entries, seed, games, rotate, watcher):
        tally.add(played)
        if json_out:
            typer.echo(played.record.to_line(timings))
        elif lines:
            for line in fit(_record_line(played.record), indent=""):
                typer.echo(line)
            for fault in played.record.faults:
                for line in fit(_fault_line(played.record, fault)):
                    typer.echo(line)


@app.command("run")
def run_command(
    config: Annotated[Path, typer.Argument(help="Tournament config (TOML).")],
    workers: Annotated[int | None, typer.Option(
        min=1, help="Worker processes (default: all cores).")] = None,
    out: Annotated[Path | None, typer.Option(
        help="Run directory (default: results/<config name>).")] = None,
    fresh: Annotated[bool, typer.Option(
        "--fresh", help="Start the run directory over instead of resuming it.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    isolation: Annotated[IsolationChoice | None, typer.Option(
        help="Override the config: auto, process (sandbox every bot) or none.")] = None,
    time_limit: Annotated[float | None, typer.Option(
        min=0.001, help="Override the config's seconds per decision.")] = None,
    backend: Annotated[BackendChoice, typer.Option(
        help="Where games are played: local processes, or Ray (pip install 'card-arena\\[ray]')."
    )] = BackendChoice.LOCAL,
    address: Annotated[str | None, typer.Option(
        help="With --backend ray: the cluster to join ('auto', 'HOST:PORT' or 'ray://HOST:PORT'); "
             "default: start a local Ray instance of --workers CPUs.")] = None,
    deals_like: Annotated[Path | None, typer.Option(
        "--deals-like", metavar="RUN",
        help="Play on the deals of an earlier run directory (its seeds and key), whatever the "
             "config's [deals] says.")] = None,
    yes: Annotated[bool, typer.Option(
        "--yes", help="Play a schedule of more than 10 million games (refused without).")
    ] = False,
) -> None:
    """Run a tournament, or resume it: finished games are kept, the rest are played."""
    import os

    from arena.tournament.config import Stop, load_config, overridden
    from arena.tournament.run import run_tournament, write_ratings
    from arena.tournament.runner import Backend
    from arena.tournament.stopping import (
        RoundState,
        StopReport,
        rounds_plan,
        run_until_confident,
        unseparated_text,
    )

    if address is not None and backend is not BackendChoice.RAY:
        _fail("--address joins a Ray cluster: use it with --backend ray")

    def show(state: RoundState) -> None:
        if not quiet:
            _note(f"round {state.round} of {state.rounds}, {state.games:,} games: "
                  f"{unseparated_text(state)}")

    target = out
    stop: StopReport | None = None
    try:
        loaded = overridden(load_config(config), isolation and isolation.value, time_limit)
        target = out or Path("results") / loaded.name
        with _progress_bar(quiet) as on_progress:
            if loaded.stopping.rule is Stop.CONFIDENT:
                _note(rounds_plan(loaded, deals_like))
                stop = run_until_confident(loaded, target, workers or os.cpu_count() or 1,
                                           fresh, on_progress, Backend(backend.value), address,
                                           deals_like, yes, show)
                report = stop.run
            else:
                report = run_tournament(loaded, target, workers or os.cpu_count() or 1, fresh,
                                        _sizing(on_progress), Backend(backend.value), address,
                                        deals_like, yes)
        text = write_ratings(target)
    except KeyboardInterrupt:
        _stopped(target)
    except ArenaError as exc:
        _fail(str(exc))
    typer.echo(text)
    if stop is not None:
        _note(stop.describe())
    typer.echo(f"{report.before + report.played} of {report.total} games in {target} "
               f"({report.played} played now)", err=True)


@app.command("duel")
def duel_command(
    a: Annotated[str, typer.Argument(metavar="A", help="The bot under test (a bot spec).")],
    b: Annotated[str, typer.Argument(metavar="B", help="The bot it plays (a bot spec).")],
    game: Annotated[str, typer.Option(help="The game.")],
    variant: Annotated[str, typer.Option(help="The variant preset.")] = "standard",
    players: Annotated[int, typer.Option(help="Seats at the table; above two, with --fill.")
                       ] = 2,
    fill: Annotated[str | None, typer.Option(
        metavar="BOT", help="The bot in every seat but A's and B's (a bot spec).")] = None,
    elo0: Annotated[float, typer.Option(help="H0: A is this many Elo above B.")] = 0.0,
    elo1: Annotated[float, typer.Option(help="H1: A is this many Elo above B.")] = 20.0,
    alpha: Annotated[float, typer.Option(help="The chance of accepting H1 when H0 holds.")
                     ] = 0.05,
    beta: Annotated[float, typer.Option(help="The chance of accepting H0 when H1 holds.")
                    ] = 0.05,
    max_games: Annotated[int, typer.Option(help="Stop here, inconclusive, if not decided.")
                         ] = 10_000,
    seed: Annotated[int, typer.Option(help="The first deal seed.")] = 1,
    out: Annotated[Path | None, typer.Option(
        help="Run directory (default: results/duel-A-vs-B).")] = None,
    workers: Annotated[int | None, typer.Option(
        min=1, help="Worker processes (default: all cores).")] = None,
    fresh: Annotated[bool, typer.Option(
        "--fresh", help="Start the run directory over instead of resuming it.")] = False,
    isolation: Annotated[IsolationChoice, typer.Option(
        help="auto (sandbox what is not bundled), process (sandbox both) or none.")
    ] = IsolationChoice.AUTO,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Play A against B on deal pairs until a sequential test (SPRT) decides which is better."""
    import json
    import math
    import os

    from arena.ratings.sprt import SprtSettings
    from arena.tournament.duel import duel_config, run_duel

    def finite(x: float) -> float | None:
        return round(x, 2) if math.isfinite(x) else None

    settings = SprtSettings(elo0, elo1, alpha, beta)
    target = out
    try:
        settings.validate()
        config = duel_config(a, b, game, variant, max_games, seed, isolation.value, players,
                             fill)
        target = out or Path("results") / config.name
        with _llr_bar(quiet, settings.bounds) as show:
            report = run_duel(config, settings, target, workers or os.cpu_count() or 1, fresh,
                              on_test=show)
    except KeyboardInterrupt:
        _stopped(target)
    except ArenaError as exc:
        _fail(str(exc))
    state = report.state
    if as_json:
        typer.echo(json.dumps({
            "verdict": state.verdict.value, "games": state.games, "llr": round(state.llr, 4),
            "bounds": [round(x, 4) for x in state.bounds], "elo": finite(state.elo.elo),
            "elo_ci95": [finite(state.elo.low), finite(state.elo.high)]}))
        return
    typer.echo(f"{state.verdict.value} after {state.games:,} games: {a} - {b} "
               f"{state.elo.elo:+.1f} Elo, 95% interval [{state.elo.low:+.1f}, "
               f"{state.elo.high:+.1f}] (LLR {state.llr:+.2f}, bounds {state.bounds[0]:.2f}, "
               f"{state.bounds[1]:.2f})")


@app.command("validate")
def validate_command(
    spec: Annotated[str, typer.Argument(help="The bot spec to check.")],
    game: Annotated[str, typer.Option("--game", "-g", help="The game it plays.")],
    games: Annotated[int, typer.Option(
        min=1, help="Deals per opponent and variant (each in every seating).")] = 2,
    variant: Annotated[list[str] | None, typer.Option(
        "--variant", "-v", help="Only this preset (repeatable); default: every preset.")] = None,
    quick: Annotated[bool, typer.Option(
        "--quick", help="A quick check: the default preset, one deal, two opponents.")] = False,
    time_limit: Annotated[float, typer.Option(min=0.001, help="Seconds per decision.")] = 1.0,
    memory_mb: Annotated[int, typer.Option(min=16, help="Memory for the bot, in MB.")] = 512,
) -> None:
    """Check a submitted bot: sandboxed games against every bundled bot of its game, all presets.

    It passes when it loads and plays under limits without a fault. Exit code 0 when it passes,
    1 when it does not."""
    from arena.sandbox import Limits, validate_bot

    limits = Limits(move_seconds=time_limit, game_seconds=time_limit * 200,
                    overage_seconds=time_limit * 2, memory_mb=memory_mb)
    try:
        verdict = validate_bot(spec, game, games, limits, variant or (), quick)
    except ArenaError as exc:
        _fail(str(exc))
    for line in verdict.lines:
        typer.echo(line)
    raise typer.Exit(0 if verdict.passed else 1)


@app.command("doctor")
def doctor_command(
    game: Annotated[str, typer.Option("--game", "-g", help="The game to try.")] = "concentration",
    strict: Annotated[bool, typer.Option(
        "--strict", help="Exit with 1 unless the kernel keeps every promise.")] = False,
) -> None:
    """Say which of the sandbox's promises hold on this machine, and what keeps each.

    A sandboxed game process is started and reports how it is confined: the kernel (namespaces,
    control groups, Landlock) or, where the kernel lacks a feature, the audit hook only."""
    from arena.engine import find_game
    from arena.record import BotFault
    from arena.sandbox import Holder, assess_promises, confinement_facts, promises_report

    try:
        facts = confinement_facts(find_game(game).name)
    except ArenaError as exc:
        _fail(str(exc))
    except BotFault as fault:
        _say_error(f"no sandboxed game process could be started: {fault.detail}")
        raise typer.Exit(1) from None
    for line in promises_report(facts):
        typer.echo(line)
    weaker = [p for p in assess_promises(facts) if p.holder is not Holder.KERNEL]
    raise typer.Exit(1 if strict and weaker else 0)


@app.command("replay")
def replay_command(
    target: Annotated[Path, typer.Argument(
        help="A run directory, or a file of game records (one JSON record a line).")],
    task: Annotated[int | None, typer.Argument(
        help="The game's task id ('task' in games.jsonl).")] = None,
    show: Annotated[bool, typer.Option("--show", help="Narrate the game as it replays.")] = False,
    delay: Annotated[float, typer.Option(
        min=0.0, help="With --show: seconds to pause after each step.")] = 0.0,
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", "-b", help="Record files: a bot spec per seat, in seat order.")] = None,
    config: Annotated[Path | None, typer.Option(
        help="Record files: the config naming the record's bots and variants.")] = None,
    every: Annotated[bool, typer.Option(
        "--all", help="Replay every game of a run directory and list those that differ.")] = False,
) -> None:
    """Replay a recorded game from its seed and seating and check it gives the recorded result.

    Exit code 0 when it does, 1 when it does not."""
    from arena.show import ShowPrinter
    from arena.tournament.identity import changed_code
    from arena.tournament.replay import replay_all, replay_path, replayed_run
    from arena.tournament.results import RunDirectory

    try:
        played_on = replayed_run(target, bot or (), config)
        change = changed_code(played_on) if played_on is not None else None
        if change is not None:
            _warn(f"{change}; a replay may differ from the record")
        if every:
            mismatches = replay_all(target)
            total = len(RunDirectory(target).finished())
            for result in mismatches:
                for line in result.lines():
                    typer.echo(line)
            typer.echo(f"{total - len(mismatches)} of {total} games reproduce")
            raise typer.Exit(1 if mismatches else 0)
        watcher = ShowPrinter(typer.echo, delay) if show else None
        result = replay_path(target, task, bot or (), config, watcher)
    except ArenaError as exc:
        _fail(str(exc))
    for line in result.lines():
        typer.echo(line)
    raise typer.Exit(0 if result.reproduced else 1)


@app.command("report")
def report_command(run: Annotated[Path, typer.Argument(help="A run directory.")]) -> None:
    """Draw a run's ratings as PNG plots, with report.md (pip install 'card-arena\\[plots]')."""
    from arena.tournament.identity import changed_code
    from arena.tournament.run import write_report

    try:
        change = changed_code(run) if run.is_dir() else None
        if change is not None:
            _warn(f"{change}; the report shows the games it played before")
        written = write_report(run)
    except ArenaError as exc:
        _fail(str(exc))
    for path in written:
        typer.echo(str(path))


@app.command("new-bot")
def new_bot_command(
    name: Annotated[str, typer.Argument(
        help="The bot's name: my_bot writes my_bot.py (class MyBot) and my_bot.toml.")],
    game: Annotated[str, typer.Option("--game", "-g", help="The game it plays.")],
    folder: Annotated[Path, typer.Option("--dir", help="The folder to write into.")] = Path("."),
) -> None:
    """Write a commented, working bot to start from, and a small tournament for it."""
    from arena.newbot import config_path, next_steps, write_bot

    try:
        path = write_bot(name, game, folder)
        steps = next_steps(path, game)
    except ArenaError as exc:
        _fail(str(exc))
    typer.echo(f"wrote {path} (the bot) and {config_path(path)} (a tournament for it)")
    typer.echo("try it:")
    for step in steps:
        typer.echo(f"  {step}")


@app.command("ratings")
def ratings_command(
    run: Annotated[Path, typer.Argument(help="A run directory.")],
    variant: Annotated[str | None, typer.Option(help="Only this variant.")] = None,
    fmt: Annotated[ReportFormat, typer.Option(
        "--format", help="Output format.")] = ReportFormat.TABLE,
    crosstable: Annotated[bool, typer.Option(
        "--crosstable", help="Only the crosstables (head to head on shared deals).")] = False,
) -> None:
    """Ratings tables (one per variant) and crosstables of a run, from its records."""
    from arena.tournament.run import run_report

    try:
        typer.echo(run_report(run, fmt.value, variant, crosstable))
    except ArenaError as exc:
        _fail(str(exc))


@app.command("compare")
def compare_command(
    before: Annotated[Path, typer.Argument(help="The earlier run directory.")],
    after: Annotated[Path, typer.Argument(help="The later run directory.")],
    variant: Annotated[str | None, typer.Option(help="Only this variant.")] = None,
    fmt: Annotated[ReportFormat, typer.Option(
        "--format", help="Output format.")] = ReportFormat.TABLE,
) -> None:
    """Who moved between two runs, by how much (95%), and whether it is significant.

    Rank changes, head-to-head edges that changed, new and gone bots; a note first when the
    runs were not played on the same deals."""
    from arena.ratings.comparison import compare, format_comparison
    from arena.tournament.identity import deals_differ
    from arena.tournament.run import run_ratings

    try:
        comparison = compare(run_ratings(before), run_ratings(after), deals_differ(before, after))
        typer.echo(format_comparison(comparison, fmt, variant))
    except ArenaError as exc:
        _fail(str(exc))


@contextmanager
def _progress_bar(quiet: bool) -> Iterator[ProgressHook | None]:
    """A rich progress bar on stderr (games, rate, ETA, faults), or nothing when quiet."""
    if quiet:
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    columns = (TextColumn("games"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]:>7.0f}/s"), TimeRemainingColumn(),
               TextColumn("faults {task.fields[faults]}"))
    with Progress(*columns, console=Console(stderr=True), transient=False) as bar:
        task = bar.add_task("games", total=None, rate=0.0, faults=0)

        def update(progress: RunProgress) -> None:
            bar.update(task, completed=progress.done, total=progress.total,
                       rate=progress.rate, faults=progress.faults)

        yield update


def _stopped(target: Path) -> NoReturn:
    """After Ctrl-C: say where the games played so far are, and exit 130."""
    typer.echo(f"arena: stopped; the games played so far are saved in {target}; "
               f"run the same command to resume", err=True)
    raise typer.Exit(130) from None


@contextmanager
def _llr_bar(quiet: bool,
             bounds: tuple[float, float]) -> Iterator[Callable[[SprtState], None] | None]:
    """How a duel shows its test as it goes, on stderr: a bar of the LLR between its bounds on a
    terminal, a line per test otherwise, nothing when quiet."""
    if quiet:
        yield None
        return
    from rich.console import Console

    console = Console(stderr=True)
    if not console.is_terminal:
        def line(state: SprtState) -> None:
            low, high = state.bounds
            _note(f"{state.games:,} games: LLR {state.llr:+.3f} in [{low:.3f}, {high:.3f}]")

        yield line
        return
    from rich.progress import BarColumn, Progress, TextColumn

    columns = (TextColumn("{task.fields[low]:+.2f}"), BarColumn(),
               TextColumn("{task.fields[high]:+.2f}  LLR {task.fields[llr]:+.3f} after "
                          "{task.fields[games]:,} games"))
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task("LLR", total=1.0, completed=0.5, low=bounds[0], high=bounds[1],
                            llr=0.0, games=0)

        def update(state: SprtState) -> None:
            low, high = state.bounds
            where = min(max((state.llr - low) / (high - low), 0.0), 1.0)
            bar.update(task, completed=where, low=low, high=high, llr=state.llr,
                       games=state.games)

        yield update


ESTIMATE_AFTER = 1.0
"""Seconds of play after which a run's time is estimated (on stderr)."""


def _sizing(bar: ProgressHook | None) -> ProgressHook:
    """A progress hook that says on stderr, as plain lines (terminal or not), how many games the
    schedule has, and once the first games are timed how long the rest should take; then
    passes each report on to the progress bar, if any."""
    said = {"size": False, "time": False}

    def update(progress: RunProgress) -> None:
        if not said["size"]:
            said["size"] = True
            left = progress.total - progress.done
            _note(f"schedule: {progress.total:,} games"
                  + (f", {left:,} left to play" if progress.done else ""))
        elif (not said["time"] and progress.seconds >= ESTIMATE_AFTER and progress.played
              and progress.done < progress.total):
            said["time"] = True
            left = (progress.total - progress.done) / progress.rate
            _note(f"about {_duration(left)} to go at {progress.rate:,.0f} games/s "
                  f"(timed on {progress.played:,} games)")
        if bar is not None:
            bar(progress)

    return update


def _note(message: str) -> None:
    """One line on stderr, above a progress bar if one is showing."""
    typer.echo(f"arena: {message}", err=True)


def _duration(seconds: float) -> str:
    """A duration in the largest units that keep it readable: 40 s, 12 min, 3.5 h, 4.2 days."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def _watcher(game: str, delay: float) -> Any:
    """The spectator for --show: the human seat's drawing where views are public, else the
    game's own narration (which keeps hands hidden)."""
    from arena.show import ShowPrinter
    from arena.tty.registry import interface_for
    from arena.tty.style import Style
    from arena.tty.watch import TableWatcher

    if interface_for(game).spectator_safe:
        return TableWatcher(game, typer.echo, Style.for_stream(sys.stdout), delay)
    return ShowPrinter(typer.echo, delay)


def _record_line(record: GameRecord) -> str:
    seats = ", ".join(f"{n} {s:g}" for n, s in zip(record.seats, record.scores, strict=True))
    winners = [n for n, r in zip(record.seats, record.ranks, strict=True) if r == 1]
    if len(record.seats) == 1:  # the score is the turns when fewer win (Concentration)
        verdict = f"{record.turns} turns" if record.order.value == "lower" else "solitaire"
    elif len(winners) > 1:
        verdict = "tie: " + ", ".join(winners)
    else:
        verdict = f"winner: {winners[0]}"
    faults = f" [faults: {len(record.faults)}]" if record.faults else ""
    return f"seed {record.seed}: {seats} ({verdict}){faults}"


def _fault_line(record: GameRecord, fault: Fault) -> str:
    return (f"fault: seat {fault.seat} ({record.seats[fault.seat]}), {fault.kind.value} at "
            f"decision {fault.decision}: {fault.detail}")


def _print_summary(tally: SeriesTally) -> None:
    from tabulate import tabulate

    rows = [[s.entry, s.bot, s.games, s.wins, f"{s.mean_rank:.2f}",
             f"{s.mean_score:.2f} ± {s.score_ci95:.2f}", s.faults] for s in tally.summary()]
    typer.echo(tabulate(rows, headers=["#", "bot", "games", "wins", "mean rank",
                                       "mean score (95%)", "faults"]))


@app.command("score")
def score_command(
    game: Annotated[str, typer.Argument(help="The game: cribbage-square.")],
    layout: Annotated[str, typer.Argument(
        help="Four rows of four cards, rows separated by '/': "
             "'QH QD QS QC / 5H 5D JS 5C / 6H 4D 6S 4C / 4H 6D 4S 6C'.")],
    starter: Annotated[str, typer.Option("--starter", "-s", help="The starter card, e.g. 5S.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """Score a finished layout: each row and column with what it scored, and the total."""
    import json

    from arena.games.cribbage_square.layout_text import (
        check_game,
        format_score,
        score_json,
        score_text,
    )

    try:
        check_game(game)
        scored = score_text(layout, starter)
    except ArenaError as exc:
        _fail(str(exc))
    typer.echo(json.dumps(score_json(scored)) if as_json else format_score(scored))


@app.command("solve")
def solve_command(
    game: Annotated[str, typer.Argument(help="The game: cribbage-square.")],
    starter: Annotated[str | None, typer.Option(
        "--starter", "-s", help="Search only layouts with this starter.")] = None,
    seconds: Annotated[float, typer.Option(help="How long to search.")] = 5.0,
    seed: Annotated[int, typer.Option(help="The search's own seed.")] = 0,
) -> None:
    """Search for a high-scoring layout (a heuristic search: the best known is 172)."""
    from arena.games.cribbage_square.layout_text import check_game, format_score, read_card
    from arena.games.cribbage_square.scoring import score_layout
    from arena.games.cribbage_square.solve import solve

    try:
        check_game(game)
        fixed = read_card(starter, "the starter") if starter is not None else None
        if seconds <= 0:
            raise ArenaError(f"--seconds must be more than 0, not {seconds:g}")
    except ArenaError as exc:
        _fail(str(exc))
    found = solve(seconds, seed, fixed)
    typer.echo(" / ".join(" ".join(map(str, row)) for row in found.rows)
               + f" --starter {found.starter}")
    typer.echo(format_score(score_layout(found.rows, found.starter)))


def main() -> None:
    """Entry point of the console script."""
    app()


if __name__ == "__main__":
    main()
