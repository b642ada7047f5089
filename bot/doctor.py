"""`keizerbot doctor`: checks the setup and says, in Dutch, what to fix."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from telegram import Bot
from telegram.error import InvalidToken, NetworkError, TelegramError

from bot import texts
from bot.config import Config, ConfigError, load
from storage import club
from storage.db import Database, schema_version
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
    found = [Check(True, texts.DOCTOR_SETTINGS.format(zone=config.timezone.key))]
    found.append(await _token(config))
    found += await _database(config)
    return found


async def _token(config: Config) -> Check:
    try:
        async with Bot(config.token, base_url=config.api_url) as bot:
            me = await bot.get_me()
    except InvalidToken:
        return Check(False, texts.DOCTOR_TOKEN_REFUSED)
    except NetworkError as exc:
        return Check(False, texts.DOCTOR_NO_TELEGRAM.format(url=config.base_url, error=exc))
    except TelegramError as exc:
        return Check(False, texts.DOCTOR_TOKEN_ERROR.format(error=exc))
    return Check(True, texts.DOCTOR_TOKEN_OK.format(name=me.username))


async def _database(config: Config) -> list[Check]:
    try:
        db = await Database.open(config.database)
    except (OSError, sqlite3.Error, StoreError) as exc:
        return [Check(False, texts.DOCTOR_DB_UNUSABLE.format(path=config.database, error=exc))]
    try:
        async with db.transaction() as conn:
            await conn.execute("UPDATE club SET name = name WHERE id = 1")  # can we write?
        found = [Check(await schema_version(db) == VERSION,
                       texts.DOCTOR_DB_OK.format(path=config.database, version=VERSION))]
        if not await has_season(db):
            found.append(Check(False, texts.DOCTOR_NO_SEASON))
        settings = await club.settings(db)
        found.append(Check(settings.group_chat_id is not None,
                           texts.DOCTOR_GROUP if settings.group_chat_id is not None else
                           texts.DOCTOR_NO_GROUP))
        arbiters = set(config.arbiters) | await club.arbiters(db)
        found.append(Check(bool(arbiters),
                           texts.DOCTOR_ARBITERS.format(ids=", ".join(map(str, sorted(arbiters))))
                           if arbiters else texts.DOCTOR_NO_ARBITER))
        return found
    except sqlite3.Error as exc:
        return [Check(False, texts.DOCTOR_DB_READ_ONLY.format(path=config.database, error=exc))]
    finally:
        await db.close()


def report(found: list[Check]) -> str:
    return "\n".join(f"{'✓' if c.ok else '✗'} {c.text}" for c in found)
