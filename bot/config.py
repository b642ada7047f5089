"""The bot's settings, from the environment (and a `.env` file): typed, checked at start.

Club settings (rules, club night, deadline) live in the database and are changed by the
arbiter; only what the bot needs before it can reach the database is configured here.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dotenv import dotenv_values

from bot.language.notice import SaidError, Text
from storage import address
from storage.seal import valid_key

DEFAULT_BASE_URL = "https://api.telegram.org"
DEFAULT_LICHESS_URL = "https://lichess.org"
DEFAULT_DB = "data/keizer.db"
DEFAULT_STORE = address.SqliteFile(Path(DEFAULT_DB))
ENV_FILE = Path(".env")
AMSTERDAM = ZoneInfo("Europe/Amsterdam")
TOKEN_SHAPE = re.compile(r"^\d{5,}:[A-Za-z0-9_-]{30,}$")


class ConfigError(SaidError):
    """A missing or malformed setting; what it says names which and how to fix it."""


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    """From @BotFather."""
    base_url: str = DEFAULT_BASE_URL
    """The Bot API server (self-hosted servers, and the tests' fake)."""
    database: address.StoreAddress = DEFAULT_STORE
    """The SQLite file, or a PostgreSQL database (`postgresql://...`, issue 27); a path or a
    URL given here is typed as `storage.address.store_of` types `KEIZER_DB`."""
    arbiters: tuple[int, ...] = ()
    """Telegram user ids of the first arbiters."""
    timezone: ZoneInfo = AMSTERDAM
    tick_seconds: float = 30.0
    """How often the deadline job looks for rounds whose deadline has passed."""
    web_port: int | None = None
    """The club's live pages are served on this port (off when None)."""
    web_host: str = "127.0.0.1"
    """The address they are served on: loopback, behind the HTTPS proxy (docs/deploy.md);
    `0.0.0.0` only where the proxy is on another host, such as Caddy's container."""
    public_url: str = ""
    """Where the pages are reached from outside (HTTPS, for the Mini App), e.g.
    `https://schaak.example.nl/keizer`."""
    web_app: str = ""
    """The Mini App's short name at @BotFather, for the `t.me/<bot>/<app>` link in groups."""
    webhook: bool = False
    """Telegram brings the updates to the pages' server (`KEIZER_WEBHOOK=1`) instead of the
    bot asking for them: for a service behind an HTTPS proxy (issue 27)."""
    club: int | None = None
    """The club in a PostgreSQL database of many (`keizerbot clubs`); None: the first."""
    secret_key: str = ""
    """Seals what the bot keeps for members at rest (their lichess tokens); without it
    nothing is linked to lichess."""
    lichess_url: str = DEFAULT_LICHESS_URL
    """The lichess server (the tests' fake)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "database", address.store_of(self.database))

    @property
    def api_url(self) -> str:
        return f"{self.base_url.rstrip('/')}/bot"

    @property
    def webhook_key(self) -> str:
        """The webhook's path under the server, one per bot: made from the token, so it names
        no token and stays the same across restarts."""
        return hashlib.sha256(self.token.encode()).hexdigest()[:24]

    @property
    def webhook_secret(self) -> str:
        """What Telegram sends along with each update (`secret_token`): only it knows it."""
        return hmac.new(self.token.encode(), b"keizerbot webhook", "sha256").hexdigest()


def _arbiters(text: str) -> tuple[int, ...]:
    """`KEIZER_ARBITERS`: Telegram user ids, separated by commas."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    for part in parts:
        if not part.isdigit():
            raise ConfigError(Text("CONFIG_ARBITER", {"value": repr(part)}))
    return tuple(int(p) for p in parts)


def _web_host(address: str) -> str:
    """`KEIZER_WEB_HOST`: the address the web server listens on (an IP address)."""
    try:
        ipaddress.ip_address(address)
    except ValueError:
        raise ConfigError(Text("CONFIG_WEB_HOST", {"value": repr(address)})) from None
    return address


def _lichess(env: Mapping[str, str]) -> tuple[str, str]:
    """`KEIZER_SECRET_KEY` (seals the members' lichess tokens) and `KEIZER_LICHESS_URL`."""
    secret_key = env.get("KEIZER_SECRET_KEY", "").strip()
    if secret_key and not valid_key(secret_key):
        raise ConfigError(Text("CONFIG_SECRET_KEY", {"name": "KEIZER_SECRET_KEY"}))
    lichess_url = env.get("KEIZER_LICHESS_URL", "").strip() or DEFAULT_LICHESS_URL
    if not re.match(r"^https?://[^\s/]+", lichess_url):
        raise ConfigError(Text("CONFIG_LICHESS_URL", {"value": repr(lichess_url)}))
    return secret_key, lichess_url


def settings(env_file: Path = ENV_FILE) -> dict[str, str]:
    """Every setting as every command reads it: the process environment over the `.env` file
    (so `KEIZER_DB` in `.env` names the database for `import` as it does for the bot)."""
    file_values = {k: v for k, v in dotenv_values(env_file).items() if v is not None} \
        if env_file.exists() else {}
    return {**file_values, **os.environ}


def load(env: Mapping[str, str] | None = None, *, env_file: Path = ENV_FILE,
         hosted: bool = False) -> Config:
    """Settings from `env` (default: `settings()`, the environment over `.env`).
    `hosted`: a host's (`keizerbot host`), whose clubs bring their own tokens."""
    if env is None:
        env = settings(env_file)
    token = "" if hosted else env.get("TELEGRAM_BOT_TOKEN", "").strip()
    if not token and not hosted:
        raise ConfigError(Text("NO_TOKEN"))
    if token and not TOKEN_SHAPE.match(token):
        raise ConfigError(Text("CONFIG_TOKEN_SHAPE"))
    base_url = env.get("TELEGRAM_BASE_URL", "").strip() or DEFAULT_BASE_URL
    if not re.match(r"^https?://[^\s/]+", base_url):
        raise ConfigError(Text("CONFIG_BASE_URL", {"value": repr(base_url)}))
    port_text = env.get("KEIZER_WEB_PORT", "").strip()
    if port_text and not (port_text.isdigit() and 0 < int(port_text) < 65536):
        raise ConfigError(Text("CONFIG_WEB_PORT", {"value": repr(port_text)}))
    public_url = env.get("KEIZER_PUBLIC_URL", "").strip().rstrip("/")
    if public_url and not re.match(r"^https?://[^\s/]+", public_url):
        raise ConfigError(Text("CONFIG_PUBLIC_URL", {"value": repr(public_url)}))
    webhook = env.get("KEIZER_WEBHOOK", "").strip().lower() in ("1", "ja", "yes", "true", "aan")
    if webhook and not (port_text and public_url):
        raise ConfigError(Text("CONFIG_WEBHOOK"))
    web_app = env.get("KEIZER_WEB_APP", "").strip()
    if web_app and not re.fullmatch(r"[A-Za-z0-9_]{3,30}", web_app):
        raise ConfigError(Text("CONFIG_WEB_APP", {"value": repr(web_app)}))
    secret_key, lichess_url = _lichess(env)
    database = store_of(env.get("KEIZER_DB", "").strip() or DEFAULT_DB)
    if hosted and not isinstance(database, address.PostgresUrl):
        raise ConfigError(Text("HOST_NEEDS_POSTGRES"))
    if hosted and not secret_key:
        raise ConfigError(Text("CONFIG_HOST_KEY"))
    return Config(token=token, base_url=base_url, database=database,
                  arbiters=_arbiters(env.get("KEIZER_ARBITERS", "")),
                  timezone=timezone_of(env),
                  web_port=int(port_text) if port_text else None,
                  web_host=_web_host(env.get("KEIZER_WEB_HOST", "").strip() or "127.0.0.1"),
                  public_url=public_url,
                  web_app=web_app, webhook=webhook, secret_key=secret_key,
                  lichess_url=lichess_url)


def store_of(value: str) -> address.StoreAddress:
    """`KEIZER_DB` as the store takes it: a PostgreSQL address (its password one that it can
    carry), else a file."""
    try:
        return address.store_of(value)
    except address.AddressError:
        raise ConfigError(Text("CONFIG_DB_PASSWORD")) from None


def timezone_of(env: Mapping[str, str]) -> ZoneInfo:
    """KEIZER_TIMEZONE, else Europe/Amsterdam (also for the command line, which needs no
    token)."""
    zone = env.get("KEIZER_TIMEZONE", "").strip() or "Europe/Amsterdam"
    try:
        return ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError(Text("CONFIG_TIMEZONE", {"value": repr(zone)})) from exc
