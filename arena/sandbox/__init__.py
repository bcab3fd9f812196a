"""The sandbox: everything that runs untrusted bot code, behind this one front door.

The rest of the arena imports only from here: `Isolation` and `Limits` to configure it,
`sandboxed` and `probe` to check a bot spec and make its stand-in (`unseen_by` says what
its games may not see), `BotHost` and
`SandboxedSpec` to play it, `validate_bot` for `arena validate`, and `confinement_facts` with
the `promises_*` functions and `run_probes` for `arena doctor`. The modules inside are the
sandbox maintainers' own:

- `stand_in`: the arena side: a bot's host process, the `SandboxedBot` that stands in for it in
  the match loop and enforces its time limits, the turns that pause it between its decisions;
- `program`: the arena side of a program bot: the `ProgramBot` that speaks the line protocol to
  the program itself;
- `entry`: a bot spec checked in a sandbox (`probe`) and made an entry (`sandboxed`);
- `launch`: a program bot's game process, which becomes the program;
- `hosts`: how the arena starts a host: forked by the fork server of its process, or afresh;
- `fork_server`: the bot side of that: a Python that has imported a host's modules once;
- `host`: the bot side: a host process per bot and its forker, a locked-down process per game;
- `player`: the bot side of a Python bot's game: pickles answered with JSON lines; the rehearsal;
- `wire`: what the arena sends a game process;
- `pinning`: a game's processes share one CPU while it is played;
- `namespaces`: what a game process can see: namespaces of its own (Linux);
- `audit`: the audit hook of a game process, a tripwire;
- `game_init`: ordinary signal semantics for a game process that is process 1, or an init;
- `cgroups`: memory, processes and CPU per game, and the freezer that pauses it (Linux);
- `seccomp`: the system calls a game process may not make (Linux);
- `landlock`: kernel confinement of a game process (Linux Landlock);
- `promises`: what the sandbox promises, and what keeps each promise on this machine;
- `pledges`: the promises, each in a few words;
- `probes`: `arena doctor`'s attacks on every promise, from inside real game processes;
- `attacks`: the bot that makes them (an untrusted bot file to the sandbox);
- `immortal`: objects made immortal before a host forks games (CPython 3.12 and 3.13);
- `bytecode`: a bot's source compiled once by its host;
- `sight`: what a game may not see, the same for every command that starts one;
- `validate`: `arena validate`, a sandboxed battery for a submitted bot.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what a type checker sees; at run time each is imported when first asked for
    from arena.sandbox.entry import SandboxedSpec, confinement_facts, probe, sandboxed
    from arena.sandbox.host import die_with_parent
    from arena.sandbox.probes import ProbeResult, probes_summary, run_probes
    from arena.sandbox.promises import (
        Holder,
        Promise,
        assess_promises,
        confinement_problems,
        promised_here,
        promises_report,
        promises_summary,
    )
    from arena.sandbox.sight import unseen_by
    from arena.sandbox.stand_in import (
        BACKSTOP_GAME_SECONDS,
        BACKSTOP_SETUP_SECONDS,
        DEFAULT_LIMITS,
        TURNS,
        BotHost,
        Isolation,
        Limits,
        SandboxedBot,
    )
    from arena.sandbox.validate import Verdict, validate_bot

_HOMES = {
    "BACKSTOP_GAME_SECONDS": "arena.sandbox.stand_in",
    "BACKSTOP_SETUP_SECONDS": "arena.sandbox.stand_in",
    "BotHost": "arena.sandbox.stand_in",
    "DEFAULT_LIMITS": "arena.sandbox.stand_in",
    "Holder": "arena.sandbox.promises",
    "Isolation": "arena.sandbox.stand_in",
    "Limits": "arena.sandbox.stand_in",
    "ProbeResult": "arena.sandbox.probes",
    "Promise": "arena.sandbox.promises",
    "SandboxedBot": "arena.sandbox.stand_in",
    "SandboxedSpec": "arena.sandbox.entry",
    "TURNS": "arena.sandbox.stand_in",
    "Verdict": "arena.sandbox.validate",
    "assess_promises": "arena.sandbox.promises",
    "confinement_facts": "arena.sandbox.entry",
    "confinement_problems": "arena.sandbox.promises",
    "die_with_parent": "arena.sandbox.host",
    "probe": "arena.sandbox.entry",
    "probes_summary": "arena.sandbox.probes",
    "promised_here": "arena.sandbox.promises",
    "promises_report": "arena.sandbox.promises",
    "promises_summary": "arena.sandbox.promises",
    "run_probes": "arena.sandbox.probes",
    "sandboxed": "arena.sandbox.entry",
    "unseen_by": "arena.sandbox.sight",
    "validate_bot": "arena.sandbox.validate",
}
"""Where each name of the front door lives. They are imported when first asked for, so that a
bot's host process (`python -m arena.sandbox`, which imports this package first) imports only
the modules it uses."""

__all__ = [
    "BACKSTOP_GAME_SECONDS",
    "BACKSTOP_SETUP_SECONDS",
    "DEFAULT_LIMITS",
    "TURNS",
    "BotHost",
    "Holder",
    "Isolation",
    "Limits",
    "ProbeResult",
    "Promise",
    "SandboxedBot",
    "SandboxedSpec",
    "Verdict",
    "assess_promises",
    "confinement_facts",
    "confinement_problems",
    "die_with_parent",
    "probe",
    "probes_summary",
    "promised_here",
    "promises_report",
    "promises_summary",
    "run_probes",
    "sandboxed",
    "unseen_by",
    "validate_bot",
]


def __getattr__(name: str) -> Any:
    """A name of the front door, imported from its module the first time it is asked for."""
    if name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
