"""PTB's HTTPX request, as an unreachable Telegram should be met: not an error.

When Telegram is down its gateways answer 502 with an HTML page, not JSON; PTB logs that as
an ERROR with a traceback before raising NetworkError. Here the page is read quietly, and an
outage is logged once: a warning when Telegram becomes unreachable (5xx, timeouts, no
connection), a line when it answers again. What failed meanwhile is retried where it is owed
(the outbox, the poller)."""

from __future__ import annotations

import json
import logging
from typing import Any

from telegram.error import NetworkError, TelegramError
from telegram.request import HTTPXRequest

log = logging.getLogger(__name__)


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


class TelegramRequest(HTTPXRequest):
    def __init__(self, outage: Outage, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.outage = outage

    @staticmethod
    def parse_json_payload(payload: bytes) -> dict[str, Any]:
        try:
            parsed: dict[str, Any] = json.loads(payload.decode("utf-8", "replace"))
        except ValueError as exc:  # a gateway's HTML page: the status code says what it is
            raise TelegramError("Invalid server response") from exc
        return parsed

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        try:
            code, payload = await super().do_request(*args, **kwargs)
        except NetworkError as exc:  # no connection, a timeout
            self.outage.failed(exc)
            raise
        if code >= 500:
            self.outage.failed(NetworkError(f"HTTP {code}"))
        else:
            self.outage.answered()
        return code, payload
