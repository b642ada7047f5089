"""The round's flows: draft (at the deadline, or by hand), publish, and the deadline run."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from dataclasses import dataclass, replace

from bot.callbacks import Attendance, Here, Report
from bot.files import messages
from bot.files.tables import PairingView
from bot.flows import online
from bot.keyboard import Button, Keyboard
from bot.language.notice import Dated, Lines, Phrase, Said, Text, lines
from bot.notices import owe_to_arbiters, tell, tell_group
from bot.services import Services, due_rounds, round_start
from core.errors import InvalidInputError
from core.pairing import (
    Board,
    BrokenRule,
    Fixes,
    Pairing,
    PairingImpossibleError,
    Tier,
    before_pairing,
)
from core.pairing.request import NO_FIXES, fitting_fixes, present_in, request_for_round
from core.rounds import OPEN, RoundState
from core.season import AbsenceReason, Result, Season
from storage import attendance, club, lichess, programme, results, roster, rounds
from storage.db import Database
from storage.errors import InputStoreError, StoreProblem
from storage.seasons import has_season, load_season

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Draft:
    pairing: PairingView
    dropped: Fixes
    """The arbiter's fixes that no longer fit who is present, and were let go."""


async def draft(services: Services, number: int, *, actor: int | None) -> Draft:
    """Lock attendance (if still open) and pair the round with the arbiter's fixes that still
    fit; the others are dropped and reported, so a changed attendance never leaves the round
    unpairable."""
    db = services.db
    async with db.transaction():
        # Loaded while still planned, it holds the flexible members who did not sign on as
        # absent; locking records them so.
        loaded = await load_season(db)
        await _lock(db, loaded, number, actor)
        if await rounds.on_site(db, number) and await _not_in_the_room(db, number, actor):
            loaded = await load_season(db)
        season = before_pairing(loaded, number)
        kept, dropped = fitting_fixes(await rounds.fixes(db, number), present_in(season, number))
        if dropped != NO_FIXES:
            await rounds.set_fixes(db, number, kept, actor=actor)
        request = request_for_round(season, number, kept, await roster.apart(db))
        # numpy and rustworkx load at the first pairing, not at every start of the bot.
        from core.pairing.engine import pair

        pairing = await asyncio.to_thread(pair, request)
        await rounds.save_pairing(db, pairing, actor=actor)
    return Draft(pairing, dropped)


async def _lock(db: Database, season: Season, number: int, actor: int | None) -> bool:
    """Attendance of a planned round is locked: the flexible members who did not sign on are
    absent as the rules say (`season`, loaded while still planned, shows them so). False if
    it was locked already."""
    if not await rounds.advance(db, number, RoundState.PLANNED, RoundState.LOCKED, actor=actor):
        return False
    await attendance.record_unannounced(
        db, number, AbsenceReason(season.rules.flexible_absent.value), actor=actor)
    return True


async def _not_in_the_room(db: Database, number: int, actor: int | None) -> bool:
    """A round paired at the venue: who did not say he is there is absent without notice
    (signed off or not: as the rules have it). Refused with fewer than two there. True if
    anyone became absent."""
    here = await attendance.present(db, number)
    if len(here) < 2:
        raise InputStoreError(StoreProblem.NOBODY_HERE, round=number, count=len(here))
    return bool(await attendance.record_unannounced(db, number, AbsenceReason.NO_NOTICE,
                                                    actor=actor, in_the_room=True))


async def draft_text(services: Services, made: Draft, title: Said) -> Lines:
    """The draft as the arbiter sees it: the title, the boards, and any fix let go."""
    shown = lines(title, await messages.pairing(
        await load_season(services.db), made.pairing,
        online=await online.played_at(services, made.pairing.round)))
    if made.dropped == NO_FIXES:
        return shown
    names = {m.code: m.name for m in await roster.members(services.db)}
    return lines(shown, Text("FIXES_DROPPED", {"fixes": Phrase("fixes_words",
                                                               (made.dropped, names))}),
                 between="\n\n")


async def redraft(services: Services, number: int) -> None:
    """An on-time sign-off read after the round was drafted: pair again, show the arbiter."""
    made = await draft(services, number, actor=None)
    await owe_to_arbiters(services, await draft_text(
        services, made, Text("DRAFT_UPDATED", {"round": number})))


async def unpair(services: Services, number: int, *, actor: int) -> None:
    """The round's draft goes (the round is locked, to be paired again): before the arbiter
    changes who plays in it himself (his sign-off of a player drops no draft, and a player
    back who is in no board would leave the draft incomplete)."""
    await rounds.unpair(services.db, number, actor=actor)


async def clear_fixes(services: Services, number: int, *, actor: int) -> bool:
    """Forget every fix the arbiter made for the round (the next draft is free); False if
    there were none."""
    db = services.db
    async with db.transaction():
        if await rounds.fixes(db, number) == NO_FIXES:
            return False
        await rounds.set_fixes(db, number, NO_FIXES, actor=actor)
    return True


async def swap(services: Services, number: int, a: str, b: str, *,
               actor: int) -> Draft | None:
    """Players `a` and `b` change places in the draft, and those boards stay fixed when the
    round is paired again; None if there is no draft yet."""
    db = services.db
    async with db.transaction():
        stored = await rounds.stored_pairing(db, number)
        if stored is None:
            return None
        drafted = {p for x in stored.boards for p in (x.white, x.black)} | {stored.bye}
        for code in (a, b):
            if code not in drafted:
                raise InputStoreError(StoreProblem.NOT_IN_DRAFT, player=code, round=number)
        codes = {a: b, b: a}
        boards = tuple(Board(x.number, codes.get(x.white, x.white), codes.get(x.black, x.black))
                       for x in stored.boards)
        bye = codes.get(stored.bye, stored.bye) if stored.bye else None
        fixed = tuple((x.white, x.black) for x in boards if {x.white, x.black} & {a, b})
        hand = await rounds.fixes(db, number)
        # A board fixed earlier for either player is replaced, not added to (a swap undone
        # must not leave two boards for one player).
        touched = {p for board in fixed for p in board}
        kept = tuple(x for x in hand.boards if not set(x) & touched)
        await rounds.set_fixes(db, number, replace(hand, boards=kept + fixed,
                                                   bye=None if hand.bye in touched else hand.bye),
                               actor=actor)
        await rounds.replace_boards(db, number, boards, bye, actor=actor)
        updated = await rounds.stored_pairing(db, number)
    assert updated is not None
    return Draft(updated, NO_FIXES)


@dataclass(frozen=True, slots=True)
class Volunteer:
    present: int
    """Players present in the round."""
    plays: bool
    """The volunteer is one of them."""
    made: Draft | None
    """The round paired again around his bye; None if it could not be his (he does not
    play, or the number present is even)."""


async def volunteer_bye(services: Services, number: int, code: str, *,
                        actor: int) -> Volunteer:
    """A volunteer for the bye: fixed, and the round paired again around him."""
    db = services.db
    async with db.transaction():
        playing = present_in(before_pairing(await load_season(db), number), number)
        if code not in playing or len(playing) % 2 == 0:
            return Volunteer(len(playing), code in playing, None)
        hand = await rounds.fixes(db, number)
        await rounds.set_fixes(db, number, replace(hand, bye=code), actor=actor)
        return Volunteer(len(playing), True, await draft(services, number, actor=actor))


async def at_deadline(services: Services, number: int) -> bool:
    """Claim the round's deadline, pair it and owe the draft to the arbiters: one transaction,
    so a crash leaves either nothing done (done again at restart) or all of it. False if
    another tick or process had it already."""
    db = services.db
    async with db.transaction():  # the writer's lock: the state read below cannot go stale
        if await rounds.state(db, number) not in (RoundState.PLANNED, RoundState.LOCKED):
            return False
        if await rounds.on_site(db, number):
            return await _open_the_room(services, number)
        made = await draft(services, number, actor=None)
        await owe_to_arbiters(services, await draft_text(
            services, made, lines(Text("DRAFT_TO_ARBITER", {"round": number}),
                                  Text("INDELING_DRAFT_TITLE"))))
    log.info("round %d locked and drafted at its deadline", number)
    return True


async def _open_the_room(services: Services, number: int) -> bool:
    """A round paired at the venue, at its deadline: sign-offs close as for any round, and
    the members say they are there (a button in the group, or the Mini App); the arbiter
    pairs when he sees fit. False if it was open already."""
    db = services.db
    if not await _lock(db, await load_season(db), number, None):
        return False
    settings = await club.settings(db)
    await tell_group(services, settings, Text("CHECK_IN_OPEN", {"round": number}),
                     markup=here_button(number))
    await owe_to_arbiters(services, Text("CHECK_IN_TO_ARBITER", {"round": number}))
    log.info("round %d locked at its deadline; the room is open", number)
    return True


async def tick(services: Services) -> None:
    """Deadlines that passed, and reminders that are due. Each round on its own: one that
    cannot be paired is told to the arbiters (once an hour) and the others go on."""
    if not await has_season(services.db):
        return  # nothing to do before a season is loaded; that is not an error
    for number in await due_rounds(services):
        try:
            await at_deadline(services, number)
        except (PairingImpossibleError, InvalidInputError, InputStoreError) as exc:
            log.warning("round %d could not be paired at its deadline: %s", number, exc)
            if services.throttle.first(f"deadline:{number}"):
                await owe_to_arbiters(services, Text("DEADLINE_FAILED", {"round": number}))
    await remind(services)


async def coming_moments(services: Services) -> list[dt.datetime]:
    """When something will be due (`tick`): each planned round's reminder and deadline that
    lie ahead, in order."""
    if not await has_season(services.db):
        return []
    settings = await club.settings(services.db)
    now, zone = services.clock(), services.settings.timezone
    moments = set()
    for rnd in await programme.schedule(services.db):
        if rnd.state is not RoundState.PLANNED or rnd.deadline is None:
            continue
        moments.add(rnd.deadline)
        if rnd.date is not None:
            moments.add(round_start(rnd.date, settings, zone)
                        - dt.timedelta(minutes=settings.reminder_minutes))
    return sorted(m for m in moments if m > now)


async def remind(services: Services) -> None:
    """Once per round, when its reminder is due: the group, and in private the members who
    asked for it; each with the buttons to answer in one tap."""
    settings = await club.settings(services.db)
    now, zone = services.clock(), services.settings.timezone
    for rnd in await programme.schedule(services.db):
        if rnd.state is not RoundState.PLANNED or rnd.date is None or rnd.deadline is None:
            continue
        start = round_start(rnd.date, settings, zone)
        if not start - dt.timedelta(minutes=settings.reminder_minutes) <= now < rnd.deadline:
            continue
        async with services.db.transaction():
            if not await programme.mark_reminded(services.db, rnd.number):
                continue
            facts = {"round": rnd.number, "date": Dated(rnd.date),
                     "deadline": Dated(rnd.deadline, zone)}
            buttons = attendance_buttons(rnd.number)
            await tell_group(services, settings, Text("REMINDER", facts), markup=buttons)
            for member in await roster.reminded(services.db, rnd.number):
                assert member.telegram_id is not None
                key = "REMINDER_FLEXIBLE" if member.flexible else "REMINDER_PRIVATE"
                await tell(services, member.telegram_id, Text(key, facts), markup=buttons,
                           about=member.name)


ATTENDANCE_CHOICES = ("play", "off", "ext")
"""The reminder's buttons, as `Attendance` records them (their words: `ATTENDANCE_BUTTONS`)."""
RESULT_BUTTONS = (("1-0", "1-0"), ("½-½", "1/2-1/2"), ("0-1", "0-1"))
"""The result buttons under a player's pairing message: label, result (white first); a
result is written so in every language."""


def attendance_buttons(number: int) -> Keyboard:
    """Ik speel / Ik kan niet / Extern, for round `number`."""
    return Keyboard.row(*(Button(Text("ATTENDANCE_BUTTONS", pick=choice),
                                 Attendance(number, choice).pack())
                          for choice in ATTENDANCE_CHOICES))


def here_button(number: int) -> Keyboard:
    """Ik ben er, under the opening of a round paired at the venue."""
    return Keyboard.row(Button(Text("HERE_BUTTON"), Here(number).pack()))


def result_buttons(number: int, board: int) -> Keyboard:
    """1-0, ½-½, 0-1 (white first) under a player's own pairing message."""
    return Keyboard.row(*(Button(label, Report(number, board, value).pack())
                          for label, value in RESULT_BUTTONS))


@dataclass(frozen=True, slots=True)
class Published:
    round: int
    players: int
    """Players who will get their game privately."""
    unlinked: tuple[str, ...]
    """Names of players the bot cannot reach (not linked to Telegram)."""
    online: bool = False
    """Played on lichess: its games are made next (`flows.online.make_games`)."""


async def publish(services: Services, *, actor: int) -> Published:
    """Publish the open round's draft: the round moves to published, and in the same
    transaction the pairing is owed to the club group and each player his own game."""
    db = services.db
    async with db.transaction():
        upcoming = next((r for r in await programme.schedule(db) if r.state in OPEN), None)
        if upcoming is None or upcoming.state is not RoundState.DRAFTED:
            raise InputStoreError(StoreProblem.NO_DRAFT)
        settings = await club.settings(db)
        if settings.group_chat_id is None:
            raise InputStoreError(StoreProblem.NO_GROUP)
        if upcoming.online and await lichess.organiser(db) is None:
            raise InputStoreError(StoreProblem.NO_ORGANISER, round=upcoming.number)
        stored = await rounds.stored_pairing(db, upcoming.number)
        if stored is None or not await rounds.advance(
                db, upcoming.number, RoundState.DRAFTED, RoundState.PUBLISHED, actor=actor):
            raise InputStoreError(StoreProblem.NO_DRAFT)
        number, date = upcoming.number, upcoming.date
        season = await load_season(db)  # once: a large season takes a while to read
        played = await online.clock(services) if upcoming.online else None
        await tell_group(services, settings,
                         await messages.pairing(season, stored, when=Dated(date),
                                               online=played),
                         round_no=number, kind="pairing",
                         markup=messages.page_button(services.settings, settings.web,
                                                             services.bot_name, private=False))
        everyone = {m.code: m for m in await roster.members(db)}
        games = {me: (other, colour, board) for board in stored.boards
                 for me, other, colour in ((board.white, board.black, "white"),
                                           (board.black, board.white, "black"))}

        def personal(me: str) -> Text:
            """His own game, or his bye."""
            if me not in games:
                return Text("PERSONAL_BYE", {"round": number, "date": Dated(date)})
            other, colour, board = games[me]
            return Text("PERSONAL_PAIRING", {
                "round": number, "date": Dated(date),
                "colour": Text("COLOURS_WORD", pick=colour),
                "opponent": everyone[other].name, "board": board.number,
                "tempo": played if played is not None else season.rules.youth_time_control
                if season.player(me).youth else season.rules.time_control})

        told = [*games, *([stored.bye] if stored.bye is not None else [])]
        unlinked = []
        for code in told:
            who = everyone[code]
            if who.telegram_id is None:
                unlinked.append(who.name)
                continue
            buttons = result_buttons(number, games[code][2].number) \
                if code in games else None
            await tell(services, who.telegram_id, personal(code), about=who.name,
                       round_no=number, kind="personal", player=code, markup=buttons)
    return Published(number, len(told) - len(unlinked), tuple(unlinked), upcoming.online)


@dataclass(frozen=True, slots=True)
class NightChange:
    """A change to the published pairing at the board, as it was made."""

    round: int
    player: str
    """Who did not come (`absent`), or who came after all (`arrived`)."""
    board: Board | None
    """The board he (or his opponent) now plays; None when the opponent wins by forfeit,
    or when the absent player had the bye (and `forfeit` is None too)."""
    forfeit: Board | None = None
    """The board scored as a forfeit because nobody was free."""
    broken: tuple[BrokenRule, ...] = ()
    """Rules the new board breaks (never a meeting rule: those rule a board out)."""
    bye: bool = False
    """He (`arrived`) has the bye: back that he lost by being marked absent (`again`), or,
    late in the room of a round at the venue, the round's bye until a later one plays him."""
    again: bool = True
    completed: bool = False
    """The forfeit was the round's last result to become final (`results.Reported`)."""


class WhichNight(Exception):
    """Two published rounds fit a change at the board, none of them tonight's: the arbiter
    says which (`rounds`: each one's number and date)."""

    def __init__(self, rounds: tuple[tuple[int, dt.date | None], ...]) -> None:
        super().__init__(rounds)
        self.rounds = rounds


async def absent_at_board(services: Services, code: str, *, actor: int,
                          number: int | None = None) -> NightChange:
    """A player of a published round (`number`, else the one he has a game to play in, or
    tonight's: `_night`) did not come. His opponent plays someone free (the bye, or a player
    whose opponent did not come either) where the meeting rules allow, else wins by
    forfeit; he himself is absent without notice."""
    db = services.db
    async with db.transaction():
        number, stored, season = await _night(services, code, number, absent=True)
        if code == stored.bye:
            # He had the bye: it goes, and he is absent like anyone who did not come.
            await attendance.sign_off(db, number, code, AbsenceReason.NO_NOTICE,
                                      sent_at=services.clock(), actor=actor, correction=True)
            change = NightChange(number, code, None)
            await _tell(services, change, None, absent=True)
            return change
        k = next((k for k, b in enumerate(stored.boards) if code in (b.white, b.black)), None)
        if k is None:
            raise InputStoreError(StoreProblem.NOT_ON_BOARD, player=code, round=number)
        board = stored.boards[k]
        if stored.results[k] is not None:
            raise InputStoreError(StoreProblem.RESULT_IN, board=board.number, round=number)
        opponent = board.black if board.white == code else board.white
        found = await _partner(season, await roster.apart(db), number, opponent,
                               _free(stored, without=board.number))
        await attendance.sign_off(db, number, code, AbsenceReason.NO_NOTICE,
                                  sent_at=services.clock(), actor=actor, correction=True)
        if found is None:
            came = Result.WHITE_BY_FORFEIT if board.white == opponent \
                else Result.BLACK_BY_FORFEIT
            scored = await results.correct(db, number, board.number, came, actor=actor)
            change = NightChange(number, code, None, forfeit=board,
                                 completed=scored.round_complete)
        else:
            change = await _repair(services, number, stored, code, board.number, found,
                                   actor=actor)
        await _tell(services, change, opponent, absent=True)
    return change


async def arrived(services: Services, code: str, *, actor: int,
                  number: int | None = None) -> NightChange:
    """A player not in a published round (`number`, else as `_night` finds it) came after
    all: he plays someone free (the bye, or a player whose opponent did not come) where the
    meeting rules allow."""
    db = services.db
    async with db.transaction():
        number, stored, season = await _night(services, code, number, absent=False)
        if code == stored.bye:
            raise InputStoreError(StoreProblem.HAS_BYE, player=code, round=number)
        if any(code in (b.white, b.black) for b in stored.boards):
            raise InputStoreError(StoreProblem.ALREADY_PLAYING, player=code, round=number)
        if await _at_the_venue(db, number):
            # The arbiter seats him: in the room, as a tap of his own would have said (a
            # late comer without a phone), so the bye is his where nobody is free.
            await attendance.check_in(db, number, code, at=services.clock(), actor=actor,
                                      correction=True)
        found = await _partner(season, await roster.apart(db), number, code,
                               _free(stored, without=None))
        again = found is None and stored.bye is None \
            and await attendance.lost_bye(db, number, code)
        if again or (found is None and stored.bye is None
                     and code in await attendance.present(db, number)):
            # Marked absent while he had the bye, and nobody plays him now: he has it back.
            # Or late in the room of a round at the venue: the bye, which the next late
            # comer takes from him by playing him.
            await rounds.replace_boards(db, number, stored.boards, code, actor=actor)
            change = NightChange(number, code, None, bye=True, again=again)
            await _tell(services, change, None, absent=False)
            return change
        if found is None:
            raise InputStoreError(StoreProblem.NOBODY_FREE, player=code, round=number)
        change = await _repair(services, number, stored, code, None, found, actor=actor)
        await attendance.cancel_sign_off(db, number, code, sent_at=services.clock(),
                                         actor=actor, correction=True)
        await _tell(services, change, None, absent=False)
    return change


async def _at_the_venue(db: Database, number: int) -> bool:
    return any(r.number == number and r.on_site for r in await programme.schedule(db))


async def _night(services: Services, code: str, number: int | None, *,
                 absent: bool) -> tuple[int, rounds.StoredPairing, Season]:
    """The published round a change at the board is about: `number` if given; else the one
    it fits (he has a game still to play in it, or the bye: `absent`; he is not in it: not
    `absent`), tonight's of those that fit, or the arbiter is asked (WhichNight). Where
    none fits, the first published one, whose refusal says why."""
    db = services.db
    published = {}
    for r in await programme.schedule(db):
        stored = await rounds.stored_pairing(db, r.number) \
            if r.state is RoundState.PUBLISHED else None
        if stored is not None:
            published[r.number] = (r, stored)
    if not published or (number is not None and number not in published):
        raise InputStoreError(StoreProblem.NO_PUBLISHED)
    if number is None:
        fits = [r for r, stored in published.values() if _fits(stored, code, absent=absent)]
        today = services.clock().astimezone(services.settings.timezone).date()
        tonight = [r for r in fits if r.date == today]
        if len(fits) > 1 and len(tonight) != 1:
            raise WhichNight(tuple((r.number, r.date) for r in fits))
        number = (tonight or fits or [next(iter(published.values()))[0]])[0].number
    return number, published[number][1], await load_season(db)


def _fits(stored: rounds.StoredPairing, code: str, *, absent: bool) -> bool:
    playing = [result for board, result in zip(stored.boards, stored.results, strict=True)
               if code in (board.white, board.black)]
    if absent:
        return code == stored.bye or (bool(playing) and playing[0] is None)
    return code != stored.bye and not playing


def _free(stored: rounds.StoredPairing, *, without: int | None) -> list[tuple[str, int | None]]:
    """Who plays nobody yet: the bye first, then those whose opponent did not come (each
    with the board of that forfeit)."""
    free: list[tuple[str, int | None]] = [] if stored.bye is None else [(stored.bye, None)]
    for board, result in zip(stored.boards, stored.results, strict=True):
        if board.number == without:
            continue
        if result is Result.WHITE_BY_FORFEIT:
            free.append((board.white, board.number))
        elif result is Result.BLACK_BY_FORFEIT:
            free.append((board.black, board.number))
    return free


async def _partner(season: Season, apart: frozenset[frozenset[str]], number: int, player: str,
                   free: list[tuple[str, int | None]]) -> tuple[str, int | None, Pairing] | None:
    """The first free player whom `player` may meet (the engine pairs the two by the
    round's rules and the pairs kept `apart`), with the board he leaves and their pairing."""
    from core.pairing.engine import pair  # as in draft(): numpy loads at first use

    request = request_for_round(before_pairing(season, number), number, apart=apart)
    for other, left in free:
        paired = await asyncio.to_thread(
            pair, replace(request, present=frozenset({player, other}), fixes=NO_FIXES))
        if not any(rule.rule.tier <= Tier.PERIOD for rule in paired.broken):
            return other, left, paired
    return None


async def _repair(services: Services, number: int, stored: rounds.StoredPairing, player: str,
                  at: int | None, found: tuple[str, int | None, Pairing], *,
                  actor: int) -> NightChange:
    """The published boards with the new one: on board `at` (whose other player stays), or
    on a new board; the free player's forfeit board goes, and its no-show is absent."""
    other, left, paired = found
    db = services.db
    keep = [b for b in stored.boards if b.number not in (at, left)]
    number_ = at or left or max((b.number for b in stored.boards), default=0) + 1
    new = replace(paired.boards[0], number=number_)
    if left is not None:
        gone = next(b for b in stored.boards if b.number == left)
        no_show = gone.black if gone.white == other else gone.white
        await attendance.sign_off(db, number, no_show, AbsenceReason.NO_NOTICE,
                                  sent_at=services.clock(), actor=actor, correction=True)
    bye = None if stored.bye == other else stored.bye
    await rounds.replace_boards(db, number, tuple(sorted([*keep, new], key=lambda b: b.number)),
                                bye, actor=actor)
    return NightChange(number, player, new, broken=paired.broken)


async def _tell(services: Services, change: NightChange, opponent: str | None, *,
                absent: bool) -> None:
    """The group hears of the change, each player it concerns privately: that `change.player`
    is `absent`, or came after all; `opponent` is the one he left without a game."""
    db = services.db
    everyone = {m.code: m for m in await roster.members(db)}
    settings = await club.settings(db)

    def name(code: str) -> str:
        return everyone[code].name

    number = change.round

    buttons: dict[str, int] = {}
    """The players whose new board wants the result buttons under their notice."""
    if change.bye:
        line = Text("NIGHT_BYE_BACK" if change.again else "NIGHT_BYE_LATE",
                    {"player": name(change.player)})
        private = {change.player: Text("NIGHT_YOU_BYE" if change.again else "NIGHT_YOU_BYE_LATE",
                                       {"round": number})}
    elif change.board is None and change.forfeit is None:
        line, private = Text("NIGHT_NO_BYE"), {}
    elif change.board is None:
        assert change.forfeit is not None and opponent is not None
        line = Text("NIGHT_FORFEIT", {"present": name(opponent),
                                      "board": change.forfeit.number})
        private = {opponent: Text("NIGHT_YOU_WIN", {"round": number,
                                                    "opponent": name(change.player)})}
    else:
        board = change.board
        line = Text("NIGHT_REPAIRED", {"board": board.number, "white": name(board.white),
                                       "black": name(board.black)})
        private = {me: Text("NIGHT_NEW_OPPONENT", {
            "round": number, "colour": Text("COLOURS_WORD", pick=colour),
            "opponent": name(other), "board": board.number})
            for me, other, colour in ((board.white, board.black, "white"),
                                      (board.black, board.white, "black"))}
        # As under one's own pairing: the result is one tap away.
        buttons = {code: board.number for code in (board.white, board.black)}
    if absent:
        private[change.player] = Text("NIGHT_YOU_ABSENT", {"round": number})
        group = Text("NIGHT_ABSENT_GROUP", {"round": number, "absent": name(change.player),
                                            "change": line})
    else:
        group = Text("NIGHT_ARRIVED_GROUP", {"round": number, "late": name(change.player),
                                             "change": line})

    # A correction under the published pairing, so the group reads them together.
    posts = [message for chat, message, _ in await programme.posted(db, number, "pairing")
             if chat == settings.group_chat_id]
    await tell_group(services, settings, group, reply_to=min(posts, default=None))
    for code, notice in private.items():
        who = everyone[code]
        if who.telegram_id is not None:
            await tell(services, who.telegram_id, notice, about=who.name,
                       markup=None if code not in buttons
                       else result_buttons(number, buttons[code]))


async def night_text(services: Services, change: NightChange) -> Said:
    """The change as the arbiter is told it: what the board is now, and any rule broken."""
    names = {m.code: m.name for m in await roster.members(services.db)}
    said: Said
    if change.bye:
        said = Text("NIGHT_BYE_BACK" if change.again else "NIGHT_BYE_LATE",
                    {"player": names[change.player]})
    elif change.board is None and change.forfeit is None:
        said = Text("NIGHT_BYE_ABSENT", {"player": names[change.player], "round": change.round})
    elif change.board is None:
        assert change.forfeit is not None
        present = change.forfeit.black if change.forfeit.white == change.player \
            else change.forfeit.white
        said = Text("NIGHT_FORFEIT", {"present": names[present], "board": change.forfeit.number})
    else:
        said = Text("NIGHT_REPAIRED", {"board": change.board.number,
                                       "white": names[change.board.white],
                                       "black": names[change.board.black]})
    if not change.broken:
        return said
    return lines(said, Text("NIGHT_BROKEN", {"rules": Lines(tuple(
        Phrase("broken_rule", (rule, names)) for rule in change.broken), "; ")}), between=" ")
