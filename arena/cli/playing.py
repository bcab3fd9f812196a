"""Commands for playing and looking: games, bots, play, new-bot, score, solve."""

from __future__ import annotations

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
    from arena.sandbox import Limits, sandboxed, unseen_by
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
        # what a game may not see is decided as for a tournament: here, the other seats' code
        entries = [sandboxed(spec, found.name, limits,
                             echo=f"[bot {seat}] " if rotate else f"[seat {seat}] ",
                             private=unseen_by(spec, specs))
                   if isolation.sandboxes(spec) and not is_human(spec)
                   else resolve_bot(spec, found.name) for seat, spec in enumerate(specs)]
    except (ArenaError, ValueError) as exc:
        fail(str(exc))
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

    if lang != "python":
        try:
            target = write_program_bot(name, game, folder, lang)
            steps = program_next_steps(target, game, lang)
        except ArenaError as exc:
            fail(str(exc))
        typer.echo(f"wrote {target}/ (the bot, in {lang}, with its bot.toml)")
        typer.echo("try it:")
        for step in steps:
            typer.echo(f"  {step}")
        return
    try:
        path = write_bot(name, game, folder)
        steps = next_steps(path, game)
    except ArenaError as exc:
        fail(str(exc))
    typer.echo(f"wrote {path} (the bot) and {config_path(path)} (a tournament for it)")
    typer.echo("try it:")
    for step in steps:
        typer.echo(f"  {step}")


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
