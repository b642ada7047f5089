"""`keizerbot doctor`: checks the setup and says, in Dutch, what to fix."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from telegram import Bot
from telegram.error import InvalidToken, NetworkError, TelegramError

from bot.config import Config, ConfigError, load
from storage import club
from storage.db import Database
from storage.errors import StoreError
from storage.migrations import VERSION
from storage.seasons import has_season


@dataclass(frozen=True, slots=True)
class Check:
    ok: bool
    text: str


async def checks(env: Mapping[str, str] | None = None, *,
                 env_file: Path = Path(".env")) -> list[Check]:
    try:
        config = load(env, env_file=env_file)
    except ConfigError as exc:
        return [Check(False, str(exc))]
    found = [Check(True, f"Instellingen in orde; tijdzone {config.timezone.key}.")]
    found.append(await _token(config))
    found += await _database(config)
    return found


async def _token(config: Config) -> Check:
    try:
        async with Bot(config.token, base_url=config.api_url) as bot:
            me = await bot.get_me()
    except InvalidToken:
        return Check(False, "Telegram weigert het token. Maak een nieuw token bij @BotFather "
                            "(/token) en zet het in .env.")
    except NetworkError as exc:
        return Check(False, f"Telegram is niet bereikbaar op {config.base_url}: {exc}. "
                            "Controleer de internetverbinding of TELEGRAM_BASE_URL.")
    except TelegramError as exc:
        return Check(False, f"Telegram gaf een fout bij het controleren van het token: {exc}.")
    return Check(True, f"Het token werkt: dit is @{me.username}.")


async def _database(config: Config) -> list[Check]:
    try:
        db = await Database.open(config.database)
    except (OSError, sqlite3.Error, StoreError) as exc:
        return [Check(False, f"De database {config.database} is niet bruikbaar: {exc}. "
                             "Controleer KEIZER_DB en de rechten op die map.")]
    try:
        async with db.transaction() as conn:
            await conn.execute("UPDATE club SET name = name WHERE id = 1")  # can we write?
        async with db.reader.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        found = [Check(row is not None and row[0] == VERSION,
                       f"Database {config.database}: schrijfbaar, schema versie {VERSION}.")]
        if not await has_season(db):
            found.append(Check(False, "Er is nog geen seizoen. Laad het met "
                                      "'uv run keizerbot import SEIZOEN.json'."))
        settings = await club.settings(db)
        found.append(Check(settings.group_chat_id is not None,
                           "Clubgroep ingesteld." if settings.group_chat_id is not None else
                           "Er is nog geen clubgroep. Voeg de bot toe aan de groep en stuur "
                           "daar /club."))
        arbiters = set(config.arbiters) | await club.arbiters(db)
        found.append(Check(bool(arbiters),
                           f"Wedstrijdleiders: {', '.join(map(str, sorted(arbiters)))}."
                           if arbiters else
                           "Er is geen wedstrijdleider. Zet je Telegram-nummer achter "
                           "KEIZER_ARBITERS in .env (vraag het op bij @userinfobot)."))
        return found
    except sqlite3.Error as exc:
        return [Check(False, f"De database {config.database} is niet schrijfbaar: {exc}.")]
    finally:
        await db.close()


def report(found: list[Check]) -> str:
    return "\n".join(f"{'✓' if c.ok else '✗'} {c.text}" for c in found)
