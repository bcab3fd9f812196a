"""The docs' examples are real: every checked example of README.md and docs/cli.md prints what the
docs show, and the generated sections of the docs are what the code makes them
(scripts/docs_examples.py does the work; its --write pastes real output in)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[1]


def _load_script() -> ModuleType:
    """scripts/docs_examples.py as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("docs_examples", REPO / "scripts" /
                                                  "docs_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


script = _load_script()
EXAMPLES = script.examples()


@pytest.fixture(scope="module")
def outputs() -> dict[object, list[str]]:
    """The real output of every checked example, run a few at a time."""
    return script.run_all(EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda example: example.label)
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
