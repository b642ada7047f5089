"""The pairing request for a round of a season: ranking, who is present, and the history."""

from __future__ import annotations

from dataclasses import replace

from core.errors import InvalidInputError, ProblemCode, Problems
from core.pairing.model import Fixes, Meeting, PairingRequest
from core.rules import Colour
from core.season import AbsenceReason, Round, Season
from core.standings import compute_standings, insert_by_rating


def pairing_ranking(season: Season, round_no: int) -> tuple[str, ...]:
    """The ranking round `round_no` is paired on: after the round before, with the players
    who join in this round inserted by rating."""
    ranking = compute_standings(season, round_no - 1).ranking
    joiners = [p for p in season.players if p.joined == round_no and round_no > 1]
    return tuple(insert_by_rating(ranking, joiners, lambda pid: season.player(pid).rating))


NO_FIXES = Fixes()


def fitting_fixes(fixes: Fixes, present: frozenset[str]) -> tuple[Fixes, Fixes]:
    """(the fixes that still fit who is present, those that do not). Attendance can change
    after the arbiter fixed something (a late but timely sign-off, a withdrawal): a fix that
    names an absent player, or a bye when the number playing became even, no longer applies,
    and keeping it would make the round impossible to pair."""
    leave_out = fixes.leave_out & present
    playing = present - leave_out
    boards: list[tuple[str, str]] = []
    gone: list[tuple[str, str]] = []
    seen: set[str] = set()
    for white, black in fixes.boards:
        if white != black and {white, black} <= playing and not {white, black} & seen:
            boards.append((white, black))
            seen |= {white, black}
        else:
            gone.append((white, black))
    forbidden = frozenset(pair for pair in fixes.forbidden if pair <= playing)
    bye = fixes.bye if fixes.bye in playing and fixes.bye not in seen \
        and len(playing) % 2 == 1 else None
    kept = Fixes(tuple(boards), forbidden, bye, leave_out)
    dropped = Fixes(tuple(gone),
                    fixes.forbidden - forbidden,
                    fixes.bye if fixes.bye is not None and bye is None else None,
                    fixes.leave_out - leave_out)
    return kept, dropped


def present_in(season: Season, round_no: int) -> frozenset[str]:
    """Who takes part in round `round_no` (active, not signed off); the round must be the
    last of the season or the next one."""
    waiting = bool(season.rounds) and not season.rounds[-1].is_paired
    absent = {a.player for a in season.round(round_no).absent} \
        if waiting and round_no == len(season.rounds) else set()
    return frozenset(p.id for p in season.players
                     if p.active_in(round_no) and p.id not in absent)


def before_pairing(season: Season, round_no: int) -> Season:
    """The season as it stood when round `round_no` waited to be paired: later rounds gone,
    the round's games and bye removed, its sign-offs kept (to pair a draft again)."""
    waiting = season.round(round_no)
    absent = tuple(a for a in waiting.absent if a.reason is not AbsenceReason.BYE)
    return replace(season, rounds=(*season.rounds[:round_no - 1],
                                   Round(round_no, waiting.date, (), absent)))


def request_for_round(season: Season, round_no: int, fixes: Fixes = NO_FIXES,
                      apart: frozenset[frozenset[str]] = frozenset()) -> PairingRequest:
    """Round `round_no` must be the round after the last one, or the last round when it lists
    only who is absent (waiting to be paired). `apart`: the pairs the arbiter keeps apart
    all season."""
    problems = Problems()
    waiting = season.rounds and not season.rounds[-1].is_paired
    expected = len(season.rounds) if waiting else len(season.rounds) + 1
    if round_no != expected:
        problems.add("round", ProblemCode.ROUND_ORDER, value=round_no, expected=expected)
        raise InvalidInputError(problems.items)
    present = present_in(season, round_no)
    meetings: list[Meeting] = []
    colours: dict[str, list[Colour]] = {}
    byes: dict[str, int] = {}
    for rnd in season.rounds[:round_no - 1]:
        for game in rnd.games:
            if game.result is not None and game.result.is_forfeit:
                continue  # a forfeit is not a game: no meeting, no colours
            meetings.append(Meeting(rnd.number, game.white, game.black))
            colours.setdefault(game.white, []).append(Colour.WHITE)
            colours.setdefault(game.black, []).append(Colour.BLACK)
        for absence in rnd.absent:
            if absence.reason is AbsenceReason.BYE:
                byes[absence.player] = byes.get(absence.player, 0) + 1
    return PairingRequest(
        round=round_no, ranking=pairing_ranking(season, round_no), present=present,
        rules=season.rules, meetings=tuple(meetings),
        colours={pid: tuple(c) for pid, c in colours.items()}, byes=byes, fixes=fixes,
        apart=apart)
