"""The games as PettingZoo environments: PettingZoo's own tests, encodings both ways, no hidden
card in any encoding, the same game as `play_game`, rewards, and the policy bot."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from arena.api import Bot, Observation, Reveal  # noqa: E402
from arena.cards import Card  # noqa: E402
from arena.engine import all_games, find_game  # noqa: E402
from arena.match import deal_rng, play_game  # noqa: E402
from arena.rl import LinearPolicy, PolicyBot, encoder_for, make_env  # noqa: E402
from arena.rl.encoding import CARDS, PACK, History, card_index  # noqa: E402
from arena.rl.games import ENCODERS, BundleEncoder, DigEncoder, NoEncodingError  # noqa: E402
from arena.rl.rewards import rewards_of  # noqa: E402
from bots.algorithms.random_bot import RandomBot  # noqa: E402

DONE = sorted(ENCODERS)
REPO = Path(__file__).resolve().parents[2]


LARGEST = {"cuckoo": 20}
"""Games also tested at their largest table, in the default preset."""


def _cases() -> list[tuple[str, str, int]]:
    out = []
    for name in DONE:
        game = find_game(name)
        for preset, params in game.presets.items():
            allowed = params.players_allowed()
            sizes = {allowed.start, min(allowed.stop - 1, allowed.start + 2)}
            if preset == game.default_preset:
                sizes.add(LARGEST.get(name, allowed.start))
            out += [(name, preset, n) for n in sorted(sizes)]
    return out


def _case(name: str, preset: str, players: int) -> Any:
    """A case; in the default run only in the game's default preset, at its fewest players and
    the next two sizes (not its largest table, LARGEST): every game's encoder is checked there,
    and the whole product of presets and sizes, which differ in the layout's size only, is slow
    (`pytest -m slow`)."""
    game = find_game(name)
    fewest = game.presets[preset].players_allowed().start
    kept = preset == game.default_preset and players <= fewest + 2
    return pytest.param(name, preset, players, id=f"{name}-{preset}-{players}p",
                        marks=() if kept else (pytest.mark.slow,))


CASES = [_case(*c) for c in _cases()]


def _widest(name: str, preset: str, players: int) -> Any:
    """A case of the leak check: in the default run only at the largest table the default run
    plays of each game (its default preset, at most two seats past its fewest), where most
    cards lie hidden from a seat; every other case of CASES under slow."""
    game = find_game(name)
    allowed = game.presets[preset].players_allowed()
    kept = preset == game.default_preset and players == min(allowed.stop - 1, allowed.start + 2)
    return pytest.param(name, preset, players, id=f"{name}-{preset}-{players}p",
                        marks=() if kept else (pytest.mark.slow,))


LEAK_CASES = [_widest(*c) for c in _cases()]


def test_every_game_is_encoded() -> None:
    assert DONE == ["animals", "concentration", "cribbage-square", "cuckoo", "dig",
                    "frogs-in-the-pond", "memorandum", "old-mans-bundle", "paved-with-gold"]
    assert sorted(game.name for game in all_games()) == DONE
    assert (DigEncoder.game, BundleEncoder.game) == ("dig", "old-mans-bundle")


@pytest.mark.parametrize(("game", "preset", "players"), CASES)
@pytest.mark.parametrize("observe", ["view", "history"])
def test_pettingzoo_api_test_passes(game: str, preset: str, players: int, observe: str) -> None:
    api_test(make_env(game, preset, players, observe=observe, history_rows=64), num_cycles=200)


@pytest.mark.parametrize(("game", "preset", "players"), CASES)
def test_pettingzoo_seed_test_passes(game: str, preset: str, players: int) -> None:
    seed_test(lambda: make_env(game, preset, players), num_cycles=200)


def _random_episode(env, seed: int, rng: random.Random) -> tuple[list[int], dict]:
    """Play an episode with random legal indices; the indices chosen, and the final infos."""
    env.reset(seed=seed)
    chosen = []
    infos = {}
    for agent in env.agent_iter():
        obs, reward, done, cut, info = env.last()
        if done or cut:
            infos[agent] = {**info, "reward": reward}
            env.step(None)
            continue
        index = rng.choice(list(np.flatnonzero(obs["action_mask"])))
        chosen.append(int(index))
        env.step(index)
    return chosen, infos


class Scripted(Bot):
    """Plays the plain actions it is given, in turn, from a shared script."""

    def __init__(self, script: list[tuple[int, object]]) -> None:
        self.script = script

    def act(self, obs: Observation) -> object:
        seat, action = self.script.pop(0)
        assert seat == obs.seat
        return action


@pytest.mark.parametrize(("game", "preset", "players"), CASES)
def test_an_episode_scores_as_play_game_with_the_same_seed_and_actions(
        game: str, preset: str, players: int) -> None:
    env = make_env(game, preset, players)
    for seed in (3, 11):
        _, infos = _random_episode(env, seed, random.Random(seed))
        script = list(env.actions)
        bots = [Scripted(script) for _ in range(players)]
        record = play_game(env.variant, bots, [f"s{i}" for i in range(players)], seed,
                           luck=False)
        assert not record.faults and not script
        assert record.scores == infos["seat_0"]["scores"]
        assert record.scores == env.state.outcome().scores


@pytest.mark.parametrize(("game", "preset", "players"), CASES)
def test_actions_encode_and_decode_both_ways_over_random_games(
        game: str, preset: str, players: int) -> None:
    variant = find_game(game).variant(preset)
    enc = encoder_for(variant, players)
    for i, plain in enumerate(enc.actions):
        assert enc.encode_action(plain) == i and enc.decode_action(i) == plain
    rng = random.Random(7)
    for seed in range(3):  # every legal action of every decision of three whole games
        state = variant.game.new_state(variant.params, players, deal_rng(seed))
        while seats := state.to_act():
            chosen = {}
            for seat in seats:
                legal = state.legal(seat)
                indices = [enc.encode_action(a) for a in legal]
                assert len(set(indices)) == len(legal)
                assert [enc.decode_action(i) for i in indices] == [
                    enc.decode_action(enc.encode_action(a)) for a in legal]
                assert sorted(np.flatnonzero(enc.mask(legal))) == sorted(indices)
                chosen[seat] = legal[rng.randrange(len(legal))]
            if len(seats) == 1:
                state.apply(seats[0], chosen[seats[0]])
            else:
                state.apply_joint(chosen)
    with pytest.raises(KeyError):
        enc.encode_action(("no such action",))


class Keeper:
    """A watcher that keeps the state of the game it watches."""

    state = None

    def dealt(self, state, variant, seed, names) -> None:
        self.state = state

    def happened(self, state, events) -> None:
        pass


SIMULTANEOUS = [c for c in CASES if c.values[0] in {"memorandum", "animals"}
                or (c.values[0] == "cribbage-square" and c.values[2] > 1)]


@pytest.mark.parametrize(("game", "preset", "players"), SIMULTANEOUS)
def test_a_simultaneous_episode_is_the_game_play_game_plays(game: str, preset: str,
                                                             players: int) -> None:
    """Every event (private ones too) and the outcome equal play_game's, same seed and actions."""
    env = make_env(game, preset, players)
    for seed in (4, 9):
        _random_episode(env, seed, random.Random(seed))
        script = list(env.actions)
        keeper = Keeper()
        record = play_game(env.variant, [Scripted(script) for _ in range(players)],
                           [f"s{i}" for i in range(players)], seed, watcher=keeper, luck=False)
        assert not record.faults and not script
        assert keeper.state.log == env.state.log
        outcome = env.state.outcome()
        assert (record.scores, record.turns, record.final) == (
            outcome.scores, outcome.turns, outcome.final)


@pytest.mark.parametrize(("game", "preset", "players"), SIMULTANEOUS)
def test_a_kept_simultaneous_action_is_unseen_until_all_have_acted(
        game: str, preset: str, players: int) -> None:
    """Seats decide in seat order; a kept action changes nothing the others see, and its seat's
    mask is empty until the joint decision is carried out: the first 60 joint decisions of a
    game (a five-seat Memorandum makes 260, each checked alike)."""
    env = make_env(game, preset, players, observe="history", history_rows=600)
    env.reset(seed=1)
    rng = random.Random(1)
    checked = 0
    while env.agents and not env.terminations[env.agent_selection] and checked < 60:
        seats = env.state.to_act()
        if len(seats) == 1:
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(rng.choice(list(np.flatnonzero(mask))))
            continue
        assert env.agent_selection == f"seat_{min(seats)}"
        before = {s: env.observe(f"seat_{s}") for s in seats}
        log = len(env.state.log)
        for seat in sorted(seats)[:-1]:
            assert env.agent_selection == f"seat_{seat}"
            mask = env.observe(f"seat_{seat}")["action_mask"]
            env.step(rng.choice(list(np.flatnonzero(mask))))
            assert len(env.state.log) == log and seat in env.pending
            assert not env.observe(f"seat_{seat}")["action_mask"].any()
            for other in seats:
                now = env.observe(f"seat_{other}")
                assert np.array_equal(now["observation"], before[other]["observation"])
                assert np.array_equal(now["history"], before[other]["history"])
        last = max(seats)
        assert env.agent_selection == f"seat_{last}"
        mask = env.observe(f"seat_{last}")["action_mask"]
        env.step(rng.choice(list(np.flatnonzero(mask))))
        assert not env.pending and len(env.state.log) > log
        checked += 1
    assert checked > 10


def _cards_of(enc, vec: np.ndarray) -> Counter[str]:
    totals = np.zeros(CARDS)
    for f in enc.layout.features:
        if f.kind == "cards":
            totals += vec[f.start:f.stop]
    return Counter({str(PACK[slot]): int(totals[slot]) for slot in np.flatnonzero(totals)})


def test_the_default_run_checks_every_game_for_leaks() -> None:
    kept = [case.values[0] for case in LEAK_CASES if not case.marks]
    assert sorted(kept) == DONE  # each game once


@pytest.mark.parametrize(("game", "preset", "players"), LEAK_CASES)
def test_no_encoding_holds_a_card_the_seat_cannot_see(game: str, preset: str,
                                                       players: int) -> None:
    variant = find_game(game).variant(preset)
    enc = encoder_for(variant, players)
    rng = random.Random(5)
    for seed in range(2):  # every decision of every seat of two whole games
        state = variant.game.new_state(variant.params, players, deal_rng(seed))
        histories = [History(enc.history, 1000) for _ in range(players)]
        seen: list[Counter[str]] = [Counter() for _ in range(players)]
        cursors = [0] * players
        while seats := state.to_act():
            for seat in range(players):
                visible = Counter(str(c) for c in state.visible_cards(seat))
                in_view = _cards_of(enc, enc.encode(state.view(seat), seat))
                assert not in_view - visible, f"the view encoding leaks {in_view - visible}"
                end = len(state.log)
                events = state.seen_by(seat, cursors[seat], end)
                cursors[seat] = end
                histories[seat].add(events)
                seen[seat] += visible
            legal = {s: state.legal(s) for s in seats}  # once: it is worked out each time
            chosen = {s: legal[s][rng.randrange(len(legal[s]))] for s in seats}
            mark = len(state.log)
            if len(seats) == 1:
                state.apply(seats[0], chosen[seats[0]])
            else:
                state.apply_joint(chosen)
            for seat in range(players):  # a card turned up by the action just taken was seen
                for event in state.seen_by(seat, mark, len(state.log)):
                    if isinstance(event, Reveal) and (
                            event.seat is None or event.position == chosen.get(event.seat)):
                        seen[seat][str(event.card)] += 1
        for seat in range(players):
            rows = histories[seat].array[:histories[seat].count]
            in_history = {str(PACK[i]) for i in enc.history.card_rows(rows)}
            ever = set(seen[seat]) | {str(c) for c in state.visible_cards(seat)}
            assert in_history <= ever, f"the history leaks {in_history - ever}"


def test_the_leak_check_can_fail() -> None:
    """A card of the opponent's hand written into the view encoding is caught."""
    variant = find_game("dig").variant()
    enc = encoder_for(variant, 2)
    state = variant.game.new_state(variant.params, 2, deal_rng(0))
    vec = enc.encode(state.view(0), 0)
    hidden: Card = state.hands[1][0]
    vec[enc.layout.by_name["hand"].start + card_index(hidden)] += 1
    visible = Counter(str(c) for c in state.visible_cards(0))
    assert _cards_of(enc, vec) - visible == Counter({str(hidden): 1})


def test_rewards_rank_and_margin() -> None:
    assert rewards_of([3.0, 1.0], True) == [1.0, -1.0]
    assert rewards_of([2.0, 2.0], True) == [0.0, 0.0]
    assert rewards_of([1.0, 2.0, 3.0], False) == [1.0, 0.0, -1.0]
    assert rewards_of([3.0, 1.0], True, "margin") == [2.0, -2.0]
    assert rewards_of([3.0, 1.0, 2.0], False, "margin") == [-1.5, 1.5, 0.0]
    assert rewards_of([5.0], True, "margin") == [5.0]


@pytest.mark.parametrize("mode", ["rank", "margin"])
def test_the_env_pays_each_seat_its_result_at_the_end(mode: str) -> None:
    env = make_env("dig", reward=mode)
    for seed in range(6):
        _, infos = _random_episode(env, seed, random.Random(seed))
        scores = infos["seat_0"]["scores"]
        expected = rewards_of(scores, True, mode)
        assert [infos[f"seat_{s}"]["reward"] for s in (0, 1)] == pytest.approx(expected)


def test_make_env_options_and_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    env = make_env("dig", "suit-only", max_turns=40)
    assert env.variant.label == "suit-only,max_turns=40"
    assert env.action_space("seat_0").n == 52 + 4
    assert make_env("dig").action_space("seat_1").n == 52 + 4 + 12
    with pytest.raises(ValueError, match="observe"):
        make_env("dig", observe="everything")
    monkeypatch.delitem(ENCODERS, "cribbage-square")  # every game is encoded now
    with pytest.raises(NoEncodingError, match="no encoding for 'cribbage-square' yet"):
        make_env("cribbage-square")


def test_policy_bot_plays_a_callable_and_refuses_an_illegal_index() -> None:
    variant = find_game("dig").variant()
    first = PolicyBot(lambda obs, mask: int(np.flatnonzero(mask)[0]))
    record = play_game(variant, [first, RandomBot()], ["policy", "random"], 2)
    assert not record.faults
    wrong = PolicyBot(lambda obs, mask: int(np.flatnonzero(mask == 0)[0]))
    record = play_game(variant, [wrong, RandomBot()], ["wrong", "random"], 2)
    assert [f.kind.value for f in record.faults] == ["exception"]


def test_policy_bot_sees_what_the_env_shows(tmp_path: Path) -> None:
    """A saved linear policy plays the same moves in the env and as a bot (history too)."""
    enc = make_env("old-mans-bundle").encoder
    rng = np.random.default_rng(0)
    policy = LinearPolicy(rng.normal(size=(enc.layout.size, enc.size)).astype(np.float32),
                          rng.normal(size=enc.size).astype(np.float32))
    policy.save(tmp_path / "p.npz")
    loaded = LinearPolicy.load(tmp_path / "p.npz")
    env = make_env("old-mans-bundle", observe="history", history_rows=64)
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def record(obs, mask):
        seen.append((obs["observation"], obs["history"]))
        return loaded(obs["observation"], mask)

    env.reset(seed=9)
    from_env = []
    for agent in env.agent_iter():
        obs, _, done, cut, _ = env.last()
        if done or cut:
            env.step(None)
            continue
        if agent == "seat_0":
            from_env.append((obs["observation"], obs["history"]))
            env.step(loaded(obs["observation"], obs["action_mask"]))
        else:
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    bots = [PolicyBot(record, observe="history", history_rows=64),
            PolicyBot(lambda obs, mask: int(np.flatnonzero(mask)[0]))]
    play_game(env.variant, bots, ["a", "b"], 9)
    assert len(seen) == len(from_env)
    for (a, h), (b, g) in zip(seen, from_env, strict=True):
        assert np.array_equal(a, b) and np.array_equal(h, g)


def test_the_example_policy_beats_random() -> None:
    """The shipped trained policy wins most games against random on fixed deals, both seats."""
    sys.path.insert(0, str(REPO / "docs" / "examples"))
    try:
        from bundle_policy_bot import BundlePolicyBot
    finally:
        sys.path.pop(0)
    variant = find_game("old-mans-bundle").variant()
    wins = losses = 0
    for seed in range(100):
        for seat in (0, 1):
            bots: list[Bot] = [RandomBot(), RandomBot()]
            bots[seat] = BundlePolicyBot()
            ranks = play_game(variant, bots, ["a", "b"], seed, luck=False).ranks
            wins += ranks[seat] < ranks[1 - seat]
            losses += ranks[seat] > ranks[1 - seat]
    assert wins > 1.5 * losses, (wins, losses)


@pytest.mark.slow  # a long statistical run
def test_training_improves_on_the_untrained_policy() -> None:
    """A short run of the example's training already beats random more often than not."""
    sys.path.insert(0, str(REPO / "docs" / "examples"))
    try:
        import train_bundle
    finally:
        sys.path.pop(0)
    policy = train_bundle.train(episodes=600, seed=1)
    variant = find_game("old-mans-bundle").variant()
    wins = losses = 0
    for seed in range(60):
        for seat in (0, 1):
            bots: list[Bot] = [RandomBot(), RandomBot()]
            bots[seat] = PolicyBot(policy)
            ranks = play_game(variant, bots, ["a", "b"], 500 + seed).ranks
            wins += ranks[seat] < ranks[1 - seat]
            losses += ranks[seat] > ranks[1 - seat]
    assert wins > losses, (wins, losses)


def test_concentration_actions_are_the_positions_of_the_preset_layout() -> None:
    sizes = {preset: make_env("concentration", preset).action_space("seat_0").n
             for preset in ("standard", "jokers", "two-decks", "two-decks-jokers", "duel")}
    assert sizes == {"standard": 52, "jokers": 54, "two-decks": 104, "two-decks-jokers": 108,
                     "duel": 104}
    enc = make_env("concentration", "four-of-a-kind", 3).encoder
    assert [f.name for f in enc.layout.features if f.kind == "cards"] == [
        "up_0", "up_1", "up_2", "up_3"]
