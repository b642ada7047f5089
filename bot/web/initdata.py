"""Who opened the Mini App: Telegram signs the `initData` it hands the page with a key made
from the bot's token (core.telegram.org/bots/webapps, "Validating data received via the Mini
App"). Data that is forged, from another bot, or older than `MAX_AGE` names nobody."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from urllib.parse import parse_qsl, urlencode

MAX_AGE = dt.timedelta(hours=24)
"""A Mini App stays open for a while; a day-old signature is not taken."""


def user_of(init_data: str, token: str, now: dt.datetime) -> int | None:
    """The Telegram user id the data was signed for, or None when it does not check out."""
    fields = dict(parse_qsl(init_data, keep_blank_values=True))
    signature = fields.pop("hash", "")
    # Compared as bytes: compare_digest refuses a str with non-ASCII characters (TypeError).
    if not signature or not hmac.compare_digest(signature.encode(),
                                                _signature(fields, token).encode()):
        return None
    try:
        signed = dt.datetime.fromtimestamp(int(fields.get("auth_date", "")), dt.UTC)
        user = json.loads(fields.get("user", ""))
        user_id = user["id"] if isinstance(user, dict) else None
    except (ValueError, KeyError, TypeError, OverflowError, OSError):
        return None
    if not isinstance(user_id, int) or not now - MAX_AGE <= signed <= now + dt.timedelta(
            minutes=5):
        return None
    return user_id


def _signature(fields: dict[str, str], token: str) -> str:
    checked = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    return hmac.new(secret, checked.encode(), hashlib.sha256).hexdigest()


def sign(fields: dict[str, str], token: str) -> str:
    """initData as Telegram makes it (for the tests)."""
    return urlencode({**fields, "hash": _signature(fields, token)})
