"""The arbiter's housekeeping: members, the schedule, the club group, arbiters, settings,
external matches."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from fractions import Fraction

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import MessageHandler, filters

from bot.files import exports, messages
from bot.flows import admin, members, online, signoff, views
from bot.language import i18n
from bot.language.notice import Dated, Lines, Phrase, Said, Text, lines, plain
from bot.language.vocabulary import CLUB, CONFIRM, NEW, NO, OFF, ON, REMOVE, ROUND, YES, Key, key
from bot.services import Context, Services, WebAccess
from bot.telegram.answer import Answer, File
from bot.telegram.grammar import Choice, Command, One, Rest, flag, form, maybe, spelled
from bot.telegram.room import Room, actor
from bot.telegram.rooms.common import (
    clock_time,
    find_member,
    number,
    read_date,
    two_members,
)
from bot.telegram.rooms.pairing import AGAIN, PAIRING
from core.errors import InvalidInputError
from core.online import MOST_MINUTES, Clock
from core.ratings import RatingList
from core.season import ExternalDay
from core.teams import board_result


async def kind(update: Update, context: Context, name: str, flexible: bool) -> Answer:
    """`/speler NAAM flexibel|vast`: he plays when he signs on, or unless he signs off."""
    who = await find_member(context, name)
    await admin.set_flexible(context.services, who, flexible, actor=actor(update))
    return Answer(Text("SPELER_KIND", {"name": who.name}, pick=flexible))


async def withdraw(update: Update, context: Context, name: str) -> Answer:
    """`/speler weg NAAM`: he leaves the competition."""
    who = await find_member(context, name)
    last = await admin.withdraw(context.services, who, actor=actor(update))
    # A member who never played is gone from the list; "after round 0" says nothing.
    return Answer(Text("SPELER_GONE" if last else "SPELER_REMOVED",
                       {"name": who.name, "round": last}))


async def add(update: Update, context: Context, name: str, rating: int | None, youth: bool,
              flexible: bool) -> Answer:
    """`/speler nieuw NAAM [RATING] [jeugd] [flexibel]`: a new player."""
    if number(name) is not None:  # a rating with no name
        return Answer(Text("SPELER_USAGE"))
    joined = await admin.add_player(context.services, name, rating=rating, youth=youth,
                                    flexible=flexible, actor=actor(update))
    added: Said = Text("SPELER_ADDED", {"name": name, "round": joined})
    if flexible:
        added = lines(added, Text("SPELER_KIND", {"name": name}, pick=True), between=" ")
    return Answer(added)


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


def _same_day(scheduled: admin.Scheduled) -> list[Said]:
    """A word of warning when another round is on the same day (allowed: a double round)."""
    return [Text("RONDE_SAME_DAY", {"rounds": ", ".join(map(str, scheduled.same_day))})] \
        if scheduled.same_day else []


PLACE = Choice("place", {key(("ter plaatse", "terplaatse"), ("on site", "onsite")): "on_site",
                         key("online"): "online", key("offline"): "offline"})
"""The words after a round's date that say where it is played (paired at the venue; on
lichess, or not where the club plays online by default)."""


def _today(services: Services) -> dt.date:
    return services.clock().astimezone(services.settings.timezone).date()


async def ronde(update: Update, context: Context) -> Answer:
    """`/ronde`: the rounds ahead, and external matches still without a result."""
    services = context.services
    zone = services.settings.timezone
    today = _today(services)
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


async def plan(update: Update, context: Context, date_words: list[str],
               place: str | None) -> Answer:
    """`/ronde nieuw DATUM [ter plaatse|online|offline]`: a round planned."""
    services = context.services
    zone = services.settings.timezone
    today = _today(services)
    if place == "online" and not online.ready(services):
        return Answer(Text("LICHESS_NOT_SET_UP"))
    date = await read_date(context, date_words, today, english=context.english)
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


async def postpone(update: Update, context: Context, round: int,
                   date_words: list[str]) -> Answer:
    """`/ronde uitstel N DATUM`: a round moved to another day."""
    services = context.services
    today = _today(services)
    date = await read_date(context, date_words, today, english=context.english)
    if date < today:
        return Answer(Text("RONDE_PAST", {"date": Dated(date, today=today)}))
    moved = await admin.move_round(services, round, date, actor=actor(update))
    return Answer(Lines((
        Text("RONDE_MOVED", {"round": moved.round, "date": Dated(date, today=today),
                             "deadline": Dated(moved.deadline, services.settings.timezone)}),
        *([Text("RONDE_DRAFT_DROPPED")] if moved.draft_dropped else []), *_same_day(moved))))


async def cancel(update: Update, context: Context, round: int) -> Answer:
    """`/ronde vervalt N`: a round that will not be played."""
    await admin.cancel_round(context.services, round, actor=actor(update))
    return Answer(Text("RONDE_CANCELLED", {"round": round}))


async def _online_round(services: Services) -> list[Said]:
    """What the arbiter reads of a round planned online: its clock, and the club's account
    to link if it is not yet."""
    _, organiser = await online.settings(services)
    said: list[Said] = [Text("RONDE_ONLINE", {"clock": await online.clock(services)})]
    return said + ([] if organiser else [Text("RONDE_ONLINE_NO_CLUB")])


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


async def arbiter(update: Update, context: Context, remove: bool, who: int) -> Answer:
    """`/arbiter [weg] ID`: another arbiter (a Telegram id), or one fewer."""
    if remove and who in context.services.settings.arbiters:
        return Answer(Text("ARBITER_CONFIGURED", {"id": who}))
    await admin.set_arbiter(context.services, who, on=not remove, actor=actor(update))
    return Answer(Text("ARBITER_REMOVED" if remove else "ARBITER_ADDED", {"id": who}))


MINUTES = {key("deadline"): ("deadline_minutes", 7 * 24 * 60),
           key("herinnering", "reminder"): ("reminder_minutes", 14 * 24 * 60)}
"""Settings in minutes before the start, and the most each can be (a week, two weeks)."""
CITY_LENGTH = 60
"""A city's name, as long as a TRF's header line takes it."""


async def instellingen(update: Update, context: Context) -> Answer:
    """`/instellingen`: the club's settings and rules as they are."""
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
        Text("SETTINGS_TEAM_ASK", {"days": settings.team_ask_days}),
        _online_settings(settings, await online.clock(context.services))
        if online.ready(context.services) else None))


async def start_time(update: Update, context: Context, text: str) -> Answer:
    """`/instellingen start 20:00`: when a round starts."""
    start = clock_time(text)
    if start is None:
        return Answer(Text("BAD_TIME", {"text": text}))
    return await _change(update, context, round_start=start)


async def minutes(update: Update, context: Context, setting: tuple[str, int],
                  text: str) -> Answer:
    """`/instellingen deadline|herinnering MINUTEN`: how long before the start."""
    name, most = setting
    typed = number(text)
    if typed is None or typed > most:
        return Answer(Text("BAD_MINUTES", {"text": text, "most": most}))
    return await _change(update, context, **{name: typed})


TEAM_ASK_MOST = 28
"""The most days before a team match its players are asked (four weeks)."""


async def team_ask(update: Update, context: Context, text: str) -> Answer:
    """`/instellingen teamvraag DAGEN`: how many days before a team match its players are
    asked whether they can play."""
    days = number(text)
    if days is None or days > TEAM_ASK_MOST:
        return Answer(Text("BAD_DAYS", {"text": text, "most": TEAM_ASK_MOST}))
    return await _change(update, context, team_ask_days=days)


async def one_setting(update: Update, context: Context, **change: object) -> Answer:
    """A setting the grammar read as it is stored (the web's access, the language, ...)."""
    return await _change(update, context, **change)


async def city(update: Update, context: Context, city: str) -> Answer:
    """`/instellingen plaats NAAM`: the club's city, for the TRF's header."""
    return await _change(update, context, city=city[:CITY_LENGTH])


async def online_clock(update: Update, context: Context, text: str | None) -> Answer:
    """`/instellingen online tempo 45+15` (or `club`, None: the club's own again)."""
    if text is None:
        return await _change(update, context, online_clock=None)
    tempo = Clock.parse(text)
    if tempo is None:
        return Answer(Text("BAD_CLOCK", {"text": text, "most": MOST_MINUTES}))
    return await _change(update, context, online_clock=tempo)


async def online_switch(update: Update, context: Context, switch: str, on: bool) -> Answer:
    """`/instellingen online aan`, `online rated ja`, `online bevestig auto`."""
    return await _change(update, context, **{switch: on})


async def _change(update: Update, context: Context, **change: object) -> Answer:
    moved = await admin.change_settings(context.services, actor=actor(update), **change)
    zone = context.services.settings.timezone
    return Answer(Lines((Text("INSTELLINGEN_DONE"), *(
        Text("DEADLINE_MOVED", {"round": r.round, "deadline": Dated(r.deadline, zone)})
        for r in moved))))


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


async def apart(update: Update, context: Context, remove: bool, names: str) -> Answer:
    """`nooit A en B`: two members (a parent and child, partners) are never paired against
    each other where a pairing can keep them apart; `nooit weg A en B` lets them meet."""
    on = not remove
    words = names.replace(",", " , ").split()
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
            "round": kept.drafted, "command": spelled(context.english, PAIRING, AGAIN)})))


async def preset(update: Update, context: Context, name: str, confirmed: bool) -> Answer:
    """`reglement PRESET [bevestig]`: another club's rulebook (the club's overrides kept)."""
    return await _change_rules(update, context, {"preset": name}, confirmed,
                               (RULEBOOK, name))


async def rule(update: Update, context: Context, name: str, value: str,
               confirmed: bool) -> Answer:
    """`regel PARAMETER WAARDE [bevestig]`: one of the rules' parameters."""
    return await _change_rules(update, context, {name: _value(value)}, confirmed,
                               (RULE, name, value))


async def _change_rules(update: Update, context: Context, change: dict[str, object],
                        confirmed: bool, typed: tuple[Key | str, ...]) -> Answer:
    """A change of the rules: in mid-season shown first, and stored with `bevestig` after
    it (`typed`: the change as the arbiter would type it again)."""
    done = await admin.change_rules(context.services, change, actor=actor(update),
                                    confirmed=confirmed)
    if done.stored:
        return Answer(Text("INSTELLINGEN_DONE"))
    moves = Lines(tuple(Text("RULES_MOVED", {"name": m.name, "before": m.before,
                                             "after": m.after})
                        for m in done.moved[:10]), "; ") if done.moved else Text("RULES_NO_MOVES")
    return Answer(Text("RULES_PREVIEW", {
        "round": done.after_round, "moves": moves, "count": len(done.moved),
        "command": spelled(context.english, SETTINGS, *typed, CONFIRM)}))


def _value(text: str) -> object:
    """A parameter value as typed: a number (exact), null, true/false, a table, or text."""
    try:
        return json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError:
        return text


async def extern(update: Update, context: Context, name: str, team: int, result: Fraction,
                 day: ExternalDay | None, round: int | None) -> Answer:
    """`/extern NAAM TEAM UITSLAG [clubavond|anderedag] [ronde N]`."""
    who = await find_member(context, name)
    message = update.effective_message
    assert message is not None
    booked = await signoff.book_external(context.services, who, team=team,
                                         result=result, day=day,
                                         number=round, sent_at=message.date,
                                         actor=actor(update))
    if booked is None:
        return Answer(Text("SIGN_OFF_NO_ROUND_FOR", {"name": who.name}))
    return Answer(Text("EXTERN_DONE", {
        "name": who.name, "team": team, "result": Text("EXTERNAL_RESULT_WORDS", pick=result),
        "round": booked.round, "day": Text("EXTERNAL_DAY_WORDS", pick=booked.day)}))


async def seizoen(update: Update, context: Context, name: str | None = None,
                  start: bool = False) -> Answer:
    """`/seizoen nieuw [NAAM]` shows the next season; `… bevestig` begins it."""
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
    confirm = spelled(context.english, SEASON, NEW, *([name] if name else []), CONFIRM)
    return Answer(Text("SEIZOEN_PROPOSAL", {"name": new.name, "players": len(new.players),
                                            "gone": gone, "top": top, "confirm": confirm}))


SETTINGS = key("instellingen", "settings")
SEASON = key("seizoen", "season")
RULEBOOK, RULE = key("reglement", "rules"), key("regel", "rule")
FLEXIBLE = key("flexibel", "flexible")
ONLINE, RATED, TEMPO = key("online"), key("rated"), key("tempo", "clock")
YES_NO = Choice("on", {ON: True, OFF: False, YES: True, NO: False, key("auto"): True,
                       key("speler", "player"): False})
"""`aan`, `ja`, `auto` switch on; `uit`, `nee`, `speler` (the player confirms) off."""
CONFIRMED = flag("confirmed", CONFIRM)
WEB = Choice("web", {key(WebAccess.PUBLIC.value, "public"): WebAccess.PUBLIC,
                     key(WebAccess.MEMBERS.value, "members"): WebAccess.MEMBERS,
                     OFF: WebAccess.OFF})
ROUND_NUMBER = One("round", number)

room = Room(commands=(
    Command(key("speler", "player"), (
        form(add, NEW, Rest("name"), maybe(One("rating", number), rating=None),
             flag("youth", key("jeugd", "youth")), flag("flexible", FLEXIBLE)),
        form(withdraw, REMOVE, Rest("name")),
        form(kind, Rest("name"),
             Choice("flexible", {FLEXIBLE: True, key("vast", "fixed"): False}))),
        "SPELER_USAGE", arbiter=True),
    Command(key("seizoen", "season"), (
        form(seizoen, NEW, flag("start", CONFIRM)),
        form(seizoen, NEW, Rest("name"), flag("start", CONFIRM))),
        "SEIZOEN_USAGE", arbiter=True),
    Command(key("spelers", "players"), (form(spelers),), spelers, arbiter=True, reads_only=True),
    Command(key("ronde", "round"), (
        form(ronde),
        form(plan, NEW, Rest("date_words", as_words=True), maybe(PLACE, place=None)),
        form(postpone, key("uitstel", "postpone"), ROUND_NUMBER,
             Rest("date_words", as_words=True)),
        form(cancel, key("vervalt", "cancelled"), ROUND_NUMBER)),
        "RONDE_USAGE", arbiter=True),
    Command(key("club"), (form(club_group),), club_group, arbiter=True),
    Command(key("arbiter"), (form(arbiter, flag("remove", REMOVE), One("who", number)),),
            "ARBITER_USAGE", arbiter=True),
    Command(SETTINGS, (
        form(instellingen),
        form(preset, RULEBOOK, One("name"), CONFIRMED),
        form(rule, RULE, One("name"), Rest("value"), CONFIRMED),
        form(apart, key("nooit", "never"), flag("remove", REMOVE), Rest("names")),
        form(start_time, key("start"), One("text")),
        form(minutes, Choice("setting", MINUTES), One("text")),
        form(team_ask, key("teamvraag", "teamask"), One("text")),
        form(one_setting, key("web"), WEB),
        form(city, key("plaats", "city"), Rest("city")),
        form(one_setting, key("ratinglijst", "ratinglist"), One("rating_list", RatingList.named)),
        form(one_setting, key("taal", "language"),
             Choice("language", {key(code): code for code in i18n.LANGUAGES})),
        form(online_clock, ONLINE, TEMPO, Choice("text", {CLUB: None})),
        form(online_clock, ONLINE, TEMPO, One("text")),
        form(online_switch, ONLINE, maybe(Choice("switch", {RATED: "online_rated",
                                                            CONFIRM: "online_auto"}),
                                          switch="online"), YES_NO)),
        "INSTELLINGEN_USAGE", arbiter=True),
    Command(key("extern", "external"), (
        form(extern, Rest("name"), One("team", number), One("result", board_result),
             maybe(Choice("day", {key("clubavond", "clubnight"): ExternalDay.CLUB_NIGHT,
                                  key("anderedag", "otherday"): ExternalDay.OTHER_DAY}),
                   day=None),
             maybe(ROUND, ROUND_NUMBER, round=None)),),
        "EXTERN_USAGE", arbiter=True)),
    handlers=(MessageHandler(filters.StatusUpdate.MIGRATE, group_migrated),))
