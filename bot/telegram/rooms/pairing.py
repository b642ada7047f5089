"""/indeling: the pairing. Arbiters draft (maak), adjust (bye, ruil, opnieuw, wis) and
publish (bevestig); publishing posts it in the club group and sends each player his game."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from telegram import Update

from bot.callbacks import NightRound, Swap
from bot.flows import checkin, members, online, results, views
from bot.flows import rounds as flows
from bot.keyboard import Button, Keyboard
from bot.language.notice import Dated, Lines, Phrase, Text, lines
from bot.language.vocabulary import CONFIRM, ROUND, key
from bot.services import Context, ScheduledRound, open_round
from bot.telegram.answer import Answer, Edit, Refused, Toast, Write
from bot.telegram.grammar import Command, One, Rest, form, maybe
from bot.telegram.room import Room, actor, button, is_arbiter
from bot.telegram.rooms.common import find_member, number, two_members
from core.rounds import RoundState


async def indeling(update: Update, context: Context) -> Answer | Write:
    """`/indeling`: the pairing as it stands (to the arbiter: the draft, or the room)."""
    arbiter = await is_arbiter(update, context)
    coming = await checkin.room_round(context.services) if arbiter else None
    if coming is not None and coming.state is RoundState.LOCKED:
        return Answer(_room_text(await checkin.room(context.services, coming.number)))
    shown = await views.pairing_text(context.services, arbiter=arbiter)
    return Answer(Text("INDELING_NONE") if shown is None else shown)


def _room_text(room: checkin.Room) -> Lines:
    """Who is in the room for a round at the venue, before it is paired."""
    def names(who: tuple[members.Member, ...]) -> Lines:
        return Lines(tuple(m.name for m in who), ", ")

    off = Text("ROOM_OFF", {"names": names(room.signed_off)}) if room.signed_off else None
    here = lines(Text("ROOM_TITLE", {"round": room.round, "count": len(room.here)}),
                 *(m.name for m in room.here), None if room.missing else off)
    missing = lines(Text("ROOM_MISSING", {"names": names(room.missing)}), off) \
        if room.missing else None
    return lines(here, missing, Text("ROOM_HINT"), between="\n\n")


async def _open_round(context: Context) -> ScheduledRound:
    """The round not yet published; refused if there is none."""
    upcoming = await open_round(context.services)
    if upcoming is None:
        raise Refused(Text("NO_ROUND_TO_PAIR"))
    return upcoming


async def make(update: Update, context: Context) -> Answer:
    upcoming = await _open_round(context)
    if upcoming.state is RoundState.DRAFTED:
        # Paired anew from who plays now: a player the arbiter signed off since is in the
        # draft still (his own sign-off drops no draft), and must not be paired again.
        await flows.unpair(context.services, upcoming.number, actor=actor(update))
    made = await flows.draft(context.services, upcoming.number, actor=actor(update))
    return Answer(await flows.draft_text(context.services, made, Text("INDELING_DRAFT_TITLE")))


async def clear(update: Update, context: Context) -> Answer:
    """Forget every fix the arbiter made for the open round (the next draft is free)."""
    upcoming = await _open_round(context)
    cleared = await flows.clear_fixes(context.services, upcoming.number, actor=actor(update))
    return Answer(Text("FIXES_CLEARED" if cleared else "NO_FIXES_TO_CLEAR",
                       {"round": upcoming.number}))


async def swap(update: Update, context: Context, names: str) -> Answer:
    """A and B change places in the draft; those boards stay fixed when re-pairing."""
    upcoming = await open_round(context.services)
    words = names.replace(",", " , ").split()
    if upcoming is None or len(words) < 2:
        return Answer(Text("INDELING_USAGE"))
    a, b = await two_members(context, words, who="SWAP_WHO", which=_which)
    if a.code == b.code:
        raise Refused(Text("SWAP_SAME", {"name": a.name}))
    made = await flows.swap(context.services, upcoming.number, a.code, b.code,
                            actor=actor(update))
    return Answer(Text("NO_DRAFT_YET") if made is None else
                  await flows.draft_text(context.services, made, Text("INDELING_DRAFT_TITLE")))


def _which(known: members.Member, candidates: list[members.Member], typed: str) -> Refused:
    """One name is clear, the other fits several members: ask which, with a button each."""
    buttons = Keyboard.of([Button(Text("SWAP_WITH", {"a": known.name, "b": m.name}),
                                  Swap(members.key_of(known), members.key_of(m)).pack())]
                          for m in candidates[:8])
    return Refused(Text("SWAP_WHICH", {"name": typed}), markup=buttons)


async def swap_button(update: Update, context: Context, pressed: Swap) -> Answer:
    """The arbiter chose whom `_which` meant: swap those two, and show the draft."""
    query = update.callback_query
    assert query is not None
    a = await members.by_key(context.services, pressed.first)
    b = await members.by_key(context.services, pressed.second)
    upcoming = await open_round(context.services)
    if a is None or b is None or upcoming is None:
        return Answer(toast=Toast(Text("BUTTON_STALE")))
    made = await flows.swap(context.services, upcoming.number, a.code, b.code,
                            actor=query.from_user.id)
    return Answer(edit=Edit(Text("NO_DRAFT_YET") if made is None else
                            await flows.draft_text(context.services, made,
                                                   Text("INDELING_DRAFT_TITLE"))))


async def bye(update: Update, context: Context, name: str) -> Answer:
    """A volunteer for the bye; the round is paired again around him."""
    upcoming = await open_round(context.services)
    if upcoming is None:
        return Answer(Text("INDELING_USAGE"))
    who = await find_member(context, name)
    done = await flows.volunteer_bye(context.services, upcoming.number, who.code,
                                     actor=actor(update))
    if not done.plays:
        return Answer(Text("BYE_NOT_PLAYING", {"name": who.name}))
    if done.made is None:
        return Answer(Text("BYE_EVEN", {"count": done.present}))
    return Answer(await flows.draft_text(context.services, done.made,
                                         Text("INDELING_DRAFT_TITLE")))


async def publish(update: Update, context: Context) -> Answer:
    done = await flows.publish(context.services, actor=actor(update))
    return Answer(Phrase("publish_note", (done.round, done.players, list(done.unlinked))),
                  then=online.then_make_games(context.services, done.round)
                  if done.online else None)


async def absent(update: Update, context: Context, name: str, round: int | None) -> Answer:
    """`/indeling afwezig NAAM [ronde N]`: he did not come to his board; or, before a round
    at the venue is published, he is not in the room after all."""
    coming = await checkin.room_round(context.services)
    if coming is None:
        return await _at_the_board(update, context, flows.absent_at_board, name, round)
    who = await find_member(context, name)
    was, count = await checkin.check_out(context.services, who, coming.number,
                                         actor=actor(update))
    said = checkin.said_gone(who, coming.number, was, count)
    dropped = was and coming.state is RoundState.DRAFTED  # the draft had him: it went
    return Answer(lines(said, Text("ROOM_DRAFT_DROPPED") if dropped else None))


async def arrived(update: Update, context: Context, name: str, round: int | None) -> Answer:
    """`/indeling erbij NAAM [ronde N]`: he came after all; or, before a round at the venue
    is published, he is in the room (the arbiter says it for him)."""
    coming = await checkin.room_round(context.services)
    if coming is None:
        return await _at_the_board(update, context, flows.arrived, name, round)
    who = await find_member(context, name)
    came = await checkin.check_in(context.services, who, coming.number, actor=actor(update),
                                  by_arbiter=True)
    said = checkin.said_to_arbiter(came, who)
    if came.draft is None:
        return Answer(said)
    return Answer(await flows.draft_text(context.services, came.draft,
                                         lines(said, Text("INDELING_DRAFT_TITLE"))))


NIGHT_CHANGES: dict[str, Callable[..., Awaitable[flows.NightChange]]] = {
    "afwezig": flows.absent_at_board, "erbij": flows.arrived}
"""A change at the board of a published round, by the word `/indeling` takes."""


async def _at_the_board(update: Update, context: Context,
                        change: Callable[..., Awaitable[flows.NightChange]], name: str,
                        round: int | None) -> Answer:
    who = await find_member(context, name)
    try:
        done = await change(context.services, who.code, actor=actor(update), number=round)
    except flows.WhichNight as which:
        word = next(w for w, c in NIGHT_CHANGES.items() if c is change)
        return Answer(Text("NIGHT_WHICH_ROUND", {"name": who.name}),
                      markup=Keyboard.of([[Button(
                          Text("NIGHT_ROUND_BUTTON", {"round": n, "date": Dated(date)}),
                          NightRound(word, n, members.key_of(who)).pack())]
                          for n, date in which.rounds]))
    return Answer(await flows.night_text(context.services, done),
                  then=results.standings_follow(context.services) if done.completed else None)


async def night_round_button(update: Update, context: Context, pressed: NightRound) -> Answer:
    """The arbiter chose the round `/indeling afwezig|erbij NAAM` meant."""
    query = update.callback_query
    assert query is not None
    who = await members.by_key(context.services, pressed.key)
    if who is None:
        return Answer(toast=Toast(Text("BUTTON_STALE")))
    done = await NIGHT_CHANGES[pressed.change](context.services, who.code,
                                                actor=query.from_user.id, number=pressed.round)
    return Answer(edit=Edit(await flows.night_text(context.services, done)),
                  then=results.standings_follow(context.services) if done.completed else None)


PAIRING = key("indeling", "pairing")
AGAIN = key("opnieuw", "again")
NAME_IN_ROUND = (Rest("name"), maybe(ROUND, One("round", number), round=None))
"""`Anna Visser ronde 3`: a member, and the round meant (None: the one it can be)."""

room = Room(commands=(Command(PAIRING, (
    form(indeling),
    *(form(make, word, arbiter=True) for word in (key("maak", "make"), AGAIN)),
    form(publish, CONFIRM, arbiter=True),
    form(bye, key("bye"), Rest("name"), arbiter=True),
    form(swap, key("ruil", "swap"), Rest("names"), arbiter=True),
    form(clear, key("wis", "clear"), arbiter=True),
    form(absent, key("afwezig", "absent"), *NAME_IN_ROUND, arbiter=True),
    form(arrived, key("erbij", "arrived"), *NAME_IN_ROUND, arbiter=True)),
    "INDELING_USAGE"),),
    handlers=(button((Swap,), swap_button, arbiter=True),
              button((NightRound,), night_round_button, arbiter=True)))
