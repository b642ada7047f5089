"""How the bot talks HTTP to Telegram: PTB's requests over aiohttp, and an unreachable
Telegram met as it should be: not an error.

PTB sends through httpx unless given another `BaseRequest`. aiohttp, which already serves the
club's pages, does the same call for half the CPU: about 0.75 ms against 1.6-2.0 ms a call
to a local Bot API, both sides counted (docs/performance.md). Its errors are PTB's: a
timeout is `TimedOut`, anything else on the wire `NetworkError`.

When Telegram is down its gateways answer 502 with an HTML page, not JSON; PTB logs that as
an ERROR with a traceback before raising NetworkError. Here the page is read quietly, and an
outage is logged once: a warning when Telegram becomes unreachable (5xx, timeouts, no
connection), a line when it answers again. What failed meanwhile is retried where it is owed
(the outbox, the poller)."""

from __future__ import annotations

import json
import logging
import re
import ssl
from typing import Any

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import UploadFileDict
from telegram.error import NetworkError, TelegramError, TimedOut
from telegram.request import BaseRequest, RequestData

log = logging.getLogger(__name__)

TOKEN_IN_URL = re.compile(r"/bot[^/\s]+")
"""The token in an API or file URL (`/bot<token>/getMe`, `/file/bot<token>/...`)."""


class Outage:
    """Whether Telegram is unreachable now, shared by a bot's requests: said once each way."""

    def __init__(self) -> None:
        self.down = False

    def failed(self, error: NetworkError) -> None:
        if not self.down:
            self.down = True
            log.warning("Telegram is not reachable (%s); what is owed is sent when it is back",
                        error)

    def answered(self) -> None:
        if self.down:
            self.down = False
            log.info("Telegram is reachable again")


class TelegramRequest(BaseRequest):
    """PTB's request over one aiohttp session, with HTTPXRequest's defaults: at most
    `connection_pool_size` connections, seconds to wait for a free one (`pool`), to connect,
    to write (`media_write` when files go up) and to read."""

    def __init__(self, outage: Outage, *, tls: ssl.SSLContext, connection_pool_size: int = 256,
                 read: float = 5.0, write: float = 5.0, connect: float = 5.0,
                 pool: float = 1.0, media_write: float = 20.0) -> None:
        self.outage, self._tls, self._size = outage, tls, connection_pool_size
        self._read, self._write, self._connect, self._pool = read, write, connect, pool
        self._media_write = media_write
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._size, ssl=self._tls),
                headers={"User-Agent": self.USER_AGENT})

    async def shutdown(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def do_request(self, url: str, method: str, request_data: RequestData | None = None,
                         read_timeout: Any = BaseRequest.DEFAULT_NONE,
                         write_timeout: Any = BaseRequest.DEFAULT_NONE,
                         connect_timeout: Any = BaseRequest.DEFAULT_NONE,
                         pool_timeout: Any = BaseRequest.DEFAULT_NONE) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("This TelegramRequest is not initialized!")
        files = request_data.multipart_data if request_data else {}  # built at each read
        timeout = self._timeout(read_timeout, connect_timeout, pool_timeout, write_timeout,
                                uploads=bool(files))
        try:
            async with self._session.request(method, url, data=_body(request_data, files),
                                             timeout=timeout) as response:
                code, payload = response.status, await response.read()
        except (TimeoutError, aiohttp.ClientError) as exc:  # aiohttp's timeouts are both
            # Its messages may hold the URL, and so the token: neither the error nor its
            # chain, which a traceback in the log would show, takes it on.
            error = TimedOut() if isinstance(exc, TimeoutError) else NetworkError(
                f"aiohttp.{type(exc).__name__}: {TOKEN_IN_URL.sub('/bot...', str(exc))}")
            self.outage.failed(error)
            raise error from None
        if code >= 500:
            self.outage.failed(NetworkError(f"HTTP {code}"))
        else:
            self.outage.answered()
        return code, payload

    def _timeout(self, read: Any, connect: Any, pool: Any, write: Any, *,
                 uploads: bool) -> aiohttp.ClientTimeout:
        """aiohttp has no write timeout and counts the wait for a free connection in its
        `connect`: the write is bounded by the whole request's time, the sum of the four."""
        read, connect = _given(read, self._read), _given(connect, self._connect)
        pool = _given(pool, self._pool)
        write = _given(write, self._media_write if uploads else self._write)
        parts = (read, connect, pool, write)
        return aiohttp.ClientTimeout(
            total=None if None in parts else sum(parts),
            connect=None if connect is None or pool is None else connect + pool,
            sock_connect=connect, sock_read=read)

    @staticmethod
    def parse_json_payload(payload: bytes) -> dict[str, Any]:
        try:
            parsed: dict[str, Any] = json.loads(payload.decode("utf-8", "replace"))
        except ValueError as exc:  # a gateway's HTML page: the status code says what it is
            raise TelegramError("Invalid server response") from exc
        return parsed


def _given(value: Any, default: float) -> float | None:
    """A timeout PTB passed on, or ours where it passed its DEFAULT_NONE."""
    return default if isinstance(value, DefaultValue) else value


def _body(request_data: RequestData | None,
          files: UploadFileDict) -> dict[str, str] | aiohttp.FormData | None:
    """The parameters as a form (as httpx sends them), multipart when files go with them."""
    if request_data is None:
        return None
    fields = request_data.json_parameters
    if not files:
        return fields
    form = aiohttp.FormData()
    for name, value in fields.items():
        form.add_field(name, value)
    for name, (filename, content, mimetype) in files.items():
        form.add_field(name, content, filename=filename, content_type=mimetype)
    return form
