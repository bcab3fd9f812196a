"""The `arena` command line: parse, call the library, print. Errors become one line and exit 2."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from arena.errors import ArenaError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Card Arena: AI bots play memory and children's card games.")


def _fail(message: str) -> None:
    typer.echo(f"arena: error: {message}", err=True)
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
    bot: Annotated[list[str], typer.Option("--bot", "-b", help="A bot spec per seat, in order.")],
    variant: Annotated[str | None, typer.Option("--variant", "-v", help="Variant preset.")] = None,
    param: Annotated[list[str] | None, typer.Option(
        "--param", "-p", help="Override a variant parameter: key=value (repeatable).")] = None,
    seed: Annotated[int, typer.Option(help="Deal seed of the first game.")] = 0,
    games: Annotated[int, typer.Option(min=1, help="Games to play, on seeds upward.")] = 1,
    show: Annotated[bool, typer.Option("--show", help="Print each game as it unfolds.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON record per game.")] = False,
    timings: Annotated[bool, typer.Option(help="Add each game's duration to --json.")] = False,
) -> None:
    """Play games between bots (one bot = solitaire) and print results."""
    from arena.engine import find_game
    from arena.loader import resolve_bot
    from arena.session import SeriesTally, play_series
    from arena.values import parse_assignments

    try:
        found = find_game(game)
        overrides: dict[str, str] = {}
        for text in param or []:
            overrides.update(parse_assignments(text, f"--param {text!r}"))
        chosen = found.variant(variant, overrides)
        chosen.check_players(len(bot))
        seats = [resolve_bot(spec, found.name) for spec in bot]
    except ValueError as exc:
        _fail(str(exc))
    except ArenaError as exc:
        _fail(str(exc))
    watcher = _show_printer() if show else None
    tally = SeriesTally([s.name for s in seats])
    for record in play_series(chosen, seats, seed, games, watcher):
        tally.add(record)
        if json_out:
            typer.echo(record.to_line(timings))
        elif games <= 20 or show:
            typer.echo(_record_line(record))
    if not json_out:
        _print_summary(tally, games > 1)


def _show_printer():  # type: ignore[no-untyped-def]
    from arena.show import ShowPrinter

    return ShowPrinter(typer.echo)


def _record_line(record) -> str:  # type: ignore[no-untyped-def]
    seats = ", ".join(f"{n} {s:g}" for n, s in zip(record.seats, record.scores, strict=True))
    winners = [n for n, r in zip(record.seats, record.ranks, strict=True) if r == 1]
    verdict = "tie: " + ", ".join(winners) if len(winners) > 1 else f"winner: {winners[0]}"
    if len(record.seats) == 1:
        verdict = f"{record.turns} turns"
    faults = f" [faults: {len(record.faults)}]" if record.faults else ""
    return f"seed {record.seed}: {seats} ({verdict}){faults}"


def _print_summary(tally, table: bool) -> None:  # type: ignore[no-untyped-def]
    if not table:
        return
    from tabulate import tabulate

    rows = [[s.seat, s.bot, s.games, s.wins, f"{s.mean_rank:.2f}",
             f"{s.mean_score:.2f} ± {s.score_ci95:.2f}", s.faults] for s in tally.summary()]
    typer.echo(tabulate(rows, headers=["seat", "bot", "games", "wins", "mean rank",
                                       "mean score (95%)", "faults"]))


def main() -> None:
    """Entry point of the console script."""
    try:
        app()
    except ArenaError as exc:  # anything the commands did not catch themselves
        print(f"arena: error: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
