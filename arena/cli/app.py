"""The `arena` Typer app and what its commands share: one-line errors (exit 2), notes on
stderr, and the choices several commands take."""

import enum
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from arena.errors import ArenaError
from arena.text import escape

HELP_ORDER = ("games", "bots", "play", "run", "duel", "validate", "doctor", "replay", "games-of",
              "report", "new-bot", "ratings", "compare", "submit", "league", "score", "solve")
"""The order `arena --help` lists the commands in (those not listed follow, as registered)."""


class OneLineErrors(TyperGroup):
    """Every usage mistake and ArenaError ends as one line on stderr and exit code 2."""

    def list_commands(self, ctx: Any) -> list[str]:
        """The commands in the order of HELP_ORDER, whatever module registered them first."""
        known = super().list_commands(ctx)
        return sorted(known, key=lambda name: (HELP_ORDER.index(name) if name in HELP_ORDER
                                               else len(HELP_ORDER)))

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
            say_error(str(exc))
            sys.exit(2)
        sys.exit(code if isinstance(code, int) else 0)


class BackendChoice(enum.Enum):
    """Where a run's games are played (`arena.tournament.playing.runner.Backend`, without
    importing the runner)."""

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


class LuckChoice(enum.Enum):
    """Whether verdicts on head-to-head edges are adjusted for the luck the records carry."""

    ON = "on"
    OFF = "off"


LUCK_HELP = ("on: head-to-head edges (and the tests on them) adjusted for luck where the "
             "records carry it (docs/ratings.md, Luck); off: the raw figures.")


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


def say_error(message: str) -> None:
    # escaped: a message may quote what a bot said or a name from a run directory from elsewhere
    typer.echo(f"arena: error: {escape(message)}", err=True)


def warn(message: str) -> None:
    typer.echo(f"arena: warning: {escape(message)}", err=True)


def fail(message: str) -> None:
    say_error(message)
    raise typer.Exit(2)


def note(message: str) -> None:
    """One line on stderr, above a progress bar if one is showing (written to `sys.stderr` as
    it is now: a showing bar's, which puts the line above the bar rather than after it, where
    the bar's next refresh would wipe it)."""
    print(f"arena: {message}", file=sys.stderr, flush=True)


def duration(seconds: float) -> str:
    """A duration in the largest units that keep it readable: 40 s, 12 min, 3.5 h, 4.2 days."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def stopped(target: Path) -> NoReturn:
    """After Ctrl-C: say where the games played so far are, and exit 130."""
    typer.echo(f"arena: stopped; the games played so far are saved in {target}; "
               f"run the same command to resume", err=True)
    raise typer.Exit(130) from None
