"""The club's pages from a season: standings with movers, each round, the cross table, a page
per player, the schedule, the groups. One set of Jinja2 templates (autoescaped) serves the
live site and the static export; only the links differ (`Links`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import Any
from urllib.parse import quote, unquote

import jinja2
import markupsafe

from bot.files import announce, tables
from bot.language import texts
from bot.language.i18n import Words
from bot.language.notice import Lines, Said, Text, render
from core.results import NONE_UNSETTLED, UnsettledResults
from core.rules import Titles
from core.season import Season
from core.standings import Standings, standings_history
from core.titles import announcements, period_groups, subgroups

_ENV = jinja2.Environment(loader=jinja2.PackageLoader("bot.web", "templates"),
                          autoescape=True, trim_blocks=True, lstrip_blocks=True,
                          undefined=jinja2.StrictUndefined)
# The templates take their words (`_`) from the catalogue, in the words the page is made in:
# each render is given them.


@dataclass(frozen=True, slots=True)
class Links:
    """How one page names another: `ronde-3.html` in the export, `ronde-3` live. Every link
    is flat and relative, so the site works under any path (behind a proxy, or a folder)."""

    suffix: str = ".html"
    index: str = "index.html"
    files: bool = True
    """Links to files: a player id is quoted once for the file's name and again for the
    link, so an id with `/`, `%` or `é` names one file on every system."""

    def __call__(self, page: str, arg: object = None) -> str:
        if page == "index":
            return self.index
        if arg is None:
            return page + self.suffix
        part = quote(str(arg), safe="")
        return f"{page}-{quote(part, safe='') if self.files else part}{self.suffix}"

    def file(self, page: str, arg: object = None) -> str:
        """The file a link names."""
        return unquote(self(page, arg))


STATIC = Links()
LIVE = Links(suffix="", index="./", files=False)


@dataclass(frozen=True, slots=True)
class Scheduled:
    """A round on the schedule: its date and where it stands, in words."""

    number: int
    date: dt.date | None
    state: str


class Site:
    """The pages of one season as it is now."""

    def __init__(self, season: Season, w: Words, *, links: Links = STATIC,
                 telegram: bool = False,
                 schedule: Sequence[Scheduled] | None = None,
                 history: Sequence[Standings] | None = None,
                 unsettled: UnsettledResults = NONE_UNSETTLED) -> None:
        """`history`: the standings after each round, where they were made already (they
        depend on the complete rounds alone, which every view of the season shares).
        `unsettled`: the results reported and not final yet, shown marked as such. Every
        page is in the words `w`."""
        self.season, self.w, self.links, self.telegram = season, w, links, telegram
        self.unsettled = unsettled
        self._schedule = schedule
        self._history = history

    @cached_property
    def history(self) -> Sequence[Standings]:
        return self._history if self._history is not None else standings_history(self.season)

    @property
    def standings(self) -> Standings:
        return self.history[-1]

    @property
    def decimals(self) -> int:
        return self.season.rules.display_decimals

    @property
    def paired(self) -> list[int]:
        return [r.number for r in self.season.rounds if r.is_paired]

    @property
    def has_groups(self) -> bool:
        return self.season.rules.titles is not Titles.NONE

    def _render(self, template: str, title: str, **values: Any) -> str:
        return _page(template, self.w, title=title, club=self.season.club,
            season_name=self.season.name,
            link=self.links, paired=self.paired, has_groups=self.has_groups,
            telegram=self.telegram, **values)

    def _number(self, value: Fraction, decimals: int | None = None) -> str:
        return self.w.number(value, self.decimals if decimals is None else decimals)

    # --- the pages ---------------------------------------------------------------------------

    def index(self) -> str:
        standings = self.standings
        before = {row.id: row.rank for row in self.history[-2].rows} \
            if len(self.history) > 1 else {}
        rows = []
        for row in standings.rows:
            was = before.get(row.id)
            move = 0 if was is None else was - row.rank
            rows.append({
                "rank": row.rank, "id": row.id, "name": row.player.name,
                "score": self._number(row.score),
                "value": self._number(row.value, self.decimals
                                      if row.value.denominator != 1 else 0),
                "played": row.played, "won": row.won, "drawn": row.drawn, "lost": row.lost,
                "move": "" if not before else f"▲{move}" if move > 0 else f"▼{-move}"
                if move < 0 else "=",
                "move_class": "up" if move > 0 else "down" if move < 0 else "",
                "move_title": texts.moved(self.w, abs(move)) if move else "",
            })
        title = self.w(texts.STANDINGS_TITLE).format(round=standings.after_round) \
            if standings.after_round else self.w(texts.STANDINGS_START)
        return self._render("standings.html", title, rows=rows, after=standings.after_round)

    def round(self, number: int) -> str | None:
        if number not in self.paired:
            return None
        rnd, season = self.season.round(number), self.season
        games = [{"board": k, "white_id": g.white, "black_id": g.black,
                  "white": season.player(g.white).name, "black": season.player(g.black).name,
                  "result": tables.game_result(self.w, g, number, self.unsettled)}
                 for k, g in enumerate(rnd.games, start=1)]
        absent = [{"name": season.player(a.player).name, "kind": self.w(texts.KIND_LABELS)[a.kind]}
                  for a in rnd.absent]
        return self._render("round.html", self.w(texts.PAIRING_TITLE).format(round=number),
                            games=games, absent=absent,
                            date=_long_date(self.w, rnd.date) if rnd.date else "")

    def crosstable(self) -> str:
        header, rows = tables.crosstable(self.w, self.standings, self.decimals)
        return self._render("crosstable.html", self.w(texts.WEB_CROSSTABLE), header=header,
                            rows=rows)

    def player(self, player_id: str) -> str | None:
        season, standings = self.season, self.standings
        if player_id not in {p.id for p in season.players}:
            return None
        player = season.player(player_id)
        known = player_id in standings.ranking
        lines = []
        for line in standings.breakdown(player_id) if known else ():
            cells = tables.breakdown_cells(self.w, line, {}, self.decimals)
            opponent = line.opponent if line.kind is None and line.round else None
            lines.append({"round": cells[0], "result": cells[2], "value": cells[3],
                          "points": cells[5], "opponent_id": opponent,
                          "what": season.player(opponent).name if opponent else cells[1]})
        row = standings.row(player_id) if known else None
        return self._render(
            "player.html", player.name, lines=lines, after=standings.after_round,
            rank=row.rank if row else None, score=self._number(row.score) if row else "",
            value=self._number(row.value, 0) if row else "", chart=self._chart(player_id))

    def _chart(self, player_id: str) -> dict[str, Any] | None:
        """His place after each round (1 on top), as an SVG line."""
        places = [(s.after_round, s.row(player_id).rank) for s in self.history[1:]
                  if player_id in s.ranking]
        if len(places) < 2:
            return None
        width, height, last = 320, 120, max(len(s.rows) for s in self.history)
        step = (width - 30) / max(1, len(self.history) - 2)
        dots = [{"round": r, "rank": rank, "x": round(20 + step * (r - 1), 1),
                 "y": round(8 + (height - 16) * (rank - 1) / max(1, last - 1), 1)}
                for r, rank in places]
        return {"width": width, "height": height, "last": last, "dots": dots,
                "points": " ".join(f"{d['x']},{d['y']}" for d in dots)}

    def schedule(self) -> str:
        rounds = self._schedule if self._schedule is not None else [
            Scheduled(r.number, r.date, self.w(texts.WEB_ROUND_PLAYED if r.is_complete
                                               else texts.WEB_ROUND_PAIRED if r.is_paired
                                               else texts.WEB_ROUND_PLANNED))
            for r in self.season.rounds]
        items = [{"number": r.number, "paired": r.number in self.paired,
                  "date": _long_date(self.w, r.date) if r.date else self.w(texts.WEB_NO_DATE),
                  "state": r.state} for r in rounds]
        return self._render("schedule.html", self.w(texts.WEB_SCHEDULE), rounds=items)

    def groups(self) -> str | None:
        season = self.season
        titles = season.rules.titles
        body: Said
        if titles is Titles.PERIOD_GROUPS:
            current = season.rules.period_of(min(season.complete_rounds + 1,
                                                 season.rules.planned_rounds))
            body = announce.period_tables(season, period_groups(season, current))
        elif titles is Titles.SUBGROUPS:
            body = announce.subgroup_tables(season, subgroups(season))
        elif titles is Titles.PLAYOFF:
            done = season.complete_rounds
            news = [announce.announcement(season, item)
                    for item in announcements(season, done)] if done else []
            body = Lines(tuple(news)) if news else Text("WEB_PLAYOFF_LATER")
        else:
            return None
        return self._render("groups.html", self.w(texts.WEB_GROUPS), groups=render(body, self.w))

    def mine(self, player_id: str, upcoming: Mapping[str, Any] | None) -> str:
        """What a member sees first inside Telegram: his place, his next game, his points."""
        row = self.standings.row(player_id) if player_id in self.standings.ranking else None
        return _page(
            "mine.html", self.w, link=self.links, id=player_id,
            name=self.season.player(player_id).name,
            rank=row.rank if row else None, score=self._number(row.score) if row else "",
            next=upcoming)


def my_season(w: Words, rounds: Sequence[Any], said: Said | str = "", stakes: Any = None,
              player: str | None = None) -> str:
    """A member's season inside Telegram: every round with his part in it (`MyRound`), a
    button on each round still open; `said`, what his last tap answered (the chat's words,
    its markup ours); below it the chart of his final place (`Stakes`, for `player`)."""
    found = None if stakes is None else stakes.chances
    chances = [(place, round(100 * found.share(player, place)))
               for place in range(1, len(found.places) + 1)] \
        if found is not None and player in found.places and found.rounds_left else []
    items = [{"number": r.number, "date": w.date(r.date, "EEE d MMM") if r.date else "",
              "what": _html(r.what, w), "points": _html(r.points, w), "plays": r.plays,
              "here": r.here} for r in rounds]
    return _page(
        "my_season.html", w, rounds=items, said=_html(said, w),
        chances=[(place, share) for place, share in chances if share],
        chances_title=w(texts.CHANCES_CHART), chances_how=w(texts.CHANCES_HOW).format(
            runs=found.runs if found else 0))


def board(w: Words, shown: Any, said: Said | str = "", room: Any = None, late: Any = None) -> str:
    """The arbiter's board of the open round's draft (`DraftBoard`, or None when there is
    none), or of the room of a round at the venue before it is paired (`RoomBoard`), or its
    late comers once it is published (`LateBoard`);
    `said`, what his last tap did (the chat's words)."""
    if shown is not None:
        shown = replace(shown, broken=tuple(_html(line, w) for line in shown.broken),
                        cost=_html(shown.cost, w))
    return _page(
        "board.html", w, board=shown, said=_html(said, w), room=room, late=late,
        late_title=w(texts.LATE_TITLE).format(round=late.round) if late else "",
        late_how=w(texts.LATE_HOW),
        room_title=w(texts.ROOM_TITLE).format(round=room.round, count=len(room.here))
        if room else "", room_how=w(texts.BOARD_ROOM_HOW), pair_button=w(texts.BOARD_PAIR),
        not_yet=w(texts.ROOM_MISSING).format(names="").rstrip(" ."),
        signed_off=w(texts.ROOM_OFF).format(names="").rstrip(" ."),
        title=w(texts.BOARD_TITLE).format(round=shown.round) if shown else "",
        bye_title=w(texts.PAIRING_BYE).format(name="").strip(),
        broken_title=w(texts.PAIRING_BROKEN_TITLE), kept=w(texts.PAIRING_ALL_RULES_KEPT),
        how=w(texts.BOARD_HOW), bye_button=w(texts.BOARD_BYE), publish=w(texts.BOARD_PUBLISH),
        away_title=w(texts.BOARD_AWAY), absent=w(texts.BOARD_ABSENT), back=w(texts.BOARD_BACK),
        apart=w(texts.BOARD_APART), meet=w(texts.BOARD_MEET),
        apart_title=w(texts.APART_LIST).format(pairs="").rstrip(" ."), pair=w(texts.APART_PAIR),
        missing=w(texts.BOARD_NONE))


def team_grids(w: Words, grids: Sequence[Said]) -> str:
    """A member's teams on his page: each next match and who can play (the chat's words)."""
    return _page("teams.html", w, grids=[_html(grid, w) for grid in grids])


def board_link(w: Words) -> str:
    """What an arbiter finds at the top of every page: the way to the draft's board."""
    return str(markupsafe.Markup('<section class="mine"><a href="mij-bord" data-load="mij-bord">'
                                 '{}</a></section>').format(w(texts.BOARD_LINK)))


def members_only(w: Words, club: str) -> str:
    """The page a visitor gets when the site is for members: it asks Telegram who he is."""
    return _page("members.html", w, club=club)


def _html(said: Said | str, w: Words) -> markupsafe.Markup:
    """What the chat would say, for a page: its markup kept (Jinja escapes no Markup)."""
    return markupsafe.Markup(render(said, w))


def _page(template: str, w: Words, **values: Any) -> str:
    """A template made in the words `w` (its `_`, and the page's `language`)."""
    return _ENV.get_template(template).render(_=w._, language=w.language, **values)


def _long_date(w: Words, date: dt.date) -> str:
    return w.date(date, "EEEE d MMMM y")
