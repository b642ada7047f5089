"""`keizerbot demo`: a simulated club season through the real bot, before you have a token.

Everything is real except Telegram: a local Bot API server in this process, a SQLite file in
a temporary folder, the real scheduler and the real pairing. Ten invented members link
themselves, sign off, play (results by rating) and report; the arbiter publishes each round.
It prints the chat of one round and the final standings, in the language of the command
line: the members and the club speak it, and type the commands under its names.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import html
import random
import re
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TextIO

from bot.config import Config
from bot.demo.fakeapi import FakeTelegram, NotSent, Sent, User
from bot.demo.runner import LocalBot, ManualClock
from bot.language import texts
from bot.language.i18n import Words
from bot.worker import Processes
from core.rounds import RoundState
from core.season import Result, Season, season_from_data
from core.simulation import play
from storage import club, roster, rounds
from storage.address import SqliteFile
from storage.db import Database
from storage.seasons import import_season
from storage.store import open_store

TOKEN = "123456:" + "D" * 35
GROUP = -1000
ARBITER = User(1, "Wim", "Wedstrijdleider")
NAMES = ["Anna Visser", "Bram de Boer", "Cor Jansen", "Daan Smit", "Eva Bos", "Femke Kok",
         "Gijs Post", "Hanneke Prins", "Joost Mulder", "Lotte de Wit"]
ROUNDS = 5
SHOWN_ROUND = 3
START = dt.datetime(2026, 9, 1, 9, 0, tzinfo=dt.UTC)
COMMANDS = {"en": {"/ik": "/iam", "/ronde nieuw": "/round new", "/afmelden": "/signoff",
                   "/indeling bevestig": "/pairing confirm", "/uitslag": "/result",
                   "/stand": "/standings"}}
"""The commands the demo types, under their English names."""


def plain(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def club_season(rng: random.Random) -> Season:
    """Ten members (the last one a youth player), no rounds yet."""
    players = [{"id": f"m{k}", "name": name, "rating": rng.randint(1300, 2100)}
               for k, name in enumerate(NAMES)]
    players[-1]["youth"] = True
    data = {"format": "keizer-season/1", "club": "Schaakclub Demo", "season": "2026-2027",
            "rules": {"preset": "sliedrecht", "planned_rounds": ROUNDS, "period_length": ROUNDS},
            "players": players, "rounds": []}
    return season_from_data(data)


async def run(w: Words, out: TextIO, *, seed: int = 2026,
              chat_page: Path | None = None) -> None:
    """Play the season, its members speaking the language of the words `w`; print the chat
    of one round and the final standings (and, with `chat_page`, write that round's group
    and private chats as a web page)."""
    rng = random.Random(seed)
    season = club_season(rng)
    spoken = w.language
    members = [User(100 + k, p.name.partition(" ")[0], p.name.partition(" ")[2],
                    language_code=spoken) for k, p in enumerate(season.players)]
    arbiter = User(ARBITER.id, ARBITER.first_name, ARBITER.last_name, language_code=spoken)
    code = {u.id: p.id for u, p in zip(members, season.players, strict=True)}
    by_code = {p.id: u for u, p in zip(members, season.players, strict=True)}
    tg = FakeTelegram()
    await tg.start()
    with tempfile.TemporaryDirectory() as folder, contextlib.closing(Processes()) as processes:
        path = Path(folder) / "keizer.db"
        db = await open_store(path)
        await import_season(db, season)
        await club.change_settings(db, actor=None, language=spoken)
        await db.close()
        config = Config(token=TOKEN, base_url=tg.url, database=SqliteFile(path),
                        arbiters=(ARBITER.id,), tick_seconds=0.1)
        bot = LocalBot(tg, config, ManualClock(START), processes)
        await bot.start()
        try:
            typed = _Typing(bot, arbiter, COMMANDS.get(spoken, {}))
            shown_from, shown_to = await _season(typed, tg, members, code, by_code, season,
                                                 rng)
            final = await typed.ask(members[0], "/stand")
        finally:
            await bot.stop()
            await tg.stop()
    _print(w, out, tg, shown_from, shown_to, members[0], final)
    if chat_page is not None:
        shown = {GROUP: "groep", ARBITER.id: "wedstrijdleider", members[0].id:
                 members[0].first_name}
        chat_page.write_text(_chat_html(tg, shown_from, shown_to, shown), encoding="utf-8")


class _Typing:
    """The demo's members and arbiter at their keyboards: each command under the name of
    the language they speak."""

    def __init__(self, bot: LocalBot, arbiter: User, names: dict[str, str]) -> None:
        self.bot, self.arbiter, self.names = bot, arbiter, names

    async def ask(self, user: User, command: str, **kwargs: Any) -> Sent:
        name = next((n for n in sorted(self.names, key=len, reverse=True)
                     if command == n or command.startswith(n + " ")), None)
        if name is not None:
            command = self.names[name] + command[len(name):]
        return await self.bot.ask(user, command, **kwargs)


async def _season(typed: _Typing, tg: FakeTelegram, members: list[User], code: dict[int, str],
                  by_code: dict[str, User], season: Season,
                  rng: random.Random) -> tuple[int, int]:
    bot, arbiter = typed.bot, typed.arbiter
    for user in members:
        mark = len(tg.sent)
        await typed.ask(user, f"/ik {user.first_name} {user.last_name}")
        ask = await tg.wait_for(_asks(arbiter.id, "link:"), after=mark)
        tg.press(arbiter, ask, _button(ask, "link:"))
        await _settled(bot, _linked(user))
    await typed.ask(arbiter, "/club", chat_id=GROUP)
    for number in range(ROUNDS):
        day = START.date() + dt.timedelta(days=2 + 7 * number)
        await typed.ask(arbiter, f"/ronde nieuw {day.day}-{day.month}-{day.year}")
    shown = (0, 0)
    for number in range(1, ROUNDS + 1):
        first = len(tg.transcript)
        for user in rng.sample(members, rng.randint(0, 2)):
            await typed.ask(user, "/afmelden")
        deadline = START + dt.timedelta(days=2 + 7 * (number - 1), hours=17)
        bot.clock.now = deadline
        await _settled(bot, _in_state(number, RoundState.DRAFTED))
        await typed.ask(arbiter, "/indeling bevestig")
        await _settled(bot, _in_state(number, RoundState.PUBLISHED))
        await _results(typed, tg, number, code, by_code, season, rng)
        await _settled(bot, _in_state(number, RoundState.COMPLETE))
        if number == SHOWN_ROUND:
            shown = (first, len(tg.transcript))
    await asyncio.sleep(0.2)  # the title announcement follows the last standings
    return shown


async def _results(typed: _Typing, tg: FakeTelegram, number: int, code: dict[int, str],
                   by_code: dict[str, User], season: Season, rng: random.Random) -> None:
    """White reports each result (by rating) in his private chat; black confirms. (Replies in
    the group work too, but Telegram allows a group about 20 messages a minute, and the rate
    limiter keeps to that.)"""
    stored = await rounds.stored_pairing(_store(typed.bot), number)
    assert stored is not None
    for board in stored.boards:
        white, black = by_code[board.white], by_code[board.black]
        result = play(rng, season, board.white, board.black)
        if result.is_forfeit:
            result = Result.DRAW
        mark = len(tg.sent)
        await typed.ask(white, f"/uitslag {result}")
        ask = await tg.wait_for(_asks(black.id, "res:"), after=mark)
        tg.press(black, ask, _button(ask, "res:"))
        await tg.wait_for(_edited(ask), after=mark)


# The demo follows stored facts and buttons, not the wording of messages: the texts can be
# rewritten without touching it.

def _button(sent: Sent, prefix: str) -> str:
    """The data of the message's first button whose data starts with `prefix` ("" if none)."""
    return next((data for _, data in sent.buttons if data.startswith(prefix)), "")


def _asks(chat_id: int, prefix: str) -> Callable[[Sent], bool]:
    """A message to `chat_id` with a button whose data starts with `prefix`."""
    return lambda sent: sent.chat_id == chat_id and bool(_button(sent, prefix))


def _edited(message: Sent) -> Callable[[Sent], bool]:
    return lambda sent: sent is message and bool(message.edits)


Fact = Callable[[Database], Awaitable[bool]]


def _in_state(number: int, state: RoundState) -> Fact:
    async def holds(db: Database) -> bool:
        return await rounds.state(db, number) is state
    return holds


def _linked(user: User) -> Fact:
    async def holds(db: Database) -> bool:
        return await roster.member_of(db, user.id) is not None
    return holds


def _store(bot: LocalBot) -> Database:
    assert bot.app is not None, "the bot is started before the demo plays"
    return bot.app.bot_data.db


async def _settled(bot: LocalBot, fact: Fact) -> None:
    """Until `fact` holds in the store and every message owed has gone out."""
    db = _store(bot)
    for _ in range(1000):
        async with db.reader.execute("SELECT count(*) FROM outbox WHERE sent_at IS NULL "
                                     "AND failed_at IS NULL") as cur:
            row = await cur.fetchone()
        if await fact(db) and row is not None and row[0] == 0:
            return
        await asyncio.sleep(0.02)
    raise NotSent("the demo waited in vain for the bot")


def _print(w: Words, out: TextIO, tg: FakeTelegram, first: int, last: int, member: User,
           final: Sent) -> None:
    chats = {GROUP: w(texts.DEMO_GROUP), member.id: w(texts.DEMO_PRIVATE).format(
        name=member.first_name), ARBITER.id: w(texts.DEMO_ARBITER)}
    chats |= {chat: w(texts.DEMO_PRIVATE).format(name=who.split()[0])
              for chat, who, _ in tg.transcript[first:last]
              if chat > 0 and chat not in chats and who != "Keizerbot"}
    out.write(w(texts.DEMO_TITLE).format(rounds=ROUNDS, members=len(NAMES)) + "\n")
    out.write("\n=== " + w(texts.DEMO_ROUND).format(round=SHOWN_ROUND) + " ===\n")
    for chat, who, text in tg.transcript[first:last]:
        if chat in chats:
            body = plain(text).replace("\n", "\n    ")
            out.write(f"\n[{chats[chat]}] {who}:\n    {body}\n")
    out.write("\n=== " + w(texts.DEMO_FINAL) + " ===\n\n")
    out.write(plain(final.text) + "\n")
    # What the last round decided (a champion, a play-off) follows its standings.
    group = [t for c, _, t in tg.transcript if c == GROUP]
    done = w(texts.ROUND_COMPLETE).format(round=ROUNDS)
    last = max((k for k, t in enumerate(group) if t.startswith(done)), default=len(group))
    if group[last + 1:]:
        out.write("\n" + plain(group[-1]) + "\n")


def _chat_html(tg: FakeTelegram, first: int, last: int, chats: dict[int, str]) -> str:
    """The round in some chats as bubbles, for a picture in the README."""
    bubbles = []
    for chat, who, text in tg.transcript[first:last]:
        if chat not in chats:
            continue
        mine = who != "Keizerbot"
        where = chats[chat]
        body = html.escape(plain(text))
        bubbles.append(f'<div class="b {"me" if mine else "bot"}"><div class=who>{who} · '
                       f"{where}</div><pre>{body}</pre></div>")
    style = ("body{background:#d9e3ea;font-family:system-ui,sans-serif;margin:0;padding:12px;"
             "width:400px}.b{border-radius:12px;padding:8px 10px;margin:8px 0;max-width:95%;"
             "box-shadow:0 1px 1px #0002}.bot{background:#fff}.me{background:#e1ffc7;"
             "margin-left:auto;width:fit-content}.who{font-size:12px;color:#3a76a8;"
             "font-weight:600;margin-bottom:3px}pre{margin:0;white-space:pre-wrap;"
             "font:13px/1.35 ui-monospace,Menlo,monospace}")
    return f"<!doctype html><meta charset=utf-8><style>{style}</style>{''.join(bubbles)}"
