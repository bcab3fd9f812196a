"""A sandboxed entry: its spec checked by the host that then plays its games (one host a bot,
not one to check and one to play), and a bad spec still one line naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.engine import find_game
from arena.errors import BotSpecError
from arena.loader import resolve_bot
from arena.match import play_game
from arena.sandbox import entry
from arena.sandbox.stand_in import BotHost, Limits
from tests.sandbox.support import counted_hosts


@pytest.fixture
def hosts(monkeypatch: pytest.MonkeyPatch) -> list[BotHost]:
    """Every host `entry` starts, in order."""
    return counted_hosts(monkeypatch)


def test_a_bot_file_is_checked_and_played_by_one_host(tmp_path: Path,
                                                     hosts: list[BotHost]) -> None:
    path = tmp_path / "first.py"
    path.write_text("from arena.api import Bot\n\n\nclass First(Bot):\n"
                    "    def act(self, obs):\n        return obs.legal[0]\n")
    spec = entry.sandboxed(f"{path}:First", "concentration", Limits())
    try:
        assert hosts == [spec.host]
        variant = find_game("concentration").variant()
        record = play_game(variant, [spec.make(), resolve_bot("random", "concentration").make()],
                           ["first", "random"], 3)
        assert not record.faults  # the check's game process ended; the next one plays
    finally:
        spec.close()


def test_a_bundled_bot_is_checked_here_and_played_by_one_host(hosts: list[BotHost]) -> None:
    with pytest.raises(BotSpecError, match=r"^bot spec 'greedy:nope=1': GreedyBot has no "):
        entry.sandboxed("greedy:nope=1", "concentration", Limits())
    assert hosts == []  # refused before any host started
    spec = entry.sandboxed("greedy", "concentration", Limits())
    spec.close()
    assert hosts == [spec.host]


def test_a_bad_bot_file_is_one_line_naming_it_and_its_host_ends(tmp_path: Path,
                                                                hosts: list[BotHost]) -> None:
    path = tmp_path / "bad.py"
    path.write_text("from arena.api import Bot\n\n\nclass First(Bot):\n    pass\n")
    with pytest.raises(BotSpecError) as raised:
        entry.sandboxed(f"{path}:Nope", "concentration", Limits())
    assert str(raised.value).startswith(f"bot spec '{path}:Nope': ")
    assert "\n" not in str(raised.value)
    assert len(hosts) == 1 and hosts[0]._process is None  # closed


def test_a_bundled_bot_is_probed_here_and_any_other_in_a_sandbox(tmp_path: Path,
                                                                  hosts: list[BotHost]) -> None:
    # a tournament's config check and a replay probe every sandboxed bot: a bundled one is
    # trusted code its host imports unconfined anyway, so no host is started to check it
    assert entry.probe("greedy", "concentration") is None
    assert entry.probe("greedy:nope=1", "concentration") == (
        "bot spec 'greedy:nope=1': GreedyBot has no parameter 'nope' (parameters: none)")
    assert hosts == []
    path = tmp_path / "first.py"
    path.write_text("from arena.api import Bot\n\n\nclass First(Bot):\n"
                    "    def act(self, obs):\n        return obs.legal[0]\n")
    assert entry.probe(f"{path}:First", "concentration") is None
    assert len(hosts) == 1 and hosts[0]._process is None  # checked in a sandbox, and ended
