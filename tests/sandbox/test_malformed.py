"""An answer the arena cannot parse is the bot's `malformed` fault with the reason, never an
exception located in the arena's own code (issue 38: an answer nested 900-970 deep was recorded
as `exception: ... RecursionError (at program.py:74 in act)`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arena.engine import find_game
from arena.loader import resolve_bot
from arena.match import play_game
from arena.sandbox import Isolation, Limits, sandboxed

ANSWER = '''import sys
for line in sys.stdin:
    kind = line.split('"type":"', 1)[1].split('"', 1)[0]
    if kind == "act":
        sys.stdout.buffer.write({answer!r} + b"\\n")
    else:
        sys.stdout.write('{{"ok":true}}\\n')
    sys.stdout.flush()
'''


@pytest.mark.parametrize(("answer", "reason"), [
    (b'{"action":' + b"[" * 950 + b"]" * 950 + b"}", "nested deeper than 64 levels"),
    (b'{"action":' + b"[" * 200 + b"]" * 200 + b"}", "nested deeper than 64 levels"),
    (b'{"action":"\xff\xfe"}', "not UTF-8"),
])
@pytest.mark.parametrize("isolation", [Isolation.PROCESS, Isolation.NONE])
def test_an_unreadable_answer_is_malformed_with_its_reason(
        tmp_path: Path, answer: bytes, reason: str, isolation: Isolation) -> None:
    program = tmp_path / "answer.py"
    program.write_text(ANSWER.format(answer=answer))
    spec = f"cmd:{sys.executable} {program}"
    if isolation is Isolation.PROCESS:
        bot = sandboxed(spec, "dig", Limits(move_seconds=5.0))
        player = bot.make()
    else:
        bot, player = None, resolve_bot(spec, "dig").make()
    try:
        record = play_game(find_game("dig").variant(), [player, resolve_bot("random").make()],
                           ["answer", "random"], 0)
    finally:
        if bot is not None:
            bot.close()
    (fault,) = record.faults
    assert fault.kind.value == "malformed", fault
    assert reason in fault.detail and "arena" not in fault.detail.split("(at")[-1]
