"""A program bot's stand-in, the arena's side: the arena speaks the line protocol
(docs/protocol.md) to the program itself, with nothing in between.

Its game process, confined as a Python bot's is, has become the program's waiting shell (see
`arena.sandbox.launch`): the arena reads its ready line before the game, then sends `start`
after the word to go, and the program, started by that word, reads it on its standard input
(the game's socket) and answers on its standard output (a socket of its own, whose other end is
the arena's). Each answer is read and checked here, under the same time limits and with the
same pauses between turns as a Python bot's, and whatever breaks the protocol is a fault of the
bot with a one-line detail (`arena.protocol.forms.answer_line`).
"""

from __future__ import annotations

import contextlib
import json
import math
import socket
import time
import weakref
from typing import Any

from arena.api import Action, GameInfo, Observation, Result
from arena.errors import BotSpecError
from arena.match import described
from arena.protocol.command import CommandSpec, Speaker, command_spec, describe_status
from arena.protocol.forms import ProtocolError, answer_line
from arena.record import BotFault, FaultKind
from arena.sandbox.launch import GO, NOT_RUN, READY
from arena.sandbox.stand_in import BotHost, SandboxedBot, _error, _parsed, _timeval

_ENDING_SECONDS = 1.0
"""How long a program that closed its output is given to end, so that its fault says how (it
closes its output as it exits, a moment before it has ended: at a load of 8 to 15 that moment
took more than 0.1 s in 1 of 30 to 40 tries; a program still running after that is a crash all
the same, told a second later)."""

_SLACK = 0.002  # how far the socket's send timeout may be off the call's, in seconds

_COMMANDS: weakref.WeakKeyDictionary[BotHost, CommandSpec] = weakref.WeakKeyDictionary()
"""Each host's command, read once (its manifest: the compact encoding, if it asks for it)."""


class ProgramBot(SandboxedBot):
    """Stands in for a program bot in a sandboxed game: speaks the line protocol to it, under
    time limits."""

    def __init__(self, host: BotHost) -> None:
        super().__init__(host)
        self._speaker: Speaker | None = None  # set once its game process is ready
        self._sending = math.inf  # the send timeout the game's socket has (inf: the setup's)

    def answered(self, plain: Any) -> str:
        """What the program answered: the action it sent, as read from its JSON."""
        return f"{described(plain)} (as the bot sent it)"

    def start(self, info: GameInfo) -> None:
        """Take a game process (its waiting shell ready), then send the word to go and `start`:
        the program's start-up counts under the start limit."""
        self._take()
        try:
            speaker = Speaker(_command(self.host))
            line = speaker.start(info)
        except BotFault:
            self.close()
            raise
        self._speaker = speaker
        self._thought("start", GO + line)

    def act(self, obs: Observation[Any]) -> Action:
        """Send `act`; the action the answer names (see `Speaker.action`)."""
        speaker = self._speaker
        assert speaker is not None
        answer, used = self._thought("act", speaker.act(obs))
        self._decided(used)
        try:
            return speaker.action(answer, obs.legal)
        except ProtocolError as exc:
            self.close()
            raise BotFault(FaultKind.MALFORMED, str(exc)) from None

    def end(self, result: Result) -> None:
        """Send `end` and read its acknowledgement (the protocol acknowledges every message)."""
        speaker = self._speaker
        assert speaker is not None
        self._thought("end", speaker.end(result))

    def _ready(self) -> None:
        """Wait, up to the setup backstop, for the game process's ready line (its shell waits
        for the word to go); or the one line that says why the program cannot be started."""
        self._budget = None
        data, _ = self._exchange(b"", self.limits.setup_seconds, "start")
        if data == READY:
            return
        self.close()
        reply = _parsed("probe", data)
        if reply is not None and reply[0] == "error":
            kind, detail = _error(reply)
            raise BotFault(kind, f"start: {detail}")
        raise BotFault(FaultKind.MALFORMED, "start: the bot process sent a malformed answer")

    def _call(self, op: str, payload: Any, timeout: float) -> tuple[Any, float]:
        """Send the line `payload` and read the program's answer within `timeout` seconds: the
        answer (JSON, checked: `answer_line`), and the seconds it took."""
        sock = self.sock
        if sock is not None and abs(timeout - self._sending) > _SLACK:
            # a program that stops reading its input holds the arena no longer than its call
            self._sending = timeout
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO,
                            _timeval(min(timeout, self.limits.setup_seconds)))
        data, used = self._exchange(payload, timeout, op)
        try:
            answer = answer_line(data, op)
        except ProtocolError as exc:
            self.close()
            code = _not_run(data) if op == "start" else None
            if code is not None:  # the waiting shell's word: the program is gone
                raise BotFault(FaultKind.CRASH, f"start: the bot's program "
                               f"{describe_status(code)}") from None
            raise BotFault(FaultKind.MALFORMED, str(exc)) from None
        return answer, used

    def _closed(self, op: str, data: bytes) -> bytes:
        """The program closed its standard output after `data`: a line without its end
        (malformed), or no answer at all (a crash, which says how the program ended if it has;
        memory if its memory group ended it)."""
        if self._speaker is None:  # its game process, before the game
            return super()._closed(op, data)
        how = self._program_end()
        self.close(ended=True)
        self._out_of_memory(op)
        if data:
            try:
                answer_line(data, op)
            except ProtocolError as exc:
                raise BotFault(FaultKind.MALFORMED, str(exc)) from None
        raise BotFault(FaultKind.CRASH, f"{op}: the bot's program closed its standard output "
                       "without answering" + (f" ({how})" if how else ""))

    def _program_end(self) -> str:
        """How the program ended, if it has within a moment (it is the game process, unless the
        game has an init); empty if it has not."""
        if self.own_processes > 1 or self.group <= 0:
            return ""
        deadline = time.monotonic() + _ENDING_SECONDS
        while True:
            status = _exit_status(self.group)
            if status is not None:
                return describe_status(status)
            if time.monotonic() >= deadline:
                return ""
            time.sleep(0.002)


def _command(host: BotHost) -> CommandSpec:
    """The host's command, read once (BotFault naming the spec if it can no longer be)."""
    found = _COMMANDS.get(host)
    if found is None:
        try:
            found = _COMMANDS[host] = command_spec(host.spec)
        except BotSpecError as exc:
            raise BotFault(FaultKind.CRASH, f"start: {exc}") from None
    return found


def _not_run(data: bytes) -> int | None:
    """The exit code the waiting shell says it ends with, if `data` is its line saying that the
    program could not be run (see `arena.sandbox.launch.NOT_RUN`); else None."""
    if not data.startswith(b'["' + NOT_RUN.encode()):
        return None
    with contextlib.suppress(ValueError):
        word, code = json.loads(data)
        if word == NOT_RUN and code in (126, 127):
            return int(code)
    return None


def _exit_status(pid: int) -> int | None:
    """The exit code of a process that has ended and is not yet reaped (negative: the signal
    that killed it), as /proc says; None while it runs, or if that cannot be told."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        if fields[0] not in (b"Z", b"X"):
            return None
        status = int(fields[49])  # field 52: exit_code, a wait status
    except (OSError, IndexError, ValueError):
        return None
    return -(status & 0x7F) if status & 0x7F else status >> 8
