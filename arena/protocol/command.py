"""A bot named by its command: `cmd:./mybot`, `cmd:node bot.js`, or a folder holding a `bot.toml`
manifest (name, command, games); the arena's half of the line protocol (docs/protocol.md), a
`Speaker`; and `CommandBot`, which plays a program in the arena's own process.

The program is started at `start`, so that its start-up counts under the start limit, not the
first move: here as a plain child process; in a sandbox, the game process becomes the program
(`arena.sandbox.launch`) and the arena speaks to it directly (`arena.sandbox.program`)."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import stat
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from arena.api import Action, Bot, GameInfo, Observation, Result
from arena.errors import ArenaError, BotSpecError
from arena.protocol.forms import (
    LINE_LIMIT,
    ProtocolError,
    act_line,
    act_message,
    answer_line,
    chosen_action,
    encode,
    end_message,
    start_message,
)
from arena.record import BotFault, FaultKind
from arena.text import escape

PREFIX = "cmd:"
MANIFEST = "bot.toml"
MANIFEST_LIMIT = 64 * 1024
_ENDING_SECONDS = 0.1
SEARCH_PATH = "/usr/local/bin:/usr/bin:/bin"
"""Where a command's first word is looked up when it names no path (as a shell would)."""


@dataclass(frozen=True)
class CommandSpec:
    """A bot that is a program: its name, its command line (the program as an absolute path),
    its folder (its working directory) and the games it plays."""

    name: str
    argv: tuple[str, ...]
    folder: Path
    games: tuple[str, ...] = ("*",)
    encoding: str = "json"


ENCODINGS = ("json", "compact")
"""What a program bot may ask for in its `bot.toml` (`encoding`): JSON alone, or JSON with the
compact encoding of `arena.rl` (an observation vector and an action mask) added."""


def is_command(spec: str) -> bool:
    """Whether a spec names a program (`cmd:...`, or a folder with a `bot.toml`)."""
    text = spec.strip()
    return text.startswith(PREFIX) or _manifest_folder(text) is not None


def _manifest_folder(text: str) -> Path | None:
    if not text or text.startswith(PREFIX) or ":" in text or "/" not in text:
        return None
    folder = Path(text)
    try:
        return folder if (folder / MANIFEST).is_file() else None
    except OSError:
        return None


def _words(command: str, spec: str) -> list[str]:
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise BotSpecError(f"bot spec {spec!r}: the command cannot be read: {exc}") from None
    if not words:
        raise BotSpecError(f"bot spec {spec!r}: no command after {PREFIX!r}")
    return words


def _anchor_words(words: Sequence[str], base: Path) -> list[str]:
    """Words naming a file relative to `base` made absolute (the first, only if it is a path)."""
    out = []
    for i, word in enumerate(words):
        path = Path(word)
        if not path.is_absolute() and (i > 0 or "/" in word) and not word.startswith("-"):
            with contextlib.suppress(OSError):
                if (base / path).exists():
                    word = str((base / path).resolve())
        out.append(word)
    return out


def anchored_command(spec: str, base: Path | None = None) -> str:
    """A command spec naming the same files from any directory (relative paths made absolute
    from `base`, or the working directory)."""
    text = spec.strip()
    where = base or Path.cwd()
    if text.startswith(PREFIX):
        words = _anchor_words(_words(text[len(PREFIX):], text), where)
        return PREFIX + shlex.join(words)
    folder = Path(text)
    return str(folder if folder.is_absolute() else (where / folder).resolve())


def command_folder(spec: str) -> Path | None:
    """The folder of a command bot (its working directory, its code); None for other specs or
    a command that names no file."""
    text = spec.strip()
    if not text.startswith(PREFIX):
        found = _manifest_folder(text)
        return found.resolve() if found is not None else None
    try:
        words = _words(text[len(PREFIX):], text)
    except BotSpecError:
        return None
    system = {Path(folder) for folder in SEARCH_PATH.split(":")}
    for word in reversed(words):
        path = Path(word)
        with contextlib.suppress(OSError):
            # a program of the system's (/usr/bin/node) is not the bot's code: never its folder
            if ("/" in word or len(words) > 1) and path.is_file() \
                    and path.parent not in system and path.resolve().parent not in system:
                return path.resolve().parent
    return None


def command_display(spec: str) -> str:
    """The name a command bot is shown under, read without running anything: a manifest's name
    (else its folder's), or the command with paths shortened to their file names."""
    text = spec.strip()
    if text.startswith(PREFIX):
        try:
            words = _words(text[len(PREFIX):], text)
        except BotSpecError:
            return text
        return escape(PREFIX + " ".join(Path(w).name if "/" in w else w for w in words))
    try:
        return _read_manifest(Path(text), text).name
    except BotSpecError:
        return escape(Path(text).name)


def _read_manifest(folder: Path, spec: str) -> CommandSpec:
    from arena.safe_files import UnsafeFileError, parse_toml, read_text

    where = folder / MANIFEST
    try:
        data = parse_toml(read_text(where, MANIFEST_LIMIT), str(where))
    except (UnsafeFileError, OSError, ValueError) as exc:
        raise BotSpecError(f"bot spec {spec!r}: {where}: {str(exc).splitlines()[0]}") from None
    unknown = sorted(set(data) - {"name", "command", "games", "description", "encoding"})
    if unknown:
        raise BotSpecError(f"bot spec {spec!r}: {where}: unknown key {unknown[0]!r} "
                           "(known: name, command, games, encoding, description)")
    encoding = data.get("encoding", "json")
    if encoding not in ENCODINGS:
        raise BotSpecError(f"bot spec {spec!r}: {where}: 'encoding' is one of "
                           f"{', '.join(ENCODINGS)}")
    name, command, games = data.get("name"), data.get("command"), data.get("games", ["*"])
    if not isinstance(name, str) or not name.strip() or len(name) > 64:
        raise BotSpecError(f"bot spec {spec!r}: {where}: 'name' must be a short string")
    if isinstance(command, str):
        words = _words(command, spec)
    elif isinstance(command, list) and command and all(isinstance(w, str) for w in command):
        words = list(command)
    else:
        raise BotSpecError(f"bot spec {spec!r}: {where}: 'command' must be a string or a list "
                           "of strings")
    if not (isinstance(games, list) and games and all(isinstance(g, str) for g in games)):
        raise BotSpecError(f"bot spec {spec!r}: {where}: 'games' must be a list of game names")
    folder = folder.resolve()
    argv = _anchor_words(words, folder)
    # the bot's own words: escaped before any terminal, log or page shows them
    return CommandSpec(escape(name.strip()), (_program(argv[0], spec, folder), *argv[1:]),
                       folder, tuple(games), encoding)


def _program(word: str, spec: str, folder: Path) -> str:
    """The program a command's first word names, as an absolute path: checked to exist, be a
    regular file and be executable (BotSpecError naming the spec if not)."""
    if "/" in word:
        path = Path(word) if Path(word).is_absolute() else folder / word
    else:
        found = shutil.which(word, path=SEARCH_PATH)
        if found is None:
            raise BotSpecError(f"bot spec {spec!r}: no program {word!r} on {SEARCH_PATH}")
        path = Path(found)
    try:
        mode = path.stat().st_mode
    except OSError:
        raise BotSpecError(f"bot spec {spec!r}: program {str(path)!r} not found") from None
    if not stat.S_ISREG(mode):
        raise BotSpecError(f"bot spec {spec!r}: program {str(path)!r} is not a file")
    if not os.access(path, os.X_OK):
        raise BotSpecError(f"bot spec {spec!r}: program {str(path)!r} is not executable "
                           f"(chmod +x {shlex.quote(str(path))})")
    return str(path)


def command_spec(spec: str) -> CommandSpec:
    """A command spec read and checked (BotSpecError naming the spec and what is wrong)."""
    text = spec.strip()
    if not text.startswith(PREFIX):
        folder = _manifest_folder(text)
        if folder is None:
            raise BotSpecError(f"bot spec {spec!r}: no {MANIFEST} in {text!r}")
        return _read_manifest(folder, text)
    words = _words(text[len(PREFIX):], text)
    folder = command_folder(text) or Path.cwd()
    argv = (_program(words[0], text, Path.cwd()), *words[1:])
    return CommandSpec(command_display(text), argv, folder)


def command_class(command: CommandSpec) -> type[CommandBot]:
    """A bot class that plays by running `command`."""
    return type("CommandBot", (CommandBot,), {"command": command, "games": command.games,
                                              "__module__": __name__})


# -- speaking to the program ----------------------------------------------------------------


class Speaker:
    """One game's conversation with a program, the arena's half: each message it is sent as one
    line (with the compact encoding's fields, if it asked for them), and what its answer to
    `act` names. Held wherever the arena speaks to a program: in its own process (`CommandBot`)
    and across a sandbox (`arena.sandbox.program`)."""

    def __init__(self, command: CommandSpec) -> None:
        self.command = command
        self._compact: Any = None  # the compact encoding, if the bot asks for it

    def start(self, info: GameInfo) -> bytes:
        """The `start` line (BotFault if the bot asks for a compact encoding the game lacks)."""
        message = start_message(info)
        if self.command.encoding == "compact":
            self._compact = _compact_encoding(info)
            message.update(self._compact.start_fields())
        return encode(message)

    def act(self, obs: Observation[Any]) -> bytes:
        """The `act` line of a decision."""
        if self._compact is None:
            return act_line(obs)
        message = act_message(obs)
        message.update(self._compact.act_fields(obs))
        return encode(message)

    def end(self, result: Result) -> bytes:
        """The `end` line."""
        return encode(end_message(result))

    def action(self, answer: Any, legal: Sequence[Any]) -> Any:
        """The legal action an `act` answer names (or the action it sends, which the arena checks
        is legal; or, in the compact encoding, the action of an encoded index); ProtocolError if
        it names none."""
        compact = self._compact
        if compact is not None and isinstance(answer, dict) and "encoded" in answer:
            return _encoded_action(compact, answer["encoded"])
        return chosen_action(answer, legal)


def bot_environment(home: str) -> dict[str, str]:
    """What a bot's program is given of an environment: a search path, a text encoding, and a
    home and temporary directory it may write to."""
    return {"PATH": SEARCH_PATH, "LANG": "C.UTF-8", "HOME": home, "TMPDIR": home}


def describe_status(code: int) -> str:
    """A program's end, from its return code (negative: the signal that killed it); codes 126
    and 127 are a shell's: the program could not be run."""
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
        return f"killed by signal {-code}"
    if code in (126, 127):
        return (f"exited with code {code}: the program could not be run (the bot's log says "
                "why)")
    return f"exited with code {code}"


class CommandBot(Bot):
    """A bot that is a program, played in the arena's own process (no sandbox: `--isolation
    none`): started as a plain child process at `start` (its standard error the arena's), each
    call sent as one line of JSON and each answer read as one line (docs/protocol.md). What
    breaks the protocol is a fault of the bot. (In a sandbox the arena speaks to the program
    itself: `arena.sandbox.program`.)"""

    command: ClassVar[CommandSpec]
    games: ClassVar[tuple[str, ...]] = ("*",)

    def __init__(self) -> None:
        self._running: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._speaker = Speaker(self.command)

    def start(self, info: GameInfo) -> None:
        """Start the program and send it `start` (its start-up falls under the start limit)."""
        super().start(info)
        line = self._speaker.start(info)
        command = self.command
        # in the arena's process: the user's own home and temporary directory
        env = {**bot_environment(os.getcwd()), **{name: os.environ[name] for name in
                                                   ("HOME", "TMPDIR") if name in os.environ}}
        try:
            self._running = subprocess.Popen(list(command.argv), cwd=command.folder, env=env,
                                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             bufsize=0, close_fds=True)
        except OSError as exc:
            raise BotFault(FaultKind.CRASH, f"start: the bot's program {command.argv[0]!r} "
                           f"could not be started: {exc.strerror or exc}") from None
        self._ask("start", line)

    def act(self, obs: Observation[Any]) -> Action:
        """Send `act`; the action the answer names (see `Speaker.action`)."""
        answer = self._ask("act", self._speaker.act(obs))
        try:
            return self._speaker.action(answer, obs.legal)
        except ProtocolError as exc:
            self._fail(str(exc))

    def end(self, result: Result) -> None:
        """Send `end`, read its acknowledgement, and end the program."""
        try:
            self._ask("end", self._speaker.end(result))
        finally:
            self.close()

    def close(self) -> None:
        """End the program, if it runs, and close its pipes."""
        process, self._running = self._running, None
        if process is None:
            return
        with contextlib.suppress(OSError):
            process.kill()
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            process.wait(timeout=5)
        for stream in (process.stdin, process.stdout):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

    def _fail(self, detail: str, kind: FaultKind = FaultKind.MALFORMED) -> Any:
        self.close()
        raise BotFault(kind, detail)

    def _ask(self, op: str, data: bytes) -> Any:
        running = self._running
        if running is None or running.stdin is None or running.stdout is None:
            return self._fail(f"{op}: the bot's program is not running", FaultKind.CRASH)
        try:
            while data:
                data = data[os.write(running.stdin.fileno(), data):]
        except OSError:
            self._gone(op, "stopped reading its standard input")
        line = self._line(op, running.stdout.fileno()) + self._buffer
        self._buffer = b""  # more after the answer: a line of the program's own output
        try:
            return answer_line(line, op)
        except ProtocolError as exc:
            return self._fail(str(exc))

    def _line(self, op: str, stdout: int) -> bytes:
        """The next line the program wrote (or what it wrote before it closed its output, or
        more than `LINE_LIMIT` bytes of one line); what came after it is kept."""
        buffer = self._buffer
        while True:
            end = buffer.find(b"\n")
            if end >= 0:
                self._buffer = buffer[end + 1:]
                return buffer[:end + 1]
            if len(buffer) >= LINE_LIMIT:
                self._buffer = b""
                return buffer
            try:
                chunk = os.read(stdout, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                if buffer:
                    self._buffer = b""
                    return buffer
                self._gone(op, "closed its standard output without answering")
            buffer += chunk

    def _gone(self, op: str, what: str) -> None:
        running = self._running
        how = ""
        if running is not None:  # a program that closed its output is usually ending: it is
            with contextlib.suppress(subprocess.TimeoutExpired):  # given a moment to say how
                how = describe_status(running.wait(timeout=_ENDING_SECONDS))
        self._fail(f"{op}: the bot's program {what}" + (f" ({how})" if how else ""),
                   FaultKind.CRASH)


def _compact_encoding(info: GameInfo) -> Any:
    """`arena.rl`'s encoding of the game `info` starts (BotFault if the game has none)."""
    from arena.rl.compact import CompactEncoding  # numpy: only for bots that ask for it

    try:
        return CompactEncoding(info)
    except ArenaError as exc:
        raise BotFault(FaultKind.EXCEPTION, f"start: the compact encoding: {exc}") from None


def _encoded_action(compact: Any, index: Any) -> Any:
    """The plain action of an `{"encoded": K}` answer (ProtocolError if K is not an index)."""
    if not isinstance(index, int) or isinstance(index, bool):
        raise ProtocolError(f"act: 'encoded' is an action's index, not {type(index).__name__}")
    try:
        return compact.action(index)
    except IndexError:
        raise ProtocolError(f"act: encoded index {index} is out of range (0 to "
                            f"{compact.encoder.size - 1})") from None
