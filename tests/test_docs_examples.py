"""The docs' examples are real: every checked example of README.md and docs/cli.md prints what the
docs show, and the generated sections of the docs are what the code makes them
(scripts/docs_examples.py does the work; its --write pastes real output in)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import load_script, slow_unless

REPO = Path(__file__).resolve().parents[1]


script = load_script("docs_examples")
EXAMPLES = script.examples()


QUICK_DOCS = ("README.md", "docs/bot-api.md")
"""Pages whose examples the default run checks (what a newcomer reads first); every page's,
docs/cli.md's reference of every command among them, under slow."""


@pytest.fixture(scope="module")
def outputs(request: pytest.FixtureRequest) -> dict[object, list[str]]:
    """The real output of every example this run checks, run a few at a time."""
    chosen = [item.callspec.params["example"] for item in request.session.items
              if getattr(item, "originalname", "") == "test_example_prints_what_the_docs_show"]
    return script.run_all(chosen)


@pytest.mark.parametrize("example", [
    slow_unless(example.doc in QUICK_DOCS, example, id=example.label) for example in EXAMPLES])
def test_example_prints_what_the_docs_show(example: object,
                                           outputs: dict[object, list[str]]) -> None:
    real = outputs[example]
    assert script.matches(example.shown, real), (
        f"{example.label} prints:\n" + "\n".join(real)
        + "\n(python scripts/docs_examples.py --write pastes it into the docs)")


def test_the_examples_asked_for_are_checked() -> None:
    commands = {(example.doc, example.command) for example in EXAMPLES}
    for command in ("arena games", "arena games concentration", "arena bots", "arena --version",
                    "arena --help"):
        assert ("docs/cli.md", command) in commands
    for doc in ("README.md", "docs/cli.md"):
        assert any(e.doc == doc and "-b gredy" in e.command for e in EXAMPLES), doc
    assert any(e.doc == "docs/cli.md" and e.command.startswith("arena play") and "--show"
               in e.command for e in EXAMPLES)
    faults = [e for e in EXAMPLES if "mybots.py:CrashBot" in e.command]
    assert faults and any("(at mybots.py:" in line for line in faults[0].shown)


def test_the_fault_example_names_the_line_that_raises() -> None:
    source = (REPO / "docs" / "examples" / "mybots.py").read_text(encoding="utf-8").split("\n")
    line = next(n for n, text in enumerate(source, 1) if 'raise RuntimeError("out of ideas")'
                in text)
    (fault,) = [e for e in EXAMPLES if "mybots.py:CrashBot" in e.command]
    assert f"(at mybots.py:{line} in act)" in " ".join(fault.shown)


@pytest.mark.parametrize("doc", script.DOCS)
def test_generated_sections_are_up_to_date(doc: str) -> None:
    text = (REPO / doc).read_text(encoding="utf-8")
    assert script.generated(text) == text, (
        f"{doc}: a generated section differs (python scripts/docs_examples.py --write)")


def test_bot_api_lists_every_game_package() -> None:
    text = (REPO / "docs" / "bot-api.md").read_text(encoding="utf-8")
    assert "<!-- generated: game-imports -->" in text
    for package in sorted((REPO / "arena" / "games").glob("*/__init__.py")):
        assert f"`from arena.games.{package.parent.name} import ...`" in text


SLOW_WARNING = ("arena: warning: bot 1 (greedy) took 1.23 s over its decision 40 of seed 455, more "
                "than the 1 s a move it would have sandboxed (arena validate's and play's "
                "default; a tournament's is its config's [limits] move_seconds)")


@pytest.mark.parametrize(("shown", "real", "expected"), [
    (["a", "b"], ["a", "b"], True),
    (["a", "b "], ["a", "b"], True),
    (["a", "b"], ["a", "c"], False),
    (["a"], ["a", "b"], False),
    (["a", "…", "z"], ["a", "b", "c", "z"], True),
    (["a", "…", "z"], ["a", "z"], True),
    (["a", "…", "z"], ["a", "b", "y"], False),
    (["a", "…", "z"], ["b", "c", "z"], False),
    (["a", "b", "…", "b", "c"], ["a", "b", "c"], False),
    (["…"], [], True),
    # a run's time estimate, printed or not depending on the machine's speed, on either side
    (["a", "b"], ["a", "arena: about 5 s to go at 40 games/s (timed on 48 games)", "b"], True),
    (["a", "arena: about 2 s to go at 140 games/s (timed on 144 games)", "b"], ["a", "b"], True),
    (["a", "b"], ["a", "arena: about 5 s to go at 40 games/s (timed on 48 games)", "c"], False),
    # a quick bot's decision slowed down by a loaded machine, where the docs show no warning
    (["a"], [SLOW_WARNING, "a"], True),
    ([SLOW_WARNING, "a"], [SLOW_WARNING, "a"], True),
    ([SLOW_WARNING, "a"], ["a"], False),
    (["a"], [SLOW_WARNING, "b"], False),
])
def test_matches(shown: list[str], real: list[str], expected: bool) -> None:
    assert script.matches(shown, real) is expected


def test_blocks_and_rewriting_keep_the_page_around_them() -> None:
    page = ("intro\n<!-- checked example -->\n```\n$ echo one\nwrong\n\n$ printf 'a\\nb\\nc\\n'\n"
            "a\n…\nc\n```\nafter\n")
    found = script.blocks("page.md", page)
    assert [e.command for e in found[0].examples] == ["echo one", "printf 'a\\nb\\nc\\n'"]
    assert found[0].examples[0].shown == ("wrong",) and found[0].examples[0].gap == 1
    outputs = {example: script.run(example.command) for example in found[0].examples}
    assert not script.matches(found[0].examples[0].shown, outputs[found[0].examples[0]])
    assert script.matches(found[0].examples[1].shown, outputs[found[0].examples[1]])
    assert script.rewritten("page.md", page, outputs) == page.replace("wrong", "one")


def test_a_marked_block_without_a_command_is_refused() -> None:
    with pytest.raises(ValueError, match="starts with a '\\$ ' line"):
        script.blocks("page.md", "<!-- checked example -->\n```\narena games\n```\n")


def test_rules_pages_cite_their_sources_not_unshipped_files() -> None:
    for page in sorted((REPO / "docs" / "rules").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        assert "shared/seeds" not in text, page.name
        assert "source" in text.lower(), page.name


def test_each_example_bot_class_is_defined_once() -> None:
    """docs/examples is one set of bots: a class name names one class (there were two
    different `FirstBot`s)."""
    import ast

    where: dict[str, list[str]] = {}
    for path in sorted((REPO / "docs" / "examples").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                where.setdefault(node.name, []).append(path.name)
    twice = {name: files for name, files in where.items() if len(files) > 1}
    assert not twice, f"classes defined more than once in docs/examples: {twice}"
    assert where["FirstBot"] == ["first_bot.py"]


@pytest.mark.parametrize("doc", ["docs/bot-api.md", "docs/rules/memorandum.md"])
def test_the_memorandum_events_example_shows_what_a_bot_receives(doc: str) -> None:
    """The example is made from a real game (test_generated_sections_are_up_to_date keeps it
    current): event objects holding Card objects, not the records' dicts of strings."""
    text = (REPO / doc).read_text(encoding="utf-8")
    assert doc in script.DOCS
    assert "<!-- generated: memorandum-events -->" in text
    assert "{'kind': 'hand-dealt'" not in text
    example = script.memorandum_events()
    for line in ("HandDealt(seat=1, cards=(Card(Rank.", "Called(seat=0, number=1, card=Card(",
                 "# False: a Card never equals a string"):
        assert line in example


def _python_blocks(text: str) -> list[str]:
    """The bodies of the ```python blocks of a page, dedented."""
    import re
    import textwrap

    return [textwrap.dedent(body) for body in
            re.findall(r"^[ ]*```python\n(.*?)^[ ]*```$", text, re.DOTALL | re.MULTILINE)]


def test_bot_api_python_examples_print_what_they_show() -> None:
    """The interactive examples of docs/bot-api.md (`>>>` lines) run as doctests."""
    import doctest

    text = (REPO / "docs" / "bot-api.md").read_text(encoding="utf-8")
    sessions = [b for b in _python_blocks(text) if b.lstrip().startswith(">>>")]
    assert len(sessions) >= 2  # the Cards examples and the Cribbage Square scoring
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    parser = doctest.DocTestParser()
    for n, body in enumerate(sessions):
        runner.run(parser.get_doctest(body, {}, f"bot-api.md python example {n + 1}",
                                      "docs/bot-api.md", 0))
    assert runner.summarize(verbose=False).failed == 0


def _code(line: str) -> str:
    """A line of Python without its comment and trailing spaces."""
    return line.split("  #", 1)[0].rstrip()


def test_the_first_bot_excerpt_is_the_example_file() -> None:
    """docs/bot-api.md shows the heart of docs/examples/first_bot.py: every line shown (but the
    `...`) is a line of the file, in the file's order."""
    text = (REPO / "docs" / "bot-api.md").read_text(encoding="utf-8")
    (excerpt,) = [b for b in _python_blocks(text) if "class FirstBot(Bot):" in b]
    source = [_code(line) for line in
              (REPO / "docs" / "examples" / "first_bot.py").read_text(encoding="utf-8")
              .split("\n")]
    at = 0
    for line in (_code(line) for line in excerpt.split("\n")):
        if not line or line.strip() == "...":
            continue
        assert line in source[at:], f"docs/bot-api.md shows {line.strip()!r}, not in first_bot.py"
        at = source.index(line, at) + 1


def _shown(doc: str, command: str) -> list[object]:
    """The examples of the fenced block of `doc` that begins with `$ command` (a block the
    parallel check cannot run: its commands depend on each other, and write a run)."""
    text = (REPO / doc).read_text(encoding="utf-8")
    start = text.index(f"```\n$ {command}\n")
    end = text.index("\n```", start + 4) + 4
    return list(script.blocks(doc, f"{script.MARK}\n{text[start:end]}")[0].examples)


def test_the_run_and_ratings_examples_print_what_the_docs_show(tmp_path: Path) -> None:
    """`arena run configs/quick.toml --quiet`, then `arena ratings results/quick --format csv`,
    run in that order in a folder of their own (so no results/quick of the repository's is
    touched)."""
    (tmp_path / "configs").symlink_to(REPO / "configs")
    examples = [*_shown("docs/cli.md", "arena run configs/quick.toml --quiet"),
                *_shown("docs/cli.md", "arena ratings results/quick --format csv")]
    assert len(examples) == 2
    for example in examples:
        real = script.run(example.command, tmp_path)  # type: ignore[attr-defined]
        assert script.matches(example.shown, real), (  # type: ignore[attr-defined]
            f"{example.label} prints:\n" + "\n".join(real))  # type: ignore[attr-defined]
