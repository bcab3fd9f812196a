"""The table's web server (aiohttp, the optional `web` extra): serves a person's page and carries
its messages (`arena/table/seat.py`) over a WebSocket. Only `arena play --web` imports it.

It listens on 127.0.0.1 alone, on a free port, in a thread of its own. Each person's seat has a
secret token (in its address); a request without the right token, from another origin or for
another host is refused, and so is a second page for a seat that one page already holds. A
page that goes away (the tab closed) and does not come back within `GRACE` seconds leaves the
game: its seat quits. The server sends only what `Table` put in a seat's outbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from arena.table.page import table_page
from arena.table.seat import Outbox, Table

GRACE = 5.0
"""Seconds a seat's page may be gone (a reload) before the seat leaves the game."""

POLL = 0.01
"""Seconds between looks at a seat's outbox for new messages."""

PACES = (0.0, 0.15, 0.3, 0.6, 1.2, 2.0)
"""The seconds between bots' moves the page may choose (its speed control)."""


@dataclass
class Seat:
    """A person's seat as the server knows it: its token, outbox and page (if one is open)."""

    token: str
    box: Outbox
    open: bool = False
    gone: asyncio.TimerHandle | None = None


@dataclass
class TableServer:
    """The server of one table (see the module's docstring); `start` returns each seat's
    address."""

    table: Table
    replays: dict[int, str] = field(default_factory=dict)  # game number -> its replay page
    # (the series' own dict, filled as games end)
    on_request: Callable[[str], None] | None = None  # told each refusal, for tests
    seats: dict[str, Seat] = field(default_factory=dict)
    port: int = 0

    def start(self) -> dict[int, str]:
        """Listen and serve in a thread; each person's seat and its address."""
        for box in self.table.outboxes.values():
            token = secrets.token_urlsafe(24)
            self.seats[token] = Seat(token, box)
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="arena-table", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        return {s.box.seat: f"http://127.0.0.1:{self.port}/?t={s.token}"
                for s in self.seats.values()}

    def stop(self) -> None:
        """Close every page's connection and the server; wait for its thread."""
        loop = getattr(self, "_loop", None)
        if loop is not None and loop.is_running():
            loop.call_soon_threadsafe(self._stopping.set)
            self._thread.join(10)

    # -- the server's thread ---------------------------------------------------------------------
    def _serve(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._stopping = asyncio.Event()
        try:
            self._loop.run_until_complete(self._main())
        finally:
            self._loop.close()

    async def _main(self) -> None:
        app = web.Application()
        app.router.add_get("/", self._page)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/replay/{number}", self._replay)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        await web.SockSite(runner, self._sock).start()
        self._ready.set()
        await self._stopping.wait()
        await runner.cleanup()

    def _seat(self, request: web.Request) -> Seat:
        """The seat a request's token names, from this machine's own address and origin."""
        origin = request.headers.get("Origin")
        here = f"127.0.0.1:{self.port}"
        if request.host != here:
            raise self._refuse(web.HTTPForbidden, f"this table answers only {here}")
        if origin is not None and origin != f"http://{here}":
            raise self._refuse(web.HTTPForbidden, "a page of another origin may not sit here")
        token = request.query.get("t", "")
        found = next((s for t, s in self.seats.items() if secrets.compare_digest(t, token)),
                     None)
        if found is None:
            raise self._refuse(web.HTTPForbidden, "this address has no seat's token")
        return found

    def _refuse(self, kind: type[web.HTTPException], why: str) -> web.HTTPException:
        if self.on_request is not None:
            self.on_request(why)
        return kind(text=why)

    async def _page(self, request: web.Request) -> web.Response:
        seat = self._seat(request)
        here = f"ws://127.0.0.1:{self.port}"
        html = table_page(self.table.title, here, f"{here}/ws?t={seat.token}")
        return web.Response(text=html, content_type="text/html",
                            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    async def _replay(self, request: web.Request) -> web.Response:
        self._seat(request)
        try:
            page = self.replays[int(request.match_info["number"])]
        except (KeyError, ValueError):
            raise web.HTTPNotFound(text="no such game (yet)") from None
        return web.Response(text=page, content_type="text/html",
                            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        seat = self._seat(request)
        if request.headers.get("Origin") is None:
            raise self._refuse(web.HTTPForbidden, "a WebSocket must say its origin")
        if seat.open:
            raise self._refuse(web.HTTPConflict, "this seat is already open in another page")
        ws = web.WebSocketResponse(heartbeat=10)
        await ws.prepare(request)
        seat.open = True
        if seat.gone is not None:
            seat.gone.cancel()
            seat.gone = None
        pump = asyncio.ensure_future(self._pump(seat, ws))
        try:
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    break
                self._answer(seat, message.data)
        finally:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pump
            seat.open = False
            seat.gone = asyncio.get_running_loop().call_later(GRACE, seat.box.left.set)
        return ws

    async def _pump(self, seat: Seat, ws: web.WebSocketResponse) -> None:
        """Send the seat's messages: the current game's from its `hello`, then each new one."""
        with seat.box.lock:
            at = seat.box.game_from
        while not ws.closed:
            with seat.box.lock:
                new = seat.box.sent[at:]
            for message in new:
                await ws.send_str(json.dumps(message, separators=(",", ":")))
            at += len(new)
            if not new:
                await asyncio.sleep(POLL)

    def _answer(self, seat: Seat, text: str) -> None:
        """A page's message: a move (the place of a legal move), a pace, or leaving."""
        try:
            said: Any = json.loads(text)
        except ValueError:
            return
        if not isinstance(said, dict):
            return
        if "move" in said:
            seat.box.answers.put({"move": said["move"]})
        elif said.get("pace") in PACES:
            self.table.pace = float(said["pace"])
        elif said.get("leave") is True:
            seat.box.why = "the person left the table (the leave button)"
            seat.box.left.set()
