"""`keizerbot doctor`: checks the setup and says, in the shell's language, what to fix."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import asyncpg
from telegram import Bot
from telegram.error import InvalidToken, NetworkError, TelegramError

from bot.config import Config, ConfigError, load
from bot.language.i18n import Words
from bot.language.notice import Lines, Phrase, Said, Text, plain
from storage import club
from storage.address import PostgresUrl, SqliteFile
from storage.db import schema_version
from storage.errors import StoreError
from storage.schema import VERSION
from storage.seal import Seal
from storage.seasons import has_season
from storage.sqlite import readable_by_others
from storage.store import open_store


@dataclass(frozen=True, slots=True)
class Check:
    ok: bool
    text: Said | str


async def checks(env: Mapping[str, str] | None = None, *,
                 env_file: Path = Path(".env")) -> list[Check]:
    try:
        config = load(env, env_file=env_file)
    except ConfigError as exc:
        return [Check(False, exc.said)]
    found = [Check(True, Text("DOCTOR_SETTINGS", {"zone": config.timezone.key})),
             *_private(env_file)]
    if isinstance(config.database, PostgresUrl):
        from storage import postgres

        try:
            hosted = await postgres.clubs(config.database.url)
        except (OSError, asyncpg.PostgresError, StoreError):
            hosted = []  # the store's own check names what is wrong
        if hosted:  # a host's database: its clubs are checked one by one there
            return [*found, Check(False, Text("DOCTOR_USE_CLUBS", {"clubs": Lines(tuple(
                Text("CLUBS_LINE", {"id": c.id, "name": c.name}) for c in hosted), ", ")}))]
    found.append(await _token(config))
    found += await _database(config)
    return found


def _private(env_file: Path) -> list[Check]:
    """The settings file holds the bot's token (a host's: the key to every club's): for its
    owner's eyes only."""
    if not readable_by_others(env_file):
        return []
    return [Check(False, Text("DOCTOR_ENV_READABLE", {"path": env_file}))]


async def host_checks(env: Mapping[str, str] | None = None, *,
                      env_file: Path = Path(".env")) -> list[Check]:
    """A host's (`keizerbot host`): the settings, then each club's token and store, each
    line naming its club."""
    from bot.telegram.host import club_config, postgres_clubs

    try:
        config = load(env, env_file=env_file, hosted=True)
    except ConfigError as exc:
        return [Check(False, exc.said)]
    assert isinstance(config.database, PostgresUrl)  # load(hosted=True) refuses a file
    found = [Check(True, Text("DOCTOR_SETTINGS", {"zone": config.timezone.key})),
             *_private(env_file)]
    try:
        clubs = await postgres_clubs(config.database.url, Seal(config.secret_key))()
    except (OSError, asyncpg.PostgresError) as exc:
        return [*found, Check(False, Text("DOCTOR_DB_UNUSABLE", {
            "path": config.database.shown, "error": exc}))]
    if not clubs:
        return [*found, Check(False, Text("DOCTOR_NO_CLUBS"))]
    for hosted in clubs:
        own = club_config(config, hosted)
        token = await _token(own) if hosted.token else \
            Check(False, Text("DOCTOR_CLUB_TOKEN_UNOPENED", {"id": hosted.id}))
        for check in [token, *await _database(own)]:
            found.append(Check(check.ok, Text("DOCTOR_OF_CLUB", {
                "id": hosted.id, "name": hosted.name, "check": check.text})))
    return found


async def _token(config: Config) -> Check:
    """Whether Telegram knows the bot; a host's club (`config.club`) gets its token with
    `keizerbot clubs token`, not in .env."""
    try:
        async with Bot(config.token, base_url=config.api_url) as bot:
            me = await bot.get_me()
    except InvalidToken:
        return Check(False, Text("DOCTOR_TOKEN_REFUSED") if config.club is None
                     else Text("DOCTOR_CLUB_TOKEN_REFUSED", {"id": config.club}))
    except NetworkError as exc:
        return Check(False, Text("DOCTOR_NO_TELEGRAM", {"url": config.base_url, "error": exc}))
    except TelegramError as exc:
        return Check(False, Text("DOCTOR_TOKEN_ERROR", {"error": exc}))
    return Check(True, Text("DOCTOR_TOKEN_OK", {"name": me.username}))


async def _database(config: Config) -> list[Check]:
    """The store's checks; a host's club (`config.club`) is told how a host's club gets its
    season and arbiters."""
    store = config.database
    path = store.shown
    if isinstance(store, SqliteFile) and not store.path.exists() \
            and not store.path.parent.is_file():  # nothing made by asking
        return [Check(False, Text("DOCTOR_NO_DATABASE", {"path": path}))]
    try:
        db = await open_store(store, club=config.club, migrate=False)
    except StoreError as exc:  # an older schema among them: what to do is said
        return [Check(False, Text("DOCTOR_DB_UNUSABLE", {
            "path": path, "error": Phrase("store_problem", (exc,))}))]
    except (OSError, sqlite3.Error) as exc:
        return [Check(False, Text("DOCTOR_DB_UNUSABLE", {"path": path, "error": exc}))]
    try:
        async with db.transaction() as conn:
            await conn.execute("UPDATE club SET name = name WHERE id = 1")  # can we write?
        found = [Check(await schema_version(db) == VERSION,
                       Text("DOCTOR_DB_OK", {"path": path, "version": VERSION}))]
        if isinstance(store, SqliteFile) and readable_by_others(store.path):
            found.append(Check(False, Text("DOCTOR_DB_READABLE", {"path": path})))
        if not await has_season(db):
            found.append(Check(False, Text("DOCTOR_NO_SEASON") if config.club is None else
                               Text("DOCTOR_NO_CLUB_SEASON", {"id": config.club})))
        settings = await club.settings(db)
        found.append(Check(settings.group_chat_id is not None,
                           Text("DOCTOR_GROUP") if settings.group_chat_id is not None else
                           Text("DOCTOR_NO_GROUP")))
        arbiters = set(config.arbiters) | await club.arbiters(db)
        found.append(Check(bool(arbiters),
                           Text("DOCTOR_ARBITERS", {"ids": ", ".join(map(str, sorted(arbiters)))})
                           if arbiters else Text("DOCTOR_NO_ARBITER") if config.club is None
                           else Text("DOCTOR_NO_CLUB_ARBITER", {"id": config.club})))
        return found
    except (sqlite3.Error, StoreError) as exc:
        return [Check(False, Text("DOCTOR_DB_READ_ONLY", {"path": path, "error": exc}))]
    finally:
        await db.close()


def report(w: Words, found: list[Check]) -> str:
    """The checks as the administrator reads them, in the words `w`."""
    return "\n".join(f"{'✓' if c.ok else '✗'} {plain(c.text, w)}" for c in found)
