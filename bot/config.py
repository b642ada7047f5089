"""The bot's settings, from the environment (and a `.env` file): typed, checked at start.

Club settings (rules, club night, deadline) live in the database and are changed by the
arbiter; only what the bot needs before it can reach the database is configured here.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dotenv import dotenv_values

DEFAULT_BASE_URL = "https://api.telegram.org"
DEFAULT_DB = "data/keizer.db"
AMSTERDAM = ZoneInfo("Europe/Amsterdam")
TOKEN_SHAPE = re.compile(r"^\d{5,}:[A-Za-z0-9_-]{30,}$")


class ConfigError(Exception):
    """A missing or malformed setting; the message (Dutch) says which and how to fix it."""


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    """From @BotFather."""
    base_url: str = DEFAULT_BASE_URL
    """The Bot API server (self-hosted servers, and the tests' fake)."""
    database: Path = Path(DEFAULT_DB)
    arbiters: tuple[int, ...] = ()
    """Telegram user ids of the first arbiters."""
    timezone: ZoneInfo = AMSTERDAM
    tick_seconds: float = 30.0
    """How often the deadline job looks for rounds whose deadline has passed."""

    @property
    def api_url(self) -> str:
        return f"{self.base_url.rstrip('/')}/bot"


def load(env: Mapping[str, str] | None = None, *, env_file: Path = Path(".env")) -> Config:
    """Settings from `env` (default: the process environment over the `.env` file)."""
    if env is None:
        file_values = {k: v for k, v in dotenv_values(env_file).items() if v is not None} \
            if env_file.exists() else {}
        env = {**file_values, **os.environ}
    token = env.get("TELEGRAM_BOT_TOKEN", "").strip()
    if not token:
        raise ConfigError(NO_TOKEN)
    if not TOKEN_SHAPE.match(token):
        raise ConfigError("TELEGRAM_BOT_TOKEN ziet er niet uit als een token van BotFather "
                          "(zoiets als 123456789:AAH...). Kopieer het opnieuw uit BotFather.")
    base_url = env.get("TELEGRAM_BASE_URL", "").strip() or DEFAULT_BASE_URL
    if not re.match(r"^https?://[^\s/]+", base_url):
        raise ConfigError(f"TELEGRAM_BASE_URL moet een adres zijn als http://localhost:8081, "
                          f"niet {base_url!r}.")
    arbiters = []
    for part in filter(None, (p.strip() for p in env.get("KEIZER_ARBITERS", "").split(","))):
        if not part.isdigit():
            raise ConfigError(f"KEIZER_ARBITERS: {part!r} is geen Telegram-gebruikersnummer. "
                              "Geef de nummers met komma's ertussen, bijvoorbeeld "
                              "123456789,987654321 (je nummer vraag je op bij @userinfobot).")
        arbiters.append(int(part))
    zone = env.get("KEIZER_TIMEZONE", "").strip() or "Europe/Amsterdam"
    try:
        timezone = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError(f"KEIZER_TIMEZONE: {zone!r} is geen tijdzone; gebruik bijvoorbeeld "
                          "Europe/Amsterdam.") from exc
    return Config(token=token, base_url=base_url,
                  database=Path(env.get("KEIZER_DB", "").strip() or DEFAULT_DB),
                  arbiters=tuple(arbiters), timezone=timezone)


NO_TOKEN = """\
Er is nog geen bot-token (TELEGRAM_BOT_TOKEN).

Zo kom je eraan:
  1. Open Telegram en zoek @BotFather.
  2. Stuur /newbot en kies een naam en een gebruikersnaam (eindigt op 'bot').
  3. BotFather geeft je een token, zoiets als 123456789:AAH...
  4. Kopieer .env.example naar .env en zet het token achter TELEGRAM_BOT_TOKEN=.
  5. Zet je eigen Telegram-nummer achter KEIZER_ARBITERS= (vraag het op bij @userinfobot).

Start daarna opnieuw: uv run keizerbot

Eerst zien hoe het werkt? uv run keizerbot demo speelt een heel seizoen na, zonder token."""
