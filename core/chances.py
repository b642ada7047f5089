"""What is at stake: each player's chance of each final place, from a seeded Monte Carlo over
the season's remaining rounds, and his place after the next round for each result of his.

A run plays every remaining round: each member comes as often as his own record says (the
share of the rounds he was active in that he played), is paired with his neighbour in the
table as it stood before the run (a Keizer pairing pairs near the top; the exact engine
would make every run a hundred times slower, for a picture that hardly moves), and each game
goes by the Elo expectation of the ratings (`simulation.play`). The final standings of
the run are worked out by the club's own rules. The same season gives the same chances:
all chance comes from one `random.Random(seed)`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from core.season import Absence, AbsenceReason, Game, Result, Round, Season
from core.simulation import Habits, play
from core.standings import compute_standings

RUNS = 200
"""Runs of the rest of the season at a club's usual size: a share is known to within about
3 points either way."""
GAMES = 90_000
"""The games all runs together play at most (`runs_for`): a larger club gets fewer runs, so
its chances take seconds, not minutes (bench/chances.py)."""
FEWEST_RUNS = 20
SEED = 36
HABITS = Habits(forfeit=0.0)
"""How the simulated games go: by rating, with draws; no forfeits."""


@dataclass(frozen=True, slots=True)
class Chances:
    """How often, in `runs` runs of the `rounds_left` rounds after round `after_round`, each
    player ended in each place."""

    after_round: int
    rounds_left: int
    runs: int
    places: Mapping[str, tuple[int, ...]]
    """A player's runs ending in 1st, 2nd, ... place."""

    def share(self, player: str, place: int) -> float:
        """The share of runs that ended with `player` in `place` (1: first)."""
        counts = self.places.get(player, ())
        return counts[place - 1] / self.runs if 0 < place <= len(counts) else 0.0

    def likeliest(self, player: str) -> int:
        counts = self.places[player]
        return max(range(len(counts)), key=lambda k: (counts[k], -k)) + 1


def attendance(season: Season) -> dict[str, float]:
    """Each active player's share of the complete rounds (since he joined) he played, a bye
    counting as played; 1 before he had any."""
    rounds = season.rounds[:season.complete_rounds]
    shares = {}
    for player in season.players:
        active = [r for r in rounds if player.active_in(r.number)]
        came = [r for r in active if any(player.id in (g.white, g.black) for g in r.games)
                or any(a.player == player.id and a.reason is AbsenceReason.BYE
                       for a in r.absent)]
        shares[player.id] = len(came) / len(active) if active else 1.0
    return shares


def neighbours(order: Sequence[str], present: set[str]) -> tuple[list[tuple[str, str]],
                                                                  str | None]:
    """The boards of a simulated round: those present in the table's order, 1st against 2nd,
    3rd against 4th, ...; the last one left over has the bye."""
    here = [code for code in order if code in present]
    boards = [(here[k], here[k + 1]) for k in range(0, len(here) - 1, 2)]
    return boards, here[-1] if len(here) % 2 else None


def simulated_round(season: Season, number: int, order: Sequence[str], present: set[str],
                    result: Callable[[str, str], Result]) -> Round:
    """Round `number` of a run: who is not `present` is absent with notice, the boards as
    `neighbours` has them, each game's result as `result(white, black)` says."""
    boards, bye = neighbours(order, present)
    away = tuple(Absence(p.id, AbsenceReason.NOTICE) for p in season.players
                 if p.active_in(number) and p.id not in present)
    return Round(number, None, tuple(Game(w, b, result(w, b)) for w, b in boards),
                 away + ((Absence(bye, AbsenceReason.BYE),) if bye else ()))


def rest_of_season(season: Season) -> tuple[Season, range]:
    """The season's complete rounds, and the numbers of the rounds still to play."""
    done = season.rounds[:season.complete_rounds]
    planned = season.planned_rounds or season.rules.planned_rounds
    return replace(season, rounds=done), range(len(done) + 1, max(planned, len(done)) + 1)


def runs_for(season: Season) -> int:
    """How many runs of the rest of the season are worked out: RUNS, fewer for a club
    whose runs would play more than GAMES games (never fewer than FEWEST_RUNS)."""
    start, left = rest_of_season(season)
    games = max(1, len(start.players) // 2 * (len(start.rounds) + len(left)))
    return max(FEWEST_RUNS, min(RUNS, GAMES // games))


def chances(season: Season, *, runs: int | None = None, seed: int = SEED) -> Chances:
    """Each player's final places over `runs` runs of the rest of the season (`runs_for`
    when not given)."""
    runs = runs_for(season) if runs is None else runs
    start, left = rest_of_season(season)
    order = compute_standings(start).ranking
    rates = attendance(start)
    rng = random.Random(seed)

    def played(white: str, black: str) -> Result:
        return play(rng, start, white, black, HABITS)

    counts = {code: [0] * len(order) for code in order}
    for _ in range(runs):
        rounds = []
        for number in left:
            present = {p.id for p in start.players
                       if p.active_in(number) and rng.random() < rates[p.id]}
            rounds.append(simulated_round(start, number, order, present, played))
        final = compute_standings(replace(start, rounds=(*start.rounds, *rounds))).ranking
        for place, code in enumerate(final):
            if code in counts and place < len(order):
                counts[code][place] += 1
    return Chances(len(start.rounds), len(left), runs,
                   {code: tuple(row) for code, row in counts.items()})


def next_round_places(season: Season, player: str) -> tuple[int, int, int] | None:
    """His place after the next round if he wins, draws or loses it against his neighbour in
    the table, every other board drawn and everyone there; None when he has nobody to play
    or no round is left."""
    start, left = rest_of_season(season)
    order = compute_standings(start).ranking
    if not left or player not in order:
        return None
    number = left[0]
    present = {p.id for p in start.players if p.active_in(number)}
    mine = next((board for board in neighbours(order, present)[0] if player in board), None)
    if mine is None:
        return None
    places = []
    for won, lost in ((Result.WHITE_WINS, Result.BLACK_WINS), (Result.DRAW, Result.DRAW),
                      (Result.BLACK_WINS, Result.WHITE_WINS)):
        own = won if mine[0] == player else lost

        def result(white: str, black: str, own: Result = own) -> Result:
            return own if (white, black) == mine else Result.DRAW
        rnd = simulated_round(start, number, order, present, result)
        ranking = compute_standings(replace(start, rounds=(*start.rounds, rnd))).ranking
        places.append(ranking.index(player) + 1)
    return places[0], places[1], places[2]
