"""What the sandbox promises a tournament about its bots, and which mechanism keeps each promise
on this machine: the kernel (namespaces, control groups, Landlock), or only Python's audit hook,
which a determined bot can get around (there it is a tripwire: it turns what a bot should not do
into a clear error, and nothing rests on it where the kernel holds)."""

from __future__ import annotations

import enum
import os
import platform
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arena.record import BotFault
from arena.sandbox.stand_in import confinement_facts


class Holder(enum.Enum):
    """What keeps a promise: the kernel, the kernel in part, or only the audit hook."""

    KERNEL = "kernel"
    PARTLY = "partly"
    HOOK = "hook only"


@dataclass(frozen=True)
class Promise:
    """One promise, and how it is kept on this machine."""

    text: str
    holder: Holder
    mechanism: str


def assess_promises(facts: Mapping[str, Any]) -> tuple[Promise, ...]:
    """The promises, given how a game process reports it is confined (`host._play_one_game`)."""
    landlock = int(facts.get("landlock") or 0)
    pid_ns, fresh_proc = bool(facts.get("pid_namespace")), bool(facts.get("fresh_proc"))
    read_only, games = bool(facts.get("read_only")), bool(facts.get("game_namespaces"))
    network, cgroups = bool(facts.get("network_namespace")), bool(facts.get("cgroups"))
    user = bool(facts.get("user_namespace"))
    capabilities = facts.get("capabilities")  # its effective set, as it read it
    filtered = bool(facts.get("seccomp"))
    # a game process may not leave its groups where it may write no file outside its directory
    cgroups = cgroups and (read_only or landlock >= 1)
    kernel, partly, hook = Holder.KERNEL, Holder.PARTLY, Holder.HOOK

    def pick(*choices: tuple[bool, Holder, str]) -> tuple[Holder, str]:
        return next((holder, how) for held, holder, how in choices if held)

    promises = [
        ("nothing a game starts outlives it", pick(
            (pid_ns, kernel, "its PID namespace ends with it"),
            (cgroups, kernel, "its control groups are emptied after it"),
            (True, hook, "its process group is killed; new sessions refused by the audit hook"))),
        ("no process outside its game seen, signalled or reniced", pick(
            (pid_ns and fresh_proc, kernel, "a PID namespace and a /proc of its own"),
            (pid_ns, partly, "a PID namespace (but /proc lists every process)"),
            (landlock >= 6, partly, "Landlock refuses signals; scheduling by the audit hook"),
            (True, hook, "the audit hook"))),
        ("writes only in its directory, metadata too", pick(
            (read_only, kernel, "the file system is read-only but for its directory"),
            (landlock >= 1, partly, "Landlock (file contents and names, not metadata)"),
            (True, hook, "the audit hook"))),
        ("what the arena keeps is out of view", pick(
            (read_only, kernel,
             "the run directory, key and other bots' code under empty mounts"),
            (landlock >= 1, partly, "Landlock refuses reading it"),
            (True, hook, "the audit hook"))),
        ("no network", pick(
            (network and filtered, kernel, "a network namespace with no network; no unix socket"),
            (network, partly, "a network namespace (unix sockets on the machine in reach)"),
            (landlock >= 4, partly, "Landlock refuses TCP; UDP by the audit hook"),
            (True, hook, "the audit hook"))),
        ("no note from one game to the next", pick(
            (games and read_only and (network or landlock >= 6), kernel,
             "fresh process, namespaces and directory; nothing writable outside"),
            (landlock >= 6, partly, "a fresh process and directory; Landlock; the audit hook"),
            (True, hook, "a fresh process and directory; the audit hook"))),
        ("files within the disk ration (32, 512 MB)", pick(
            (games, kernel, "its directory is a tmpfs of that size"),
            (True, partly, "16 MB a file (a resource limit); 32 files counted by the audit hook"))),
        ("memory, processes and CPU held per game", pick(
            (cgroups, kernel, "control groups: memory, pids and cpuset"),
            (True, partly, "an address-space limit per process"))),
        ("every process stopped between its turns", pick(
            (cgroups, kernel, "the freezer of its control group"),
            (True, partly, "SIGSTOP to its process group"))),
        ("no privileges", pick(
            (user and capabilities == 0, kernel, "no capabilities, in a user namespace of its own"),
            (os.geteuid() != 0 and capabilities == 0, kernel,
             "the arena's user, with no capabilities"),
            (True, hook, "it has capabilities (the arena runs as root): run it as another user"))),
        ("a narrowed kernel interface", pick(
            (filtered, kernel, "seccomp: no new namespaces, mount, ptrace, BPF, io_uring, keys"),
            (True, hook, "the audit hook (no seccomp filter on this architecture)"))),
    ]
    return tuple(Promise(text, holder, how) for text, (holder, how) in promises)


def confinement_problems(facts: Mapping[str, Any]) -> list[str]:
    """Why a kernel feature could not be had, in one line each."""
    out = []
    if facts.get("namespace_problem"):
        out.append(f"namespaces: {facts['namespace_problem']}")
    if facts.get("cgroup_problem"):
        out.append(f"control groups: {facts['cgroup_problem']}")
    return out


def promises_report(facts: Mapping[str, Any]) -> list[str]:
    """The promises as lines for a terminal: the holder, the promise, the mechanism."""
    landlock = int(facts.get("landlock") or 0)
    lines = [f"the sandbox on this machine (Linux {platform.release()}, "
             f"Landlock {landlock or 'none'}):"]
    promises = assess_promises(facts)
    width = max(len(p.text) for p in promises)
    lines += [f"  {p.holder.value:<9} {p.text:<{width}}  {p.mechanism}" for p in promises]
    lines += [f"  {line}" for line in confinement_problems(facts)]
    return lines


def promised_here(game: str) -> tuple[str, bool]:
    """The promises on this machine in one line (`promises_summary`), asked of a game process of
    `game`, and whether the kernel keeps them all (False, with why, if none could be asked)."""
    try:
        facts = confinement_facts(game)
    except BotFault as fault:
        return f"could not say how a game process is confined ({fault.detail})", False
    kept = all(p.holder is Holder.KERNEL for p in assess_promises(facts))
    return promises_summary(facts), kept


def promises_summary(facts: Mapping[str, Any]) -> str:
    """The promises in one line: how many the kernel keeps, and which it does not."""
    promises = assess_promises(facts)
    kept = sum(p.holder is Holder.KERNEL for p in promises)
    if kept == len(promises):
        return f"all {kept} of the sandbox's promises held by the kernel"
    weaker = "; ".join(p.text for p in promises if p.holder is not Holder.KERNEL)
    return (f"{kept} of {len(promises)} of the sandbox's promises held by the kernel; partly or "
            f"by the audit hook only: {weaker} (`arena doctor` says how and why)")
