"""The arbiter's housekeeping: members, the schedule, the club group, arbiters, settings,
external matches."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import re
from decimal import Decimal
from fractions import Fraction

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import MessageHandler, filters

from bot import dates, texts
from bot.chat import esc, reply, show_date, show_moment
from bot.flows import admin, members, signoff, views
from bot.handlers.common import actor, arbiter_only, command, find_member, number
from bot.services import App, Context, WebAccess, schedule
from core.errors import InvalidInputError
from core.season import EXTERNAL_RESULTS, ExternalDay


@arbiter_only
async def speler(update: Update, context: Context) -> None:
    args = list(context.args or [])
    kind = args[-1].lower() if args else ""
    if len(args) >= 2 and kind in ("flexibel", "vast") \
            and args[0].lower() not in ("nieuw", "weg"):
        who = await find_member(update, context, " ".join(args[:-1]))
        if who is not None:
            await admin.set_flexible(context.services, who, kind == "flexibel",
                                     actor=actor(update))
            await reply(update, context,
                        texts.SPELER_KIND[kind == "flexibel"].format(name=esc(who.name)))
        return
    if len(args) < 2 or args[0].lower() not in ("nieuw", "weg"):
        await reply(update, context, texts.SPELER_USAGE)
        return
    if args[0].lower() == "weg":
        who = await find_member(update, context, " ".join(args[1:]))
        if who is not None:
            last = await admin.withdraw(context.services, who, actor=actor(update))
            await reply(update, context, texts.SPELER_GONE.format(name=esc(who.name), round=last))
        return
    words, rating, youth, flexible = args[1:], None, False, False
    if words and words[-1].lower() == "flexibel":
        flexible, words = True, words[:-1]
    if words and words[-1].lower() == "jeugd":
        youth, words = True, words[:-1]
    if words and number(words[-1]) is not None:
        rating, words = number(words[-1]), words[:-1]
    if not words:
        await reply(update, context, texts.SPELER_USAGE)
        return
    name = " ".join(words)
    joined = await admin.add_player(context.services, name, rating=rating, youth=youth,
                                    flexible=flexible, actor=actor(update))
    added = texts.SPELER_ADDED.format(name=esc(name), round=joined)
    if flexible:
        added += " " + texts.SPELER_KIND[True].format(name=esc(name))
    await reply(update, context, added)


@arbiter_only
async def spelers(update: Update, context: Context) -> None:
    everyone = await members.everyone(context.services)
    lines = [texts.SPELERS_TITLE.format(count=len(everyone))]
    lines += [f"{esc(m.name)}{texts.SPELERS_LINKED if m.telegram_id else ''}"
              f"{texts.SPELERS_FLEXIBLE if m.flexible else ''}" for m in everyone]
    await reply(update, context, "\n".join(lines))


async def _date(update: Update, context: Context, words: list[str],
                today: dt.date) -> dt.date | None:
    """The date the words are, all of them (said to the arbiter when they are not one)."""
    night = dates.club_day(r.date for r in await schedule(context.services))
    found = await asyncio.to_thread(dates.read, words, today, night)
    if found is None or found.words != len(words):
        await reply(update, context, texts.BAD_DATE.format(text=esc(" ".join(words))))
        return None
    return found.date


def _same_day(scheduled: admin.Scheduled) -> list[str]:
    """A word of warning when another round is on the same day (allowed: a double round)."""
    return [texts.RONDE_SAME_DAY.format(rounds=", ".join(map(str, scheduled.same_day)))] \
        if scheduled.same_day else []


@arbiter_only
async def ronde(update: Update, context: Context) -> None:
    args = list(context.args or [])
    services = context.services
    zone = services.settings.timezone
    today = services.clock().astimezone(zone).date()
    if not args:
        lines = [texts.RONDE_LINE.format(round=r.number, date=show_date(r.date),
                                         deadline=show_moment(r.deadline, zone),
                                         state=texts.STATE_WORDS[r.state])
                 for r in await admin.rounds_ahead(services)] or [texts.RONDE_NONE]
        lines += [texts.EXTERNAL_OPEN.format(round=e.round, name=esc(e.name))
                  for e in await admin.externals_without_result(services)]
        await reply(update, context, "\n".join(lines))
        return
    if args[0].lower() == "nieuw" and len(args) >= 2:
        date = await _date(update, context, args[1:], today)
        if date is None:
            return
        if date < today:
            await reply(update, context, texts.RONDE_PAST.format(date=show_date(date, today)))
            return
        planned = await admin.plan_round(services, date, actor=actor(update))
        lines = [texts.RONDE_ADDED.format(round=planned.round, date=show_date(date, today),
                                          deadline=show_moment(planned.deadline, zone))]
        if planned.renumbered:
            lines.append(texts.RONDE_RENUMBERED)
        await reply(update, context, "\n".join(lines + _same_day(planned)))
        return
    if args[0].lower() == "uitstel" and len(args) >= 3 and number(args[1]) is not None:
        date = await _date(update, context, args[2:], today)
        if date is None:
            return
        if date < today:
            await reply(update, context, texts.RONDE_PAST.format(date=show_date(date, today)))
            return
        moved = await admin.move_round(services, int(args[1]), date, actor=actor(update))
        await reply(update, context, "\n".join([texts.RONDE_MOVED.format(
            round=moved.round, date=show_date(date, today),
            deadline=show_moment(moved.deadline, zone)), *_same_day(moved)]))
        return
    if args[0].lower() == "vervalt" and len(args) == 2 and number(args[1]) is not None:
        await admin.cancel_round(services, int(args[1]), actor=actor(update))
        await reply(update, context, texts.RONDE_CANCELLED.format(round=args[1]))
        return
    await reply(update, context, texts.RONDE_USAGE)


@arbiter_only
async def club_group(update: Update, context: Context) -> None:
    chat, message = update.effective_chat, update.effective_message
    if chat is None or chat.type == ChatType.PRIVATE or message is None:
        await reply(update, context, texts.CLUB_ONLY_GROUP)
        return
    thread = message.message_thread_id if message.is_topic_message else None
    await admin.set_group(context.services, chat.id, thread, chat.title or "",
                          actor=actor(update))
    await reply(update, context, texts.CLUB_SET)


async def group_migrated(update: Update, context: Context) -> None:
    """Telegram's service message when a group becomes a supergroup (in the old chat with
    the new id, in the new chat with the old one): the club group follows."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id is not None:
        old, new = message.chat_id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id is not None:
        old, new = message.migrate_from_chat_id, message.chat_id
    else:
        return
    await admin.follow_migration(context.services, old, new)


@arbiter_only
async def arbiter(update: Update, context: Context) -> None:
    args = list(context.args or [])
    remove = bool(args) and args[0].lower() == "weg"
    ids = args[1:] if remove else args
    who = number(ids[0]) if len(ids) == 1 else None
    if who is None:
        await reply(update, context, texts.ARBITER_USAGE)
        return
    if remove and who in context.services.settings.arbiters:
        await reply(update, context, texts.ARBITER_CONFIGURED.format(id=who))
        return
    await admin.set_arbiter(context.services, who, on=not remove, actor=actor(update))
    await reply(update, context, (texts.ARBITER_REMOVED if remove else texts.ARBITER_ADDED)
                .format(id=ids[0]))


MINUTES = {"deadline": ("deadline_minutes", 7 * 24 * 60),
           "herinnering": ("reminder_minutes", 14 * 24 * 60)}
"""Settings in minutes before the start, and the most each can be (a week, two weeks)."""
CLOCK = re.compile(r"([0-9]{1,2})[:.u]([0-9]{2})")


@arbiter_only
async def instellingen(update: Update, context: Context) -> None:
    args = list(context.args or [])
    if not args:
        settings, rules = await admin.settings(context.services)
        await reply(update, context, texts.INSTELLINGEN.format(
            start=settings.round_start.strftime("%H:%M"), deadline=settings.deadline_minutes,
            reminder=settings.reminder_minutes, web=texts.WEB_ACCESS_WORDS[settings.web],
            rules=texts.rules_in_words(rules)))
        return
    if args[0].lower() in ("reglement", "regel"):
        await _change_rules(update, context, args)
        return
    name = args[0].lower()
    change: dict[str, object] = {}
    if name == "start" and len(args) == 2:
        clock = CLOCK.fullmatch(args[1])
        hour, minute = (int(clock.group(1)), int(clock.group(2))) if clock else (99, 99)
        if hour > 23 or minute > 59:
            await reply(update, context, texts.BAD_TIME.format(text=esc(args[1])))
            return
        change["round_start"] = dt.time(hour, minute)
    elif name in MINUTES and len(args) == 2:
        key, most = MINUTES[name]
        minutes = number(args[1])
        if minutes is None or minutes > most:
            await reply(update, context, texts.BAD_MINUTES.format(text=esc(args[1]), most=most))
            return
        change[key] = minutes
    elif name == "web" and len(args) == 2 and args[1].lower() in set(WebAccess):
        change["web"] = WebAccess(args[1].lower())
    else:
        await reply(update, context, texts.INSTELLINGEN_USAGE)
        return
    moved = await admin.change_settings(context.services, actor=actor(update), **change)
    zone = context.services.settings.timezone
    await reply(update, context, "\n".join([texts.INSTELLINGEN_DONE] + [
        texts.DEADLINE_MOVED.format(round=r.round, deadline=show_moment(r.deadline, zone))
        for r in moved]))


async def _change_rules(update: Update, context: Context, args: list[str]) -> None:
    """`reglement PRESET` (keeps the club's overrides) or `regel PARAMETER WAARDE`; in
    mid-season shown first, and stored with `bevestig` after it."""
    confirmed = args[-1].lower() == "bevestig"
    words = args[:-1] if confirmed else args
    if words[0].lower() == "reglement" and len(words) == 2:
        change: dict[str, object] = {"preset": words[1]}
    elif words[0].lower() == "regel" and len(words) >= 3:
        change = {words[1]: _value(" ".join(words[2:]))}
    else:
        await reply(update, context, texts.INSTELLINGEN_USAGE)
        return
    done = await admin.change_rules(context.services, change, actor=actor(update),
                                    confirmed=confirmed)
    if done.stored:
        await reply(update, context, texts.INSTELLINGEN_DONE)
        return
    moves = "; ".join(texts.RULES_MOVED.format(name=esc(m.name), before=m.before, after=m.after)
                      for m in done.moved[:10]) or texts.RULES_NO_MOVES
    await reply(update, context, texts.RULES_PREVIEW.format(
        round=done.after_round, moves=moves, count=len(done.moved),
        command=esc(" ".join(["/instellingen", *words, "bevestig"]))))


def _value(text: str) -> object:
    """A parameter value as typed: a number (exact), null, true/false, a table, or text."""
    try:
        return json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError:
        return text


TYPED_RESULTS = {"½": "1/2", "0.5": "1/2"}
"""How an external result may be typed besides the season file's own spelling (1, 1/2, 0)."""


def external_result(text: str) -> Fraction | None:
    return EXTERNAL_RESULTS.get(TYPED_RESULTS.get(text, text))


@arbiter_only
async def extern(update: Update, context: Context) -> None:
    """`/extern NAAM TEAM UITSLAG [clubavond|anderedag] [ronde N]`."""
    args = list(context.args or [])
    number_named = None
    if len(args) >= 2 and args[-2].lower() == "ronde":
        number_named = number(args[-1])
        if number_named is None:
            await reply(update, context, texts.EXTERN_USAGE)
            return
        args = args[:-2]
    day = None
    if args and args[-1].lower() in ("clubavond", "anderedag"):
        day = ExternalDay.CLUB_NIGHT if args.pop().lower() == "clubavond" \
            else ExternalDay.OTHER_DAY
    team = number(args[-2]) if len(args) >= 3 else None
    result = external_result(args[-1]) if args else None
    if team is None or result is None:
        await reply(update, context, texts.EXTERN_USAGE)
        return
    who = await find_member(update, context, " ".join(args[:-2]))
    if who is None:
        return
    message = update.effective_message
    assert message is not None
    booked = await signoff.book_external(context.services, who, team=team,
                                         result=result, day=day,
                                         number=number_named, sent_at=message.date,
                                         actor=actor(update))
    if booked is None:
        await reply(update, context, texts.NO_OPEN_ROUND)
        return
    await reply(update, context, texts.EXTERN_DONE.format(
        name=esc(who.name), team=team, result=texts.EXTERNAL_RESULT_WORDS[result],
        round=booked.round, day=texts.EXTERNAL_DAY_WORDS[booked.day]))


@arbiter_only
async def seizoen(update: Update, context: Context) -> None:
    """`/seizoen nieuw [NAAM]` shows the next season; `… bevestig` begins it."""
    args = list(context.args or [])
    start = bool(args) and args[-1].lower() == "bevestig"
    words = args[1:-1] if start else args[1:]
    if not args or args[0].lower() != "nieuw":
        await reply(update, context, texts.SEIZOEN_USAGE)
        return
    name = " ".join(words) or None
    try:
        made = await admin.next_season(context.services, name, start=start,
                                       actor=actor(update))
    except InvalidInputError:
        season = await views.season(context.services)
        await reply(update, context, texts.SEIZOEN_NAME.format(name=esc(season.name)))
        return
    new = made.season
    if made.started:
        await reply(update, context, texts.SEIZOEN_STARTED.format(name=esc(new.name),
                                                                  players=len(new.players)))
        return
    names = {p.id: p.name for p in new.players}
    top = ", ".join(esc(names[pid]) for pid in (new.initial_ranking or ())[:5])
    gone = texts.SEIZOEN_GONE.format(names=", ".join(map(esc, made.gone))) if made.gone else ""
    confirm = " ".join(["/seizoen nieuw", *([esc(name)] if name else []), "bevestig"])
    await reply(update, context, texts.SEIZOEN_PROPOSAL.format(
        name=esc(new.name), players=len(new.players), gone=gone, top=top + " …",
        confirm=confirm))


def register(app: App) -> None:
    app.add_handler(command("speler", speler))
    app.add_handler(command("seizoen", seizoen))
    app.add_handler(command("spelers", spelers))
    app.add_handler(command("ronde", ronde))
    app.add_handler(command("club", club_group))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, group_migrated))
    app.add_handler(command("arbiter", arbiter))
    app.add_handler(command("instellingen", instellingen))
    app.add_handler(command("extern", extern))
