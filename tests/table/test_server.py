"""The table's web server: this machine only, a token per seat, one page per seat, another
origin refused; a page that goes away makes its seat leave."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("aiohttp")

import aiohttp

from arena.table import server as server_module
from arena.table.seat import Table
from arena.table.server import TableServer


@pytest.fixture
def served() -> Iterator[tuple[TableServer, dict[int, str]]]:
    table = Table("dig", "Dig", "standard", [0, 1])
    for box in table.outboxes.values():
        box.send({"type": "hello", "seats": ["a", "b"]})
    server = TableServer(table)
    addresses = server.start()
    try:
        yield server, addresses
    finally:
        table.close("done")
        server.stop()


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


async def status(url: str, **headers: str) -> int:
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as got:
        return got.status


def test_each_seat_has_its_own_address_on_this_machine_and_a_page_there(
        served: tuple[TableServer, dict[int, str]]) -> None:
    server, addresses = served
    assert set(addresses) == {0, 1} and addresses[0] != addresses[1]
    assert all(a.startswith(f"http://127.0.0.1:{server.port}/?t=") for a in addresses.values())
    assert run(status(addresses[0])) == 200
    assert run(status(f"http://127.0.0.1:{server.port}/")) == 403  # no token
    assert run(status(f"http://127.0.0.1:{server.port}/?t=guessed")) == 403
    assert run(status(addresses[0].replace("127.0.0.1", "localhost"))) == 403  # another host


async def socket_of(url: str, origin: str | None) -> tuple[int, list[Any]]:
    """Open a seat's WebSocket with an origin: its status (101 opened) and first message."""
    ws_url = url.replace("http://", "ws://").replace("/?t=", "/ws?t=")
    headers = {"Origin": origin} if origin is not None else {}
    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(ws_url, headers=headers) as ws:
                first = await ws.receive_json(timeout=5)
                return 101, [first]
        except aiohttp.WSServerHandshakeError as exc:
            return exc.status, []


def test_a_page_of_another_origin_or_none_may_not_take_a_seat(
        served: tuple[TableServer, dict[int, str]]) -> None:
    server, addresses = served
    here = f"http://127.0.0.1:{server.port}"
    assert run(socket_of(addresses[0], "http://evil.example")) == (403, [])
    assert run(socket_of(addresses[0], None)) == (403, [])
    assert run(socket_of(addresses[0], here)) == (101, [{"type": "hello", "seats": ["a", "b"]}])


def test_a_second_page_for_a_seat_is_refused_and_a_seat_left_alone_leaves(
        served: tuple[TableServer, dict[int, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    server, addresses = served
    here = f"http://127.0.0.1:{server.port}"
    monkeypatch.setattr(server_module, "GRACE", 0.3)
    ws_url = addresses[0].replace("http://", "ws://").replace("/?t=", "/ws?t=")

    async def two_pages() -> tuple[int, int]:
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(ws_url, headers={"Origin": here}) as ws:
                await ws.receive_json(timeout=5)
                second = await socket_of(addresses[0], here)
                other_seat = await socket_of(addresses[1], here)
            return second[0], other_seat[0]

    assert run(two_pages()) == (409, 101)  # the other seat's page is its own
    box = server.table.outboxes[0]
    assert box.left.wait(5)  # the page closed and did not come back: the seat leaves


def test_the_page_sets_the_bots_pace_from_the_speed_control_only(
        served: tuple[TableServer, dict[int, str]]) -> None:
    server, addresses = served
    here = f"http://127.0.0.1:{server.port}"
    ws_url = addresses[0].replace("http://", "ws://").replace("/?t=", "/ws?t=")

    async def say(*messages: dict[str, Any]) -> None:
        async with aiohttp.ClientSession() as session, \
                session.ws_connect(ws_url, headers={"Origin": here}) as ws:
            await ws.receive_json(timeout=5)
            for message in messages:
                await ws.send_json(message)
            await asyncio.sleep(0.3)

    run(say({"pace": 0.15}))
    assert server.table.pace == 0.15
    run(say({"pace": 1e9}, {"pace": "fast"}))  # not a pace of the control: ignored
    assert server.table.pace == 0.15
