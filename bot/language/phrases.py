"""What members type to name the rounds of a sign-off: round numbers, dates (`bot.dates`),
ranges (`van X t/m Y`, `tot X`, `tot en met X`, `vanaf X`), lists joined by `en`, the kind of
an external game, and a reason after it all. Reads dates with dateparser: run it in a thread.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.language import dates
from bot.language.notice import Dated, Lines, Text
from bot.services import ScheduledRound
from core.season import AbsenceReason, ExternalDay


@dataclass
class Request:
    rounds: list[int] = field(default_factory=list)
    reason: AbsenceReason = AbsenceReason.NOTICE
    day: ExternalDay | None = None
    note: str = ""
    problem: Text | None = None


Point = int | dt.date
"""A round by its number, or a day."""


@dataclass(frozen=True, slots=True)
class Span:
    """One round (`start` only), or the rounds from `start` (None: the open round) to `end`."""

    start: Point | None
    end: Point | None = None
    through: bool = True
    """`t/m`: the end's day included; `tot`: up to that day. A round number always counts."""
    bare_start: bool = False
    """The start was a bare number: in `3 t/m 9 december` it is a day, not round 3."""
    onward: bool = False
    """`vanaf X` with no end: every round from X to the last."""


HALF_YEAR = dt.timedelta(days=183)


@dataclass(frozen=True, slots=True)
class Grammar:
    """One language's words for naming rounds: each language read on its own, never one
    rewritten into the other (a reason stays as it was typed)."""

    dates: dates.Words
    skip: frozenset[str]
    """Words that only lead in (`van`)."""
    onward: str
    """Before a round or a date without an end: every round from it to the last (otherwise
    an ordinary word of the reason)."""
    until: Mapping[str, bool]
    """The words that end a range, and whether the end's own day is in it."""
    soft_until: frozenset[str]
    """Range words that are common in a sentence too (`to`): a range word only when a round
    or date follows."""
    through: tuple[str, ...]
    """A range word written out in several (`tot en met`): the end's day is in."""
    round_words: frozenset[str]
    joiners: frozenset[str]
    external: Mapping[str, ExternalDay]
    requested_byes: Mapping[str, AbsenceReason]
    """A bye asked for (docs/rules.md, the variants): the arbiter grants it."""


DUTCH = Grammar(
    dates.DUTCH, skip=frozenset({"van"}), onward="vanaf",
    until={"t/m": True, "tm": True, "t.e.m.": True, "tot": False}, soft_until=frozenset(),
    through=("tot", "en", "met"), round_words=frozenset({"ronde", "rondes", "ronden"}),
    joiners=frozenset({"en", ","}),
    external={"extern": ExternalDay.OTHER_DAY, "extern-anderedag": ExternalDay.OTHER_DAY,
              "extern-clubavond": ExternalDay.CLUB_NIGHT, "clubavond": ExternalDay.CLUB_NIGHT},
    requested_byes={"halvebye": AbsenceReason.HALF_BYE, "nulbye": AbsenceReason.ZERO_BYE})
ENGLISH = Grammar(
    dates.ENGLISH, skip=frozenset(), onward="from",
    until={"through": True, "thru": True, "to": True, "until": False, "till": False,
           "til": False}, soft_until=frozenset({"to"}),
    through=("until", "and", "including"), round_words=frozenset({"round", "rounds"}),
    joiners=frozenset({"and", ","}),
    external={"external": ExternalDay.OTHER_DAY, "external-otherday": ExternalDay.OTHER_DAY,
              "external-clubnight": ExternalDay.CLUB_NIGHT,
              "clubnight": ExternalDay.CLUB_NIGHT},
    requested_byes={"halfbye": AbsenceReason.HALF_BYE, "zerobye": AbsenceReason.ZERO_BYE})
REQUESTED_BYES = frozenset(DUTCH.requested_byes.values())
"""The reasons only an arbiter grants."""


def parse(words: list[str], rounds: list[ScheduledRound], opened: int | None,
          today: dt.date, grammar: Grammar = DUTCH) -> Request:
    """`[datum | rondenummer | ronde N | van X t/m Y | tot X | vanaf X] [extern |
    extern-clubavond] [reden]`, several joined by `en`; X and Y rounds or dates (bot.dates),
    `t/m` also written `tot en met`; `tot X` from the open round (`opened`), `vanaf X` to the
    last round. In English: `[date | number | round N | from X to|through|until Y | until X |
    from X] [external | external-clubnight] [reason]`, joined by `and`. Reads dates with
    dateparser: run it in a thread."""
    request = Request()
    spans: list[Span] = []
    until: bool | None = None
    club_day = dates.club_day(r.date for r in rounds)

    def point(at: int) -> Point | None:
        return _point(words[at:], today, club_day, grammar.dates)[0]

    k, named_round, onward = 0, False, False
    while k < len(words):
        low = words[k].lower()
        if low == grammar.onward and k + 1 < len(words) and (
                point(k + 1) is not None or words[k + 1].lower() in grammar.round_words):
            onward = True
            k += 1
            continue
        if low in grammar.skip or (low in grammar.joiners and spans and k + 1 < len(words)
                                   and point(k + 1) is not None):
            k += 1
            continue
        if low in grammar.round_words and k + 1 < len(words) \
                and dates.is_number(words[k + 1]):
            k, named_round = k + 1, True
            continue
        if low in grammar.until and (low not in grammar.soft_until or point(k + 1) is not None):
            if until is not None:
                request.problem = Text("BAD_RANGE_END")
                return request
            size = len(grammar.through)
            through = tuple(w.lower() for w in words[k:k + size]) == grammar.through
            until = through or grammar.until[low]
            k += size if through else 1
            continue
        if low in grammar.external:
            request.reason, request.day = AbsenceReason.EXTERNAL, grammar.external[low]
            k += 1
            continue
        if low in grammar.requested_byes:
            request.reason, request.day = grammar.requested_byes[low], None
            k += 1
            continue
        found, used = _point(words[k:], today, club_day, grammar.dates)
        if found is None:
            if words[k].isascii() and words[k].isdigit():  # too long for any round
                request.problem = Text("NOT_SCHEDULED", {"round": words[k]})
                return request
            if until is not None or words[k].isnumeric():
                request.problem = Text("NOT_A_ROUND", {"text": words[k]})
                return request
            if dates.looks_like_date(words[k]):
                request.problem = Text("BAD_DATE", {"text": words[k]})
                return request
            request.note = " ".join(words[k:])
            break
        bare, named_round = isinstance(found, int) and not named_round, False
        k += used
        if until is None:
            spans.append(Span(found, bare_start=bare, onward=onward))
            onward = False
            continue
        last = spans.pop() if spans and spans[-1].end is None else None
        spans.append(Span(None if last is None else last.start, found, until,
                          last is not None and last.bare_start))
        until = None
    if until is not None:
        request.problem = Text("BAD_RANGE_END")
        return request
    for span in spans:
        chosen = _rounds(span, rounds, opened, today)
        if isinstance(chosen, Text):
            request.problem = chosen
            return request
        request.rounds += [r for r in chosen if r not in request.rounds]
    return request


def _point(words: list[str], today: dt.date, club_day: int | None,
           words_for_days: dates.Words) -> tuple[Point | None, int]:
    """The day or the round number the words start with, and how many words it took: `2 dec`
    is a day, `2` a round."""
    if not words:
        return None, 0
    found = dates.read(words, today, club_day, words_for_days)
    if found is not None:
        return found.date, found.words
    return (int(words[0]), 1) if dates.is_number(words[0]) else (None, 0)


def _rounds(span: Span, rounds: list[ScheduledRound], opened: int | None,
            today: dt.date) -> list[int] | Text:
    """The scheduled rounds a span names, or a problem to say."""
    numbers = {r.number for r in rounds}
    start, end = span.start, span.end
    if end is None and span.onward and numbers:
        end = max(numbers)
    if span.bare_start and isinstance(start, int) and isinstance(end, dt.date):
        start = _day_before(start, end)
        if start is None:
            return Text("BAD_DATE", {"text": f"{span.start}"})
    for point in (start, end):
        if isinstance(point, int) and point not in numbers:
            return _no_round(point, today)
    if end is None:
        if isinstance(start, int):
            return [start]
        assert isinstance(start, dt.date)
        on_day = [r.number for r in rounds if r.date == start]
        return on_day or Text("NO_ROUND_ON_DATE", {"date": Dated(start, today=today)})
    if start is None:
        if opened is None:
            return Text("NO_OPEN_ROUND")
        start = opened
    start = _recent_start(start, end, today)
    if _after(start, end, rounds):
        return Text("BAD_RANGE", {"first": _point_text(start, today),
                                  "last": _point_text(end, today)})
    chosen = [r.number for r in rounds if _from(r, start) and _until(r, end, span.through)]
    return chosen or Text("NO_ROUND_IN_RANGE", {"first": _point_text(start, today),
                                               "last": _point_text(end, today)})


def _recent_start(start: Point, end: Point, today: dt.date) -> Point:
    """A range's first day read as next year's because it has gone by this year (`van 20
    november t/m 4 december` on 1 December) starts this year, where the range then holds."""
    if not (isinstance(start, dt.date) and isinstance(end, dt.date) and start > end):
        return start
    with contextlib.suppress(ValueError):  # 29 February
        earlier = start.replace(year=start.year - 1)
        if earlier <= end and dt.timedelta(0) <= today - earlier <= HALF_YEAR:
            return earlier
    return start


def _from(r: ScheduledRound, start: Point) -> bool:
    if isinstance(start, int):
        return r.number >= start
    return r.date is not None and r.date >= start


def _until(r: ScheduledRound, end: Point, through: bool) -> bool:
    if isinstance(end, int):
        return r.number <= end
    return r.date is not None and (r.date <= end if through else r.date < end)


def _after(start: Point, end: Point, rounds: list[ScheduledRound]) -> bool:
    """Does the span end before it starts? A round number stands for its date."""
    when = {r.number: r.date for r in rounds}

    def day(point: Point) -> dt.date | int | None:
        return point if isinstance(point, dt.date) else when.get(point)

    if isinstance(start, int) and isinstance(end, int):
        return start > end
    first, last = day(start), day(end)
    return isinstance(first, dt.date) and isinstance(last, dt.date) and first > last


def _day_before(day: int, end: dt.date) -> dt.date | None:
    """Day `day` of the month `end` is in, or of the month before when that comes after
    `end` (`28 t/m 3 januari`)."""
    with contextlib.suppress(ValueError):
        candidate = end.replace(day=day)
        if candidate <= end:
            return candidate
        before = (end.replace(day=1) - dt.timedelta(days=1)).replace(day=day)
        return before
    return None


def _point_text(point: Point, today: dt.date) -> Text | Dated:
    if isinstance(point, int):
        return Text("ROUND_WORD", {"round": point})
    return Dated(point, today=today)


def _no_round(number_: int, today: dt.date) -> Text:
    """A number that is no round: ask whether a day was meant, never guess."""
    if not 1 <= number_ <= 31:
        return Text("NOT_SCHEDULED", {"round": number_})
    month = today if number_ >= today.day else today.replace(day=1) + dt.timedelta(days=32)
    example = Lines((str(number_), Dated(month.replace(day=1), form="LLLL")), " ")
    return Text("NUMBER_NOT_ROUND", {"round": number_, "example": example})
