"""Commands for playing and looking: games, bots, play, new-bot, score, solve."""

import contextlib
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from arena.cli.app import IsolationChoice, app, fail
from arena.errors import ArenaError

if TYPE_CHECKING:
    from arena.engine import Variant
    from arena.record import Fault, GameRecord
    from arena.session import SeriesTally

PER_GAME_LINES = 20
"""Without --json, a line per game is printed for series of at most this many games."""


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
        fail(str(exc))


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
        min=0.001, help="Seconds per decision for sandboxed bots (default 1, with a bank of "
        "twice that).")] = None,
    no_limits: Annotated[bool, typer.Option(
        "--no-limits", help="Sandboxed bots get no time or memory limits of their own (only the "
        "sandbox's backstops).")] = False,
    output_kb: Annotated[int, typer.Option(
        min=1, help="What a sandboxed bot may print per game, in KB (then it is cut).")] = 64,
    level: Annotated[str | None, typer.Option(
        help="Fill the seats not given with -b with bundled bots of this level: easy, medium, "
        "hard, expert.")] = None,
    seats: Annotated[int | None, typer.Option(
        min=1, help="With --level: how many seats (default: the game's fewest, at least 2).")
    ] = None,
    html: Annotated[Path | None, typer.Option(
        "--html", metavar="FILE", help="Write each game as a self-contained HTML page to watch in "
        "a browser (several games: FILE numbered, game-1.html, game-2.html, ...).")] = None,
    web: Annotated[bool, typer.Option(
        "--web", help="Seat the people (-b human) at a table in the browser, served on this "
        "machine (needs the 'web' extra: pip install 'card-arena[web]').")] = False,
    no_open: Annotated[bool, typer.Option(
        "--no-open", help="With --web: print the table's addresses, open no browser.")] = False,
) -> None:
    """Play games between bots (or against them: -b human) and print the results."""
    from arena.engine import find_game
    from arena.levels import seat_bots
    from arena.loader import resolve_bot
    from arena.sandbox import DEFAULT_LIMITS, sandboxed, unseen_by
    from arena.session import SeriesTally
    from arena.tty.human import is_human
    from arena.values import parse_assignments

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
        if web and not person:
            raise ArenaError("--web seats people: give at least one -b human")
        if web and (show or rotate or html is not None):
            raise ArenaError("--web cannot be used with --show, --rotate or --html (each "
                             "game's replay page is one click away in the browser)")
        if person and not web and (show or json_out):
            raise ArenaError("--show and --json cannot be used with a human seat")
        if no_limits and time_limit is not None:
            raise ArenaError("--no-limits and --time-limit cannot be used together")
        limits = _play_limits(DEFAULT_LIMITS, time_limit, no_limits, output_kb)
        # with --rotate a bot changes seats from game to game: its output is marked by its place
        # among the -b options instead
        # what a game may not see is decided as for a tournament: here, the other seats' code
        entries = [sandboxed(spec, found.name, limits,
                             echo=f"[bot {seat}] " if rotate else f"[seat {seat}] ",
                             private=unseen_by(spec, specs))
                   if isolation.sandboxes(spec) and not is_human(spec)
                   else resolve_bot(spec, found.name) for seat, spec in enumerate(specs)]
    except (ArenaError, ValueError) as exc:
        fail(str(exc))
    out = sys.stdout  # results go here; what in-process bots print goes to stderr
    watcher = _watcher(found.name, delay, out) if show else None
    tally = SeriesTally([e.name for e in entries])
    total = games * (len(entries) if rotate else 1)
    if html is not None:
        from arena.viewer.replay_page import SeriesPages

        try:
            watcher = SeriesPages(html, total, watcher)
        except ArenaError as exc:
            fail(str(exc))
    tracebacks = _tracebacks_to_stderr()
    watched = [entry if is_human(spec) else _Watched(entry, spec, seat, rotate)
               for seat, (spec, entry) in enumerate(zip(specs, entries, strict=True))]
    if web:
        _play_on_the_web(chosen, specs, watched, seed, games, tally, json_out, timings, out,
                         no_open, tracebacks)
        return
    slow = limits.move_seconds or DEFAULT_LIMITS.move_seconds or 1.0
    # a person's seat draws on stdout; bots' prints must not reach it (nor --json's records)
    quiet = contextlib.nullcontext() if person else contextlib.redirect_stdout(sys.stderr)
    try:
        with quiet:
            _play_and_print(chosen, watched, seed, games, rotate, watcher, tally, json_out,
                            timings, total <= PER_GAME_LINES or show, out, slow)
    except KeyboardInterrupt:
        typer.echo("arena: stopped", err=True)
        raise typer.Exit(130) from None
    finally:
        logging.getLogger("arena.bots").removeHandler(tracebacks)
        for entry in entries:
            getattr(entry, "close", lambda: None)()
    if not json_out and total > 1:
        _print_summary(tally)


def _play_on_the_web(chosen: "Variant", specs: list[str], entries: list[Any], seed: int,
                     games: int, tally: "SeriesTally", json_out: bool, timings: bool, out: Any,
                     no_open: bool, tracebacks: logging.Handler) -> None:
    """`arena play --web`: the people's seats served in the browser, the games played and
    printed as `arena play` prints them; Ctrl-C or a closed page ends the game as a quit."""
    import signal
    import time
    import webbrowser

    from arena.table.seat import PersonSeat, Table
    from arena.table.series import TableSeries
    from arena.tty.human import is_human

    try:
        from arena.table.server import TableServer
    except ImportError:
        fail("--web needs the 'web' extra: pip install 'card-arena[web]' (aiohttp)")
    people = [seat for seat, spec in enumerate(specs) if is_human(spec)]
    table = Table(chosen.game.name, chosen.game.title, chosen.label, people)
    series = TableSeries(table)
    server = TableServer(table, series.pages)
    seated = list(entries)
    for seat in people:
        seated[seat] = _PersonEntry(PersonSeat(table.outboxes[seat]))
    addresses = server.start()
    previous = signal.signal(signal.SIGINT, lambda *_: table.leave())
    try:
        for seat, address in addresses.items():
            typer.echo(f"arena: seat {seat} is at {address}", err=True)
        if not no_open:
            for address in addresses.values():
                webbrowser.open(address)
        _play_and_print(chosen, seated, seed, games, False, series, tally, json_out, timings,
                        True, out, 1.0)
        table.close("the table is closed: thanks for playing" if not table.left
                    else "you left the table: the game was recorded as your quit")
        if not table.left:
            typer.echo("arena: the games are over; the table stays open for the replay "
                       "pages until every page is closed (or Ctrl-C)", err=True)
            while not table.left:
                time.sleep(0.2)
        time.sleep(0.2)  # the pages get the last message
    finally:
        signal.signal(signal.SIGINT, previous)
        server.stop()
        logging.getLogger("arena.bots").removeHandler(tracebacks)
    if games > 1:
        _print_summary(tally)


class _PersonEntry:
    """A person's seat at the web table as a series entry: the same seat every game."""

    name = "human"

    def __init__(self, seat: Any) -> None:
        self.seat = seat

    def make(self) -> Any:
        """The person's seat (one for the whole series)."""
        return self.seat


def _play_limits(default: Any, time_limit: float | None, no_limits: bool,
                 output_kb: int) -> Any:
    """The limits of sandboxed bots in `arena play`: the default limits (`arena validate`'s),
    another time a move (with a bank of twice that), or only the sandbox's backstops."""
    import dataclasses

    from arena.sandbox import Limits

    if no_limits:
        return Limits(output_bytes=output_kb * 1024)
    if time_limit is not None:
        default = dataclasses.replace(default, move_seconds=time_limit,
                                      overage_seconds=2 * time_limit,
                                      game_seconds=max(default.game_seconds, 60 * time_limit))
    return dataclasses.replace(default, output_bytes=output_kb * 1024)


class _Watched:
    """A seat's entry in `arena play`, whose bots' slowest decision is kept: each sandboxed
    stand-in's (it times its bot), or an in-process bot's, timed here."""

    def __init__(self, entry: Any, spec: str, seat: int, rotate: bool) -> None:
        self.entry, self.spec, self.name = entry, spec, entry.name
        self.where = f"bot {seat}" if rotate else f"seat {seat}"
        self.made: list[Any] = []
        self.slowest = 0.0
        self.slowest_at = 0
        self.warned = False

    def make(self) -> Any:
        """A fresh bot for a game, remembered (an in-process bot's `act` timed)."""
        import time

        from arena.sandbox import SandboxedBot

        bot = self.entry.make()
        self.made.append(bot)
        if not isinstance(bot, SandboxedBot):
            act = bot.act
            count = [0]

            def timed(obs: Any) -> Any:
                started = time.perf_counter()
                try:
                    return act(obs)
                finally:
                    count[0] += 1
                    used = time.perf_counter() - started
                    if used > self.slowest:
                        self.slowest, self.slowest_at = used, count[0]

            with contextlib.suppress(AttributeError, TypeError):  # __slots__: not timed
                bot.act = timed
        return bot

    def slow_line(self, seed: int, limit: float) -> str | None:
        """A warning, the first time one of its decisions took longer than `limit`."""
        from arena.sandbox import SandboxedBot

        for bot in self.made:
            if isinstance(bot, SandboxedBot) and bot.slowest > self.slowest:
                self.slowest, self.slowest_at = bot.slowest, bot.slowest_at
        self.made.clear()
        if self.warned or self.slowest <= limit:
            self.slowest = 0.0
            return None
        self.warned = True
        return (f"arena: warning: {self.where} ({self.name}) took {self.slowest:.2f} s over its "
                f"decision {self.slowest_at} of seed {seed}, more than the {limit:g} s a move "
                "it would have sandboxed (arena validate's and play's default; a tournament's "
                "is its config's [limits] move_seconds)")


def _tracebacks_to_stderr() -> logging.Handler:
    """Send the tracebacks of in-process bots' exceptions to stderr (sandboxed bots' reach it as
    their output), but for a person's leaving the game (`HumanQuit`: no bug of anyone's, and the
    fault line says it); the caller removes the handler."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("[%(message)s]"))
    handler.addFilter(lambda record: not _left(getattr(record, "bot_exception", None)))
    logging.getLogger("arena.bots").addHandler(handler)
    return handler


def _left(exception: BaseException | None) -> bool:
    """Whether a bot's exception is a person's leaving the game (imported only once a bot has
    raised: the web table's module costs 30 ms of every `arena play`'s start)."""
    if exception is None:
        return False
    from arena.table.seat import SeatLeft
    from arena.tty.human import HumanQuit

    return isinstance(exception, HumanQuit | SeatLeft)


def _play_and_print(chosen: "Variant", entries: list[Any], seed: int, games: int, rotate: bool,
                    watcher: Any, tally: "SeriesTally", json_out: bool, timings: bool,
                    lines: bool, out: Any, slow: float) -> None:
    from arena.session import play_series
    from arena.show import fit

    for played in play_series(chosen, entries, seed, games, rotate, watcher):
        tally.add(played)
        if hasattr(watcher, "finished"):  # --web: the result to the people's pages
            watcher.finished(played.record)
        if hasattr(watcher, "write"):  # --html: the page of the game just played
            try:
                typer.echo(f"arena: wrote {watcher.write(played.record)}", err=True)
            except ArenaError as exc:
                fail(str(exc))
        if json_out:
            typer.echo(played.record.to_line(timings), file=out)
        elif lines:
            for line in fit(_record_line(played.record), indent=""):
                typer.echo(line, file=out)
            for fault in played.record.faults:
                for line in fit(_fault_line(played.record, fault)):
                    typer.echo(line, file=out)
        for entry in entries:
            warning = entry.slow_line(played.record.seed, slow) \
                if isinstance(entry, _Watched) else None
            if warning:
                typer.echo(warning, err=True)
        if getattr(watcher, "left", False):  # --web: a person left the table
            break


@app.command("new-bot")
def new_bot_command(
    name: Annotated[str, typer.Argument(
        help="The bot's name: my_bot writes my_bot.py (class MyBot) and my_bot.toml.")],
    game: Annotated[str, typer.Option("--game", "-g", help="The game it plays.")],
    folder: Annotated[Path, typer.Option("--dir", help="The folder to write into.")] = Path("."),
    lang: Annotated[str, typer.Option(
        "--lang", help="python (a class), or a program over the line protocol "
                       "(docs/protocol.md): c, js or python-stdio, written as a folder.")
    ] = "python",
) -> None:
    """Write a commented, working bot to start from, and a small tournament for it."""
    from arena.newbot import (
        config_path,
        next_steps,
        program_next_steps,
        write_bot,
        write_program_bot,
    )

    try:
        if lang != "python":
            target = write_program_bot(name, game, folder, lang)
            steps = program_next_steps(target, game, lang)
            wrote = f"{target}/ (the bot, in {lang}, with its bot.toml)"
        else:
            path = write_bot(name, game, folder)
            steps = next_steps(path, game)
            wrote = f"{path} (the bot) and {config_path(path)} (a tournament for it)"
    except ArenaError as exc:
        fail(str(exc))
    typer.echo(f"wrote {wrote}")
    typer.echo("try it:")
    for step in steps:
        typer.echo(f"  {step}")


def _watcher(game: str, delay: float, out: Any) -> Any:
    """The spectator for --show: the human seat's drawing where views are public, else the
    game's own narration (which keeps hands hidden); on `out`."""
    from arena.show import ShowPrinter
    from arena.tty.registry import interface_for
    from arena.tty.style import Style
    from arena.tty.watch import TableWatcher

    def echo(text: str) -> None:
        typer.echo(text, file=out)

    if interface_for(game).spectator_safe:
        return TableWatcher(game, echo, Style.for_stream(out), delay)
    return ShowPrinter(echo, delay)


def _record_line(record: "GameRecord") -> str:
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


def _fault_line(record: "GameRecord", fault: "Fault") -> str:
    # the detail names the decision (the bot's own and the game's), or start or end
    return f"fault: seat {fault.seat} ({record.seats[fault.seat]}), {fault.kind.value}: " \
        f"{fault.detail}"


def _print_summary(tally: "SeriesTally") -> None:
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
        fail(str(exc))
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
        fail(str(exc))
    found = solve(seconds, seed, fixed)
    typer.echo(" / ".join(" ".join(map(str, row)) for row in found.rows)
               + f" --starter {found.starter}")
    typer.echo(format_score(score_layout(found.rows, found.starter)))
