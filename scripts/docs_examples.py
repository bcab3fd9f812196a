"""Check, or rewrite, the command examples of the docs against what the commands really print.

A checked example is a fenced block right after the line `<!-- checked example -->` in one of
`DOCS`. In it each line `$ COMMAND` is a shell command run from the repository root (`arena` is
this Python's `arena.cli.main`), and the lines after it, up to the next `$` line, are its
output, stdout and stderr together, exactly. A line `…` alone stands for any lines: the lines
before it must begin the output and those after it must end it. Outputs are compared with
trailing spaces and trailing blank lines removed, at a terminal width of `COLUMNS` (80).

Generated sections (`<!-- generated: NAME -->` up to `<!-- end generated -->`) are text made
from the code itself: `game-imports` lists what each game's package exports (`__all__`), and
`memorandum-events` shows the events a Memorandum bot really receives in a real game, and
`new-bot-templates` tells what each `arena new-bot` template plays and its first improvement.

    python scripts/docs_examples.py            # check: print what differs, exit 1 if anything
    python scripts/docs_examples.py --write    # paste the real outputs into the docs

`tests/test_docs_examples.py` runs the check.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DOCS = ("README.md", "docs/cli.md", "docs/bot-api.md", "docs/rules/memorandum.md")
"""The pages whose marked examples and generated sections are checked."""
MARK = "<!-- checked example -->"
ELLIPSIS = "…"
COLUMNS = "80"
TIMEOUT = 120
_GENERATED = re.compile(r"(<!-- generated: ([a-z-]+) -->\n)(.*?)(<!-- end generated -->)",
                        re.DOTALL)


@dataclass(frozen=True)
class Example:
    """One command of a checked block: where it is, the command, and the output the docs show."""

    doc: str
    line: int
    command: str
    shown: tuple[str, ...]
    gap: int
    """Blank lines after the output in the docs (kept when the block is rewritten)."""

    @property
    def label(self) -> str:
        """`doc:line: $ command`, for test ids and messages."""
        return f"{self.doc}:{self.line}: $ {self.command}"


@dataclass(frozen=True)
class Block:
    """A checked fenced block: the range of its body lines in the page, and its examples."""

    doc: str
    start: int
    end: int
    examples: tuple[Example, ...]


def blocks(doc: str, text: str) -> list[Block]:
    """The checked blocks of one page; ValueError for a marked block that holds no command."""
    lines = text.split("\n")
    found: list[Block] = []
    for index, line in enumerate(lines):
        if line.strip() != MARK:
            continue
        fence = index + 1
        if fence >= len(lines) or not lines[fence].startswith("```"):
            raise ValueError(f"{doc}:{index + 1}: {MARK} must be followed by a fenced block")
        end = fence + 1
        while end < len(lines) and lines[end] != "```":
            end += 1
        body = lines[fence + 1:end]
        if not body or not body[0].startswith("$ "):
            raise ValueError(f"{doc}:{fence + 2}: a checked block starts with a '$ ' line")
        examples: list[Example] = []
        starts = [i for i, entry in enumerate(body) if entry.startswith("$ ")] + [len(body)]
        for first, after in pairwise(starts):
            output = body[first + 1:after]
            kept = len(output)
            while kept and not output[kept - 1].strip():
                kept -= 1
            examples.append(Example(doc, fence + 2 + first, body[first][2:],
                                    tuple(output[:kept]), len(output) - kept))
        found.append(Block(doc, fence + 1, end, tuple(examples)))
    return found


def examples(root: Path = REPO) -> list[Example]:
    """Every checked example of every page in `DOCS`, in page order."""
    return [example for doc in DOCS
            for block in blocks(doc, (root / doc).read_text(encoding="utf-8"))
            for example in block.examples]


def _environment() -> dict[str, str]:
    """The environment the examples run in: a plain terminal of `COLUMNS` columns, no colour,
    output unbuffered (so that stdout and stderr interleave as they are written)."""
    env = dict(os.environ, COLUMNS=COLUMNS, LINES="50", NO_COLOR="1", TERM="dumb",
               PYTHONUNBUFFERED="1")
    for name in ("FORCE_COLOR", "PY_COLORS", "CLICOLOR_FORCE"):
        env.pop(name, None)
    return env


def _lines(output: str) -> list[str]:
    """Output as lines, right-stripped, with no blank tail."""
    lines = [line.rstrip() for line in output.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def run(command: str, root: Path = REPO) -> list[str]:
    """What a command prints (stdout and stderr together), lines right-stripped, no blank tail."""
    launch = "import sys; sys.argv[0] = 'arena'; from arena.cli import main; main()"
    shell = f'arena() {{ "{sys.executable}" -c "{launch}" "$@"; }}\n{command}\n'
    done = subprocess.run(["bash", "-c", shell], cwd=root, env=_environment(),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=TIMEOUT, check=False)
    return _lines(done.stdout)


SHELL = re.compile(r"[|&;<>()$`\\*?~\[\]{}!#]")
"""What only a shell understands (pipes, redirections, variables, globs...): a command holding
any of it runs in bash."""
PRELOAD = ("arena.cli", "arena.cli.playing", "arena.match", "arena.loader", "arena.engine",
           "arena.session", "arena.sandbox", "arena.tty", "arena.show",
           "arena.games.concentration")
"""What the process that runs the plain `arena` commands imports once, before it forks a copy
of itself for each (each would otherwise spend most of its time importing them)."""


def _plain(command: str) -> list[str] | None:
    """The arguments of a command that is `arena` with plain words (no shell syntax, no
    variable set before it), or None."""
    if SHELL.search(command):
        return None
    words = shlex.split(command)
    return words[1:] if words and words[0] == "arena" else None


def serve() -> None:
    """Run the plain `arena` commands given on stdin (a JSON list of [folder, arguments]), each
    in a forked copy of this process, a few at a time, and write what each printed (stdout and
    stderr together) to stdout as a JSON list. The same as `arena ARGUMENTS` run in the folder
    (this process is started as bash would start `arena`, in `_environment()`), but the arena is
    imported once, not once a command."""
    jobs = json.loads(sys.stdin.read())
    sys.path[0] = ""  # as `python -c`: the current folder, not scripts/, comes first
    for name in PRELOAD:
        importlib.import_module(name)
    from arena.cli import main as arena

    outputs: list[str] = [""] * len(jobs)
    running: dict[int, tuple[int, Any]] = {}
    waiting = list(enumerate(jobs))
    while waiting or running:
        while waiting and len(running) < min(8, os.cpu_count() or 1):
            index, (folder, args) = waiting.pop(0)
            out = tempfile.TemporaryFile()  # noqa: SIM115  (closed once its command ends)
            pid = os.fork()
            if pid == 0:  # the command, as a process of its own
                os.chdir(folder)
                os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
                os.dup2(out.fileno(), 1)
                os.dup2(out.fileno(), 2)
                sys.argv = ["arena", *args]
                code = 0
                try:
                    arena()
                except SystemExit as ended:
                    if isinstance(ended.code, str):
                        print(ended.code, file=sys.stderr)
                    code = ended.code if isinstance(ended.code, int) else \
                        int(ended.code is not None)
                except BaseException:  # printed, as Python would
                    traceback.print_exc()
                    code = 1
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
            running[pid] = (index, out)
        pid, _ = os.wait()
        index, out = running.pop(pid)
        out.seek(0)
        outputs[index] = out.read().decode("utf-8", "replace")
        out.close()
    json.dump(outputs, sys.stdout)


def _served(jobs: Sequence[Sequence[str]], root: Path) -> list[list[str]]:
    """What each plain `arena` command (its arguments) prints, run by `serve`."""
    if not jobs:
        return []
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--serve"],
                          input=json.dumps([[str(root), list(args)] for args in jobs]),
                          cwd=root, env=_environment(), stdout=subprocess.PIPE, text=True,
                          timeout=TIMEOUT * len(jobs), check=True)
    return [_lines(output) for output in json.loads(done.stdout)]


def run_all(found: Sequence[Example], root: Path = REPO) -> dict[Example, list[str]]:
    """The real output of every example, the commands run a few at a time: the plain `arena`
    commands by `serve`, the others in bash."""
    plain = {example: args for example in found if (args := _plain(example.command)) is not None}
    shelled = [example for example in found if example not in plain]
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        outputs = pool.map(lambda example: run(example.command, root), shelled)
        served = _served(list(plain.values()), root)
        return {**dict(zip(shelled, outputs, strict=True)),
                **dict(zip(plain, served, strict=True))}


TIMED = re.compile(r"arena: about .+ to go at .+ games/s \(timed on .+ games\)")
"""The estimate `arena run` prints once a run has played a second: whether it appears, and its
figures, depend on how fast the machine is at that moment (a loaded machine prints it for a
run an idle one finishes within the second), so it is compared on neither side."""


SLOW = re.compile(r"arena: warning: .+ took .+ s over its decision .+, more than the .+ s a move "
                  r"it would have sandboxed .+")
"""The warning `arena play` prints when an in-process bot's decision took longer than a
sandboxed one's limit: on a loaded machine a quick bot's decision may, so it is left out of the
real output of an example whose docs do not show it."""


def matches(shown: Sequence[str], real: Sequence[str]) -> bool:
    """Whether the real output is what the docs show (`…` standing for any lines; the time
    estimate of a run left out of both, a slow decision's warning out of the real output where
    the docs show none)."""
    shown = [line.rstrip() for line in shown if not TIMED.fullmatch(line.rstrip())]
    real = [line for line in real if not TIMED.fullmatch(line)]
    if not any(SLOW.fullmatch(line) for line in shown):
        real = [line for line in real if not SLOW.fullmatch(line)]
    if ELLIPSIS not in shown:
        return list(real) == shown
    cut = shown.index(ELLIPSIS)
    head, tail = shown[:cut], shown[cut + 1:]
    if ELLIPSIS in tail or len(real) < len(head) + len(tail):
        return False
    return list(real[:len(head)]) == head and list(real[len(real) - len(tail):]) == tail


def pasted(shown: Sequence[str], real: Sequence[str]) -> list[str]:
    """The real output as the docs should show it: shortened where the docs shorten it."""
    if ELLIPSIS not in shown:
        return list(real)
    cut = list(shown).index(ELLIPSIS)
    tail = len(shown) - cut - 1
    return [*real[:cut], ELLIPSIS, *(real[len(real) - tail:] if tail else [])]


def game_imports() -> str:
    """Per game: its package and what bot authors import from it (its `__all__`), by kind."""
    import inspect

    from arena.api import Event
    from arena.engine import all_games

    def first_line(thing: object) -> str:
        return " ".join((inspect.getdoc(thing) or "").split("\n\n", 1)[0].split()).rstrip(".")

    parts: list[str] = []
    for game in all_games():
        package = type(game).__module__
        module = importlib.import_module(package)
        names = sorted(getattr(module, "__all__", ()))
        things = {name: getattr(module, name) for name in names}
        views = [n for n, t in things.items() if inspect.isclass(t) and n.endswith("View")]
        events = [n for n, t in things.items() if inspect.isclass(t) and issubclass(t, Event)]
        helpers = [n for n, t in things.items() if inspect.isfunction(t)]
        others = [n for n in names if n not in {*views, *events, *helpers}]
        parts.append(f"**{game.name}**: `from {package} import ...`\n")
        parts.append(f"- view: {', '.join(f'`{n}`' for n in views) or '-'}")
        parts.append(f"- events: {', '.join(f'`{n}`' for n in events) or '-'}")
        parts.append(f"- also: {', '.join(f'`{n}`' for n in others) or '-'}")
        if helpers:
            parts.append("- functions:")
        for name in helpers:
            args = ", ".join(inspect.signature(things[name]).parameters)
            parts.append(f"  - `{name}({args})`: {first_line(things[name])}")
        parts.append("")
    return "\n".join(parts)


CARDS_SHOWN = 2
"""Cards shown of a long tuple of cards in the events example; the rest become `...`."""


def _python_text(value: object) -> str:
    """A value as the Python that makes it, cards as `Card(Rank.SEVEN, Suit.HEARTS)` and long
    tuples of cards cut short."""
    import dataclasses
    import enum

    from arena.cards import Card

    if isinstance(value, Card):
        if value.is_joker:
            return repr(value)
        assert value.suit is not None
        return f"Card(Rank.{value.rank.name}, Suit.{value.suit.name})"
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, tuple):
        shown = [_python_text(v) for v in value]
        if len(value) > CARDS_SHOWN + 1 and all(isinstance(v, Card) for v in value):
            shown = [*shown[:CARDS_SHOWN], f"... {len(value) - CARDS_SHOWN} more"]
        return "(" + ", ".join(shown) + ("," if len(shown) == 1 else "") + ")"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = ", ".join(f"{f.name}={_python_text(getattr(value, f.name))}"
                           for f in dataclasses.fields(value))
        return f"{type(value).__name__}({fields})"
    return repr(value)


EVENTS_SEED = 0
"""The deal seed of the Memorandum game whose events the docs show."""


def memorandum_events() -> str:
    """What a Memorandum bot in seat 1 really receives in `obs.events`, from a real game played
    through the match loop: its first two decisions, and the one where the first deal ends."""
    from arena.api import Observation
    from arena.cards import parse_card
    from arena.engine import find_game
    from arena.games.memorandum import DealScored, HandDealt
    from arena.match import play_game
    from bots.algorithms.random_bot import RandomBot
    from bots.memorandum.heuristic import ElephantBot

    class Recorder(ElephantBot):
        def __init__(self) -> None:
            self.seen: list[tuple[object, ...]] = []

        def act(self, obs: Observation[object]) -> object:
            self.seen.append(tuple(obs.events))
            return super().act(obs)

    recorder = Recorder()
    play_game(find_game("memorandum").variant(), [ElephantBot(), recorder, RandomBot()],
              ["elephant", "yours", "random"], EVENTS_SEED)
    ends = next(n for n, events in enumerate(recorder.seen)
                if any(isinstance(e, DealScored) for e in events))
    hand = next(e for e in recorder.seen[0] if isinstance(e, HandDealt)).cards
    lines = ["```python",
             f"# arena play memorandum -b elephant -b YOUR_BOT -b random --seed {EVENTS_SEED}",
             "# obs.events at seat 1's first decision"]
    lines += [_python_text(e) for e in recorder.seen[0]]
    lines += ["# at its second decision"]
    lines += [_python_text(e) for e in recorder.seen[1]]
    lines += [f"# ... and at its decision {ends + 1}, once the first deal is over"]
    lines += [_python_text(e) for e in recorder.seen[ends]]
    card = hand[0]
    facts = [("card = obs.events[1].cards[0]", _python_text(card)),
             (f"card == parse_card({str(card)!r})", str(card == parse_card(str(card)))),
             (f"card == {str(card)!r}", f"{card == str(card)}: a Card never equals a string"),
             ("str(card), card.pretty()", repr((str(card), card.pretty())))]
    width = max(len(code) for code, _ in facts) + 2
    lines += ["", "# Cards are Card objects, not strings:"]
    lines += [f"{code.ljust(width)}# {value}" for code, value in facts]
    return "\n".join([*lines, "```", ""])


def _first_improvement(source: str) -> str:
    """The first sentence of a template's FIRST IMPROVEMENT comment."""
    lines = source.split("\n")
    start = next(n for n, line in enumerate(lines) if "# FIRST IMPROVEMENT:" in line)
    words: list[str] = []
    for line in lines[start:]:
        text = line.strip()
        if not text.startswith("#"):
            break
        words += text.lstrip("#").split()
    comment = " ".join(words).removeprefix("FIRST IMPROVEMENT:").strip()
    sentence = comment.split(". ", 1)[0].rstrip(".") + "."
    return sentence[0].upper() + sentence[1:]


def new_bot_templates() -> str:
    """A table of the `arena new-bot` templates: what each plays, its first improvement, and
    the bundled bots its tournament plays it against, read from the templates themselves."""
    import ast
    import tempfile

    from arena.newbot import TEMPLATES, write_bot

    rows = ["| game | the template plays | its first improvement | its tournament's bots |",
            "|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as folder:
        for game, template in sorted(TEMPLATES.items()):
            source = write_bot("my_bot", game, Path(folder)).read_text(encoding="utf-8")
            (Path(folder) / "my_bot.py").unlink()
            (Path(folder) / "my_bot.toml").unlink()
            tree = ast.parse(source)
            (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef)]
            plays = " ".join((ast.get_docstring(cls) or "").split())
            bots = ", ".join(f"`{b}`" for b in dict.fromkeys([*template.opponents, "random"]))
            rows.append(f"| {game} | {plays} | {_first_improvement(source)} | {bots} |")
    return "\n".join(rows) + "\n"


GENERATORS: dict[str, Callable[[], str]] = {"game-imports": game_imports,
                                            "memorandum-events": memorandum_events,
                                            "new-bot-templates": new_bot_templates}
"""The generated sections, by name."""


def generated(text: str) -> str:
    """The page with every generated section made again from the code."""
    def fill(found: re.Match[str]) -> str:
        name = found.group(2)
        if name not in GENERATORS:
            raise ValueError(f"unknown generated section {name!r}")
        return found.group(1) + GENERATORS[name]() + found.group(4)
    return _GENERATED.sub(fill, text)


def rewritten(doc: str, text: str, outputs: dict[Example, list[str]]) -> str:
    """The page with every checked block's outputs replaced by the real ones."""
    lines = text.split("\n")
    for block in reversed(blocks(doc, text)):
        body: list[str] = []
        for example in block.examples:
            body += [f"$ {example.command}", *pasted(example.shown, outputs[example])]
            body += [""] * example.gap
        lines[block.start:block.end] = body
    return generated("\n".join(lines))


def main(argv: Sequence[str] | None = None) -> int:
    """Check the docs' examples (exit 1 on a difference), or with --write paste real output."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--write", action="store_true", help="rewrite the docs from real output")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:  # run_all's helper process (see `serve`)
        serve()
        return 0
    found = examples()
    outputs = run_all(found)
    differ = 0
    for doc in DOCS:
        path = REPO / doc
        text = path.read_text(encoding="utf-8")
        new = rewritten(doc, text, outputs)
        if new == text:
            continue
        differ += 1
        if args.write:
            path.write_text(new, encoding="utf-8")
            print(f"{doc}: rewritten")
        else:
            print(f"{doc}: differs from real output (run with --write to update)")
    for example in found:
        if not matches(example.shown, outputs[example]):
            print(f"  {example.label}")
    return 1 if differ and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
