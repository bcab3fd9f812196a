"""The sandbox against bots that attack through their files, through their time outside `act`,
and through their answers: each attack shown to work in-process (isolation none) where it can,
and contained sandboxed (the bots are in `tests/sandbox/hostile/files.py`)."""

from __future__ import annotations

import json
import re
import shutil
import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.record import BotFault, FaultKind, GameRecord
from arena.sandbox import BotHost, Limits, SandboxedBot, SandboxedSpec, probe, sandboxed
from arena.sandbox.wire import Outbox
from arena.tournament.planning.config import load_config
from arena.tournament.records.results import GAMES
from arena.tournament.run import run_tournament
from tests.helpers import run

HOSTILE_FILES = Path(__file__).parent / "hostile" / "files.py"
LIMITS = Limits(move_seconds=0.5, game_seconds=20.0, overage_seconds=0.5, memory_mb=256)
SECRET = "deadbeefcafe0123456789abcdef0123"  # parses as Python: a name
HUGE = 2 << 30  # a sparse file of 2 GB


def bot_folder(tmp_path: Path, name: str = "peeker") -> Path:
    """A folder of the bot's own holding a copy of the hostile bots as `<name>.py`."""
    folder = tmp_path / "mine"
    folder.mkdir(exist_ok=True)
    shutil.copy(HOSTILE_FILES, folder / f"{name}.py")
    return folder


def play(bot: object, seed: int = 3) -> GameRecord:
    """One game of `bot` (seat 0: a bot, or a sandboxed entry) against in-process greedy."""
    variant = find_game("concentration").variant("standard")
    made = bot.make()  # type: ignore[attr-defined]
    return play_game(variant, [made, resolve_bot("greedy").make()], ["hostile", "greedy"], seed)


def faults(record: GameRecord) -> list[tuple[int, FaultKind, str]]:
    """A record's faults: seat, kind, detail."""
    return [(fault.seat, fault.kind, fault.detail) for fault in record.faults]


def rival_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Another bot, given as a module of a package (importable by the arena and the hosts),
    whose source holds the secret; its package folder."""
    package = tmp_path / "packages" / "rivalpkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "bot.py").write_text(
        f"SECRET = {SECRET!r}  # what the rival keeps to itself\n\n"
        "from bots.algorithms.random_bot import RandomBot\n\n\nclass Friend(RandomBot):\n"
        "    games = ('concentration',)\n")
    monkeypatch.setenv("PYTHONPATH", str(package.parent))
    monkeypatch.syspath_prepend(str(package.parent))
    return package


@pytest.mark.parametrize("leads_to", ["rival", "key"])
def test_a_link_beside_the_bot_leaks_nothing_sandboxed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, leads_to: str) -> None:
    folder = bot_folder(tmp_path)
    if leads_to == "rival":  # a file inside another bot's package
        kept = rival_package(tmp_path, monkeypatch)
        target = kept / "bot.py"
    else:  # the run's key, which parses as Python
        kept = tmp_path / "run"
        kept.mkdir()
        target = kept / "key"
        target.write_text(SECRET + "\n")
    link = folder / "stolen.py"
    link.symlink_to(target)
    spec = f"{folder / 'peeker.py'}:Peeker:target={link},secret={SECRET}"
    # in-process, nothing stands in the way: the bot reads what the link leads to
    assert faults(play(resolve_bot(spec))) == [
        (0, FaultKind.EXCEPTION, "start raised RuntimeError: leaked by reading it "
                                 f"(at peeker.py:{_line_of('raise RuntimeError')} in start)")]
    # sandboxed, it can neither read it nor find it compiled by its host
    host = BotHost(spec, "concentration", LIMITS, private=[kept])
    try:
        record = play(SandboxedSpec("peeker", host))
    finally:
        host.close()
    assert faults(record) == []


def _line_of(text: str) -> int:
    """The number of the first line of the hostile bots' file that holds `text`."""
    lines = HOSTILE_FILES.read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def _peak_kb(pid: int) -> int:
    """A process's peak resident memory (VmHWM), in KB."""
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"^VmHWM:\s+(\d+) kB", status, re.MULTILINE)
    assert found is not None
    return int(found.group(1))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="no /proc")
def test_a_huge_file_beside_the_bot_is_not_read_by_its_host(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path, "plain")
    huge = folder / "huge.py"
    with huge.open("wb") as f:
        f.truncate(HUGE)  # sparse: takes no room on disk
    assert huge.stat().st_size == HUGE
    host = BotHost(f"{folder / 'plain.py'}:Plain", "concentration", LIMITS)
    try:
        record = play(SandboxedSpec("plain", host))
        assert host.pid is not None
        peak = _peak_kb(host.pid)
    finally:
        host.close()
    assert faults(record) == []
    assert peak * 1024 < HUGE // 16, f"the host's peak memory was {peak} kB"


# thinking time over the game: room enough for a loaded machine's moves, so only start or end
# runs out
GAME_SECONDS = 1.5
SLOW = 2.0  # what the slow bots take over their start or end


@pytest.mark.parametrize("name", ["SlowStart", "SlowEnd"])
def test_a_slow_start_or_end_counts_against_the_game_s_time(name: str, tmp_path: Path) -> None:
    folder = bot_folder(tmp_path, "slow")
    spec = f"{folder / 'slow.py'}:{name}:seconds={SLOW}"
    # in-process, no time is kept: taking longer than the whole game's time goes unpunished
    assert faults(play(resolve_bot(spec))) == []
    entry = sandboxed(spec, "concentration", Limits(game_seconds=GAME_SECONDS))
    try:
        record = play(entry)
    finally:
        entry.close()
    ((seat, kind, detail),) = faults(record)
    op = "start" if name == "SlowStart" else "end"
    assert (seat, kind) == (0, FaultKind.TIMEOUT) and detail.startswith(f"{op}: no answer within")
    found = re.match(r"\w+: no answer within ([\d.]+) s \(what was left of its 1.5 s a game: "
                     r"([\d.]+) s\)$", detail)
    assert found is not None, detail
    assert float(found[1]) <= GAME_SECONDS  # the end had only what the game had left


SLOW_CONFIG = """
name = "slow"
[deals]
count = 1
base = 3
[limits]
game_seconds = {game}
start_seconds = 0.5
end_seconds = 0.2
[[bots]]
spec = "{folder}/slow.py:SlowStart:seconds={slow}"
name = "slow-start"
[[bots]]
spec = "{folder}/slow.py:SlowEnd:seconds={slow}"
name = "slow-end"
[[games]]
game = "concentration"
players = 2
variants = ["standard"]
"""


def test_a_tournament_times_slow_start_and_end_out_as_its_config_says(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path, "slow")
    path = tmp_path / "slow.toml"
    # a game's time no load runs out in a thousand decisions (1.5 s did at a load of 6): what
    # is tested is the start's and the end's own limits
    path.write_text(SLOW_CONFIG.format(game=60.0, folder=folder, slow=SLOW))
    out = tmp_path / "run"
    assert run_tournament(load_config(path), out).complete
    records = [json.loads(line) for line in (out / GAMES).read_text().splitlines()]
    assert len(records) == 2
    for record in records:
        seats = record["seats"]
        assert sorted((seats[f["seat"]], f["kind"], f["detail"].split(":")[0])
                      for f in record["faults"]) == [
            ("slow-end", "timeout", "end"), ("slow-start", "timeout", "start")]
        end = next(f for f in record["faults"] if seats[f["seat"]] == "slow-end")
        assert end["detail"] == (  # end_seconds, under the game's; and where its output is
            "end: no answer within 0.2 s (its 0.2 s for end, and it has no overage bank) "
            f"(what it printed: bots/slow-end.log under [task {record['task']}, deal 3, seat "
            f"{seats.index('slow-end')}, against slow-start])")


@pytest.mark.parametrize(("limits", "name", "within"), [
    (Limits(move_seconds=1.0, game_seconds=10.0, start_seconds=0.2), "SlowStart",
     "0.2 s (its 0.2 s for start, and it has no overage bank)"),
    (Limits(move_seconds=1.0, game_seconds=10.0, end_seconds=0.2), "SlowEnd",
     "0.2 s (its 0.2 s for end, and it has no overage bank)"),
    (Limits(move_seconds=0.1, overage_seconds=0.1, game_seconds=10.0), "SlowStart",
     "0.2 s (its 0.1 s for start plus 0.1 s left in its overage bank)"),
    (Limits(move_seconds=0.1, overage_seconds=0.1, game_seconds=10.0), "SlowEnd",
     "0.2 s (its 0.1 s for end plus 0.1 s left in its overage bank)"),
], ids=["start_seconds", "end_seconds", "start-as-a-move", "end-as-a-move"])
def test_start_and_end_have_limits_of_their_own_or_a_move_s(
        tmp_path: Path, limits: Limits, name: str, within: str) -> None:
    folder = bot_folder(tmp_path, "slow")
    entry = sandboxed(f"{folder / 'slow.py'}:{name}:seconds=0.4", "concentration", limits)
    try:
        record = play(entry)
    finally:
        entry.close()
    op = "start" if name == "SlowStart" else "end"
    assert faults(record) == [(0, FaultKind.TIMEOUT, f"{op}: no answer within {within}")]


@pytest.mark.parametrize("name", ["SlowStart", "SlowEnd"])
def test_the_time_of_start_and_end_is_taken_from_the_game_and_the_bank(
        tmp_path: Path, name: str) -> None:
    folder = bot_folder(tmp_path, "slow")
    limits = Limits(move_seconds=0.1, overage_seconds=0.5, game_seconds=5.0)
    entry = sandboxed(f"{folder / 'slow.py'}:{name}:seconds=0.3", "concentration", limits)
    try:
        made = entry.make()
        record = play_game(find_game("concentration").variant("standard"),
                           [made, resolve_bot("greedy").make()], ["slow", "greedy"], 3)
    finally:
        entry.close()
    assert faults(record) == []
    assert isinstance(made, SandboxedBot)
    assert made.game_left <= 5.0 - 0.3 - made.thinking  # its moves' time, and start's or end's
    assert made.bank <= 0.5 - 0.2  # over its own limit (a move's): paid from the bank


def test_loading_the_bot_is_not_thinking(tmp_path: Path) -> None:
    """A fresh host's first game process may still be importing the bot when its game starts:
    that time is not taken from the bot's start (nor its game)."""
    bot = tmp_path / "heavy.py"
    bot.write_text("import time\nfrom arena.api import Bot\n\ntime.sleep(0.5)\n\n\n"
                   "class Heavy(Bot):\n    def act(self, obs):\n        return obs.legal[0]\n")
    entry = sandboxed(f"{bot}:Heavy", "concentration",
                      Limits(move_seconds=0.05, game_seconds=0.3))
    try:
        record = play(entry)
    finally:
        entry.close()
    assert faults(record) == []


SHOUTER_CONFIG = """
name = "shouter"
[deals]
count = 1
base = 1
[[bots]]
spec = "{spec}"
[[bots]]
spec = "random"
[[games]]
game = "concentration"
players = 2
variants = ["standard"]
"""


def test_a_bot_that_answers_with_a_huge_number_at_import_cannot_load(
        tmp_path: Path, runner: CliRunner) -> None:
    folder = bot_folder(tmp_path, "shouter")  # writes ["action",999...9] on its socket at import
    spec = f"{folder / 'shouter.py'}:Plain"
    problem = probe(spec, "concentration", LIMITS)
    assert problem == f"bot spec {spec!r}: probe: the bot process sent a malformed answer"
    config = tmp_path / "shouter.toml"
    config.write_text(SHOUTER_CONFIG.format(spec=spec))
    result = run(runner, "run", str(config), "--out", str(tmp_path / "run"), "-q")
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    assert result.stderr.splitlines() == [f"arena: error: {config}: bots[0].spec: {problem}"]


BIG = b"9" * 5001  # more digits than Python converts to an int


@pytest.mark.parametrize(("op", "line", "kind"), [
    pytest.param("act", b'["action",' + BIG + b"]\n", FaultKind.MALFORMED, id="huge-action"),
    pytest.param("act", b'["action", ' + BIG + b"]\n", FaultKind.MALFORMED, id="huge-spaced"),
    pytest.param("act", b'["action",-' + BIG + b"]\n", FaultKind.MALFORMED, id="huge-negative"),
    pytest.param("start", b'["ok",' + BIG + b"]\n", FaultKind.MALFORMED, id="huge-ok"),
    pytest.param("probe", b'["ok",' + BIG + b"]\n", FaultKind.MALFORMED, id="huge-probe"),
    pytest.param("act", b'["action",' + b"[" * 100_000 + b"]" * 100_000 + b"]\n",
                 FaultKind.MALFORMED, id="deep"),
    pytest.param("act", b'["action","\xff\xfe"]\n', FaultKind.MALFORMED, id="not-utf-8"),
    pytest.param("act", b'{"action":1}\n', FaultKind.MALFORMED, id="object"),
    pytest.param("act", b'[["action"],1]\n', FaultKind.MALFORMED, id="list-first"),
    pytest.param("act", b"[]\n", FaultKind.MALFORMED, id="empty"),
    pytest.param("end", b"null\n", FaultKind.MALFORMED, id="null"),
    pytest.param("act", b'["error",["exception"],"x"]\n', FaultKind.MALFORMED, id="error-kind"),
    pytest.param("act", b'["error","exception",' + BIG + b"]\n", FaultKind.MALFORMED,
                 id="error-huge"),
    pytest.param("act", b'["error","exception",{"a":1}]\n', FaultKind.MALFORMED,
                 id="error-object"),
    pytest.param("act", b'["error","exception","\\ud800 at\\nonce"]\n', FaultKind.EXCEPTION,
                 id="error-surrogate"),
])
def test_any_bad_answer_is_a_fault_of_the_bot(op: str, line: bytes, kind: FaultKind) -> None:
    bot = SandboxedBot(BotHost("nowhere.py:Nobody", "concentration", LIMITS))
    bot.sock, theirs = socket.socketpair()
    bot.answers = bot.sock  # a Python bot answers on the socket it is sent messages on
    bot._outbox = Outbox()
    try:
        theirs.sendall(line)
        with pytest.raises(BotFault) as raised:
            bot._call(op, None, 5.0)
    finally:
        bot.close()
        theirs.close()
    assert raised.value.kind is kind
    detail = raised.value.detail
    assert "\n" not in detail and detail.encode("utf-8")  # one line, written anywhere
    if kind is FaultKind.EXCEPTION:
        assert detail == "\\ud800 at once"


@pytest.mark.parametrize(("line", "action"), [
    (b'["action",' + b"9" * 4000 + b"]\n", int("9" * 4000)),
    (b'["action",12]\n', 12),
    (b'["action",[1,["2H",null]]]\n', (1, ("2H", None))),
])
def test_good_answers_are_read_whatever_their_size(line: bytes, action: object) -> None:
    bot = SandboxedBot(BotHost("nowhere.py:Nobody", "concentration", LIMITS))
    bot.sock, theirs = socket.socketpair()
    bot.answers = bot.sock  # a Python bot answers on the socket it is sent messages on
    bot._outbox = Outbox()
    try:
        theirs.sendall(line)
        reply, _ = bot._call("act", None, 5.0)
    finally:
        bot.close()
        theirs.close()
    assert reply == ["action", action]
