"""Sequential duels: verdicts on known pairs of bots, the same verdict with any workers and after
a kill, the margin in the game's units, mirror images, the closing sentence, and one-line errors
for bad input."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.ratings.adjustment import cross_fitted, predictable
from arena.ratings.sprt import SprtSettings, Verdict, margin_estimate, normal_llr, sprt
from arena.ratings.verdicts import paired_mean
from arena.tournament.duel import (
    CHUNK_PAIRS,
    PairResults,
    duel_config,
    pair_counts,
    pair_results,
    run_duel,
)
from arena.tournament.planning.canonical import canonical_toml
from arena.tournament.planning.plan import schedule_of
from arena.tournament.records.results import GAMES, RunDirectory
from arena.tournament.update.reconcile import GameIdentities
from tests.helpers import KeysUsed, holding


def test_optimal_against_random_accepts_h1_at_once(tmp_path: Path) -> None:
    report = run_duel(duel_config("optimal", "random", "concentration", max_games=256),
                      SprtSettings(0, 20), tmp_path / "d")
    assert report.state.verdict is Verdict.H1
    assert report.state.games <= 4 * CHUNK_PAIRS


def test_a_duel_digests_only_the_games_it_plays(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A duel plays its schedule (10,000 games by default) a chunk at a time: a new run's games
    are numbered by their places, so each game's identity is digested as it is played (the
    first chunk digested the whole schedule: 1 s of CPU a duel)."""
    digested: list[int] = []
    of = GameIdentities.of
    monkeypatch.setattr(GameIdentities, "of",
                        lambda self, task: digested.append(task.task) or of(self, task))
    report = run_duel(duel_config("optimal", "random", "concentration"), SprtSettings(0, 20),
                      tmp_path / "d")
    assert report.state.verdict is Verdict.H1
    assert sorted(digested) == list(range(report.state.games))


# one seed in the default run; the others are long statistical runs
@pytest.mark.parametrize("seed", [1, pytest.param(1001, marks=pytest.mark.slow),
                                  pytest.param(5000, marks=pytest.mark.slow)])
def test_identical_bots_do_not_accept_h1(tmp_path: Path, seed: int) -> None:
    report = run_duel(duel_config("greedy", "greedy", "concentration", max_games=600, seed=seed),
                      SprtSettings(0, 20), tmp_path / "d")
    assert report.state.verdict is not Verdict.H1


def test_one_and_two_workers_reach_the_same_verdict(tmp_path: Path) -> None:
    config = duel_config("optimal", "greedy", "concentration", max_games=512)
    one = run_duel(config, SprtSettings(0, 20), tmp_path / "one", workers=1)
    two = run_duel(config, SprtSettings(0, 20), tmp_path / "two", workers=2)
    assert one.state == two.state
    assert one.state.verdict is Verdict.H1 and one.state.games > 2 * CHUNK_PAIRS


def test_a_killed_duel_resumes_to_the_same_verdict(tmp_path: Path) -> None:
    out = tmp_path / "killed"
    # Dig: its games take a few milliseconds, a tenth of Concentration's
    (tmp_path / "holding.py").write_text(holding("bots.dig.heuristic", "DigSimpleBot"))
    held = f"{tmp_path}/holding.py:Holding"
    command = [sys.executable, "-m", "arena.cli", "duel", "dig-sharp", held, "--game",
               "dig", "--elo0", "0", "--elo1", "20", "--max-games", "256", "--out",
               str(out), "--workers", "2", "-q", "--json", "--isolation", "none"]
    # each worker holds its 15th game: the 128 games the duel plays to its verdict (of 256 at
    # most: each chunk walks the whole schedule) are never all played, however late the poll
    # below looks
    child = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env={**os.environ, "HOLD_AFTER": "15"})
    games = out / GAMES
    deadline = time.monotonic() + 60
    # killed inside its first chunk, some 15 games in
    while time.monotonic() < deadline and (not games.exists() or games.stat().st_size < 10_000):
        time.sleep(0.02)
    os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    partial = len(games.read_text().splitlines())
    assert partial > 0
    resumed = CliRunner().invoke(app, command[3:])
    # the same duel, uninterrupted, on one worker (every other option as the killed one's: a
    # sandboxed bot, for one, would have the run dealt with a key of its own)
    whole = CliRunner().invoke(app, [*command[3:command.index("--out") + 1],
                                     str(tmp_path / "whole"), "--workers", "1",
                                     *command[command.index("--workers") + 2:]])
    assert resumed.exit_code == whole.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout) == json.loads(whole.stdout)
    assert partial < json.loads(whole.stdout)["games"], "the duel should have been killed part way"


def test_the_counts_are_those_of_the_records(tmp_path: Path) -> None:
    config = duel_config("optimal", "random", "concentration", max_games=2 * CHUNK_PAIRS)
    run_duel(config, SprtSettings(0, 20), tmp_path / "d")
    assert pair_counts(tmp_path / "d", CHUNK_PAIRS, "optimal", "random")[4] > CHUNK_PAIRS // 2
    flipped = pair_counts(tmp_path / "d", CHUNK_PAIRS, "random", "optimal")
    assert flipped == tuple(reversed(pair_counts(tmp_path / "d", CHUNK_PAIRS, "optimal",
                                                 "random")))


@pytest.mark.parametrize(("args", "message"), [
    (["--alpha", "1.5"], "--alpha: must be between 0 and 1"),
    (["--beta", "0"], "--beta: must be between 0 and 1"),
    (["--elo0", "10", "--elo1", "5"], "--elo1: must be above --elo0"),
    (["--max-games", "1"], "--max-games: a duel plays whole deal pairs"),
    (["--variant", "nope"], "--variant: unknown variant 'nope'"),
])
def test_bad_values_are_one_line_errors(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["duel", "optimal", "greedy", "--game", "concentration",
                                      "--out", str(tmp_path / "d"), *args])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr


@pytest.mark.parametrize(("bots", "game", "message"), [
    (["optimal", "nobot"], "concentration", "bot B: bot spec 'nobot'"),
    (["nobot", "greedy"], "concentration", "bot A: bot spec 'nobot'"),
    (["optimal", "greedy"], "nogame", "--game: unknown game 'nogame'"),
    (["cuckoo-simple", "cuckoo-sharp"], "cuckoo",
     "--players: cuckoo variant 'standard' takes 6 to 20 players, not 2 (--players sets the "
     "seats; above two, --fill BOT fills the others)"),
])
def test_unknown_bots_and_games_are_one_line_errors(tmp_path: Path, bots: list[str], game: str,
                                                    message: str) -> None:
    result = CliRunner().invoke(app, ["duel", *bots, "--game", game, "--out",
                                      str(tmp_path / "d")])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "3"], "--fill: a duel at 3 seats needs the bot of the other seats"),
    (["--fill", "random"], "--fill: goes with --players 3 or more"),
    (["--players", "3", "--fill", "nobot"], "--fill: bot spec 'nobot'"),
    (["--players", "1", "--fill", "random"], "--players: a duel needs two seats or more"),
    (["--players", "9", "--fill", "random"],
     "--players: memorandum variant 'standard' takes 3 to 7 players, not 9"),
])
def test_bad_seats_and_fills_are_one_line_errors(tmp_path: Path, args: list[str],
                                                 message: str) -> None:
    result = CliRunner().invoke(app, ["duel", "elephant", "goldfish", "--game", "memorandum",
                                      "--out", str(tmp_path / "d"), *args])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr


def test_a_multi_seat_duel_swaps_two_seats_within_each_pair_and_fills_the_rest() -> None:
    config = duel_config("elephant", "goldfish", "memorandum", max_games=200, players=4,
                         fill="random")
    tasks = list(schedule_of(config))
    assert len(tasks) == 200
    seats_used = set()
    for first, second in zip(tasks[::2], tasks[1::2], strict=True):
        assert first.seed == second.seed
        a, b = first.seats.index("elephant"), first.seats.index("goldfish")
        assert second.seats.index("elephant") == b and second.seats.index("goldfish") == a
        for game in (first, second):
            others = [s for i, s in enumerate(game.seats) if i not in (a, b)]
            assert others == ["random", "random"]
            assert game.clones == (max(i for i in range(4) if i not in (a, b)),)
        seats_used.add(frozenset((a, b)))
    assert len(seats_used) == 6, "every pair of seats should be drawn over 100 deals"


def test_a_fill_named_like_a_duellist_gets_a_name_of_its_own() -> None:
    config = duel_config("elephant", "goldfish", "memorandum", players=3, fill="goldfish")
    assert [b.name for b in config.bots] == ["elephant", "goldfish", "goldfish-fill"]
    assert config.schedule.fill == "goldfish-fill"
    assert canonical_toml(config).count('fill = "goldfish-fill"') == 1


def test_a_two_seat_duel_keeps_its_round_robin_config() -> None:
    assert "[schedule]" not in canonical_toml(duel_config("optimal", "greedy", "concentration"))


def test_a_three_seat_memorandum_duel_decides_alike_on_one_and_two_workers(
        tmp_path: Path) -> None:
    config = duel_config("elephant", "goldfish", "memorandum", max_games=400, players=3,
                         fill="random")
    one = run_duel(config, SprtSettings(0, 20), tmp_path / "one", workers=1)
    two = run_duel(config, SprtSettings(0, 20), tmp_path / "two", workers=2)
    assert one.state == two.state and one.state.verdict is Verdict.H1
    fills = {r["seats"].count("random") for r in RunDirectory(tmp_path / "one").records()}
    assert fills == {1}


@pytest.mark.parametrize("seed", [1, pytest.param(5000, marks=pytest.mark.slow)])
def test_identical_bots_among_fills_do_not_accept_h1(tmp_path: Path, seed: int) -> None:
    config = duel_config("chancer", "chancer", "memorandum", max_games=400, seed=seed,
                         players=3, fill="elephant")
    report = run_duel(config, SprtSettings(0, 20), tmp_path / "d")
    assert report.state.verdict is not Verdict.H1


def test_a_duel_of_sandboxed_bots_deals_every_chunk_with_its_key(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    used = KeysUsed(monkeypatch)
    config = duel_config("greedy", "greedy", "concentration", max_games=2 * CHUNK_PAIRS + 4,
                         isolation="process")
    report = run_duel(config, SprtSettings(0, 20), tmp_path / "d")
    assert report.state.games > 2 * CHUNK_PAIRS  # more than one chunk, each a resumed run
    key = RunDirectory(tmp_path / "d").key()
    assert len(key) == 32 and len(used.keys) == report.state.games and set(used.keys) == {key}


def _record(task: int, seats: list[str], scores: list[int], ranks: list[int]) -> str:
    return json.dumps({"task": task, "game": "memorandum", "variant": "standard",
                       "seed": task // 2, "seats": seats, "scores": scores, "ranks": ranks,
                       "order": "higher", "faults": []}) + "\n"


def test_a_multi_seat_duel_measures_the_margin_between_a_and_b(tmp_path: Path) -> None:
    """A and B share second place in every game (the fill wins), so their places tie and the
    Elo interval has no width; their scores differ, and so does the margin's interval."""
    out = tmp_path / "d"
    out.mkdir()
    lines = []
    # per deal: A and B's scores in the first game, then B and A's in the second (seats swapped)
    games = [((30, 20), (21, 27)), ((25, 24), (25, 22)), ((40, 10), (11, 37)), ((22, 28), (29, 19))]
    for k, ((a1, b1), (b2, a2)) in enumerate(games):
        lines.append(_record(2 * k, ["A", "B", "F", "F"], [a1, b1, 90, 5], [2, 2, 1, 4]))
        lines.append(_record(2 * k + 1, ["B", "A", "F", "F"], [b2, a2, 90, 5], [2, 2, 1, 4]))
    (out / GAMES).write_text("".join(lines))
    found = pair_results(out, 4, "A", "B")
    assert found.counts == (0, 0, 4, 0, 0) and found.mirrored == 0
    assert found.margins == (10 + 6, 1 - 3, 30 + 26, -6 - 10)
    margin = margin_estimate(found.margins)
    assert margin.high - margin.low > 1
    assert pair_results(out, 4, "B", "A").margins == tuple(-m for m in found.margins)


def test_a_four_seat_duel_reports_its_margin_in_points(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["duel", "goldfish:capacity=8", "goldfish:capacity=7",
                                      "--game", "memorandum", "--players", "4", "--fill",
                                      "random", "--max-games", "128", "--out",
                                      str(tmp_path / "d"), "-q", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    low, high = doc["margin_ci95"]
    assert doc["unit"] == "points" and low < doc["margin"] < high and high - low > 1
    assert doc["mirror"] is False
    assert doc["verdict"] == "H1 accepted"
    assert doc["summary"].startswith("goldfish:capacity=8 is better than goldfish:capacity=7: +")
    assert doc["summary"].endswith(f" points a deal pair [+{low:.1f}, +{high:.1f}]")


def test_a_bot_against_its_own_copy_is_said_to_play_mirror_images(tmp_path: Path) -> None:
    report = run_duel(duel_config("greedy", "greedy", "concentration", max_games=128),
                      SprtSettings(0, 20), tmp_path / "d")
    assert report.mirrored and report.margin.mean == 0
    result = CliRunner().invoke(app, ["duel", "greedy", "greedy", "--game", "concentration",
                                      "--max-games", "128", "--out", str(tmp_path / "d"), "-q"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()  # a line on luck between, where the games carry it
    first, last = lines[0], lines[-1]
    assert first.startswith("mirror images after 128 games: greedy - greedy")
    assert last.startswith("greedy and greedy-2 played mirror images of each other's games on "
                           "all 64 deals")
    assert "H0" not in result.stdout


def test_the_duel_ends_with_a_sentence_in_elo_and_the_game_s_units(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["duel", "optimal", "random", "--game", "concentration",
                                      "--max-games", "128", "--out", str(tmp_path / "d"), "-q"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()  # a line on luck between, where the games carry it
    first, last = lines[0], lines[-1]
    assert first.startswith("H1 accepted after 128 games: optimal - random +inf Elo")
    assert " sets a deal pair [+" in first
    assert last.startswith("optimal is better than random: +inf Elo [")
    assert last.endswith("]") and " sets a deal pair [+" in last
    weaker = CliRunner().invoke(app, ["duel", "random", "optimal", "--game", "concentration",
                                      "--max-games", "128", "--out", str(tmp_path / "e"), "-q"])
    assert weaker.stdout.splitlines()[-1].startswith(
        "random is not shown to be 20 Elo better than optimal; the difference lies between")


# the test on pair scores adjusted for luck: records carrying a synthetic luck

LUCKY = "concentration-minimax/1"


def _lucky_duel(out: Path, pairs: int, edge: float, seed: int, share: float = 0.8) -> None:
    """A two-seat duel's records: A's margin in each game is `edge` plus its luck (`share` of
    the spread) plus noise, and the game goes to whoever has the higher score."""
    rng = random.Random(seed)
    lines = []
    for k in range(2 * pairs):
        seats = ["A", "B"] if k % 2 == 0 else ["B", "A"]
        luck = rng.gauss(0.0, share ** 0.5)
        margin = edge + luck + rng.gauss(0.0, (1 - share) ** 0.5)
        a = seats.index("A")
        scores = [0.0, 0.0]
        scores[a] = margin
        luck_seats = [0.0, 0.0]
        luck_seats[a] = luck
        ranks = [1, 1] if margin == 0 else [1, 2] if (margin > 0) == (a == 0) else [2, 1]
        lines.append(json.dumps({"task": k, "game": "concentration", "variant": "standard",
                                 "seed": k // 2, "seats": seats, "scores": scores,
                                 "ranks": ranks, "order": "higher", "faults": [],
                                 "luck": luck_seats, "luck_model": LUCKY}) + "\n")
    out.mkdir()
    (out / GAMES).write_text("".join(lines))


def test_pair_results_read_each_pair_s_luck(tmp_path: Path) -> None:
    _lucky_duel(tmp_path / "d", 40, 0.1, 1)
    records = list(RunDirectory(tmp_path / "d").records())
    found = pair_results(tmp_path / "d", 40, "A", "B")
    assert found.luck_model == LUCKY and found.luck_note is None
    assert found.luck is not None and len(found.luck) == 40
    first = [sum(r["luck"]) for r in records[:2]]  # B's luck is 0 in these records
    assert found.luck[0] == pytest.approx(first[0] + first[1])
    assert found.scores[0] == sum(
        1.0 if r["ranks"][r["seats"].index("A")] == 1 else 0.0 for r in records[:2]) / 2
    turned = pair_results(tmp_path / "d", 40, "B", "A")
    assert turned.luck == tuple(-x for x in found.luck)


def test_the_adjusted_test_decides_sooner_on_the_same_games(tmp_path: Path) -> None:
    _lucky_duel(tmp_path / "d", 10 * CHUNK_PAIRS, 0.15, 3)
    settings = SprtSettings(0, 20)
    decided = {}
    for lucky in (True, False):
        for chunks in range(1, 11):
            found = pair_results(tmp_path / "d", chunks * CHUNK_PAIRS, "A", "B")
            if found.test(settings, lucky).verdict is Verdict.H1:
                decided[lucky] = chunks
                break
    assert decided[True] < decided.get(False, 11)
    found = pair_results(tmp_path / "d", decided[True] * CHUNK_PAIRS, "A", "B")
    adjusted = predictable(found.scores, found.luck or (), CHUNK_PAIRS)
    assert adjusted.betas[0] == 0 and adjusted.betas[1] > 0
    assert found.test(settings).llr == pytest.approx(
        normal_llr(adjusted.values, 0, 20), abs=1e-12)
    assert found.test(settings, False) == sprt(found.counts, settings)


def test_the_adjusted_test_keeps_its_error_rate_between_equal_bots(tmp_path: Path) -> None:
    """200 simulated duels of equal bots, luck most of the spread, up to 320 pairs each: the
    adjusted test accepts H1 at most 5% of the time, up to the binomial spread (5% of 200 is
    10, its standard deviation 3)."""
    rng = random.Random(9)
    settings = SprtSettings(0, 20)
    wrong = 0
    for _ in range(200):
        luck = [rng.gauss(0.0, 1.0) for _ in range(10 * CHUNK_PAIRS)]
        scores = [min(1.0, max(0.0, 0.5 + 0.2 * x + rng.gauss(0.0, 0.1))) for x in luck]
        for chunks in range(1, 11):
            n = chunks * CHUNK_PAIRS
            values = predictable(scores[:n], luck[:n], CHUNK_PAIRS).values
            llr = normal_llr(values, settings.elo0, settings.elo1)
            if not settings.bounds[0] < llr < settings.bounds[1]:
                wrong += llr >= settings.bounds[1]
                break
    assert wrong <= 16


@pytest.mark.parametrize(("change", "says"), [
    (lambda r: (r.pop("luck"), r.pop("luck_model")),
     "deal pair 2 (task 5) cannot be adjusted for luck: it has no luck while other games"),
    (lambda r: r.update(luck_model="concentration-minimax/2"),
     "deal pair 2 (task 5): the duel's luck comes from two models, concentration-minimax/1 and "
     "concentration-minimax/2"),
])
def test_a_duel_whose_luck_cannot_be_used_is_tested_raw_with_a_note(
        tmp_path: Path, change: Any, says: str) -> None:
    _lucky_duel(tmp_path / "d", CHUNK_PAIRS, 0.1, 4)
    path = tmp_path / "d" / GAMES
    records = [json.loads(line) for line in path.read_text().splitlines()]
    change(records[5])
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    found = pair_results(tmp_path / "d", CHUNK_PAIRS, "A", "B")
    assert found.luck is None and found.luck_model is None
    assert found.luck_note is not None and says in found.luck_note
    assert found.test(SprtSettings(0, 20)) == sprt(found.counts, SprtSettings(0, 20))


def test_luck_off_runs_the_pentanomial_test_and_says_so(tmp_path: Path) -> None:
    """A played duel's games carry luck once the game has a model; whatever they carry, --luck
    off gives the pentanomial test on raw scores, and JSON says which test was made."""
    out = tmp_path / "d"
    args = ["duel", "optimal", "greedy", "--game", "concentration", "--max-games", "128",
            "--out", str(out), "-q", "--json"]
    off = json.loads(CliRunner().invoke(app, [*args, "--luck", "off"]).stdout)
    assert off["luck_model"] is None
    counts = pair_results(out, off["games"] // 2, "optimal", "greedy").counts
    assert off["llr"] == round(sprt(counts, SprtSettings(0, 20)).llr, 4)
    on = json.loads(CliRunner().invoke(app, args).stdout)
    found = pair_results(out, on["games"] // 2, "optimal", "greedy")
    assert on["luck_model"] == found.luck_model
    if found.luck_model is not None:
        assert off["luck_note"].startswith("pair scores raw (--luck off); the games carry luck")
    bad = CliRunner().invoke(app, [*args, "--luck", "maybe"])
    assert bad.exit_code == 2


def test_the_adjusted_margin_counts_the_slopes_error() -> None:
    """The duel's luck-adjusted margin has an edge's interval (HC3, pairs less 4 degrees of
    freedom), not a plain t interval over the adjusted values, which is too narrow."""
    rng = random.Random(8)
    luck = [rng.gauss(0.0, 2.0) for _ in range(40)]
    margins = [0.5 + x + rng.gauss(0.0, 1.0) for x in luck]
    found = PairResults((0, 0, 40, 0, 0), tuple(margins), 0, (0.5,) * 40, tuple(luck), "m/1")
    adjusted = cross_fitted(list(range(40)), margins, luck)
    expected = adjusted.mean()
    margin = found.margin()
    assert (margin.pairs, margin.mean) == (40, pytest.approx(expected.mean))
    assert margin.high - margin.mean == pytest.approx(expected.ci95)
    assert margin.high - margin.mean != pytest.approx(paired_mean(adjusted.values).ci95)
    assert found.margin(False) == margin_estimate(margins)
