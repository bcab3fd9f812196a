"""Commands for the sandbox: validate a submitted bot, and the doctor's word on this machine."""

from typing import Annotated

import typer

from arena.cli.app import app, fail, say_error
from arena.errors import ArenaError


@app.command("validate")
def validate_command(
    spec: Annotated[str, typer.Argument(help="The bot spec to check.")],
    game: Annotated[str, typer.Option("--game", "-g", help="The game it plays.")],
    games: Annotated[int, typer.Option(
        min=1, help="Deals per opponent and variant (each in every seating).")] = 2,
    variant: Annotated[list[str] | None, typer.Option(
        "--variant", "-v", help="Only this preset (repeatable); default: every preset.")] = None,
    players: Annotated[list[int] | None, typer.Option(
        "--players", "-n", min=1, help="Check tables of this many players (repeatable); "
        "default: each preset's fewest, at least 2.")] = None,
    quick: Annotated[bool, typer.Option(
        "--quick", help="A quick check: the default preset, one deal, two opponents, no "
        "attacks of the doctor's.")] = False,
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
        verdict = validate_bot(spec, game, games, limits, variant or (), quick,
                               players=players or ())
    except ArenaError as exc:
        fail(str(exc))
    for line in verdict.lines:
        typer.echo(line)
    raise typer.Exit(0 if verdict.passed else 1)


@app.command("doctor")
def doctor_command(
    game: Annotated[str, typer.Option("--game", "-g", help="The game to try.")] = "concentration",
    strict: Annotated[bool, typer.Option(
        "--strict", help="Exit with 1 unless the kernel keeps every promise and every attack "
        "is stopped.")] = False,
) -> None:
    """Say which of the sandbox's promises hold on this machine, what keeps each, and try them.

    A sandboxed game process reports how it is confined: the kernel (namespaces, control groups,
    seccomp, Landlock) or, where the kernel lacks a feature, the audit hook only. Then every
    promise is attacked from inside real game processes, as a hostile bot would (past the audit
    hook), and each attack says whether it was stopped."""
    from arena.engine import find_game
    from arena.record import BotFault
    from arena.sandbox import (
        Holder,
        assess_promises,
        confinement_facts,
        promises_report,
        run_probes,
    )

    try:
        found = find_game(game).name
    except ArenaError as exc:
        fail(str(exc))
    try:
        facts = confinement_facts(found)
        results = run_probes(found)
    except BotFault as fault:
        say_error(f"no sandboxed game process could be started: {fault.detail}")
        raise typer.Exit(1) from None
    except OSError as exc:
        say_error(f"the attacks could not be made: {exc}")
        raise typer.Exit(1) from None
    for line in promises_report(facts, results):
        typer.echo(line)
    weaker = [p for p in assess_promises(facts) if p.holder is not Holder.KERNEL]
    through = [r for r in results if r.through]
    raise typer.Exit(1 if strict and (weaker or through) else 0)
