"""Digests of what the shipped configs produce: records, ratings, crosstables, replays.

Runs every config in `configs/` through the command line (`arena run`, `arena ratings`,
`arena replay --all`) into a scratch directory and prints, per config, the SHA-256 of:

- its records, sorted by task, without the `duration` and `times` of each game (the timed
  fields) and its `identity` (a digest of what decides the game, bots' code included: a
  comment edited in a bundled bot changes it, and `tests/tournament/update/test_reconcile.py`
  checks it);
- `arena ratings DIR --format json` and the ratings and crosstable files the run wrote;
- the per-game lines of `arena replay DIR --all` (every game replayed and checked).

Only the command line is used, so the same script measures the code before and after a change
that moves modules around. `tests/test_output_digests.py` compares a small slice (`--deals 2`)
with `tests/data/output_digests.json`; the whole configs are compared by hand:

    python scripts/output_digests.py > before.json      # on the old code
    python scripts/output_digests.py > after.json       # on the new code
    diff before.json after.json

`--write` stores the slice as the expected digests (only when an output changes on purpose).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ROOT / "configs"
EXPECTED = ROOT / "tests" / "data" / "output_digests.json"
SLICE_DEALS = 2
WRITTEN = ("ratings.json", "ratings.csv", "ratings.txt", "ratings.md",
           "crosstable.json", "crosstable.csv", "crosstable.txt", "crosstable.md")
_COUNT = re.compile(r"^(count\s*=\s*)\d+", re.MULTILINE)


def arena(*args: str) -> str:
    """Run the `arena` command line of this interpreter's installation; its stdout."""
    done = subprocess.run([sys.executable, "-m", "arena.cli", *args], capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"arena {' '.join(args)} failed ({done.returncode}): {done.stderr}")
    return done.stdout


def sha(text: str | bytes) -> str:
    """The SHA-256 of the text (UTF-8) or bytes, in hex."""
    return hashlib.sha256(text.encode("utf-8") if isinstance(text, str) else text).hexdigest()


def shipped() -> list[Path]:
    """The shipped configs, in name order: not the hidden sliced copies `sliced` writes beside
    them while a digest is being made (another test process may be making one)."""
    return sorted(p for p in CONFIGS.glob("*.toml") if not p.name.startswith("."))


def sliced(config: Path, deals: int | None, scratch: Path) -> Path:
    """The config itself, or a copy beside it that plays only the first `deals` deals."""
    if deals is None:
        return config
    text = _COUNT.sub(lambda m: f"{m.group(1)}{deals}", config.read_text(encoding="utf-8"))
    copy = config.parent / f".digest-{scratch.name}-{config.name}"
    copy.write_text(text, encoding="utf-8")
    return copy


def digests(config: Path, deals: int | None, workers: int) -> dict[str, str]:
    """The digests of one config's outputs (see the module's docstring)."""
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        run = scratch / "run"
        played = sliced(config, deals, scratch)
        try:
            arena("run", str(played), "--out", str(run), "--workers", str(workers), "--quiet")
        finally:
            if played != config:
                played.unlink()
        records = [json.loads(line) for line in (run / "games.jsonl").read_text().splitlines()]
        for record in records:
            record.pop("duration", None)
            record.pop("times", None)  # per-decision seconds: timed too
            record.pop("identity", None)
        records.sort(key=lambda r: r["task"])
        out = {"games": str(len(records)),
               "records": sha("\n".join(json.dumps(r, sort_keys=True) for r in records)),
               "ratings": sha(arena("ratings", str(run), "--format", "json"))}
        for name in WRITTEN:
            out[name] = sha((run / name).read_bytes())
        replayed = arena("replay", str(run), "--all")
        out["replay"] = sha(replayed)
        out["replay_summary"] = replayed.strip().splitlines()[-1]
        return out


def main(argv: list[str] | None = None) -> int:
    """Print (or with --write store) the digests of the shipped configs as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=None,
                        help="play only the first N deals of each config (default: all)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--write", action="store_true",
                        help=f"store the --deals {SLICE_DEALS} slice as the expected digests")
    args = parser.parse_args(argv)
    deals = SLICE_DEALS if args.write else args.deals
    found = {config.stem: digests(config, deals, args.workers)
             for config in shipped()}
    text = json.dumps(found, indent=2, sort_keys=True) + "\n"
    if args.write:
        EXPECTED.parent.mkdir(parents=True, exist_ok=True)
        EXPECTED.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
