"""`arena doctor`'s probes (issue 27): every promise attacked from inside real sandboxed game
processes. The attacks are real (in the arena's own process they get through), the doctor prints
each with its outcome, `--strict` fails when one gets through, and sandboxed every one is
stopped."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.sandbox import TURNS, run_probes
from arena.sandbox.attacks import STOPPED, THROUGH, ProbeBot
from arena.sandbox.probes import CANARY, ProbeResult, probes_summary
from tests.helpers import run
from tests.sandbox.support import attack_control, needs_namespaces


def _in_process(*request: object) -> tuple[str, str]:
    """An attack made by the probe bot in a forked child of the test (no sandbox at all)."""
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            outcome, detail = ProbeBot().act(request)
            os.write(writing, f"{outcome}\n{detail}".encode())
        finally:
            os._exit(0)
    os.close(writing)
    data = b""
    while chunk := os.read(reading, 4096):
        data += chunk
    os.close(reading)
    os.waitpid(pid, 0)
    outcome, _, detail = data.decode().partition("\n")
    return outcome, detail


@attack_control
def test_the_doctor_s_attacks_are_real_in_process(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a sandbox each attack gets through: the probes can tell."""
    target = tmp_path / "outside.txt"
    target.write_text("x")
    kept = tmp_path / "run"
    kept.mkdir()
    (kept / "key").write_bytes(b"k" * 16)
    assert _in_process("write_outside", str(target), str(tmp_path))[0] == THROUGH
    assert _in_process("read_kept", str(kept), str(kept / "key"))[0] == THROUGH
    monkeypatch.setenv(CANARY, "token")
    assert _in_process("environment", CANARY, "no-such-token")[0] == THROUGH
    if os.path.exists("/dev/kvm") or os.path.exists("/dev/userfaultfd"):
        assert _in_process("devices")[0] == THROUGH
    assert _in_process("ahead", time.monotonic() + 1.0)[0] == THROUGH  # made before "its game"
    # issue 38: another bot's folder, a league, mountinfo, /sys and the inode counter
    assert _in_process("view", str(kept), str(kept / "key"))[0] == THROUGH
    assert _in_process("mountinfo", "/proc")[0] == THROUGH
    if os.path.isdir("/sys/class/net"):
        assert _in_process("sys")[0] == THROUGH
    assert _in_process("counter")[0] == THROUGH


def test_a_lock_and_a_netlink_datagram_pass_a_note_between_two_processes_unsandboxed() -> None:
    """The channels the doctor tries between games work between two plain processes."""
    holder, seer = ProbeBot(), ProbeBot()
    holder.act(("lock", os.__file__))
    try:
        assert _in_process("see_lock", os.__file__)[0] == THROUGH
    finally:
        for name, fd in list(holder.kept.items()):
            if name.startswith("lock-"):
                os.close(fd)
    try:
        _, port = seer.act(("netlink_listen",))
    except OSError:
        pytest.skip("no NETLINK_USERSOCK socket here")
    holder.act(("netlink_send", port, "note-x"))
    assert seer.act(("netlink_receive", "note-x"))[0] == THROUGH
    for bot in (holder, seer):
        for value in bot.kept.values():
            if isinstance(value, socket.socket):
                value.close()


def test_the_summary_names_the_promises_broken() -> None:
    results = (ProbeResult("no network", "UDP", STOPPED, "refused"),
               ProbeResult("no devices", "/dev/kvm", THROUGH, "opened"),
               ProbeResult("no devices", "/dev/mem", THROUGH, "opened"))
    assert probes_summary(results[:1]) == "all 1 attacks of `arena doctor` stopped"
    assert probes_summary(results) == ("2 of 3 attacks of `arena doctor` got through, "
                                       "breaking: no devices")


def test_the_doctor_prints_each_attack_and_strict_fails_when_one_gets_through(
        runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that is not paused between its turns computes while another thinks: the probe
    sees it, the doctor says so under the promise, and --strict exits 1."""
    monkeypatch.setattr(TURNS, "enabled", False)
    result = run(runner, "doctor", "--strict")
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    promise = next(i for i, line in enumerate(lines)
                   if "every process stopped between its turns" in line)
    assert lines[promise + 1].split()[:2] == ["GOT", "THROUGH"]
    assert "a thread computing while another bot thinks" in lines[promise + 1]
    assert any(line.strip().startswith("stopped ") for line in lines)  # the others say so too
    assert lines[-1].startswith("  probes: ") and "every process stopped" in lines[-1]


@needs_namespaces
def test_sandboxed_every_attack_of_the_doctor_is_stopped() -> None:
    """Issue 27: the sandbox keeps its word against every attack `arena doctor` makes (the
    terminal, devices, notes between any two game processes, running ahead, the environment,
    signals, and the promises of before)."""
    results = run_probes()
    through = [f"{r.promise}: {r.tried}: {r.detail}" for r in results if r.through]
    assert not through, "\n".join(through)
    assert len({r.promise for r in results}) == 16  # every promise is tried
    tried = " ".join(r.tried for r in results)
    for attack in ("another bot's folder", "mountinfo", "/sys", "inode number"):
        assert attack in tried  # issue 38's channels among them
