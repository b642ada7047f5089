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

import itertools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
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


SEARCHED = 243
"""Ways a round can go (3 to the power of its boards: five boards) tried one by one for the
best and worst case; beyond, the boards nearest him are set to what suits him best (worst) in
turn, until no board changes it or as many places were worked out as the chances' runs."""


@dataclass(frozen=True, slots=True)
class NextRound:
    """A player's next round: the board the engine gives him, and where each way it can go
    leaves him in the table."""

    opponent: str
    win: int
    draw: int
    loss: int
    """His place after a win, a draw, a loss, every other board drawn."""
    best: int
    worst: int
    """His best and worst place over every result of every board (his own among them)."""
    exact: bool
    """Every way was tried (else `best` and `worst` are the best and worst found)."""


def _boards(start: Season, known: Round | None, number: int
            ) -> tuple[list[tuple[str, str]], tuple[Absence, ...]]:
    """Round `number`'s boards and absences: as published, else as the exact engine pairs
    those who had not signed off (`start`: the season before it)."""
    from core.pairing import before_pairing, pair, request_for_round  # the engine: at use

    if known is not None and known.games:
        return [(g.white, g.black) for g in known.games], tuple(known.absent)
    waiting = (*start.rounds, known or Round(number))
    paired = pair(request_for_round(before_pairing(replace(start, rounds=waiting), number),
                                    number))
    return [(b.white, b.black) for b in paired.boards], \
        (*(known.absent if known else ()),
         *((Absence(paired.bye, AbsenceReason.BYE),) if paired.bye else ()))


def next_round(season: Season, player: str) -> NextRound | None:
    """His next round: the boards as published, else as the exact engine pairs those who had
    not signed off; None when no round is left or he has no board in it (a bye, away)."""
    start, left = rest_of_season(season)
    if not left or player not in {p.id for p in start.players}:
        return None
    number = left[0]
    boards, absent = _boards(start, season.round(number) if len(season.rounds) >= number
                             else None, number)
    mine = next((board for board in boards if player in board), None)
    if mine is None:
        return None
    white = mine[0] == player

    def place(results: Sequence[Result]) -> int:
        rnd = Round(number, None, tuple(Game(w, b, r) for (w, b), r in zip(boards, results,
                                                                            strict=True)),
                    absent)
        return compute_standings(replace(start, rounds=(*start.rounds, rnd))).ranking.index(
            player) + 1

    own = boards.index(mine)
    win, loss = (Result.WHITE_WINS, Result.BLACK_WINS) if white else \
        (Result.BLACK_WINS, Result.WHITE_WINS)

    def drawn_but(result: Result) -> list[Result]:
        return [result if k == own else Result.DRAW for k in range(len(boards))]

    won, drew, lost = (place(drawn_but(r)) for r in (win, Result.DRAW, loss))
    exact = 3 ** len(boards) <= SEARCHED
    if exact:
        every = [place(results) for results in itertools.product(PLAYED, repeat=len(boards))]
        best, worst = min(every), max(every)
    else:
        # The boards nearest him in the table first: their results move him most.
        rank = {code: k for k, code in enumerate(compute_standings(start).ranking)}
        near = sorted(range(len(boards)), key=lambda k: min(
            abs(rank.get(code, len(rank)) - rank.get(player, 0)) for code in boards[k]))
        tries = max(3, runs_for(season) // 2)  # about the time of the chances
        best = _searched(place, drawn_but(win), near, tries, min)
        worst = _searched(place, drawn_but(loss), near, tries, max)
    return NextRound(mine[1] if white else mine[0], won, drew, lost,
                     min(best, won), max(worst, lost), exact)


PLAYED = (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)


def _searched(place: Callable[[Sequence[Result]], int], results: list[Result],
              order: Sequence[int], tries: int, better: Callable[[Iterable[int]], int]) -> int:
    """From `results`, each board in `order` set in turn to the result whose place `better`
    picks, until a pass changes nothing or `tries` places were worked out: the place
    reached (one the round can give)."""
    now = place(results)
    changed = True
    while changed and tries > 0:
        changed = False
        for k in order:
            for result in PLAYED:
                if result is results[k] or tries <= 0:
                    continue
                tried = [*results[:k], result, *results[k + 1:]]
                found, tries = place(tried), tries - 1
                if better((found, now)) == found and found != now:
                    results, now, changed = tried, found, True
    return now
