"""`arena replay --html` and `arena play --html`: the page written, never through a link."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from arena.viewer.page import data_of as page_data_of
from tests.helpers import run


def data_of(page: Path) -> dict:
    return page_data_of(page.read_text(encoding="utf-8"))


def test_play_writes_a_page_per_game_and_replay_writes_the_same_game(
        runner: CliRunner, tmp_path: Path) -> None:
    played = run(runner, "play", "dig", "-b", "random", "-b", "dig-sharp", "--games", "2",
                 "--json", "--html", str(tmp_path / "game.html"))
    assert played.exit_code == 0, played.output
    records = [json.loads(line) for line in played.stdout.splitlines()]
    pages = [tmp_path / "game-1.html", tmp_path / "game-2.html"]
    for page, record in zip(pages, records, strict=True):
        data = data_of(page)
        assert data["result"]["scores"] == record["scores"] and data["seed"] == record["seed"]
    (tmp_path / "games.jsonl").write_text(played.stdout, encoding="utf-8")
    replayed = run(runner, "replay", str(tmp_path / "games.jsonl"), "--html",
                   str(tmp_path / "again.html"), "--bot", "random", "--bot", "dig-sharp")
    assert replayed.exit_code == 2, replayed.output  # two records: say which
    (tmp_path / "one.jsonl").write_text(played.stdout.splitlines()[0] + "\n", encoding="utf-8")
    replayed = run(runner, "replay", str(tmp_path / "one.jsonl"), "--html",
                   str(tmp_path / "again.html"))
    assert replayed.exit_code == 0, replayed.output
    assert data_of(tmp_path / "again.html")["steps"] == data_of(pages[0])["steps"]


def test_html_is_never_written_through_a_link_nor_with_options_it_does_not_fit(
        runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("kept", encoding="utf-8")
    (tmp_path / "page.html").symlink_to(target)
    played = run(runner, "play", "dig", "-b", "random", "-b", "random", "--html",
                 str(tmp_path / "page.html"))
    assert played.exit_code == 2 and "symbolic link" in played.stderr
    assert target.read_text(encoding="utf-8") == "kept"
    both = run(runner, "replay", str(tmp_path), "0", "--all", "--html", str(tmp_path / "x.html"))
    assert both.exit_code == 2 and "--html" in both.stderr


NOISY = '''
from arena.api import Bot


class Noisy(Bot):
    def act(self, obs):
        print("thinking \\x1b[31m</script><b>bold</b>", obs.legal[0])
        if len(obs.legal) > 3:
            raise RuntimeError("boom <img src=x onerror=alert(1)>")
        return obs.legal[0]
'''


def test_a_fault_shows_with_the_bots_output_in_that_game_escaped(
        runner: CliRunner, tmp_path: Path) -> None:
    bot = tmp_path / "noisy.py"
    bot.write_text(NOISY, encoding="utf-8")
    played = run(runner, "play", "dig", "-b", "random", "-b", f"{bot}:Noisy", "--json")
    assert played.exit_code == 0, played.output
    (tmp_path / "game.jsonl").write_text(played.stdout, encoding="utf-8")
    replayed = run(runner, "replay", str(tmp_path / "game.jsonl"), "--bot", "random", "--bot",
                   f"{bot}:Noisy", "--html", str(tmp_path / "page.html"))
    assert replayed.exit_code == 0, replayed.output
    data = data_of(tmp_path / "page.html")
    (fault,) = data["result"]["faults"]
    assert fault["seat"] == 1 and "boom" in fault["detail"]
    output = data["result"]["outputs"]["1"]
    assert any("thinking \\x1b[31m</script><b>bold</b> ('play', " in line  # escaped, whole
               for line in output)
    assert any("RuntimeError: boom" in line for line in output)
    html = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert "<b>bold" not in html and "<img" not in html and "\x1b" not in html


def test_a_replay_that_differs_from_its_record_says_so_on_the_page(
        runner: CliRunner, tmp_path: Path) -> None:
    played = run(runner, "play", "dig", "-b", "random", "-b", "dig-sharp", "--json")
    record = json.loads(played.stdout)
    record["scores"] = [record["scores"][0] + 5, record["scores"][1]]
    (tmp_path / "game.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    replayed = run(runner, "replay", str(tmp_path / "game.jsonl"), "--html",
                   str(tmp_path / "page.html"))
    assert replayed.exit_code == 1 and "MISMATCH" in replayed.stdout
    data = data_of(tmp_path / "page.html")
    assert data["differences"] and "scores" in data["differences"][-1]
