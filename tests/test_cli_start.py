"""What every `arena` command pays at its start stays small: typer finds each command's
annotations already evaluated (benchmarks/bench_cli_start.py prints the figures)."""

from __future__ import annotations

import typer.main

from arena.cli import app


def test_every_command_s_annotations_are_objects_not_strings() -> None:
    """A command module with `from __future__ import annotations` hands typer strings, which it
    compiles and evaluates twice a command at every start (60-80 ms a process in all)."""
    group = typer.main.get_command(app)
    commands = []
    waiting = [group]
    while waiting:
        command = waiting.pop()
        subcommands = getattr(command, "commands", {})
        waiting.extend(subcommands.values())
        if command.callback is not None:
            commands.append(command)
    assert len(commands) > 20
    for command in commands:
        callback = getattr(command.callback, "__wrapped__", command.callback)
        postponed = [name for name, value in callback.__annotations__.items()
                     if isinstance(value, str)]
        assert not postponed, f"{command.name or 'arena'}: annotations postponed: {postponed}"
