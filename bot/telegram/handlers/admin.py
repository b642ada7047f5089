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

from bot.files import exports, messages
from bot.flows import admin, members, online, signoff, views
from bot.language import dates, i18n
from bot.language.notice import Dated, Lines, Phrase, Said, Text, lines, plain
from bot.services import App, Context, Services, WebAccess, schedule
from bot.telegram.answer import Answer, File, Refused
from bot.telegram.handlers.common import (
    actor,
    arbiter_only,
    command,
    find_member,
    number,
    spelled,
    two_members,
    typed_in_english,
)
from core.errors import InvalidInputError
from core.online import MOST_MINUTES, Clock
from core.ratings import RatingList
from core.season import EXTERNAL_RESULTS, ExternalDay


@arbiter_only
async def speler(update: Update, context: Context) -> Answer:
    args = list(context.args or [])
    kind = args[-1].lower() if args else ""
    if len(args) >= 2 and kind in ("flexibel", "vast") \
            and args[0].lower() not in ("nieuw", "weg"):
        who = await find_member(context, " ".join(args[:-1]))
        await admin.set_flexible(context.services, who, kind == "flexibel", actor=actor(update))
        return Answer(Text("SPELER_KIND", {"name": who.name}, pick=kind == "flexibel"))
    if len(args) < 2 or args[0].lower() not in ("nieuw", "weg"):
        return Answer(Text("SPELER_USAGE"))
    if args[0].lower() == "weg":
        who = await find_member(context, " ".join(args[1:]))
        last = await admin.withdraw(context.services, who, actor=actor(update))
        # A member who never played is gone from the list; "after round 0" says nothing.
        return Answer(Text("SPELER_GONE" if last else "SPELER_REMOVED",
                           {"name": who.name, "round": last}))
    words, rating, youth, flexible = args[1:], None, False, False
    if words and words[-1].lower() == "flexibel":
        flexible, words = True, words[:-1]
    if words and words[-1].lower() == "jeugd":
        youth, words = True, words[:-1]
    if words and number(words[-1]) is not None:
        rating, words = number(words[-1]), words[:-1]
    if not words:
        return Answer(Text("SPELER_USAGE"))
    name = " ".join(words)
    joined = await admin.add_player(context.services, name, rating=rating, youth=youth,
                                    flexible=flexible, actor=actor(update))
    added: Said = Text("SPELER_ADDED", {"name": name, "round": joined})
    if flexible:
        added = lines(added, Text("SPELER_KIND", {"name": name}, pick=True), between=" ")
    return Answer(added)


@arbiter_only
async def spelers(update: Update, context: Context) -> Answer:
    everyone = await members.everyone(context.services)
    if len(everyone) > messages.SCREENFUL:
        # Dozens of messages hold up every other chat's answer: a file, and the counts.
        return Answer(file=File(exports.members_csv(context.words, everyone),
                                plain(Text("SPELERS_FILE"), context.words),
                                Text("SPELERS_SUMMARY", {
                                    "count": len(everyone),
                                    "linked": sum(m.telegram_id is not None for m in everyone),
                                    "flexible": sum(m.flexible for m in everyone)})))
    return Answer(Lines((Text("SPELERS_TITLE", {"count": len(everyone)}), *(Lines((
        m.name, Text("SPELERS_LINKED") if m.telegram_id else "",
        Text("SPELERS_FLEXIBLE") if m.flexible else ""), "") for m in everyone))))


async def _date(update: Update, context: Context, words: list[str], today: dt.date) -> dt.date:
    """The date the words are, all of them (refused when they are not one)."""
    night = dates.club_day(r.date for r in await schedule(context.services))
    found = await asyncio.to_thread(dates.read, words, today, night,
                                    dates.ENGLISH if typed_in_english(update) else dates.DUTCH)
    if found is None or found.words != len(words):
        raise Refused(Text("BAD_DATE", {"text": " ".join(words)}))
    return found.date


def _same_day(scheduled: admin.Scheduled) -> list[Said]:
    """A word of warning when another round is on the same day (allowed: a double round)."""
    return [Text("RONDE_SAME_DAY", {"rounds": ", ".join(map(str, scheduled.same_day))})] \
        if scheduled.same_day else []


PLACES = {("ter", "plaatse"): "on_site", ("terplaatse",): "on_site", ("on", "site"): "on_site",
          ("aan", "site"): "on_site", ("onsite",): "on_site", ("online",): "online",
          ("offline",): "offline"}
"""The words after a round's date that say where it is played, in Dutch and English (paired
at the venue; on lichess, or not where the club plays online by default). `/round new ... on
site` reaches the handler with `on` read as Dutch `aan`."""


def _place(words: list[str]) -> tuple[list[str], str | None]:
    """The date's words, and where the round is played (None: as the club's settings say)."""
    for tail, place in PLACES.items():
        if tuple(w.lower() for w in words[-len(tail):]) == tail:
            return words[:-len(tail)], place
    return words, None


@arbiter_only
async def ronde(update: Update, context: Context) -> Answer:
    args = list(context.args or [])
    services = context.services
    zone = services.settings.timezone
    today = services.clock().astimezone(zone).date()
    if not args:
        shown: list[Said] = [Lines((
            Text("RONDE_LINE" if r.deadline is not None else "RONDE_LINE_PLAYED", {
                "round": r.number, "date": Dated(r.date, today=today, other_year=True),
                "deadline": Dated(r.deadline, zone),
                "state": Text("STATE_WORDS", pick=r.state)}),
            Text("ON_SITE_MARK") if r.on_site else "", Text("ONLINE_MARK") if r.online else ""),
            "") for r in await admin.rounds_ahead(services)] or [Text("RONDE_NONE")]
        shown += [Text("EXTERNAL_OPEN", {"round": e.round, "name": e.name})
                  for e in await admin.externals_without_result(services)]
        return Answer(Lines(tuple(shown)))
    if args[0].lower() == "nieuw" and len(args) >= 2:
        words, place = _place(args[1:])
        if not words:
            return Answer(Text("RONDE_USAGE"))
        if place == "online" and not online.ready(services):
            return Answer(Text("LICHESS_NOT_SET_UP"))
        date = await _date(update, context, words, today)
        if date < today:
            return Answer(Text("RONDE_PAST", {"date": Dated(date, today=today)}))
        planned = await admin.plan_round(
            services, date, on_site=place == "on_site",
            online={"online": True, "offline": False}.get(place or "")
            if online.ready(services) else False, actor=actor(update))
        added: list[Said] = [Text("RONDE_ADDED", {
            "round": planned.round, "date": Dated(date, today=today),
            "deadline": Dated(planned.deadline, zone)})]
        if place == "on_site":
            added.append(Text("RONDE_ON_SITE"))
        if planned.online:
            added += await _online_round(services)
        if planned.renumbered:
            added.append(Text("RONDE_RENUMBERED"))
        return Answer(Lines((*added, *_same_day(planned))))
    if args[0].lower() == "uitstel" and len(args) >= 3 and number(args[1]) is not None:
        date = await _date(update, context, args[2:], today)
        if date < today:
            return Answer(Text("RONDE_PAST", {"date": Dated(date, today=today)}))
        moved = await admin.move_round(services, int(args[1]), date, actor=actor(update))
        return Answer(Lines((
            Text("RONDE_MOVED", {"round": moved.round, "date": Dated(date, today=today),
                                 "deadline": Dated(moved.deadline, zone)}),
            *([Text("RONDE_DRAFT_DROPPED")] if moved.draft_dropped else []), *_same_day(moved))))
    if args[0].lower() == "vervalt" and len(args) == 2 and number(args[1]) is not None:
        await admin.cancel_round(services, int(args[1]), actor=actor(update))
        return Answer(Text("RONDE_CANCELLED", {"round": args[1]}))
    return Answer(Text("RONDE_USAGE"))


async def _online_round(services: Services) -> list[Said]:
    """What the arbiter reads of a round planned online: its clock, and the club's account
    to link if it is not yet."""
    _, organiser = await online.settings(services)
    said: list[Said] = [Text("RONDE_ONLINE", {"clock": await online.clock(services)})]
    return said + ([] if organiser else [Text("RONDE_ONLINE_NO_CLUB")])


@arbiter_only
async def club_group(update: Update, context: Context) -> Answer:
    chat, message = update.effective_chat, update.effective_message
    if chat is None or chat.type == ChatType.PRIVATE or message is None:
        return Answer(Text("CLUB_ONLY_GROUP"))
    thread = message.message_thread_id if message.is_topic_message else None
    await admin.set_group(context.services, chat.id, thread, chat.title or "",
                          actor=actor(update))
    return Answer(Text("CLUB_SET"))


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
async def arbiter(update: Update, context: Context) -> Answer:
    args = list(context.args or [])
    remove = bool(args) and args[0].lower() == "weg"
    ids = args[1:] if remove else args
    who = number(ids[0]) if len(ids) == 1 else None
    if who is None:
        return Answer(Text("ARBITER_USAGE"))
    if remove and who in context.services.settings.arbiters:
        return Answer(Text("ARBITER_CONFIGURED", {"id": who}))
    await admin.set_arbiter(context.services, who, on=not remove, actor=actor(update))
    return Answer(Text("ARBITER_REMOVED" if remove else "ARBITER_ADDED", {"id": ids[0]}))


MINUTES = {"deadline": ("deadline_minutes", 7 * 24 * 60),
           "herinnering": ("reminder_minutes", 14 * 24 * 60)}
"""Settings in minutes before the start, and the most each can be (a week, two weeks)."""
CITY_LENGTH = 60
"""A city's name, as long as a TRF's header line takes it."""
CLOCK = re.compile(r"([0-9]{1,2})[:.u]([0-9]{2})")


@arbiter_only
async def instellingen(update: Update, context: Context) -> Answer:
    args = list(context.args or [])
    if not args:
        settings, rules = await admin.settings(context.services)
        return Answer(lines(
            Text("INSTELLINGEN", {
                "start": settings.round_start.strftime("%H:%M"),
                "deadline": settings.deadline_minutes, "reminder": settings.reminder_minutes,
                "web": Text("WEB_ACCESS_WORDS", pick=settings.web),
                "city": settings.city or Text("CITY_NONE"),
                "rating_list": Text("RATING_LIST_NAMES", pick=settings.rating_list),
                "language": Text("LANGUAGE_NAMES", pick=settings.language),
                "rules": Phrase("rules_in_words", (rules,), markup=False)}),
            _apart_list(await admin.apart(context.services)),
            _online_settings(settings, await online.clock(context.services))
            if online.ready(context.services) else None))
    if args[0].lower() in ("reglement", "regel"):
        return await _change_rules(update, context, args)
    if args[0].lower() == "nooit" and len(args) > 1:
        return await _apart(update, context, args[1:])
    name = args[0].lower()
    change: dict[str, object] = {}
    if name == "start" and len(args) == 2:
        clock = CLOCK.fullmatch(args[1])
        hour, minute = (int(clock.group(1)), int(clock.group(2))) if clock else (99, 99)
        if hour > 23 or minute > 59:
            return Answer(Text("BAD_TIME", {"text": args[1]}))
        change["round_start"] = dt.time(hour, minute)
    elif name in MINUTES and len(args) == 2:
        key, most = MINUTES[name]
        minutes = number(args[1])
        if minutes is None or minutes > most:
            return Answer(Text("BAD_MINUTES", {"text": args[1], "most": most}))
        change[key] = minutes
    elif name == "web" and len(args) == 2 and args[1].lower() in set(WebAccess):
        change["web"] = WebAccess(args[1].lower())
    elif name == "plaats" and len(args) >= 2:
        change["city"] = " ".join(args[1:])[:CITY_LENGTH]
    elif name == "ratinglijst" and len(args) == 2 and RatingList.named(args[1]) is not None:
        change["rating_list"] = RatingList.named(args[1])
    elif name == "taal" and len(args) == 2 and args[1].lower() in i18n.LANGUAGES:
        change["language"] = args[1].lower()
    elif name == "online" and len(args) == 3 and args[1].lower() == "tempo" \
            and args[2].lower() == "club":
        change["online_clock"] = None  # the club's own tempo again
    elif name == "online" and len(args) == 3 and args[1].lower() == "tempo":
        tempo = Clock.parse(args[2])
        if tempo is None:
            return Answer(Text("BAD_CLOCK", {"text": args[2], "most": MOST_MINUTES}))
        change["online_clock"] = tempo
    elif name == "online" and tuple(w.lower() for w in args[1:-1]) in ONLINE_SWITCHES \
            and args[-1].lower() in YES_NO:
        change[ONLINE_SWITCHES[tuple(w.lower() for w in args[1:-1])]] = YES_NO[args[-1].lower()]
    else:
        return Answer(Text("INSTELLINGEN_USAGE"))
    moved = await admin.change_settings(context.services, actor=actor(update), **change)
    zone = context.services.settings.timezone
    return Answer(Lines((Text("INSTELLINGEN_DONE"), *(
        Text("DEADLINE_MOVED", {"round": r.round, "deadline": Dated(r.deadline, zone)})
        for r in moved))))


ONLINE_SWITCHES = {(): "online", ("rated",): "online_rated", ("bevestig",): "online_auto"}
"""`/instellingen online aan`, `online rated ja`, `online bevestig auto`: what each sets."""
YES_NO = {"aan": True, "uit": False, "ja": True, "nee": False, "auto": True, "speler": False}
"""As the Dutch command reads them (`bot.language.vocabulary` brings the English ones)."""


def _online_settings(settings: online.ClubSettings, played: Clock) -> Text:
    def word(words: str, on: bool) -> Text:
        return Text(words, pick="on" if on else "off")

    return Text("ONLINE_SETTINGS", {
        "default": word("ONLINE_DEFAULT", settings.online),
        "clock": played if settings.online_clock is not None
        else Text("CLOCK_OF_CLUB", {"clock": played}),
        "rated": word("ONLINE_RATED", settings.online_rated),
        "auto": word("ONLINE_AUTO", settings.online_auto)})


def _apart_list(pairs: list[tuple[str, str]]) -> Said | str:
    return Text("APART_LIST", {"pairs": Lines(tuple(Text("APART_PAIR", {"a": a, "b": b})
                                                    for a, b in pairs), "; ")}) if pairs else ""


async def _apart(update: Update, context: Context, words: list[str]) -> Answer:
    """`nooit A en B`: two members (a parent and child, partners) are never paired against
    each other where a pairing can keep them apart; `nooit weg A en B` lets them meet."""
    on = words[0].lower() != "weg"
    words = " ".join(words if on else words[1:]).replace(",", " , ").split()
    if len(words) < 2:
        return Answer(Text("INSTELLINGEN_USAGE"))
    a, b = await two_members(context, words, who="APART_WHO")
    if a.code == b.code:
        return Answer(Text("APART_SAME", {"name": a.name}))
    kept = await admin.keep_apart(context.services, a.code, b.code, on, actor=actor(update))
    said = {(True, True): "APART_SET", (True, False): "APART_ALREADY",
            (False, True): "APART_REMOVED", (False, False): "APART_NOT_SET"}
    return Answer(lines(
        Text(said[on, kept.changed], {"a": a.name, "b": b.name}),
        None if kept.drafted is None else Text("APART_DRAFT_WAITS", {
            "round": kept.drafted, "command": spelled(update, "indeling", "opnieuw")})))


async def _change_rules(update: Update, context: Context, args: list[str]) -> Answer:
    """`reglement PRESET` (keeps the club's overrides) or `regel PARAMETER WAARDE`; in
    mid-season shown first, and stored with `bevestig` after it."""
    confirmed = args[-1].lower() == "bevestig"
    words = args[:-1] if confirmed else args
    if words[0].lower() == "reglement" and len(words) == 2:
        change: dict[str, object] = {"preset": words[1]}
    elif words[0].lower() == "regel" and len(words) >= 3:
        change = {words[1]: _value(" ".join(words[2:]))}
    else:
        return Answer(Text("INSTELLINGEN_USAGE"))
    done = await admin.change_rules(context.services, change, actor=actor(update),
                                    confirmed=confirmed)
    if done.stored:
        return Answer(Text("INSTELLINGEN_DONE"))
    moves = Lines(tuple(Text("RULES_MOVED", {"name": m.name, "before": m.before,
                                             "after": m.after})
                        for m in done.moved[:10]), "; ") if done.moved else Text("RULES_NO_MOVES")
    return Answer(Text("RULES_PREVIEW", {
        "round": done.after_round, "moves": moves, "count": len(done.moved),
        "command": spelled(update, "instellingen", *words, "bevestig")}))


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
async def extern(update: Update, context: Context) -> Answer:
    """`/extern NAAM TEAM UITSLAG [clubavond|anderedag] [ronde N]`."""
    args = list(context.args or [])
    number_named = None
    if len(args) >= 2 and args[-2].lower() == "ronde":
        number_named = number(args[-1])
        if number_named is None:
            return Answer(Text("EXTERN_USAGE"))
        args = args[:-2]
    day = None
    if args and args[-1].lower() in ("clubavond", "anderedag"):
        day = ExternalDay.CLUB_NIGHT if args.pop().lower() == "clubavond" \
            else ExternalDay.OTHER_DAY
    team = number(args[-2]) if len(args) >= 3 else None
    result = external_result(args[-1]) if args else None
    if team is None or result is None:
        return Answer(Text("EXTERN_USAGE"))
    who = await find_member(context, " ".join(args[:-2]))
    message = update.effective_message
    assert message is not None
    booked = await signoff.book_external(context.services, who, team=team,
                                         result=result, day=day,
                                         number=number_named, sent_at=message.date,
                                         actor=actor(update))
    if booked is None:
        return Answer(Text("SIGN_OFF_NO_ROUND_FOR", {"name": who.name}))
    return Answer(Text("EXTERN_DONE", {
        "name": who.name, "team": team, "result": Text("EXTERNAL_RESULT_WORDS", pick=result),
        "round": booked.round, "day": Text("EXTERNAL_DAY_WORDS", pick=booked.day)}))


@arbiter_only
async def seizoen(update: Update, context: Context) -> Answer:
    """`/seizoen nieuw [NAAM]` shows the next season; `… bevestig` begins it."""
    args = list(context.args or [])
    start = bool(args) and args[-1].lower() == "bevestig"
    words = args[1:-1] if start else args[1:]
    if not args or args[0].lower() != "nieuw":
        return Answer(Text("SEIZOEN_USAGE"))
    name = " ".join(words) or None
    try:
        made = await admin.next_season(context.services, name, start=start,
                                       actor=actor(update))
    except InvalidInputError:
        season = await views.season(context.services)
        return Answer(Text("SEIZOEN_NAME", {"name": season.name}))
    new = made.season
    if made.started:
        return Answer(Text("SEIZOEN_STARTED", {"name": new.name, "players": len(new.players)}))
    names = {p.id: p.name for p in new.players}
    top = lines(Lines(tuple(names[pid] for pid in (new.initial_ranking or ())[:5]), ", "), "…",
                between=" ")
    gone = Text("SEIZOEN_GONE", {"names": Lines(tuple(made.gone), ", ")}) if made.gone else ""
    confirm = spelled(update, "seizoen", "nieuw", *([name] if name else []), "bevestig")
    return Answer(Text("SEIZOEN_PROPOSAL", {"name": new.name, "players": len(new.players),
                                            "gone": gone, "top": top, "confirm": confirm}))


def register(app: App) -> None:
    app.add_handler(command("speler", speler))
    app.add_handler(command("seizoen", seizoen))
    app.add_handler(command("spelers", spelers, reads_only=True))
    app.add_handler(command("ronde", ronde))
    app.add_handler(command("club", club_group))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, group_migrated))
    app.add_handler(command("arbiter", arbiter))
    app.add_handler(command("instellingen", instellingen))
    app.add_handler(command("extern", extern))
