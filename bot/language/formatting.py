"""Text as Telegram shows it: HTML escaped, long messages cut to its limit, dates and
moments in words of the reader's language."""

from __future__ import annotations

import datetime as dt

from bot.language import texts
from bot.language.i18n import Words

LIMIT = 4096


def units(text: str) -> int:
    """Length as Telegram counts it: UTF-16 code units (an emoji or a rare sign is two)."""
    return len(text.encode("utf-16-le")) // 2


PRE_TAGS = len("<pre>") + len("</pre>")
"""Room kept in each piece for closing and reopening a `<pre>` block around a cut."""


def split(text: str, limit: int = LIMIT) -> list[str]:
    """Pieces of at most `limit` UTF-16 units, cut at line ends; a line longer than that is
    cut in order, never inside an HTML entity or tag. A `<pre>` block is closed and reopened
    around every cut."""
    room = limit - PRE_TAGS
    pieces: list[str] = []
    current = ""
    for line in text.split("\n"):
        while units(line) > room:
            head = _cut(line, room)
            if current:
                pieces.append(current)
                current = ""
            pieces.append(line[:head])
            line = line[head:]
        if current and units(current) + 1 + units(line) > room:
            pieces.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        pieces.append(current)
    balanced = []
    open_pre = False
    for piece in pieces:
        if open_pre:
            piece = "<pre>" + piece
        open_pre = piece.count("<pre>") > piece.count("</pre>")
        balanced.append(piece + ("</pre>" if open_pre else ""))
    return balanced


def _cut(line: str, room: int) -> int:
    """Where to cut a line that does not fit: the most that fits in `room` units, moved back
    to before an entity (`&amp;`) or tag it would cut through."""
    end, used = 0, 0
    while end < len(line) and used + units(line[end]) <= room:
        used += units(line[end])
        end += 1
    for opening, closing in (("&", ";"), ("<", ">")):
        start = line.rfind(opening, 0, end)
        if start > 0 and line.find(closing, start) >= end:
            end = start
    return max(end, 1)


def show_date(w: Words, date: dt.date | None, today: dt.date | None = None, *,
              other_year: bool = False) -> str:
    """`do 3 dec`; with the year when it is not clear from `today` (more than half a year
    away: a date without a year may have landed in the next one), or, `other_year`, whenever
    it is not `today`'s (a list of rounds that crosses the new year)."""
    if date is None:
        return w(texts.WEB_NO_DATE)
    shown = w.date(date, "EEE d MMM")
    if today is not None and (abs((date - today).days) > 183 if not other_year
                              else date.year != today.year):
        shown += f" {date.year}"
    return shown


def show_moment(w: Words, moment: dt.datetime | None, zone: dt.tzinfo) -> str:
    if moment is None:
        return "-"
    local = moment.astimezone(zone)
    return f"{show_date(w, local.date())} {local:%H:%M}"
