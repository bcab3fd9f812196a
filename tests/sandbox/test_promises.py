"""What the sandbox promises, and what keeps each promise: reported from inside a game process."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.sandbox import (
    Holder,
    assess_promises,
    confinement_facts,
    confinement_problems,
    promises_report,
    promises_summary,
)
from tests.helpers import run
from tests.sandbox.support import needs_namespaces

KERNEL_FACTS = {"landlock": 6, "user_namespace": True, "game_namespaces": True,
                "read_only": True, "network_namespace": True, "pid_namespace": True,
                "fresh_proc": True, "cgroups": True, "namespace_problem": "",
                "cgroup_problem": "", "capabilities": 0, "seccomp": True, "no_terminal": True,
                "ioctl_filtered": True, "private_dev": True, "unprivileged_id": True,
                "socket_families_filtered": True, "locks_refused": True,
                "cgroup_namespace": True, "nothing_ahead": True, "empty_environment": True,
                "init": True, "allow_list": True}
BARE_FACTS = {"landlock": 0, "namespace_problem": "no user namespace for this user (EPERM)",
              "cgroup_problem": "no control groups this user may make for memory"}


def test_every_promise_is_kept_by_the_kernel_where_it_has_every_feature() -> None:
    promises = assess_promises(KERNEL_FACTS)
    assert len(promises) == 16 and {p.holder for p in promises} == {Holder.KERNEL}
    assert promises_summary(KERNEL_FACTS) == "all 16 of the sandbox's promises held by the kernel"
    assert confinement_problems(KERNEL_FACTS) == []


def test_without_kernel_features_each_promise_says_what_is_left() -> None:
    promises = {p.text: p for p in assess_promises(BARE_FACTS)}
    assert promises["nothing a game starts outlives it"].holder is Holder.HOOK
    assert promises["no network"].mechanism == "the audit hook"
    assert promises["memory, processes and CPU held per game"].holder is Holder.PARTLY
    # without a PID namespace a game is no process 1: its own signals end it as anywhere
    assert promises["a crash is a fault (ordinary signals)"].holder is Holder.KERNEL
    del promises["a crash is a fault (ordinary signals)"]
    assert all(p.holder is not Holder.KERNEL for p in promises.values()) or os.geteuid() != 0
    report = [line for line in promises_report(BARE_FACTS) if "exclusion" not in line]
    assert report[-2:] == ["  namespaces: no user namespace for this user (EPERM)",
                           "  control groups: no control groups this user may make for memory"]
    assert "`arena doctor` says how and why" in promises_summary(BARE_FACTS)


def test_what_is_kept_is_out_of_view_by_an_allow_list_else_partly() -> None:
    """Issue 38: empty mounts over what the arena keeps leave the rest of the machine (other
    runs, leagues, bots) in view; only a root of the game's own keeps the promise whole."""
    kept = "what the arena keeps is out of view"
    found = {p.text: p for p in assess_promises({**KERNEL_FACTS, "allow_list": False})}
    assert found[kept].holder is Holder.PARTLY and "the rest in view" in found[kept].mechanism
    whole = {p.text: p for p in assess_promises(KERNEL_FACTS)}
    assert whole[kept].holder is Holder.KERNEL


def test_the_doctor_names_the_exclusions_with_their_bandwidth() -> None:
    exclusions = [line for line in promises_report(KERNEL_FACTS) if "exclusion:" in line]
    assert exclusions and "10 bits" in exclusions[0]


@pytest.mark.parametrize(("changed", "promise", "holder"), [
    ({"pid_namespace": False, "fresh_proc": False}, "nothing a game starts outlives it",
     Holder.KERNEL),  # its control groups are emptied after it
    ({"fresh_proc": False}, "no process outside its game seen, signalled or reniced",
     Holder.PARTLY),
    ({"network_namespace": False}, "no network", Holder.PARTLY),
    ({"cgroups": False}, "every process stopped between its turns", Holder.PARTLY),
    # where a game may write outside its directory, it may leave its groups too
    ({"read_only": False, "landlock": 0}, "memory, processes and CPU held per game",
     Holder.PARTLY),
    ({"capabilities": 1 << 21}, "no privileges", Holder.HOOK),  # CAP_SYS_ADMIN, say
    # the arena's user (root, or an ordinary user whose home is covered): not an id of its own
    ({"unprivileged_id": False, "home_covered": True}, "no privileges", Holder.PARTLY),
    ({"seccomp": False}, "a narrowed kernel interface", Holder.HOOK),
    # issue 27: each mechanism its promise rests on
    ({"no_terminal": False}, "no terminal", Holder.HOOK),
    ({"ioctl_filtered": False}, "no terminal", Holder.PARTLY),
    ({"private_dev": False}, "no devices", Holder.HOOK),
    ({"locks_refused": False}, "no channel between two game processes but their game",
     Holder.PARTLY),
    ({"cgroup_namespace": False}, "no channel between two game processes but their game",
     Holder.PARTLY),
    ({"socket_families_filtered": False},
     "no channel between two game processes but their game", Holder.PARTLY),
    ({"nothing_ahead": False}, "nothing runs ahead of its game", Holder.HOOK),
    ({"empty_environment": False}, "nothing of the arena's environment or command line",
     Holder.HOOK),
    ({"init": False}, "a crash is a fault (ordinary signals)", Holder.HOOK),
    # without an init: handlers for the catchable signals, seccomp for the rest
    ({"init": False, "exit_handlers": True}, "a crash is a fault (ordinary signals)",
     Holder.KERNEL),
    ({"init": False, "exit_handlers": True, "seccomp": False},
     "a crash is a fault (ordinary signals)", Holder.PARTLY),
])
def test_a_missing_feature_weakens_its_promises(changed: dict[str, object], promise: str,
                                                 holder: Holder) -> None:
    found = {p.text: p.holder for p in assess_promises({**KERNEL_FACTS, **changed})}
    assert found[promise] is holder


@needs_namespaces
def test_a_game_process_reports_the_kernel_s_confinement_from_inside() -> None:
    facts = confinement_facts()
    assert facts["pid_namespace"] and facts["game_namespaces"] and facts["read_only"]
    assert facts["network_namespace"] and facts["user_namespace"]
    assert facts["capabilities"] == 0  # read by the game process itself


def test_turning_namespaces_off_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_SANDBOX_NAMESPACES", "0")
    facts = confinement_facts()
    assert not facts["pid_namespace"] and not facts["read_only"]
    assert facts["namespace_problem"] == "turned off (ARENA_SANDBOX_NAMESPACES=0)"
    no_privileges = {p.text: p for p in assess_promises(facts)}["no privileges"]
    # without a user namespace no id of the games' own: the arena's user at best
    assert no_privileges.holder is not Holder.KERNEL


def test_arena_doctor_prints_every_promise(runner: CliRunner,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(runner, "doctor")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("the sandbox on this machine (Linux ")
    assert len([line for line in lines if line.startswith("  ")]) >= 16
    monkeypatch.setenv("ARENA_SANDBOX_NAMESPACES", "0")
    result = run(runner, "doctor", "--strict")
    assert result.exit_code == 1  # without namespaces, not every promise is the kernel's
    assert "namespaces: turned off (ARENA_SANDBOX_NAMESPACES=0)" in result.output
    result = run(runner, "doctor", "--game", "nosuch")
    assert result.exit_code == 2 and "unknown game 'nosuch'" in result.output


def test_a_run_with_sandboxed_bots_logs_what_keeps_the_promises(tmp_path: Path,
                                                                 runner: CliRunner) -> None:
    config = tmp_path / "two.toml"
    config.write_text('name = "two"\n[deals]\nseeds = [1]\n[[bots]]\nspec = "random"\n'
                      'isolation = "process"\n[[bots]]\nspec = "greedy"\n[[games]]\n'
                      'game = "concentration"\nplayers = 2\nvariants = ["standard"]\n')
    result = run(runner, "run", str(config), "--out", str(tmp_path / "run"), "-q")
    assert result.exit_code == 0, result.output
    logged = (tmp_path / "run" / "log.txt").read_text()
    assert f"sandbox: {promises_summary(confinement_facts())}; " in logged
    assert "attacks of `arena doctor`" in logged


def test_a_process_asks_a_game_process_how_it_is_confined_once_per_setting(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.sandbox import entry, promises

    asked: list[str] = []
    real = entry.confinement_facts

    def counted(game: str = "concentration") -> dict[str, object]:
        asked.append(game)
        return real(game)

    monkeypatch.setattr(promises, "confinement_facts", counted)
    monkeypatch.setattr(promises, "_FACTS", {})
    monkeypatch.setattr(promises, "probed", lambda game: ())  # the attacks: cached on their own
    first = promises.promised_here("concentration")
    assert promises.promised_here("concentration") == first
    assert asked == ["concentration"]
    monkeypatch.setenv("ARENA_SANDBOX_SECCOMP", "0")  # another setting: asked again
    promises.promised_here("concentration")
    assert asked == ["concentration", "concentration"]
