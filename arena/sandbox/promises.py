"""What the sandbox promises a tournament about its bots, and which mechanism keeps each promise
on this machine: the kernel (namespaces, control groups, Landlock), or only Python's audit hook,
which a determined bot can get around (there it is a tripwire: it turns what a bot should not do
into a clear error, and nothing rests on it where the kernel holds)."""

from __future__ import annotations

import enum
import os
import platform
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.record import BotFault
from arena.sandbox.attacks import STOPPED, THROUGH, UNKNOWN
from arena.sandbox.entry import confinement_facts
from arena.sandbox.pledges import (
    AHEAD,
    CHANNELS,
    DEVICES,
    ENVIRONMENT,
    HELD,
    KEPT,
    NARROW,
    NETWORK,
    OUTLIVE,
    PAUSED,
    PRIVILEGES,
    RATION,
    SIGNALS,
    TERMINAL,
    UNSEEN,
    WRITES,
)
from arena.sandbox.probes import ProbeResult, probed, probes_summary, setting


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

    no_tty, ioctls = bool(facts.get("no_terminal")), bool(facts.get("ioctl_filtered"))
    private_dev, unprivileged = bool(facts.get("private_dev")), bool(facts.get("unprivileged_id"))
    families, locks = bool(facts.get("socket_families_filtered")), bool(facts.get("locks_refused"))
    cgroup_ns, ahead = bool(facts.get("cgroup_namespace")), bool(facts.get("nothing_ahead"))
    empty, init = bool(facts.get("empty_environment")), bool(facts.get("init"))
    handlers = bool(facts.get("exit_handlers"))
    home_covered = bool(facts.get("home_covered"))
    notes = games and read_only and (network or landlock >= 6)

    promises = [
        (OUTLIVE, pick(
            (pid_ns, kernel, "its PID namespace ends with it"),
            (cgroups, kernel, "its control groups are emptied after it"),
            (True, hook, "its process group is killed; new sessions refused by the audit hook"))),
        (UNSEEN, pick(
            (pid_ns and fresh_proc, kernel, "a PID namespace and a /proc of its own"),
            (pid_ns, partly, "a PID namespace (but /proc lists every process)"),
            (landlock >= 6, partly, "Landlock refuses signals; scheduling by the audit hook"),
            (True, hook, "the audit hook"))),
        (WRITES, pick(
            (read_only, kernel, "the file system is read-only but for its directory"),
            (landlock >= 1, partly, "Landlock (file contents and names, not metadata)"),
            (True, hook, "the audit hook"))),
        (KEPT, pick(
            (read_only and bool(facts.get("allow_list")), kernel,
             "a root of its own: the interpreter, /usr, /etc, its bot's files; nothing else"),
            (read_only, partly,
             "the run directory, key and other bots' code under empty mounts; the rest in view"),
            (landlock >= 1, partly, "Landlock refuses reading it"),
            (True, hook, "the audit hook"))),
        (NETWORK, pick(
            (network and filtered, kernel, "a network namespace with no network; no unix socket"),
            (network, partly, "a network namespace (unix sockets on the machine in reach)"),
            (landlock >= 4, partly, "Landlock refuses TCP; UDP by the audit hook"),
            (True, hook, "the audit hook"))),
        (CHANNELS, pick(
            (notes and families and locks and cgroup_ns, kernel,
             "fresh namespaces (cgroup too), socket families and locks allow-listed"),
            (notes, partly, "fresh process, namespaces and directory; but "
             + ", ".join(what for held, what in [
                 (families, "netlink and other socket families"), (locks, "locks on shared files"),
                 (cgroup_ns, "control groups' counters")] if not held) + " are shared"),
            (landlock >= 6, partly, "a fresh process and directory; Landlock; the audit hook"),
            (True, hook, "a fresh process and directory; the audit hook"))),
        (RATION, pick(
            (games, kernel, "its directory is a tmpfs of that size"),
            (True, partly, "16 MB a file (a resource limit); 32 files counted by the audit hook"))),
        (HELD, pick(
            (cgroups, kernel, "control groups: memory, pids and cpuset"),
            (True, partly, "an address-space limit per process"))),
        (PAUSED, pick(
            (cgroups, kernel, "the freezer of its control group"),
            (True, partly, "SIGSTOP to its process group"))),
        (AHEAD, pick(
            (ahead and cgroups, kernel,
             "the process prepared ahead loads the bot as its game begins, on its host's CPUs"),
            (True, hook, "nothing: the process prepared ahead loads the bot and runs"))),
        (PRIVILEGES, pick(
            (user and capabilities == 0 and unprivileged, kernel,
             "no capabilities, in a user namespace of its own, an id that owns nothing"),
            (os.geteuid() != 0 and capabilities == 0 and home_covered, partly,
             "no capabilities, but the arena's user (the only id an ordinary user may map): "
             "its home covered but for what games read; its files elsewhere in reach"),
            (os.geteuid() != 0 and capabilities == 0, partly,
             "no capabilities, but the arena's user, whose files are in reach"),
            (capabilities == 0, partly,
             "no capabilities, but the arena's user (root) for file permissions"),
            (True, hook, "it has capabilities (the arena runs as root): run it as another user"))),
        (NARROW, pick(
            (filtered, kernel, "seccomp: no new namespaces, mount, ptrace, BPF, io_uring, keys"),
            (True, hook, "the audit hook (no seccomp filter on this architecture)"))),
        (TERMINAL, pick(
            (no_tty and ioctls, kernel,
             "no controlling terminal, none to be had; TIOCSTI refused (seccomp)"),
            (no_tty, partly, "no controlling terminal (TIOCSTI not refused)"),
            (True, hook, "the audit hook (it has the arena's terminal)"))),
        (DEVICES, pick(
            (private_dev and read_only, kernel, "a /dev of its own (null, zero, random...), nodev"),
            (True, hook, "the audit hook (the machine's /dev is in view)"))),
        (ENVIRONMENT, pick(
            (empty, kernel, "an empty environment; settings over the control socket"),
            (True, hook, "nothing (the arena's environment and command line are in view)"))),
        (SIGNALS, pick(
            (init, kernel, "a minimal init is process 1 of its game"),
            (not pid_ns, kernel, "no PID namespace: the game is not process 1"),
            (handlers and filtered, kernel, "process 1 ends on a signal it sends itself: "
             "`_exit` for those it may catch, seccomp for SIGKILL, SIGSTOP, SIGABRT, faults'"),
            (handlers, partly, "process 1 exits on catchable signals it sends itself; "
             "SIGKILL, SIGSTOP and faults' it ignores (no seccomp filter)"),
            (True, hook, "nothing: the game is process 1, which ignores its own signals"))),
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


def promises_report(facts: Mapping[str, Any],
                    probes: Sequence[ProbeResult] = ()) -> list[str]:
    """The promises as lines for a terminal: the holder, the promise, the mechanism; under each,
    the attacks tried on it from inside a game process (`arena.sandbox.probes`) and whether each
    was stopped; then why a feature is missing, and the attacks in one line."""
    landlock = int(facts.get("landlock") or 0)
    lines = [f"the sandbox on this machine (Linux {platform.release()}, "
             f"Landlock {landlock or 'none'}):"]
    promises = assess_promises(facts)
    width = max(len(p.text) for p in promises)
    for promise in promises:
        lines.append(f"  {promise.holder.value:<9} {promise.text:<{width}}  {promise.mechanism}")
        lines += [f"    {_SHOWN[r.outcome]:<12} {r.tried}: {r.detail}"
                  for r in probes if r.promise == promise.text]
    lines += [f"  {line}" for line in confinement_problems(facts)]
    lines += [f"  exclusion: {line}" for line in EXCLUSIONS]
    if probes:
        lines.append(f"  probes: {probes_summary(probes)}")
    return lines


EXCLUSIONS = (
    "a program bot may make pipes and sockets (runtimes need them), whose inode numbers come "
    "from one counter of the machine's: measured, notes of 10 bits passed from one game of a "
    "program to its next in 15 of 19 games, about 8 bits a game (docs/sandbox.md, What games "
    "share); a Python bot's game may make none",
)
"""What the sandbox does not close, said by `arena doctor` with its measured bandwidth."""

_SHOWN = {STOPPED: "stopped", THROUGH: "GOT THROUGH", UNKNOWN: "not told"}


_FACTS: dict[tuple[str, ...], dict[str, Any]] = {}


def confined_here(game: str) -> dict[str, Any]:
    """`confinement_facts(game)`, asked once per process for each setting of the sandbox
    (`probes.setting`), as the doctor's attacks are made: every run and every validation a
    process starts says them, and each ask costs a bot host of its own."""
    key = setting(game)
    if key not in _FACTS:
        _FACTS[key] = confinement_facts(game)
    return _FACTS[key]


def promised_here(game: str) -> tuple[str, bool]:
    """The promises on this machine in one line (`promises_summary`), asked of a game process of
    `game` (`confined_here`), with what the doctor's attacks found (`probes_summary`, made once
    per process too); and whether the kernel keeps every promise and every attack was stopped
    (False, with why, if no game process could be had)."""
    try:
        facts = confined_here(game)
    except BotFault as fault:
        return f"could not say how a game process is confined ({fault.detail})", False
    try:
        results = probed(game)
    except (BotFault, OSError) as exc:
        why = exc.detail if isinstance(exc, BotFault) else str(exc)
        return f"{promises_summary(facts)}; the doctor's attacks could not be made ({why})", False
    kept = all(p.holder is Holder.KERNEL for p in assess_promises(facts))
    through = any(r.through for r in results)
    return f"{promises_summary(facts)}; {probes_summary(results)}", kept and not through


def promises_summary(facts: Mapping[str, Any]) -> str:
    """The promises in one line: how many the kernel keeps, and which it does not."""
    promises = assess_promises(facts)
    kept = sum(p.holder is Holder.KERNEL for p in promises)
    if kept == len(promises):
        return f"all {kept} of the sandbox's promises held by the kernel"
    weaker = "; ".join(p.text for p in promises if p.holder is not Holder.KERNEL)
    return (f"{kept} of {len(promises)} of the sandbox's promises held by the kernel; partly or "
            f"by the audit hook only: {weaker} (`arena doctor` says how and why)")
