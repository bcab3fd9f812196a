"""Commands for tournaments: run, duel, replay, games-of, report, and how they show progress."""

import math
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from arena.cli.app import (
    LUCK_HELP,
    BackendChoice,
    IsolationChoice,
    LuckChoice,
    app,
    duration,
    fail,
    note,
    stopped,
    warn,
)
from arena.errors import ArenaError

if TYPE_CHECKING:
    from arena.ratings.sprt import SprtState
    from arena.tournament.playing.runner import Progress as RunProgress
    from arena.tournament.playing.runner import ProgressHook
    from arena.tournament.records.replay import ReplayResult


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

    from arena.cli.progress import progress_view
    from arena.tournament.planning.config import Stop, load_config, overridden
    from arena.tournament.playing.runner import Backend
    from arena.tournament.rating import write_ratings
    from arena.tournament.run import run_tournament
    from arena.tournament.stopping import (
        RoundState,
        StopReport,
        rounds_plan,
        run_until_confident,
        unseparated_text,
    )
    from arena.tournament.update.reconcile import RunPlan

    if address is not None and backend is not BackendChoice.RAY:
        fail("--address joins a Ray cluster: use it with --backend ray")

    def show(state: RoundState) -> None:
        if not quiet:
            note(f"round {state.round} of {state.rounds}, {state.games:,} games: "
                  f"{unseparated_text(state)}")

    def told(plan: RunPlan) -> None:
        if plan.kept or plan.retired:  # a run brought up to date: what it keeps and plays
            note(plan.describe())

    target = out
    stop: StopReport | None = None
    try:
        # its bots are checked in sandboxes that keep every run directory out of their view
        kept = (Path("results"), *((out,) if out else ()))
        loaded = overridden(load_config(config, kept=kept), isolation and isolation.value,
                            time_limit)
        target = out or Path("results") / loaded.name
        with progress_view(quiet) as on_progress:
            if loaded.stopping.rule is Stop.CONFIDENT:
                note(rounds_plan(loaded, deals_like))
                stop = run_until_confident(loaded, target, workers or os.cpu_count() or 1,
                                           fresh, on_progress, Backend(backend.value), address,
                                           deals_like, yes, show,
                                           on_plan=None if quiet else told)
                report = stop.run
            else:
                report = run_tournament(loaded, target, workers or os.cpu_count() or 1, fresh,
                                        _sizing(on_progress), Backend(backend.value), address,
                                        deals_like, yes, on_plan=None if quiet else told)
        text = write_ratings(target)
    except KeyboardInterrupt:
        stopped(target)
    except ArenaError as exc:
        fail(str(exc))
    typer.echo(text)
    if stop is not None:
        note(stop.describe())
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
        help="Run directory (default: results/duel-A-vs-B, from the bots' short names).")
    ] = None,
    workers: Annotated[int | None, typer.Option(
        min=1, help="Worker processes (default: all cores).")] = None,
    fresh: Annotated[bool, typer.Option(
        "--fresh", help="Start the run directory over instead of resuming it.")] = False,
    isolation: Annotated[IsolationChoice, typer.Option(
        help="auto (sandbox what is not bundled), process (sandbox both) or none.")
    ] = IsolationChoice.AUTO,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    luck: Annotated[LuckChoice, typer.Option(help=LUCK_HELP)] = LuckChoice.ON,
) -> None:
    """Play A against B on deal pairs until a sequential test (SPRT) decides which is better.

    Prints the verdict, the Elo difference and the margin per deal pair in the game's units,
    each with its 95% interval, then the outcome in a sentence."""
    import json
    import os

    from arena.ratings.sprt import SprtSettings, margin_text
    from arena.tournament.duel import duel_config, run_duel

    def finite(x: float) -> float | None:
        return round(x, 2) if math.isfinite(x) else None

    settings = SprtSettings(elo0, elo1, alpha, beta)
    target = out
    try:
        settings.validate()
        config = duel_config(a, b, game, variant, max_games, seed, isolation.value, players,
                             fill, kept=(Path("results"), *((out,) if out else ())))
        target = out or _duel_folder(Path("results"), a, b, config.name)
        with _llr_bar(quiet, settings.bounds) as show:
            report = run_duel(config, settings, target, workers or os.cpu_count() or 1, fresh,
                              on_test=show, luck=luck is LuckChoice.ON)
    except KeyboardInterrupt:
        stopped(target)
    except ArenaError as exc:
        fail(str(exc))
    state, margin = report.state, report.margin
    if as_json:
        typer.echo(json.dumps({
            "verdict": state.verdict.value, "games": state.games, "llr": round(state.llr, 4),
            "bounds": [round(x, 4) for x in state.bounds], "elo": finite(state.elo.elo),
            "elo_ci95": [finite(state.elo.low), finite(state.elo.high)],
            "margin": finite(margin.mean), "margin_ci95": [finite(margin.low),
                                                           finite(margin.high)],
            "unit": report.unit, "mirror": report.mirrored,
            "luck_model": report.luck_model, "luck_note": report.luck_note,
            "summary": report.summary(settings)}))
        return
    test = f"(LLR {state.llr:+.2f}, bounds {state.bounds[0]:.2f}, {state.bounds[1]:.2f})"
    if report.mirrored:
        typer.echo(f"mirror images after {state.games:,} games: {a} - {b}, every deal's two "
                   f"games alike seat for seat {test}")
    else:
        typer.echo(f"{state.verdict.value} after {state.games:,} games: {a} - {b} "
                   f"{_elo(state.elo.elo)} Elo, 95% interval [{_elo(state.elo.low)}, "
                   f"{_elo(state.elo.high)}]; {margin_text(margin, report.unit)} {test}")
    adjusted = report.luck_text()
    if adjusted is not None:
        typer.echo(adjusted)
    typer.echo(report.summary(settings))


def _duel_folder(results: Path, a: str, b: str, name: str) -> Path:
    """A duel's run directory: `duel-<a>-vs-<b>` from the bots' short names (a file bot's class,
    a bundled bot's name, and their parameters), with -2, -3, ... after it if that folder holds
    another duel (its config's name, made from the whole specs, is not this one's)."""
    from arena.safe_files import parse_toml, read_text
    from arena.tournament.records.results import CONFIG

    first, second = _short_name(a), _short_name(b)
    if first == second:
        second += "-2"
    stem = f"duel-{first}-vs-{second}"
    for number in range(1, 1000):
        folder = results / (stem if number == 1 else f"{stem}-{number}")
        if not folder.exists():
            return folder
        try:
            held = parse_toml(read_text(folder / CONFIG), str(folder / CONFIG)).get("name")
        except (ArenaError, OSError):
            continue
        if held == name:
            return folder
    return results / name


def _short_name(spec: str) -> str:
    """A bot's name in a folder name: a file or module bot's class (`conc/my_bot.py:MyBot` ->
    `MyBot`), a registered bot's name, then its parameters (`forgetful-recall=0.6`)."""
    from arena.loader import display_name

    parts = display_name(spec).split(":")
    params = [part for part in parts if "=" in part]
    named = [part for part in parts if "=" not in part]
    short = "-".join([named[-1] if named else "bot", *params])
    return re.sub(r"[^\w.=,-]", "_", short)[:60]


def _elo(x: float) -> str:
    return f"{x:+.1f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


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
    seat: Annotated[str | None, typer.Option(
        "--seat", "-s", metavar="N|NAME",
        help="Step through the game as this seat saw it (a seat number, or the name of the bot "
             "in it): at each of its decisions what it was told and saw, its legal actions, its "
             "answer and the time it took.")] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="With --seat: the seat's-eye replay as JSON data.")] = False,
    html: Annotated[Path | None, typer.Option(
        "--html", metavar="FILE",
        help="Also write the game as a self-contained HTML page to watch in a browser "
             "(every seat's view and the table's, step by step).")] = None,
) -> None:
    """Replay a recorded game from its seed and seating and check it gives the recorded result.

    With --seat N (or NAME), step through the game as that seat saw it. With --html FILE,
    write the replay as a page to open in a browser.

    Exit code 0 when the replay gives the recorded result, 1 when it does not."""
    from arena.show import ShowPrinter
    from arena.tournament.records.replay import replay_all, replay_path, replayed_run
    from arena.tournament.records.results import RunDirectory
    from arena.tournament.update.identity import changed_code

    if seat is not None and (show or every):
        fail("--seat shows one seat's view of one game: not with --show or --all")
    if as_json and seat is None:
        fail("--json gives the seat's-eye replay: use it with --seat N or --seat NAME")
    if html is not None and (show or every or seat is not None):
        fail("--html writes one game's page: not with --show, --all or --seat (the page has "
             "every seat's view)")
    try:
        played_on = replayed_run(target, bot or (), config)
        change = changed_code(played_on) if played_on is not None else None
        if change is not None:
            warn(f"{change}; a replay may differ from the record")
        if seat is not None:
            _seat_view(target, task, seat, bot or (), config, as_json, delay)
        if every:
            mismatches = replay_all(target)
            total = sum(1 for _ in RunDirectory(target).records())
            for result in mismatches:
                for line in result.lines():
                    typer.echo(line)
            typer.echo(f"{total - len(mismatches)} of {total} games reproduce")
            raise typer.Exit(1 if mismatches else 0)
        if html is not None:
            result = _replay_html(target, task, bot or (), config, html)
        else:
            watcher = ShowPrinter(typer.echo, delay) if show else None
            result = replay_path(target, task, bot or (), config, watcher)
    except ArenaError as exc:
        fail(str(exc))
    for line in result.lines():
        typer.echo(line)
    raise typer.Exit(0 if result.reproduced else 1)


def _replay_html(target: Path, task: int | None, bots: list[str] | tuple[()],
                 config: Path | None, out: Path) -> "ReplayResult":
    """Replay a game into a page written to `out`; say where it went."""
    from arena.viewer.replay_page import replay_html, write_page

    page, result = replay_html(target, task, bots, config)
    write_page(out, page)
    note(f"wrote {out} ({page.steps} steps, {len(page.html.encode()) // 1024} KB)")
    return result


def _seat_view(target: Path, task: int | None, seat: str, bots: list[str] | tuple[()],
               config: Path | None, as_json: bool, delay: float) -> None:
    """Print a seat's-eye replay, as text (pausing `delay` seconds after each of the seat's
    decisions) or JSON; exit 0 if the replay reproduced the record, else 1."""
    import json
    import time

    from arena.tournament.records.seat_view import (
        Decision,
        ending_lines,
        opening_lines,
        seat_view,
        step_lines,
    )

    view = seat_view(target, task, seat, bots, config)
    if as_json:
        typer.echo(json.dumps(view.to_json(), ensure_ascii=False))
    else:
        for line in opening_lines(view):
            typer.echo(line)
        for step in view.steps:
            for line in step_lines(step, view):
                typer.echo(line)
            if delay > 0 and isinstance(step, Decision):
                time.sleep(delay)
        for line in ending_lines(view):
            typer.echo(line)
    raise typer.Exit(0 if view.reproduced else 1)


@app.command("games-of")
def games_of_command(
    run: Annotated[Path, typer.Argument(help="A run directory.")],
    bot: Annotated[str | None, typer.Option(
        "--bot", "-b", help="The bot whose games to list, each seen from its seat.")] = None,
    opponent: Annotated[str | None, typer.Option(
        help="Only games where this bot sits in another seat (needs --bot).")] = None,
    won: Annotated[bool, typer.Option("--won", help="Games the bot won.")] = False,
    lost: Annotated[bool, typer.Option("--lost", help="Games the bot lost.")] = False,
    drawn: Annotated[bool, typer.Option("--drawn", help="Games the bot drew.")] = False,
    min_margin: Annotated[float | None, typer.Option(
        help="The bot's margin (its score less the best opposing one, in the game's units; "
             "negative for a loss) at least this.")] = None,
    max_margin: Annotated[float | None, typer.Option(
        help="The bot's margin at most this (--max-margin -5: lost by 5 or more).")] = None,
    fault: Annotated[str | None, typer.Option(
        metavar="KIND", help="Games with a fault of this kind (the bot's, with --bot): "
                             "exception, illegal, malformed, timeout, crash, memory, or any.")
    ] = None,
    game: Annotated[str | None, typer.Option(help="Only this game.")] = None,
    variant: Annotated[str | None, typer.Option(help="Only this variant (its label).")] = None,
    deal: Annotated[int | None, typer.Option(help="Only this deal (its seed).")] = None,
    worst: Annotated[int | None, typer.Option(
        min=1, metavar="N", help="The N games of lowest margin for the bot, worst first.")
    ] = None,
    best: Annotated[int | None, typer.Option(
        min=1, metavar="N", help="The N games of highest margin for the bot, best first.")
    ] = None,
    limit: Annotated[int | None, typer.Option(
        min=1, metavar="N", help="At most N games, in task order.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="The games as JSON, one a line.")
                       ] = False,
) -> None:
    """List a run's games by bot, result, margin or fault, with task ids for replay.

    Filters also by opponent, game, variant and deal; each game comes with the task id and seat
    that 'arena replay RUN TASK --seat N' takes."""
    import json

    from arena.text import escape
    from arena.tournament.records.finder import GameQuery, Order, Outcome, find_games, found_lines

    if sum(x is not None for x in (worst, best, limit)) > 1:
        fail("give one of --worst, --best and --limit")
    order = Order.WORST if worst else Order.BEST if best else Order.TASK
    outcomes = frozenset(o for o, given in ((Outcome.WON, won), (Outcome.LOST, lost),
                                            (Outcome.DRAWN, drawn)) if given)
    query = GameQuery(bot, opponent, outcomes, min_margin, max_margin, fault, game, variant,
                      deal, order, worst or best or limit)
    try:
        found = find_games(run, query)
    except ArenaError as exc:
        fail(str(exc))
    if as_json:
        for g in found.games:  # ASCII: a crafted record's fault detail stays escaped
            typer.echo(json.dumps(g.to_json(run)))
        return
    for line in found_lines(found, run):
        typer.echo(escape(line))


@app.command("report")
def report_command(
    run: Annotated[Path, typer.Argument(help="A run directory.")],
    html: Annotated[bool, typer.Option(
        "--html", help="Write the report as one self-contained page, RUN/report.html (no "
                       "matplotlib needed), instead of the PNG plots and report.md.")] = False,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="With --html: where to write the page (default RUN/report.html).")
    ] = None,
    replays: Annotated[bool, typer.Option(
        "--replays", help="With --html: also write the replay page of every game the report "
                          "links to (RUN/replays/<task>.html).")] = False,
    luck: Annotated[LuckChoice, typer.Option(help=LUCK_HELP)] = LuckChoice.ON,
) -> None:
    """Draw a run's ratings as PNG plots, with report.md (pip install 'card-arena\\[plots]'),
    or with --html as one page."""
    from arena.tournament.rating import write_report
    from arena.tournament.update.identity import changed_code

    if (out is not None or replays) and not html:
        fail("--out and --replays go with --html")
    try:
        change = changed_code(run) if run.is_dir() else None
        if change is not None:
            warn(f"{change}; the report shows the games it played before")
        if html:
            from arena.viewer.report_run import write_run_page

            page = write_run_page(run, out, replays, luck is LuckChoice.ON)
            written = [*page.replays, page.page]
        else:
            written = write_report(run, luck is LuckChoice.ON)
    except ArenaError as exc:
        fail(str(exc))
    for path in written:
        typer.echo(str(path))


@contextmanager
def _llr_bar(quiet: bool,
             bounds: tuple[float, float]) -> Iterator[Callable[["SprtState"], None] | None]:
    """How a duel shows its test as it goes, on stderr: a bar of the LLR between its bounds on a
    terminal, a line per test otherwise, nothing when quiet."""
    if quiet:
        yield None
        return
    from rich.console import Console

    console = Console(stderr=True)
    if not console.is_terminal:
        def line(state: "SprtState") -> None:
            low, high = state.bounds
            note(f"{state.games:,} games: LLR {state.llr:+.3f} in [{low:.3f}, {high:.3f}]")

        yield line
        return
    from rich.progress import BarColumn, Progress, TextColumn

    columns = (TextColumn("{task.fields[low]:+.2f}"), BarColumn(),
               TextColumn("{task.fields[high]:+.2f}  LLR {task.fields[llr]:+.3f} after "
                          "{task.fields[games]:,} games"))
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task("LLR", total=1.0, completed=0.5, low=bounds[0], high=bounds[1],
                            llr=0.0, games=0)

        def update(state: "SprtState") -> None:
            low, high = state.bounds
            where = min(max((state.llr - low) / (high - low), 0.0), 1.0)
            bar.update(task, completed=where, low=low, high=high, llr=state.llr,
                       games=state.games)

        yield update


ESTIMATE_AFTER = 1.0
"""Seconds of play after which a run's time is estimated (on stderr)."""


def _sizing(bar: "ProgressHook | None") -> "ProgressHook":
    """A progress hook that says on stderr, as plain lines (terminal or not), how many games the
    schedule has, and once the first games are timed how long the rest should take; then
    passes each report on to the progress bar, if any."""
    said = {"size": False, "time": False}

    def update(progress: "RunProgress") -> None:
        if not said["size"]:
            said["size"] = True
            left = progress.total - progress.done
            note(f"schedule: {progress.total:,} games"
                  + (f", {left:,} left to play" if progress.done else ""))
        elif (not said["time"] and progress.seconds >= ESTIMATE_AFTER and progress.played
              and progress.done < progress.total):
            said["time"] = True
            left = (progress.total - progress.done) / progress.rate
            note(f"about {duration(left)} to go at {progress.rate:,.0f} games/s "
                  f"(timed on {progress.played:,} games)")
        if bar is not None:
            bar(progress)

    return update
