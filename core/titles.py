"""Titles and prizes (rules.md section 6): the club champion, the `sliedrecht` play-off, the
`drie-groepen` period groups, the `drie-cycli` subgroups with promotion.

Where the rulebooks leave a choice open, the decision is written where it is made and in
docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from core.ledger import Awaiting, Awarded, Compensated, Event, Played, season_events
from core.rules import CompensationKind, Titles
from core.season import Result, Season
from core.standings import Standings, compute_standings, standings_history

# --- play-off (sliedrecht) ---------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Playoff:
    """Who plays the play-off for the club title, and the games (white, black) in order."""

    players: tuple[str, ...]
    """In final-rank order."""
    games: tuple[tuple[str, str], ...]
    margin: Fraction
    """Half the top value: how close to #1 a player must be."""

    @property
    def is_match(self) -> bool:
        """Two players: a match of two games; more: one round-robin."""
        return len(self.players) == 2


def playoff(standings: Standings) -> Playoff | None:
    """The play-off the final standings call for, if any: #2 (and any others) at most half
    the top value behind #1."""
    if len(standings.rows) < 2:
        return None
    leader = standings.rows[0]
    margin = leader.value / 2
    close = tuple(r.id for r in standings.rows if leader.score - r.score <= margin)
    if len(close) < 2:
        return None
    if len(close) == 2:
        # #1 has white in the first rapid game and black in the second.
        games: tuple[tuple[str, str], ...] = ((close[0], close[1]), (close[1], close[0]))
    else:
        games = round_robin(close)
    return Playoff(close, games, margin)


def round_robin(players: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """A single round-robin (circle method); each game's white goes to whichever of the two
    has the lower colour balance so far (the higher placed on equal), so colours stay even."""
    field: list[str | None] = list(players) + ([None] if len(players) % 2 else [])
    n = len(field)
    balance = dict.fromkeys(players, 0)
    place = {p: k for k, p in enumerate(players)}
    games = []
    for _ in range(n - 1):
        for k in range(n // 2):
            a, b = field[k], field[n - 1 - k]
            if a is None or b is None:
                continue
            white, black = sorted((a, b), key=lambda p: (balance[p], place[p]))
            balance[white] += 1
            balance[black] -= 1
            games.append((white, black))
        field = [field[0], field[-1], *field[1:-1]]
    return tuple(games)


def playoff_winner(season: Season, standings: Standings, play: Playoff,
                   results: Sequence[Result]) -> str:
    """The club champion after the play-off (`results` in the order of `play.games`). A tie
    goes to the better head-to-head score in the competition, then to the higher final rank."""
    points = dict.fromkeys(play.players, Fraction(0))
    for (white, black), result in zip(play.games, results, strict=True):
        points[white] += result.white_score
        points[black] += 1 - result.white_score
    best = max(points.values())
    tied = [p for p in play.players if points[p] == best]
    if len(tied) > 1:
        mutual = _head_to_head(season, set(tied))
        best_mutual = max(mutual[p] for p in tied)
        tied = [p for p in tied if mutual[p] == best_mutual]
    rank = {pid: k for k, pid in enumerate(standings.ranking)}
    return min(tied, key=rank.__getitem__)


def _head_to_head(season: Season, players: set[str]) -> dict[str, Fraction]:
    score = dict.fromkeys(players, Fraction(0))
    for rnd in season.rounds:
        for game in rnd.games:
            if {game.white, game.black} <= players and game.result and not game.result.is_forfeit:
                score[game.white] += game.result.white_score
                score[game.black] += 1 - game.result.white_score
    return score


# --- period groups (drie-groepen) ----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class GroupLine:
    player: str
    points: Fraction
    """Match points: win, bye, arbiter duty 1; draw 1/2; loss, sign-off 0; externals too."""
    missed: int
    """Rounds of the period without a game or an external match."""


@dataclass(frozen=True, slots=True)
class PeriodGroups:
    period: int
    first_round: int
    last_round: int
    groups: tuple[tuple[str, ...], ...]
    """Members per group, in the order of the ranking the period was grouped on."""
    tables: tuple[tuple[GroupLine, ...], ...]
    """Per group, best first; equal points: the lowest placed first (he wins the tie)."""
    complete: bool
    """Every round of the period has been played."""

    @property
    def champions(self) -> tuple[str | None, ...]:
        return tuple(t[0].player if t and self.complete else None for t in self.tables)


def period_bounds(season: Season, period: int) -> tuple[int, int]:
    length = season.rules.rounds_per_period
    first = (period - 1) * length + 1
    last = season.rules.planned_rounds if period == season.rules.periods else period * length
    return first, last


def cut(ranking: Sequence[str], count: int) -> list[list[str]]:
    """Groups as equal as possible, the bigger ones on top."""
    size, extra = divmod(len(ranking), count)
    out, at = [], 0
    for k in range(count):
        take = size + (1 if k < extra else 0)
        out.append(list(ranking[at:at + take]))
        at += take
    return out


def period_groups(season: Season, period: int) -> PeriodGroups:
    """The groups of a period and their match-point tables, as far as it has been played."""
    return _period_groups(season, standings_history(season), period)


def _period_groups(season: Season, history: list[Standings], period: int) -> PeriodGroups:
    """`period_groups`, with the standings history computed once for every period."""
    first, last = period_bounds(season, period)
    played = min(last, season.complete_rounds)
    groups = _grouping(season, history, period)
    events = season_events(season, max(played, 0))
    points: dict[str, Fraction] = {p: Fraction(0) for g in groups for p in g}
    missed = dict.fromkeys(points, 0)
    for number in range(first, played + 1):
        for pid in points:
            gained, counted = _match_points([e for e in events[number - 1].get(pid, [])
                                             if e.round == number])
            points[pid] += gained
            missed[pid] += not counted
    tables = []
    for group in groups:
        order = {pid: k for k, pid in enumerate(group)}
        lines = [GroupLine(pid, points[pid], missed[pid]) for pid in group]
        tables.append(tuple(sorted(lines, key=lambda x: (-x.points, -order[x.player]))))
    return PeriodGroups(period, first, last, tuple(tuple(g) for g in groups), tuple(tables),
                        complete=season.complete_rounds >= last)


def _match_points(events: list[Event]) -> tuple[Fraction, bool]:
    """(match points, whether the round counts as played) for one player's round."""
    for event in events:
        if isinstance(event, Played):
            return event.score, True
        if isinstance(event, Awarded):
            return event.result, True
        if isinstance(event, Awaiting):
            return Fraction(0), True
        if isinstance(event, Compensated):
            if event.kind in (CompensationKind.BYE, CompensationKind.ARBITER,
                              CompensationKind.OPPONENT_ABSENT):
                return Fraction(1), True
            external = event.kind in (CompensationKind.EXTERNAL_CLUB_NIGHT,
                                      CompensationKind.EXTERNAL_OTHER_DAY)
            return Fraction(0), external
    return Fraction(0), False


def _grouping(season: Season, history: list[Standings], period: int) -> list[list[str]]:
    """Cut the last ranking before the period into groups as equal as possible. A player who
    missed more than half the rounds of the previous period stays in the group he was in;
    the others fill the remaining places in ranking order. Players who join later are placed
    with the player just above them in the ranking when they join."""
    rules = season.rules
    first, _ = period_bounds(season, period)
    before = list(history[min(first - 1, len(history) - 1)].ranking)
    sizes = [len(g) for g in cut(before, rules.period_groups)]
    groups: list[list[str]] = [[] for _ in sizes]
    if period > 1:
        previous = _period_groups(season, history, period - 1)
        half = (previous.last_round - previous.first_round + 1) / 2
        for k, table in enumerate(previous.tables):
            groups[k] += [line.player for line in table if line.missed > half]
    staying = {p for g in groups for p in g}
    k = 0
    for pid in before:
        if pid in staying:
            continue
        while k < len(groups) - 1 and len(groups[k]) >= sizes[k]:
            k += 1
        groups[k].append(pid)
    order = {pid: n for n, pid in enumerate(before)}
    groups = [sorted(g, key=order.__getitem__) for g in groups]
    placed = {p for g in groups for p in g}
    last_ranking = history[-1].ranking
    for n, pid in enumerate(last_ranking):
        if pid in placed:
            continue
        above = next((p for p in reversed(last_ranking[:n]) if p in placed), None)
        target = next((g for g in groups if above in g), groups[0]) if above else groups[0]
        target.append(pid)
        placed.add(pid)
    return groups


# --- subgroups with promotion (drie-cycli) --------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Subgroups:
    half: int
    """The mid-season round: prizes and promotion after it."""
    first_half: tuple[tuple[str, ...], tuple[str, ...]]
    mid_prizes: tuple[tuple[str, ...], tuple[str, ...]] | None
    """Best of each group by Keizer ranking after `half`; None before it."""
    promoted: tuple[str, ...]
    relegated: tuple[str, ...]
    second_half: tuple[tuple[str, ...], tuple[str, ...]]
    end_prizes: tuple[tuple[str, ...], tuple[str, ...]] | None
    overall: tuple[str, ...] | None
    """The best three of the whole season; the first is club champion."""


PRIZES = 3


def subgroups(season: Season) -> Subgroups:
    """Groups come from the players' `group` (none given: group 2). Mid-season is after round
    planned // 2. Up go the best `promotion` of group 2; down go as many of the last of group
    1 as keep it at its starting size, at most `promotion` ("afhankelijk van het aantal
    deelnemers op dat moment"). Only members still in the competition after mid-season count:
    a withdrawn player takes no prize, no promotion and no relegation place."""
    rules = season.rules
    half = rules.planned_rounds // 2
    start = [tuple(p.id for p in season.players if (p.group or 2) == g) for g in (1, 2)]
    still_in = {p.id for p in season.players if p.withdrawn is None or p.withdrawn > half}
    if season.complete_rounds < half:
        return Subgroups(half, (start[0], start[1]), None, (), (), (start[0], start[1]), None,
                         None)
    mid = compute_standings(season, half)
    ranked = [tuple(p for p in mid.ranking if p in g and p in still_in) for g in start]
    promoted = ranked[1][:rules.promotion]
    down = min(rules.promotion, max(0, len(ranked[0]) + len(promoted) - len(start[0])))
    relegated = ranked[0][len(ranked[0]) - down:] if down else ()
    second = (tuple(p for p in mid.ranking if (p in ranked[0] and p not in relegated)
                    or p in promoted),
              tuple(p for p in mid.ranking if (p in ranked[1] and p not in promoted)
                    or p in relegated))
    # Players who join later go into group 2.
    joined_later = tuple(p.id for p in season.players if p.joined > half
                         and p.id not in second[0] and p.id not in second[1])
    second = (second[0], second[1] + joined_later)
    end = overall = None
    if season.complete_rounds >= rules.planned_rounds:
        final = compute_standings(season, rules.planned_rounds)
        end = tuple(tuple(p for p in final.ranking if p in g)[:PRIZES] for g in second)
        overall = final.ranking[:PRIZES]
    return Subgroups(half, (start[0], start[1]),
                     (ranked[0][:PRIZES], ranked[1][:PRIZES]), promoted, relegated, second,
                     (end[0], end[1]) if end else None, overall)


# --- what a finished round brings --------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Announcement:
    """What the rules give after a round: one of the fields is set."""

    round: int
    champion: str | None = None
    playoff: Playoff | None = None
    period: PeriodGroups | None = None
    subgroups: Subgroups | None = None


def announcements(season: Season, round_no: int) -> list[Announcement]:
    """The titles and prizes decided by round `round_no` (now complete)."""
    rules = season.rules
    out: list[Announcement] = []
    last = round_no >= rules.planned_rounds
    if rules.titles is Titles.PERIOD_GROUPS:
        period = rules.period_of(round_no)
        if period_bounds(season, period)[1] == round_no:
            out.append(Announcement(round_no, period=period_groups(season, period)))
    if rules.titles is Titles.SUBGROUPS and (round_no == rules.planned_rounds // 2 or last):
        out.append(Announcement(round_no, subgroups=subgroups(season)))
    if last:
        final = compute_standings(season, round_no)
        match = playoff(final) if rules.titles is Titles.PLAYOFF else None
        out.append(Announcement(round_no, playoff=match) if match else
                   Announcement(round_no, champion=final.ranking[0]))
    return out
