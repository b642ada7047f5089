"""Realistic simulated seasons: members sign off now and then, the round is paired with our own
pairing, and games go by rating (Elo expectation, a share of draws).

Used for the example seasons, the benchmark instances, property tests and the demo; pure and
repeatable: all chance comes from the `random.Random` passed in.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from core.pairing import pair, request_for_round
from core.rules import rules_from_source
from core.season import Absence, AbsenceReason, ExternalDay, Game, Player, Result, Round, Season


@dataclass(frozen=True, slots=True)
class Habits:
    """How often members miss a round, and how games go."""

    notice: float = 0.10
    no_notice: float = 0.015
    external_club_night: float = 0.03
    external_other_day: float = 0.01
    arbiter: float = 0.0
    draw: float = 0.22
    forfeit: float = 0.005


def absences(rng: random.Random, season: Season, round_no: int,
             habits: Habits = Habits()) -> tuple[Absence, ...]:
    """Who signs off for a round, and why."""
    out = []
    team_valued = bool(season.rules.team_valued)
    for player in season.players:
        if not player.active_in(round_no):
            continue
        roll = rng.random()
        edges = [(habits.notice, AbsenceReason.NOTICE, None),
                 (habits.no_notice, AbsenceReason.NO_NOTICE, None),
                 (habits.external_club_night, AbsenceReason.EXTERNAL, ExternalDay.CLUB_NIGHT),
                 (habits.external_other_day, AbsenceReason.EXTERNAL, ExternalDay.OTHER_DAY),
                 (habits.arbiter, AbsenceReason.ARBITER, None)]
        for chance, reason, day in edges:
            if roll < chance:
                team = result = None
                if day is not None and team_valued:
                    team = rng.choice(sorted(season.rules.team_table))
                    result = rng.choice((Fraction(1), Fraction(1, 2), Fraction(0)))
                out.append(Absence(player.id, reason, day, team, result))
                break
            roll -= chance
    return tuple(out)


def outcomes(season: Season, white: str, black: str,
             habits: Habits = Habits()) -> tuple[tuple[Result, float], ...]:
    """A game's results played over the board, each with its chance: the Elo expectation of
    the ratings (1500 without one), with a share of draws no larger than it allows."""
    a, b = season.player(white).rating or 1500, season.player(black).rating or 1500
    expected = 1 / (1 + 10 ** ((b - a) / 400))
    draw = min(habits.draw, 2 * min(expected, 1 - expected))
    return ((Result.WHITE_WINS, expected - draw / 2), (Result.DRAW, draw),
            (Result.BLACK_WINS, 1 - expected - draw / 2))


def play(rng: random.Random, season: Season, white: str, black: str,
         habits: Habits = Habits()) -> Result:
    if rng.random() < habits.forfeit:
        return rng.choice((Result.WHITE_BY_FORFEIT, Result.BLACK_BY_FORFEIT))
    roll = rng.random()
    for result, chance in outcomes(season, white, black, habits):
        if roll < chance:
            return result
        roll -= chance
    return Result.BLACK_WINS  # what rounding leaves over


def simulate(rng: random.Random, *, rules: Any, players: tuple[Player, ...], rounds: int,
             club: str = "Simulatieclub", name: str = "2026-2027", start: dt.date | None = None,
             habits: Habits = Habits(), pair_last: bool = True) -> Season:
    """A season of `rounds` rounds; with `pair_last=False` the last round lists only who is
    absent (waiting to be paired)."""
    season = Season(club=club, name=name, rules=rules_from_source(rules), players=players,
                    rounds=(), rules_source=rules)
    for number in range(1, rounds + 1):
        date = None if start is None else start + dt.timedelta(weeks=number - 1)
        away = absences(rng, season, number, habits)
        if sum(p.active_in(number) for p in season.players) - len(away) < 2:
            away = ()  # a round needs a game: nobody stays home
        waiting = Round(number, date, (), away)
        season = replace(season, rounds=(*season.rounds, waiting))
        if number == rounds and not pair_last:
            break
        pairing = pair(request_for_round(season, number))
        games = tuple(Game(b.white, b.black, play(rng, season, b.white, b.black, habits))
                      for b in pairing.boards)
        bye = () if pairing.bye is None else (Absence(pairing.bye, AbsenceReason.BYE),)
        season = replace(season, rounds=(*season.rounds[:-1],
                                         replace(waiting, games=games,
                                                 absent=waiting.absent + bye)))
    return season

