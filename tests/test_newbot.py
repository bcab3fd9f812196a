"""`arena new-bot`: every game's template is a working bot that leaves room to grow (it beats
`random`, loses to the game's best bundled bot, and is no copy of any bundled bot), and the next
steps work as printed."""

from __future__ import annotations

import copy
import dataclasses
import math
import re
import shlex
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from arena.api import Action, Bot, GameInfo, Observation
from arena.cli import app
from arena.engine import ScoreOrder, all_games, find_game
from arena.errors import UnknownGameError
from arena.loader import BotSpec, registered_bots, resolve_bot
from arena.match import play_game
from arena.newbot import TEMPLATES, NewBotError, class_name, config_path, next_steps, write_bot
from arena.ratings.verdicts import t_quantile
from arena.session import play_series
from arena.tournament.planning.config import load_config
from tests.helpers import LARGER_LAYOUTS, slow_unless

GAMES = [g.name for g in all_games()]
VARIANTS = [slow_unless((g.name, preset) not in LARGER_LAYOUTS, g.name, preset,
                        id=f"{g.name}-{preset}")
            for g in all_games() for preset in g.presets]
"""Every variant; the larger layouts, whose settings the others play, only under slow."""


def seats_for(game: str, preset: str) -> int:
    """The fewest seats the variant takes, two at least when it allows two."""
    allowed = find_game(game).variant(preset).params.players_allowed()
    return max(allowed.start, min(2, allowed.stop - 1))


@pytest.mark.parametrize(("game", "preset"), VARIANTS)
def test_the_template_plays_every_variant_without_a_fault(game: str, preset: str,
                                                          tmp_path: Path) -> None:
    path = write_bot("my_bot", game, tmp_path)
    bot = resolve_bot(f"{path}:MyBot", game)
    variant = find_game(game).variant(preset)
    others = [resolve_bot("random", game)] * (seats_for(game, preset) - 1)
    played = list(play_series(variant, [bot, *others], 11, 2, rotate=True))
    assert played
    assert all(not g.record.faults for g in played)


def test_every_registered_game_has_a_template_of_its_own() -> None:
    assert set(TEMPLATES) == set(GAMES)


def test_every_template_marks_its_first_improvement(tmp_path: Path) -> None:
    for game in GAMES:
        text = write_bot(f"bot_{game.replace('-', '_')}", game, tmp_path).read_text()
        assert text.count("# FIRST IMPROVEMENT:") == 1, game
        assert "it beats `random` and loses to the best" in text, game
        assert not re.search(r"__[A-Z]+__", text), game  # every placeholder filled in
        assert "shared/seeds" not in text, game


def test_a_game_without_a_template_gets_the_generic_one(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(TEMPLATES, "dig")
    path = write_bot("plain", "dig", tmp_path)
    text = path.read_text()
    assert 'games: ClassVar[tuple[str, ...]] = ("dig",)' in text
    assert "this bot plays random legal actions" in text and "beats `random`" not in text
    bot = resolve_bot(f"{path}:PlainBot", "dig")
    played = list(play_series(find_game("dig").variant(), [bot, resolve_bot("random")], 1, 2))
    assert all(not g.record.faults for g in played)
    assert next_steps(path, "dig")[1].endswith("-b random --show")


def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    path = write_bot("mine", "concentration", tmp_path)
    path.write_text("# my work\n")
    with pytest.raises(NewBotError, match="already exists"):
        write_bot("mine", "concentration", tmp_path)
    assert path.read_text() == "# my work\n"
    path.unlink()
    with pytest.raises(NewBotError, match=r"mine\.toml: already exists"):
        write_bot("mine", "memorandum", tmp_path)  # its tournament config is still there
    assert not path.exists()


@pytest.mark.parametrize("name", ["", "1st", "my bot", "a/b", "../up", "é", "x" * 65, "bot"])
def test_bad_names_are_refused(name: str, tmp_path: Path) -> None:
    with pytest.raises(NewBotError, match="bot name"):
        write_bot(name, "concentration", tmp_path)


def test_names_files_and_classes(tmp_path: Path) -> None:
    assert class_name("my_bot") == "MyBot"
    assert class_name("clever") == "CleverBot"
    assert class_name("card-shark") == "CardSharkBot"
    assert class_name("robot") == "Robot"
    path = write_bot("my_bot.py", "Concentration", tmp_path / "new" / "folder")
    assert path == tmp_path / "new" / "folder" / "my_bot.py"
    assert config_path(path).is_file()
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        write_bot("x", "chess", tmp_path)


def test_the_config_and_the_play_command_fit_the_game(tmp_path: Path) -> None:
    for game in GAMES:
        path = write_bot(f"bot_{game.replace('-', '_')}", game, tmp_path)
        validate, play, run = next_steps(path, game)
        assert validate == f"arena validate {path}:{class_name(path.stem)} --game {game}"
        assert run == f"arena run {config_path(path)}"
        config = load_config(config_path(path), check_bots=False)  # players fit the variant
        assert config.bots[0].spec == f"{path.resolve()}:{class_name(path.stem)}"
        args = shlex.split(play)
        seats = [args[i + 1] for i, a in enumerate(args) if a == "-b"]
        assert find_game(game).variant().params.players_allowed().start <= len(seats)
        for spec in seats[1:]:
            resolve_bot(spec, game)


def test_the_printed_commands_work(tmp_path: Path) -> None:
    path = write_bot("try_me", "memorandum", tmp_path)
    load_config(config_path(path))  # the bot loads (sandboxed) and plays the game
    play = shlex.split(next_steps(path, "memorandum")[1])
    result = CliRunner().invoke(app, play[1:])
    assert result.exit_code == 0, result.output
    assert "try_me:TryMeBot" in result.output


def test_the_generated_files_are_ruff_clean(tmp_path: Path) -> None:
    pytest.importorskip("ruff")
    for game in GAMES:
        write_bot(f"bot_{game.replace('-', '_')}", game, tmp_path)
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--config", str(pyproject),
                           "--no-cache", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@dataclass(frozen=True)
class Trial:
    """How a game's template is measured: at a table of `players`, the template against
    `players - 1` copies of an opponent, on duplicate deals (each deal once per rotation of the
    seats, or once where every seat plays the same cards anyway)."""

    players: int
    best: str  # the game's strongest bundled bot (docs/bot-api.md, "Bundled bots")
    deals_random: int
    deals_best: int
    rotate: bool = True


TRIALS = {
    "concentration": Trial(2, "optimal", 10, 10),
    "paved-with-gold": Trial(2, "prospector", 8, 8),
    "memorandum": Trial(3, "chancer", 8, 8),
    "animals": Trial(3, "animals-sharp", 16, 14),
    "cuckoo": Trial(6, "cuckoo-sharp", 10, 24),
    "dig": Trial(2, "dig-sharp", 100, 120),
    "frogs-in-the-pond": Trial(2, "frogs-sharp", 40, 40),
    "old-mans-bundle": Trial(2, "bundle-sharp", 60, 60),
    # A patience: everyone lays the same cards, so a deal is a duplicate with no rotation.
    # square-search and square-expert are equally strong (docs/rules/cribbage-square.md, "How
    # strong"); the test plays the cheaper.
    "cribbage-square": Trial(2, "square-expert", 30, 14, rotate=False),
}
"""Deal counts chosen so that each interval clears zero with room to spare (measured on other
deals as well), while a game's two trials take about a second."""

LEVEL = 0.99
"""The confidence of the margin's interval: a template no better than its opponent passes one
side of the test with chance 0.5% at most."""


def template_spec(game: str, folder: Path) -> BotSpec:
    """The game's template, written as `arena new-bot` writes it, ready to play in-process."""
    path = write_bot(f"tpl_{game.replace('-', '_')}", game, folder)
    return resolve_bot(f"{path}:{class_name(path.stem)}", game)


def margins(game: str, mine: BotSpec, opponent: str, trial: Trial, deals: int,
            seed: int = 3000) -> list[float]:
    """The template's margin on each deal: its score less the opponents' mean, signed so that
    more is better, averaged over the deal's seatings."""
    variant = find_game(game).variant()
    other = resolve_bot(opponent, game)
    per_deal: dict[int, list[float]] = {}
    for played in play_series(variant, [mine, *[other] * (trial.players - 1)], seed, deals,
                              rotate=trial.rotate):
        record = played.record
        assert not record.faults, record.faults
        seat = played.entries.index(0)
        others = statistics.mean(s for k, s in enumerate(record.scores) if k != seat)
        sign = 1 if record.order is ScoreOrder.HIGHER_WINS else -1
        per_deal.setdefault(record.seed, []).append(sign * (record.scores[seat] - others))
    return [statistics.mean(m) for m in per_deal.values()]


def interval(values: list[float]) -> tuple[float, float]:
    """The LEVEL t-interval of the mean of `values`."""
    mean = statistics.mean(values)
    half = t_quantile(len(values) - 1, LEVEL) * statistics.stdev(values) / math.sqrt(len(values))
    return mean - half, mean + half


# a statistical run: one game in the default run, every game slow
@pytest.mark.parametrize("game", [slow_unless(game == "concentration", game) for game in GAMES])
def test_the_template_beats_random_and_loses_to_the_best_bot(game: str, tmp_path: Path) -> None:
    trial = TRIALS[game]
    mine = template_spec(game, tmp_path)
    low, high = interval(margins(game, mine, "random", trial, trial.deals_random))
    assert low > 0, f"{game}: the template's margin over random is {low:+.2f} .. {high:+.2f}"
    low, high = interval(margins(game, mine, trial.best, trial, trial.deals_best))
    assert high < 0, f"{game}: the template's margin over {trial.best} is {low:+.2f} .. {high:+.2f}"


def test_every_game_has_a_trial_against_a_bundled_bot_of_its_own() -> None:
    assert set(TRIALS) == set(GAMES)
    for game, trial in TRIALS.items():
        assert resolve_bot(trial.best, game).plays(game)
        assert "*" not in resolve_bot(trial.best, game).cls.games


class Shadowed(Bot):
    """Plays as `main` does, and puts every one of its observations to the `shadows` as well
    (each started with a copy of the same game info and rng), noting which ever answer
    differently."""

    games: ClassVar[tuple[str, ...]] = ("*",)

    def __init__(self, main: Bot, shadows: dict[str, Bot]) -> None:
        self.main, self.shadows = main, shadows
        self.differ: set[str] = set()

    def start(self, info: GameInfo) -> None:
        """Start the bot and its shadows alike."""
        for shadow in self.shadows.values():
            shadow.start(dataclasses.replace(info, rng=copy.deepcopy(info.rng)))
        self.main.start(info)

    def act(self, obs: Observation[Any]) -> Action:
        """The main bot's action; a shadow whose action differs is noted."""
        action = self.main.act(obs)
        for name, shadow in self.shadows.items():
            if name not in self.differ and shadow.act(obs) != action:
                self.differ.add(name)
        return action


@pytest.mark.parametrize("game", GAMES)
def test_the_template_is_no_copy_of_a_bundled_bot(game: str, tmp_path: Path) -> None:
    """Every other bundled bot of the game, shown each observation the template is shown,
    answers differently at least once (the best one is told apart by the margin above)."""
    trial = TRIALS[game]
    variant = find_game(game).variant()
    specs = [resolve_bot(b.name) for b in registered_bots() if b.name != trial.best]
    bundled = [s for s in specs if s.plays(game) and "*" not in s.cls.games]
    assert bundled, game
    mine = template_spec(game, tmp_path)
    rest = [resolve_bot("random", game).make() for _ in range(trial.players - 1)]
    differ: set[str] = set()
    for seed in range(3):
        bot = Shadowed(mine.make(), {s.name: s.make() for s in bundled})
        record = play_game(variant, [bot, *rest], ["template", *["random"] * len(rest)], seed)
        assert not record.faults, record.faults
        differ |= bot.differ
        if len(differ) == len(bundled):
            break
    assert differ == {s.name for s in bundled}, (
        f"the {game} template plays exactly like {sorted({s.name for s in bundled} - differ)}")


def test_the_docs_show_the_commands_new_bot_prints() -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "bot-api.md").read_text()
    section = text.split("## Start from a template", 1)[1].split("\n## ", 1)[0]
    for command in next_steps(Path("my_bot.py"), "concentration"):
        assert f"\n    {command}\n" in section, command


def test_the_docs_table_of_templates_is_made_from_the_templates() -> None:
    """docs/bot-api.md's table of templates is a generated section (tests/test_docs_examples.py
    checks that it is current), with a row for every game."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "bot-api.md").read_text()
    table = text.split("<!-- generated: new-bot-templates -->", 1)[1]
    table = table.split("<!-- end generated -->", 1)[0]
    for game in GAMES:
        assert f"\n| {game} | " in table, game
