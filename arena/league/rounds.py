"""Bringing a league up to date, and its rounds: each update plays every pool's run on the
league's deals (`run_tournament` with `--deals-like` the league's deals), then keeps the
standings as round N (`rounds/N/round.json`, with standings.txt and standings.md to publish).
Rounds are compared with `arena.ratings.comparison.compare`, and read back as a history.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.metadata
import json
import os
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arena.league.folder import (
    ARCHIVE,
    POOLS,
    ROUNDS,
    UPDATE_LOCK,
    League,
    LeagueError,
    Pool,
    locked,
    pool_tournament,
    ready_deals,
)
from arena.league.submissions import Submission, read_submissions, unseen_in
from arena.league.unadjusted import without_luck
from arena.protocol.command import is_command
from arena.ratings.comparison import Comparison, compare
from arena.ratings.evidence import Evidence
from arena.ratings.formats import format_ratings
from arena.ratings.output import ReportFormat
from arena.ratings.tables import BotRow, HeadToHead, PoolRatings, Ratings
from arena.safe_files import (
    UnsafeFileError,
    check_entry,
    open_regular,
    read_json,
    read_text,
    real_folder,
    write_text,
)
from arena.sandbox import Isolation
from arena.text import escape, is_safe
from arena.tournament.planning.canonical import config_digest
from arena.tournament.planning.config import TournamentConfig
from arena.tournament.playing.ray_backend import ray_session
from arena.tournament.playing.runner import Backend, ProgressHook
from arena.tournament.rating import rated_run
from arena.tournament.records.results import DIGEST, GAMES, NUMBERS, RunDirectoryError
from arena.tournament.run import RunReport, run_tournament
from arena.tournament.update.identity import (
    CodeLook,
    bots_code,
    deals_of,
    first_change,
    like_deals,
    read_bots,
)
from arena.tournament.update.reconcile import RunPlan

ROUND_FILE = "round.json"


@dataclass(frozen=True)
class PoolUpdate:
    """What an update did in one pool: its run's report, or why it was not played."""

    pool: Pool
    bots: tuple[str, ...]
    report: RunReport | None = None
    waiting: str | None = None
    restarted: bool = False


@dataclass(frozen=True)
class PoolStart:
    """A pool's run as it starts, for its progress to be shown: its bots, and what its run
    keeps and has to play (`RunPlan`)."""

    pool: Pool
    bots: tuple[str, ...]
    plan: RunPlan


@dataclass(frozen=True)
class UpdateReport:
    """What an update did: the round it kept and each pool's part, and the pools whose ratings
    were carried over from the round before (their records and rating settings unchanged)."""

    round: int
    date: str
    pools: tuple[PoolUpdate, ...]
    kept_ratings: tuple[str, ...] = ()


def pool_config(league: League, pool: Pool, isolation: str | None = None,
                subs: Mapping[str, Submission] | None = None) -> TournamentConfig | None:
    """The tournament config of a pool as the league stands (None with fewer than two bots):
    each name's playing version, sandboxed unless bundled (or as `isolation` says); `subs`:
    the submissions as read at the start of an update."""
    bots = []
    subs = read_submissions(league) if subs is None else subs
    for name, sub in sorted(subs.items()):
        version = sub.playing()
        if version is None or pool.game not in version.games:
            continue
        bundled = version.kind == "bundled"
        spec = version.spec if bundled else f"{league.path.resolve()}/{version.spec}"
        bots.append((name, spec, isolation or ("none" if bundled else "process")))
    if len(bots) < 2:
        return None
    where = league.file("league.toml")
    return pool_tournament(league.config, pool, bots, where)


def update(league: League, workers: int = 1, on_progress: ProgressHook | None = None,
           isolation: str | None = None, backend: Backend = Backend.LOCAL,
           address: str | None = None,
           on_pool: Callable[[PoolStart], None] | None = None) -> UpdateReport:
    """Bring every pool up to date on the league's deals, then keep the standings as the next
    round. Interrupted, it is resumed by running it again: each pool's run resumes. `backend`
    and `address` as for `run_tournament` (Ray). `on_pool` hears of each pool's run as it
    starts, before `on_progress` hears how its games go."""
    with locked(league, UPDATE_LOCK, wait=False), ExitStack() as ray:
        joined: list[int] = []

        def on_plan(plan: RunPlan) -> None:
            # Ray is started (or joined) once, by the first pool that has games to play, and
            # every later pool's run joins it: a local instance takes seconds to start and stop
            if backend is Backend.RAY and plan.to_play and not joined:
                joined.append(ray.enter_context(ray_session(address, workers)))

        return _update(league, workers, on_progress, isolation, backend, address, on_plan,
                       on_pool)


def _update(league: League, workers: int, on_progress: ProgressHook | None,
            isolation: str | None, backend: Backend, address: str | None,
            on_plan: Callable[[RunPlan], None],
            on_pool: Callable[[PoolStart], None] | None = None) -> UpdateReport:
    deals = ready_deals(league)
    real_folder(league.file(POOLS), make=True)
    subs = read_submissions(league)  # what is submitted during the update plays in the next
    look = CodeLook()  # the bundled bots' package, which every pool plays, hashed once
    done = []
    for pool in league.config.pools:
        config = pool_config(league, pool, isolation, subs)
        if config is None:
            done.append(PoolUpdate(pool, (), waiting="fewer than two bots play it"))
            continue
        names = tuple(b.name for b in config.bots)
        out = league.pool_dir(pool)
        hidden = _hidden(league, config)

        def planned(plan: RunPlan, pool: Pool = pool, names: tuple[str, ...] = names) -> None:
            on_plan(plan)
            if on_pool is not None:
                on_pool(PoolStart(pool, names, plan))

        try:
            report = run_tournament(config, out, workers, False, on_progress, backend, address,
                                    deals_like=deals, on_plan=planned, hidden=hidden,
                                    look=look)
            done.append(PoolUpdate(pool, names, report))
        except RunDirectoryError:
            if not _changed(out, config, deals, look):
                raise
            # the tournament cannot bring this run up to date: its games are archived and the
            # pool is played again on the same key and deals
            _archive(league, pool)
            report = run_tournament(config, out, workers, True, on_progress, backend, address,
                                    deals_like=deals, on_plan=planned, hidden=hidden,
                                    look=look)
            done.append(PoolUpdate(pool, names, report, restarted=True))
    number, date, kept = _keep_round(league, done, subs)
    return UpdateReport(number, date, tuple(done), kept)


def _hidden(league: League, config: TournamentConfig) -> tuple[Path, ...]:
    """What a pool's sandboxed bots may not see of the league (`unseen_in`): the versions at
    this table stay visible, each to itself (the sandbox keeps them from one another); none
    to hide in a pool without a sandboxed bot (only the sandbox reads them)."""
    if all(b.isolation is not Isolation.PROCESS for b in config.bots):
        return ()
    return unseen_in(league, *(Path(b.spec) if is_command(b.spec)  # a program: its folder
                               else Path(b.spec.partition(".py")[0]).parent for b in config.bots))


def _changed(out: Path, config: TournamentConfig, deals: Path, look: CodeLook) -> bool:
    """Whether a pool's run was begun on another config or other code than `config`'s (the
    code as the update's `look` finds it)."""
    try:
        digest = read_text(out / DIGEST, 1024).strip() if check_entry(out / DIGEST) else None
        if digest != config_digest(like_deals(config, deals_of(deals))):
            return True
        recorded = read_bots(out)
        return recorded is not None and first_change(recorded, bots_code(config, look)) is not None
    except (OSError, UnsafeFileError, RunDirectoryError):
        return False


def _archive(league: League, pool: Pool) -> None:
    """Move a pool's records aside (archive/<pool>/<time>.jsonl) before it starts over."""
    games = league.pool_dir(pool) / GAMES
    if not check_entry(games):
        return
    folder = real_folder(league.file(ARCHIVE), make=True)
    folder = real_folder(folder / pool.id, make=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    os.replace(games, folder / f"{stamp}.jsonl")  # a rename: nothing is written through a link


def _keep_round(league: League, done: Sequence[PoolUpdate],
                subs: Mapping[str, Submission]) -> tuple[int, str, tuple[str, ...]]:
    """Write the next round's standings (and the versions that played it); its number, date,
    and the pools whose ratings were carried over from the round before."""
    number = max(rounds(league), default=0) + 1
    date = datetime.now(UTC).isoformat(timespec="seconds")
    bots = {}
    for name, sub in subs.items():
        version = sub.playing()
        if version is not None:
            bots[name] = {"version": version.number, "digest": version.digest}
    earlier = _previous_pools(league, number - 1)
    pools, carried = [], []
    for part in done:
        if part.report is None:
            continue
        source = rated_from(part.report.path)
        before = earlier.get(part.pool.id)
        if before is not None and before.get("rated_from") == source:
            # the same records under the same settings and ratings code: the same posterior,
            # kept rather than recomputed (its cost grows with the pool's games, not the week's)
            pools.append(before)
            carried.append(part.pool.id)
            continue
        rated, config = rated_run(part.report.path)  # its config read once
        seeds = config.deals.seeds
        kept = Ratings(tuple(replace(p, variant=part.pool.label) for p in rated.pools)).to_json()
        for data, pool in zip(kept["pools"], rated.pools, strict=True):
            # the deal-clustered covariance, so that moves between rounds are measured as
            # between runs (the contrast's variance: docs/ratings.md)
            data["evidence"] = pool.evidence.to_json() if pool.evidence is not None else None
        pools.append({"id": part.pool.id, "game": part.pool.game, "variant": part.pool.variant,
                      "players": part.pool.players, "deals": len(seeds),
                      "seeds": hashlib.sha256(repr(seeds).encode()).hexdigest(),
                      "rated_from": source, "ratings": kept})
    share = float(league.config.table("limits").get("fault_share", 0.25))
    document = {"round": number, "date": date, "bots": bots, "pools": pools,
                "fault_share": share}
    folder = real_folder(league.file(ROUNDS), make=True)
    folder = real_folder(folder / str(number), make=True)
    ratings = round_ratings(document)
    for suffix, fmt in (("txt", "table"), ("md", "markdown")):
        write_text(folder / f"standings.{suffix}", format_ratings(ratings, fmt, None, share) + "\n")
    write_text(folder / ROUND_FILE, json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    return number, date, tuple(carried)


def _previous_pools(league: League, number: int) -> dict[str, dict[str, Any]]:
    """The pools of round `number` by id, as kept ({} if there is none, or it cannot be read:
    its ratings are then computed afresh)."""
    if number < 1:
        return {}
    try:
        document = read_round(league, number)
        return {p["id"]: p for p in document["pools"]
                if isinstance(p, dict) and isinstance(p.get("id"), str)}
    except (LeagueError, KeyError, TypeError):
        return {}


def rated_from(run: Path) -> str:
    """What a pool's ratings follow from, as one digest: its records byte for byte, its config
    (the rating settings, the fault rules, the deals), and the arena's ratings code. Equal
    digests, equal ratings."""
    h = hashlib.sha256(_ratings_code().encode())
    for name in (DIGEST, GAMES, NUMBERS):  # numbers.json: which games on record are rated
        h.update(f"\0{name}\0".encode())
        try:
            with open_regular(run / name) as f:
                h.update(hashlib.file_digest(f, "sha256").digest())
        except FileNotFoundError:
            h.update(b"missing")
    return h.hexdigest()


@functools.cache
def _ratings_code() -> str:
    """The digest of the code that rates records (arena.ratings, the records' reader) and of
    the TrueSkill library's version: an arena upgraded between rounds rates afresh."""
    import arena.ratings.tables
    import arena.tournament.records.results

    h = hashlib.sha256(importlib.metadata.version("trueskill").encode())
    files = sorted(Path(arena.ratings.tables.__file__).parent.glob("*.py"))
    for path in (*files, Path(arena.tournament.records.results.__file__)):
        h.update(f"\0{path.name}\0".encode() + path.read_bytes())
    return h.hexdigest()


def rounds(league: League) -> list[int]:
    """The numbers of the league's finished rounds, in order."""
    folder = league.file(ROUNDS)
    if not check_entry(folder, folder=True):
        return []
    return sorted(int(p.name) for p in folder.iterdir()
                  if p.name.isdigit() and check_entry(p / ROUND_FILE))


def read_round(league: League, number: int | None = None) -> dict[str, Any]:
    """A round's document (the latest with None); LeagueError if there is no such round."""
    known = rounds(league)
    if not known:
        raise LeagueError(f"{league.path}: no rounds yet (run 'arena league update')")
    number = known[-1] if number is None else number
    if number not in known:
        raise LeagueError(f"{league.path}: no round {number} (rounds: "
                          f"{', '.join(map(str, known))})")
    path = league.file(ROUNDS) / str(number) / ROUND_FILE
    try:
        document = read_json(path)
        round_ratings(document)
        return document
    except UnsafeFileError as exc:
        raise LeagueError(str(exc)) from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise LeagueError(f"{path}: damaged ({escape(str(exc))})") from None


def round_ratings(document: dict[str, Any]) -> Ratings:
    """A round's ratings, every pool's, read back from its document (a ValueError for a name
    that is not printable text: a round folder may come from elsewhere, and is shown)."""
    pools = []
    for pool in document["pools"]:
        for p in pool["ratings"]["pools"]:
            names = [p["game"], p["variant"], *(r["bot"] for r in p["bots"]),
                     *(n for h in p["crosstable"] for n in (h["bot"], h["opponent"]))]
            if not all(isinstance(n, str) and is_safe(n) for n in names):
                raise ValueError("a name that is not printable text")
            evidence = p.get("evidence")
            pools.append(_value(PoolRatings, {
                **p, "bots": tuple(_value(BotRow, r) for r in p["bots"]),
                "crosstable": tuple(_value(HeadToHead, h) for h in p["crosstable"]),
                "evidence": None if evidence is None else Evidence.from_json(evidence)}))
    return Ratings(tuple(sorted(pools, key=lambda p: (p.game, p.variant))))


def _value(cls: type[Any], data: dict[str, Any]) -> Any:
    """A ratings value (a row, a pool) from its JSON: its fields taken by name (arrays as
    tuples), those the JSON lacks left to their defaults, what it has besides ignored (a round
    kept by another version of the arena); a ValueError if a field without default lacks."""
    given = {}
    for f in dataclasses.fields(cls):
        if f.name in data:
            given[f.name] = _frozen(data[f.name])
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise ValueError(f"{cls.__name__} without {f.name}")
    return cls(**given)


def _frozen(value: Any) -> Any:
    """JSON arrays as tuples, all the way down."""
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


def standings(league: League, number: int | None = None, fmt: str = "table",
              variant: str | None = None, luck: bool = True) -> str:
    """A round's standings (the latest with None), per game and variant; with `luck` False
    the head-to-head edges raw (`arena.league.unadjusted`)."""
    document = read_round(league, number)
    if not luck:
        document = without_luck(league, document, rated_from)
    head = f"{league.config.name}: round {document['round']}, {document['date']}"
    body = format_ratings(round_ratings(document), fmt, variant, float(document["fault_share"]))
    return body if ReportFormat.parse(fmt) in (ReportFormat.JSON, ReportFormat.CSV) else \
        f"{escape(head)}\n\n{body}"


def compare_rounds(league: League, before: int, after: int,
                   anchors: Sequence[str] | None = None, luck: bool = True) -> Comparison:
    """How the standings moved from round `before` to round `after`: who joined, left or
    changed code (another version), and which moves are significant, against `anchors`
    (None: the anchors of league.toml that play unchanged in both rounds, else the unchanged
    bots). The rounds are played on the league's deals; a round on other deals (its [deals]
    changed) is said so. With `luck` False, the changed edges are tested on the raw edges."""
    old, new = read_round(league, before), read_round(league, after)
    if not luck:
        old, new = without_luck(league, old, rated_from), without_luck(league, new, rated_from)
    return compare_documents(old, new, league.config.anchors if anchors is None else anchors,
                             strict=anchors is not None)


def compare_documents(old: Mapping[str, Any], new: Mapping[str, Any],
                      anchors: Sequence[str] = (), strict: bool = False) -> Comparison:
    """`compare_rounds` on two rounds' documents; with `strict` False, only the anchors that
    play unchanged in both rounds are used (league.toml's: an anchor may join late)."""
    code: dict[str, str | None] = {}
    for name in sorted(old["bots"].keys() & new["bots"].keys()):
        a, b = old["bots"][name], new["bots"][name]
        code[name] = None if a["digest"] == b["digest"] else \
            f"version {a['version']} -> {b['version']}"
    if not strict:
        anchors = [a for a in anchors if a in code and code[a] is None]
    deals = {p["id"]: p["seeds"] for p in old["pools"]}
    differ = [p["id"] for p in new["pools"] if p["id"] in deals and deals[p["id"]] != p["seeds"]]
    note = (f"the rounds were played on different deals in {', '.join(differ)} (the league's "
            f"[deals] changed between them)") if differ else None
    return compare(round_ratings(dict(old)), round_ratings(dict(new)), note, code, anchors)
