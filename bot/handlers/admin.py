"""The arbiter's housekeeping: members, the schedule, the club group, arbiters, settings,
external matches."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from fractions import Fraction

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import Application

from bot import texts
from bot.chat import esc, reply, show_date, show_moment
from bot.flows import admin, members, signoff
from bot.handlers.common import arbiter_only, command, find_member, parse_date
from bot.services import Context, open_round, published_round
from core.season import AbsenceReason, ExternalDay


def _actor(update: Update) -> int:
    assert update.effective_user is not None
    return update.effective_user.id


@arbiter_only
async def speler(update: Update, context: Context) -> None:
    args = list(context.args or [])
    if len(args) < 2 or args[0].lower() not in ("nieuw", "weg"):
        await reply(update, context, texts.SPELER_USAGE)
        return
    if args[0].lower() == "weg":
        who = await find_member(update, context, " ".join(args[1:]))
        if who is not None:
            last = await admin.withdraw(context.services, who, actor=_actor(update))
            await reply(update, context, texts.SPELER_GONE.format(name=esc(who.name), round=last))
        return
    words, rating, youth = args[1:], None, False
    if words and words[-1].lower() == "jeugd":
        youth, words = True, words[:-1]
    if words and words[-1].isdigit():
        rating, words = int(words[-1]), words[:-1]
    if not words:
        await reply(update, context, texts.SPELER_USAGE)
        return
    name = " ".join(words)
    joined = await admin.add_player(context.services, name, rating=rating, youth=youth,
                                    actor=_actor(update))
    await reply(update, context, texts.SPELER_ADDED.format(name=esc(name), round=joined))


@arbiter_only
async def spelers(update: Update, context: Context) -> None:
    everyone = await members.everyone(context.services)
    lines = [texts.SPELERS_TITLE.format(count=len(everyone))]
    lines += [f"{esc(m.name)}{texts.SPELERS_LINKED if m.telegram_id else ''}" for m in everyone]
    await reply(update, context, "\n".join(lines))


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
        await reply(update, context, "\n".join(lines))
        return
    if args[0].lower() == "nieuw" and len(args) == 2:
        date = parse_date(args[1], today)
        if date is None:
            await reply(update, context, texts.BAD_DATE.format(text=esc(args[1])))
            return
        planned = await admin.plan_round(services, date, actor=_actor(update))
        await reply(update, context, texts.RONDE_ADDED.format(
            round=planned.round, date=show_date(date), deadline=show_moment(planned.deadline,
                                                                            zone)))
        return
    if args[0].lower() == "uitstel" and len(args) == 3 and args[1].isdigit():
        date = parse_date(args[2], today)
        if date is None:
            await reply(update, context, texts.BAD_DATE.format(text=esc(args[2])))
            return
        moved = await admin.move_round(services, int(args[1]), date, actor=_actor(update))
        await reply(update, context, texts.RONDE_MOVED.format(
            round=moved.round, date=show_date(date), deadline=show_moment(moved.deadline, zone)))
        return
    if args[0].lower() == "vervalt" and len(args) == 2 and args[1].isdigit():
        await admin.cancel_round(services, int(args[1]), actor=_actor(update))
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
                          actor=_actor(update))
    await reply(update, context, texts.CLUB_SET)


@arbiter_only
async def arbiter(update: Update, context: Context) -> None:
    args = list(context.args or [])
    remove = bool(args) and args[0].lower() == "weg"
    ids = args[1:] if remove else args
    if len(ids) != 1 or not ids[0].isdigit():
        await reply(update, context, texts.ARBITER_USAGE)
        return
    await admin.set_arbiter(context.services, int(ids[0]), on=not remove, actor=_actor(update))
    await reply(update, context, (texts.ARBITER_REMOVED if remove else texts.ARBITER_ADDED)
                .format(id=ids[0]))


SETTINGS = {"start": "round_start", "deadline": "deadline_minutes",
            "herinnering": "reminder_minutes"}


@arbiter_only
async def instellingen(update: Update, context: Context) -> None:
    args = list(context.args or [])
    if not args:
        settings, rules = await admin.settings(context.services)
        await reply(update, context, texts.INSTELLINGEN.format(
            start=settings.round_start.strftime("%H:%M"), deadline=settings.deadline_minutes,
            reminder=settings.reminder_minutes,
            rules=esc(json.dumps(rules, default=str, ensure_ascii=False))))
        return
    if args[0].lower() in ("reglement", "regel"):
        await _change_rules(update, context, args)
        return
    key = SETTINGS.get(args[0].lower())
    value: object = None
    if key == "round_start" and len(args) == 2:
        try:
            value = dt.time.fromisoformat(args[1])
        except ValueError:
            value = None
    elif key is not None and len(args) == 2 and args[1].isdigit():
        value = int(args[1])
    if key is None or value is None:
        await reply(update, context, texts.INSTELLINGEN_USAGE)
        return
    await admin.change_settings(context.services, actor=_actor(update), **{key: value})
    await reply(update, context, texts.INSTELLINGEN_DONE)


async def _change_rules(update: Update, context: Context, args: list[str]) -> None:
    """`reglement PRESET` (keeps the club's overrides) or `regel PARAMETER WAARDE`."""
    if args[0].lower() == "reglement" and len(args) == 2:
        change: dict[str, object] = {"preset": args[1]}
    elif args[0].lower() == "regel" and len(args) >= 3:
        change = {args[1]: _value(" ".join(args[2:]))}
    else:
        await reply(update, context, texts.INSTELLINGEN_USAGE)
        return
    await admin.change_rules(context.services, change, actor=_actor(update))
    await reply(update, context, texts.INSTELLINGEN_DONE)


def _value(text: str) -> object:
    """A parameter value as typed: a number (exact), null, true/false, a table, or text."""
    try:
        return json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError:
        return text


EXTERNAL_RESULTS = {"1": Fraction(1), "½": Fraction(1, 2), "1/2": Fraction(1, 2),
                    "0.5": Fraction(1, 2), "0": Fraction(0)}


@arbiter_only
async def extern(update: Update, context: Context) -> None:
    args = list(context.args or [])
    day = ExternalDay.CLUB_NIGHT
    if args and args[-1].lower() in ("clubavond", "anderedag"):
        day = ExternalDay.CLUB_NIGHT if args.pop().lower() == "clubavond" \
            else ExternalDay.OTHER_DAY
    if len(args) < 3 or not args[-2].isdigit() or args[-1] not in EXTERNAL_RESULTS:
        await reply(update, context, texts.EXTERN_USAGE)
        return
    who = await find_member(update, context, " ".join(args[:-2]))
    if who is None:
        return
    upcoming = await open_round(context.services)
    number = upcoming.number if upcoming else await published_round(context.services)
    if number is None:
        await reply(update, context, texts.NO_OPEN_ROUND)
        return
    message = update.effective_message
    assert message is not None
    await signoff.sign_off(context.services, who,
                           signoff.Request((number,), AbsenceReason.EXTERNAL, day),
                           sent_at=message.date, actor=_actor(update), correction=True,
                           early=None, team=int(args[-2]), result=EXTERNAL_RESULTS[args[-1]])
    await reply(update, context, texts.EXTERN_DONE.format(name=esc(who.name), team=args[-2],
                                                 result=args[-1], round=number))


def register(app: Application) -> None:  # type: ignore[type-arg]
    app.add_handler(command("speler", speler))
    app.add_handler(command("spelers", spelers))
    app.add_handler(command("ronde", ronde))
    app.add_handler(command("club", club_group))
    app.add_handler(command("arbiter", arbiter))
    app.add_handler(command("instellingen", instellingen))
    app.add_handler(command("extern", extern))
