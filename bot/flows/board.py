"""The arbiter's board in the Mini App: a tap on the draft (`swap`, `bye`, `absent`, ...) or on
the room of a round at the venue (`here`, `gone`, `pair`, `arrive`), made by the flows the
chat's `/indeling` commands use. A tap names the version of the board it was made on: a board
changed meanwhile (in the chat, by a sign-off) changes nothing, and the tap is stale."""

from __future__ import annotations

from dataclasses import dataclass

from bot.flows import admin, checkin, members, rounds, signoff, views
from bot.language.notice import Phrase, Said, Text
from bot.services import Services
from storage.errors import InputStoreError, StoreProblem

BOARD_ACTIONS = ("swap", "bye", "absent", "back", "apart", "meet", "publish")
"""What a tap on the board asks: `swap` a and b, the `bye` for a, a is `absent` (signed off
by the arbiter), a comes `back` (his sign-off undone), a and b are kept `apart` all season
(or may `meet` again), or `publish`."""
ROOM_ACTIONS = ("here", "gone", "pair", "arrive")
"""A tap on the room of a round at the venue: a is `here`, a is `gone` after all, or `pair`
those there; once it is published, a late comer `arrive`s on a board (or the bye)."""
PAIRED_AGAIN = ("absent", "back", "apart", "meet")
"""The taps after which the round is paired anew, once they are committed."""


@dataclass(frozen=True, slots=True)
class Tap:
    """One tap: what it asks, the members it names (by player id), the board's version."""

    action: str
    a: str | None
    b: str | None
    version: str


async def tap(services: Services, asked: Tap, *, actor: int) -> tuple[Said, bool]:
    """What the tap did, and whether the board it was made on was the current one (not:
    nothing changed)."""
    if asked.action in ROOM_ACTIONS:
        return await _in_the_room(services, asked, actor=actor)
    async with services.db.transaction():  # the look and the change as one
        shown = await views.draft_board(services, priced=False)
        if shown is None or shown.version != asked.version:
            return Text("BOARD_STALE"), False
        said = await _change(services, shown, asked, actor=actor)
    if asked.action in PAIRED_AGAIN:
        # Paired again once his attendance is committed (the pairing reads the season as
        # committed).
        await rounds.draft(services, shown.round, actor=actor)
    return said, True


async def _in_the_room(services: Services, asked: Tap, *,
                       actor: int) -> tuple[Said, bool]:
    """A member is there (`here`), or not (`gone`), as `/indeling erbij|afwezig` say; `pair`
    pairs those there, as `/indeling maak`; `arrive` seats a late comer in the published
    round."""
    action, a = asked.action, asked.a
    async with services.db.transaction():
        shown = await (views.late_board if action == "arrive" else views.room_board)(services)
        who = next((m for m in await members.everyone(services) if m.code == a), None)
        if shown is None or shown.version != asked.version:
            return Text("BOARD_STALE"), False
        if action == "arrive" and who is not None:
            assert isinstance(shown, views.LateBoard)
            return await rounds.night_text(services, await rounds.arrived(
                services, who.code, actor=actor, number=shown.round)), True
        if action == "pair":
            said: Said = Text("INDELING_DRAFT_TITLE")
        elif who is None:
            raise InputStoreError(StoreProblem.UNKNOWN_PLAYER, player=a)
        elif action == "here":
            assert isinstance(shown, views.RoomBoard)
            came = await checkin.check_in(services, who, shown.round, actor=actor,
                                          by_arbiter=True)
            return checkin.said_to_arbiter(came, who), True
        else:
            assert isinstance(shown, views.RoomBoard)
            was, count = await checkin.check_out(services, who, shown.round, actor=actor)
            return checkin.said_gone(who, shown.round, was, count), True
    await rounds.draft(services, shown.round, actor=actor)
    return said, True


async def _change(services: Services, shown: views.DraftBoard, asked: Tap, *,
                  actor: int) -> Said:
    """One tap's change of the draft, as the chat's command makes it; what it did."""
    action, a, b = asked.action, asked.a, asked.b
    names = {s.code: s.name for _, *seats in shown.boards for s in seats}
    names |= {s.code: s.name for s in (*shown.away, *filter(None, [shown.bye]))}
    if action == "publish":
        published = await rounds.publish(services, actor=actor)
        return Phrase("publish_note", (published.round, published.players,
                                    list(published.unlinked)))
    assert a is not None
    if action == "swap":
        assert b is not None
        if a == b:
            return Text("SWAP_SAME", {"name": names.get(a, a)})
        await rounds.swap(services, shown.round, a, b, actor=actor)
        return Text("BOARD_SWAPPED", {"a": names.get(a, a), "b": names.get(b, b)})
    if action in ("apart", "meet"):
        assert b is not None
        if a == b:
            return Text("APART_SAME", {"name": names.get(a, a)})
        await admin.keep_apart(services, a, b, action == "apart", actor=actor)
        await rounds.unpair(services, shown.round, actor=actor)
        return Text("APART_SET" if action == "apart" else "APART_REMOVED",
                    {"a": names.get(a, a), "b": names.get(b, b)})
    if action in ("absent", "back"):
        return await _absent_or_back(services, shown, a, action == "absent", actor=actor)
    done = await rounds.volunteer_bye(services, shown.round, a, actor=actor)
    if not done.plays:
        return Text("BYE_NOT_PLAYING", {"name": names.get(a, a)})
    if done.made is None:
        return Text("BYE_EVEN", {"count": done.present})
    return Text("PAIRING_BYE", {"name": names.get(a, a)})


async def _absent_or_back(services: Services, shown: views.DraftBoard, code: str,
                          absent: bool, *, actor: int) -> Text:
    """A tap on a player of the draft: signed off by the arbiter, or that taken back. In a
    round paired at the venue, as `/indeling afwezig|erbij` say it: not in the room after
    all (absent without notice, unless he signed off), or in it (his sign-off goes, and
    he is paired)."""
    who = next((m for m in await members.everyone(services) if m.code == code), None)
    if who is None or (code in {s.code for s in shown.away}) == absent:
        raise InputStoreError(StoreProblem.NOT_IN_DRAFT, player=code, round=shown.round)
    room = await checkin.room_round(services)
    if room is not None and room.number == shown.round:
        await checkin.mark(services, who, shown.round, here=not absent, actor=actor)
        return Text("BOARD_ABSENT_DONE" if absent else "BOARD_BACK_DONE", {"name": who.name})
    await rounds.unpair(services, shown.round, actor=actor)
    if absent:
        await signoff.sign_off(services, who, signoff.Request((shown.round,)),
                               sent_at=services.clock(), actor=actor, correction=True,
                               early=None)
    else:
        await signoff.cancel(services, who, shown.round, sent_at=services.clock(),
                             actor=actor, correction=True)
    return Text("BOARD_ABSENT_DONE" if absent else "BOARD_BACK_DONE", {"name": who.name})
