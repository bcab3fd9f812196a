"""The TrueSkill posterior by expectation propagation: agreement with trueskill, order
independence, symmetry, recovery of known skills, and the odd matches (teams, clones, one bot,
unratable)."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pytest
import trueskill
from trueskill.backends import erfc as trueskill_erfc

import arena.ratings.posterior as post
from arena.ratings.pools import Match
from arena.ratings.posterior import Posterior, chain, chain_loop, erfc, posterior
from arena.ratings.settings import TrueSkillSettings

SETTINGS = TrueSkillSettings()
ENV = trueskill.TrueSkill(SETTINGS.mu, SETTINGS.sigma, SETTINGS.beta, 0.0,
                          SETTINGS.draw_probability)


def match(position: int, bots: Sequence[str], ranks: Sequence[int],
          units: Sequence[int] | None = None) -> Match:
    """A match with the given seats and ranks (scores mirror the ranks)."""
    seats = len(bots)
    return Match(position, tuple(bots), tuple(float(-r) for r in ranks), tuple(ranks),
                 tuple(units if units is not None else range(seats)), (0,) * seats, 1)


def thurstone(rng: random.Random, skills: Sequence[float], seats: int, games: int,
              beta: float = SETTINGS.beta, draw_width: float = 0.0) -> list[Match]:
    """Random tables of `seats` players; performance = skill + N(0, beta^2), ranked (equal
    performances after rounding to `draw_width` tie)."""
    out = []
    for task in range(games):
        table = rng.sample(range(len(skills)), seats)
        perf = [skills[p] + rng.gauss(0, beta) for p in table]
        if draw_width:
            perf = [round(p / draw_width) for p in perf]
        ranks = [1 + sum(q > p for q in perf) for p in perf]
        out.append(match(task, [f"p{p}" for p in table], ranks))
    return out


def close(a: Posterior, b: Posterior, tol: float) -> None:
    assert a.ratings.keys() == b.ratings.keys()
    for bot, (mu, sigma) in a.ratings.items():
        assert abs(mu - b.ratings[bot][0]) < tol, bot
        assert abs(sigma - b.ratings[bot][1]) < tol, bot


def test_one_match_is_one_trueskill_update() -> None:
    got = posterior([match(0, ["a", "b", "c"], [2, 1, 3])], SETTINGS)
    prior = trueskill.Rating(SETTINGS.mu, SETTINGS.sigma)
    (a,), (b,), (c,) = ENV.rate([(prior,), (prior,), (prior,)], ranks=[1, 0, 2])
    for bot, rating in zip("abc", (a, b, c), strict=True):
        assert got.ratings[bot] == pytest.approx((rating.mu, rating.sigma), abs=1e-9)
    assert got.converged and got.skipped == 0


def test_a_draw_between_two_is_trueskills_draw() -> None:
    got = posterior([match(5, ["x", "y"], [1, 1])], SETTINGS)
    prior = trueskill.Rating(SETTINGS.mu, SETTINGS.sigma)
    (x,), (y,) = ENV.rate([(prior,), (prior,)], ranks=[0, 0])
    assert got.ratings["x"] == pytest.approx((x.mu, x.sigma), abs=1e-9)
    assert got.ratings["y"] == pytest.approx((y.mu, y.sigma), abs=1e-9)


def test_order_and_positions_do_not_matter() -> None:
    rng = random.Random(3)
    skills = [rng.gauss(25, 8) for _ in range(7)]
    matches = (thurstone(rng, skills, 2, 300, draw_width=2.0)
               + thurstone(rng, skills, 4, 150, draw_width=3.0))
    base = posterior(matches, SETTINGS)
    shuffled = matches[:]
    rng.shuffle(shuffled)
    renumbered = [replace(m, position=10_000 - i) for i, m in enumerate(shuffled)]
    # a solitaire deal's seats come in task order, or reversed: the same game either way
    flipped = [replace(m, bots=m.bots[::-1], scores=m.scores[::-1], ranks=m.ranks[::-1])
               for m in renumbered]
    assert base.converged
    for other in (posterior(shuffled, SETTINGS), posterior(renumbered, SETTINGS),
                  posterior(flipped, SETTINGS)):
        close(base, other, 1e-9)


def test_one_pass_order_dependence_is_gone() -> None:
    rng = random.Random(8)
    skills = [25.0] * 6
    matches = thurstone(rng, skills, 2, 400)
    forward = posterior(matches, SETTINGS)
    backward = posterior(matches[::-1], SETTINGS)
    close(forward, backward, 1e-12)


def test_twins_with_identical_records_get_identical_ratings() -> None:
    rng = random.Random(5)
    matches = []
    for task in range(200):
        opponent = rng.choice(["x", "y", "z"])
        result = rng.choice([(1, 2), (2, 1), (1, 1)])
        for twin in ("t1", "t2"):  # each twin plays the same game, in mirrored seats
            bots = [twin, opponent] if twin == "t1" else [opponent, twin]
            ranks = list(result) if twin == "t1" else list(result[::-1])
            matches.append(match(2 * task + (twin == "t2"), bots, ranks))
    got = posterior(matches, SETTINGS)
    assert got.converged
    assert got.ratings["t1"][0] == pytest.approx(got.ratings["t2"][0], abs=1e-9)
    assert got.ratings["t1"][1] == pytest.approx(got.ratings["t2"][1], abs=1e-9)


@pytest.mark.parametrize(("others", "within"), [(1, 1e-9), (2, 1e-9), (4, 1e-3)])
def test_twins_tied_with_each_other_in_a_bigger_tie_are_rated_alike(others: int,
                                                                    within: float) -> None:
    """Solitaire deals where the twins always tie, often with other bots too: TrueSkill's chain
    orders tied units, so each tie is rated in every order of its units and averaged: exactly
    alike up to MAX_TIE_ORDERS orders (four tied), nearly beyond (rotations and reversals)."""
    rng = random.Random(8)
    names = [f"o{i}" for i in range(others)]
    matches = []
    for task in range(60):
        twin = rng.randint(1, 3)
        scores = [twin, twin, *(rng.randint(1, 3) for _ in names)]
        order = sorted(set(scores), reverse=True)
        ranks = [1 + sum(scores.count(s) for s in order if s > score) for score in scores]
        matches.append(match(task, ["t1", "t2", *names], ranks))
    got = posterior(matches, SETTINGS)
    assert got.converged
    assert got.ratings["t1"] == pytest.approx(got.ratings["t2"], abs=within)
    assert got.ratings["t1"] != pytest.approx(got.ratings[names[0]], abs=1e-3)


@pytest.mark.parametrize("seats", [2, 4])
def test_known_skills_are_recovered_and_intervals_are_calibrated(seats: int) -> None:
    # TrueSkill knows skills only up to a common shift, which the games say nothing about and
    # EP's per-bot sigma leaves out (only the prior pins the mean of the mus, at the prior's
    # mu): so the true skills are anchored with their mean at the prior's mu, and a 95% interval
    # mu +- 1.96 sigma should then hold about 95% of them
    inside = total = 0
    taus = []
    for seed in range(20):
        rng = random.Random(seed)
        skills = [rng.gauss(SETTINGS.mu, SETTINGS.sigma) for _ in range(8)]
        mean = sum(skills) / len(skills)
        skills = [s - mean + SETTINGS.mu for s in skills]
        matches = thurstone(rng, skills, seats, 480 // seats)
        got = posterior(matches, SETTINGS)
        assert got.converged
        mus = [got.ratings[f"p{p}"][0] for p in range(8)]
        for p, skill in enumerate(skills):
            mu, sigma = got.ratings[f"p{p}"]
            inside += abs(skill - mu) <= 1.96 * sigma
            total += 1
        taus.append(kendall(skills, mus))
    assert 0.85 <= inside / total <= 0.995
    assert sum(taus) / len(taus) > 0.75
    # with many games the order is the true one
    rng = random.Random(99)
    skills = [10.0 + 4 * p for p in range(8)]
    got = posterior(thurstone(rng, skills, seats, 4000 // seats), SETTINGS)
    order = sorted(range(8), key=lambda p: got.ratings[f"p{p}"][0])
    assert order == list(range(8))


def kendall(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Kendall's tau between two rankings (no ties expected)."""
    pairs = [(i, j) for i in range(len(xs)) for j in range(i + 1, len(xs))]
    agree = sum(1 if (xs[i] - xs[j]) * (ys[i] - ys[j]) > 0 else -1 for i, j in pairs)
    return agree / len(pairs)


def test_erfc_is_trueskills_and_close_to_the_exact_one() -> None:
    xs = np.linspace(-12, 12, 4001)
    ours = erfc(xs)
    theirs = np.array([trueskill_erfc(float(x)) for x in xs])
    exact = np.array([math.erfc(float(x)) for x in xs])
    assert np.max(np.abs(ours - theirs) / theirs) < 1e-14
    assert np.max(np.abs(ours - exact) / exact) < 1.3e-7


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_vectorised_chain_equals_trueskill_per_match(n: int) -> None:
    rng = np.random.default_rng(n)
    rows = 200
    mu = rng.normal(25, 8, (rows, n))
    sigma = rng.uniform(0.3, 9, (rows, n))
    ranks = np.sort(rng.integers(0, max(2, n - 1), (rows, n)), axis=1)  # many ties
    margin = trueskill.calc_draw_margin(SETTINGS.draw_probability, 2, ENV)
    pi = sigma ** -2
    msg_pi, msg_tau, bad = chain(pi, pi * mu, ranks[:, 1:] == ranks[:, :-1],
                                 SETTINGS.beta ** 2, margin)
    new_pi = pi + msg_pi
    checked = 0
    for r in range(rows):
        try:
            rated = ENV.rate([(trueskill.Rating(mu[r, i], sigma[r, i]),) for i in range(n)],
                             ranks=ranks[r].tolist())
        except FloatingPointError:
            assert bad[r]
            continue
        assert not bad[r]
        for i, (rating,) in enumerate(rated):
            assert (pi[r, i] * mu[r, i] + msg_tau[r, i]) / new_pi[r, i] == pytest.approx(
                rating.mu, abs=1e-9)
            assert new_pi[r, i] ** -0.5 == pytest.approx(rating.sigma, abs=1e-9)
        checked += 1
    assert checked > rows * 0.9


def test_two_seat_chain_is_the_general_loop_bit_for_bit() -> None:
    """Two seats take a shorter path than `chain_loop` (a league's pools are mostly two-seat
    matches): the same operations, so the same messages to the last bit, wins, draws and
    failed rows alike; and rows stacked in one call are rated as each alone."""
    rng = np.random.default_rng(2)
    rows = 400
    mu = rng.normal(25, 12, (rows, 2))
    sigma = rng.uniform(0.05, 9, (rows, 2))
    sigma[:8] = [1e-6, 40.0]  # hopeless rows: failures and extreme truncations
    mu[:8] = [[-900.0, 900.0], [900.0, -900.0]] * 4
    tie = rng.random((rows, 1)) < 0.3
    margin = trueskill.calc_draw_margin(SETTINGS.draw_probability, 2, ENV)
    pi = sigma ** -2
    fast = chain(pi, pi * mu, tie, SETTINGS.beta ** 2, margin)
    loop = chain_loop(pi, pi * mu, tie, SETTINGS.beta ** 2, margin)
    for ours, general in zip(fast, loop, strict=True):
        assert ours.tobytes() == general.tobytes()
    assert fast[2].any() and not fast[2].all()
    for r in range(0, rows, 37):
        one = chain(pi[r:r + 1], pi[r:r + 1] * mu[r:r + 1], tie[r:r + 1], SETTINGS.beta ** 2,
                    margin)
        assert all(a.tobytes() == b[r:r + 1].tobytes() for a, b in zip(one, fast, strict=True))


def test_vectorised_and_scalar_paths_give_one_posterior(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(11)
    skills = [rng.gauss(25, 6) for _ in range(6)]
    matches = (thurstone(rng, skills, 2, 120, draw_width=2.0)
               + thurstone(rng, skills, 5, 40, draw_width=3.0))
    fast = posterior(matches, SETTINGS)

    def every_row_bad(pi: np.ndarray, tau: np.ndarray, tie: np.ndarray, beta2: float,
                      margin: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return np.zeros_like(pi), np.zeros_like(pi), np.ones(len(pi), dtype=bool)

    monkeypatch.setattr(post, "chain", every_row_bad)
    slow = posterior(matches, SETTINGS)
    assert fast.converged and slow.converged
    close(fast, slow, 1e-7)


def test_two_teams_of_two_is_trueskills_team_update() -> None:
    got = posterior([match(0, ["a", "b", "c", "d"], [2, 1, 2, 1], units=[4, 5, 4, 5])],
                    SETTINGS)
    prior = trueskill.Rating(SETTINGS.mu, SETTINGS.sigma)
    (a, c), (b, d) = ENV.rate([(prior, prior), (prior, prior)], ranks=[1, 0])
    for bot, rating in zip("abcd", (a, b, c, d), strict=True):
        assert got.ratings[bot] == pytest.approx((rating.mu, rating.sigma), abs=1e-9)


def test_a_clone_multiplies_its_seats_messages() -> None:
    # "a" holds seats 1 and 3 of a three-seat game: each seat is a player starting from the
    # prior, and a's message is the product of its two seats' messages
    got = posterior([match(0, ["a", "b", "a"], [1, 2, 3])], SETTINGS)
    prior = trueskill.Rating(SETTINGS.mu, SETTINGS.sigma)
    (a1,), (b,), (a3,) = ENV.rate([(prior,), (prior,), (prior,)], ranks=[0, 1, 2])
    p0 = SETTINGS.sigma ** -2
    pi = p0 + (a1.sigma ** -2 - p0) + (a3.sigma ** -2 - p0)
    tau = p0 * SETTINGS.mu + (a1.mu * a1.sigma ** -2 - p0 * SETTINGS.mu) + (
        a3.mu * a3.sigma ** -2 - p0 * SETTINGS.mu)
    assert got.ratings["a"] == pytest.approx((tau / pi, pi ** -0.5), abs=1e-9)
    assert got.ratings["b"] == pytest.approx((b.mu, b.sigma), abs=1e-9)


def test_a_one_bot_match_is_ignored_not_skipped() -> None:
    got = posterior([match(0, ["solo", "solo"], [1, 2]), match(1, ["lone"], [1])], SETTINGS)
    assert got.ratings == {"solo": (SETTINGS.mu, SETTINGS.sigma),
                           "lone": (SETTINGS.mu, SETTINGS.sigma)}
    assert got.skipped == 0 and got.converged


def test_a_match_neither_backend_rates_is_skipped_once(monkeypatch: pytest.MonkeyPatch) -> None:
    def fails(*args: object, **kwargs: object) -> None:
        raise FloatingPointError("no")

    def every_row_bad(pi: np.ndarray, tau: np.ndarray, tie: np.ndarray, beta2: float,
                      margin: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return np.zeros_like(pi), np.zeros_like(pi), np.ones(len(pi), dtype=bool)

    monkeypatch.setattr(post, "chain", every_row_bad)
    monkeypatch.setattr(trueskill.TrueSkill, "rate", fails)
    matches = [match(0, ["a", "b"], [1, 2]), match(1, ["a", "b"], [1, 2]),
               match(2, ["a", "c", "b"], [1, 2, 3])]
    got = posterior(matches, SETTINGS)
    assert got.skipped == 3
    assert got.converged
    assert got.ratings["a"] == (SETTINGS.mu, SETTINGS.sigma)


def test_a_match_the_float_backend_cannot_rate_is_rated_by_mpmath(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The mpmath environment, made only when asked for, still rates what floats cannot."""
    floats = trueskill.TrueSkill(backend=None).cdf
    real = trueskill.TrueSkill.rate

    def rate(env: trueskill.TrueSkill, *args: object, **kwargs: object) -> object:
        if env.cdf is floats:
            raise FloatingPointError("no")
        return real(env, *args, **kwargs)

    monkeypatch.setattr(trueskill.TrueSkill, "rate", rate)
    got = posterior([match(0, ["a", "b", "c", "d"], [2, 1, 2, 1], units=[4, 5, 4, 5])],
                    SETTINGS)
    prior = trueskill.Rating(SETTINGS.mu, SETTINGS.sigma)
    exact = trueskill.TrueSkill(SETTINGS.mu, SETTINGS.sigma, SETTINGS.beta, 0.0,
                                SETTINGS.draw_probability, backend="mpmath")
    (a, c), (b, d) = real(exact, [(prior, prior), (prior, prior)], ranks=[1, 0])
    assert got.skipped == 0
    for bot, rating in zip("abcd", (a, b, c, d), strict=True):
        assert got.ratings[bot] == pytest.approx((rating.mu, rating.sigma), abs=1e-9)


def test_rating_imports_no_mpmath_when_floats_suffice() -> None:
    """mpmath (about 0.1 s to import in a fresh process, a third of a small league update's
    fixed cost) is imported only for a match the float backend cannot rate."""
    code = ("import sys; from arena.ratings.pools import Match; "
            "from arena.ratings.posterior import posterior; "
            "from arena.ratings.settings import TrueSkillSettings; "
            "m = [Match(i, ('a', 'b', 'c', 'd'), (0.0,) * 4, (1, 2, 1, 2), (0, 1, 0, 1), "
            "(0,) * 4, 1, i % 3) for i in range(6)] "
            "+ [Match(9, ('a', 'b'), (1.0, 0.0), (1, 2), (0, 1), (0, 0), 1)]; "
            "p = posterior(m, TrueSkillSettings()); assert p.converged and not p.skipped; "
            "print('mpmath' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


def test_convergence_is_reported() -> None:
    rng = random.Random(2)
    matches = thurstone(rng, [20.0, 25.0, 30.0, 35.0], 2, 500)
    done = posterior(matches, SETTINGS)
    assert done.converged and 1 < done.sweeps < 200
    cut = posterior(matches, SETTINGS, max_sweeps=2)
    assert not cut.converged and cut.sweeps == 2


def test_a_refit_without_evidence_has_the_same_ratings_bit_for_bit() -> None:
    """The refits near an edge ask for ratings only: the same sweeps, no clustered covariance."""
    rng = random.Random(6)
    matches = thurstone(rng, [20.0, 25.0, 30.0, 35.0], 2, 300)
    full, bare = posterior(matches, SETTINGS), posterior(matches, SETTINGS, evidence=False)
    assert full.evidence is not None and bare.evidence is None
    assert (bare.ratings, bare.sweeps, bare.converged) == (full.ratings, full.sweeps,
                                                            full.converged)


def test_sigma_shrinks_as_games_accumulate() -> None:
    rng = random.Random(4)
    skills = [22.0, 25.0, 28.0]
    few = posterior(thurstone(rng, skills, 2, 30), SETTINGS)
    many = posterior(thurstone(rng, skills, 2, 3000), SETTINGS)
    for bot in few.ratings:
        assert many.ratings[bot][1] < few.ratings[bot][1] / 5
