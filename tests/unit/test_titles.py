"""Titles and prizes by hand: play-off, period groups, subgroups; each tie rule."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F
from pathlib import Path

from core.season import Result, read_season
from core.standings import compute_standings
from core.titles import (
    Playoff,
    announcements,
    cut,
    period_groups,
    playoff,
    playoff_winner,
    round_robin,
    subgroups,
)
from tests.seasons import build

ONE_ROUND = {"preset": "sliedrecht", "top_value": 60, "planned_rounds": 1, "period_length": 1}


def test_no_playoff_when_the_leader_is_clear():
    season = build(ONE_ROUND, "a:2000 b:1900 c:1800", ["a-b 1-0, c no_notice"])
    # a = 60 + 59 = 119, b = 59: 60 apart, more than half the top value (30).
    assert playoff(compute_standings(season)) is None
    (announcement,) = announcements(season, 1)
    assert announcement.champion == "a" and announcement.playoff is None


def test_a_match_when_number_two_is_within_half_the_top_value():
    season = build(ONE_ROUND, "a:2000 b:1900 c:1800", ["a-b 1/2-1/2, c no_notice"])
    # a = 60 + 59/2 = 89.5, b = 59 + 30 = 89 (within 30); c = 58 (31.5 behind: out).
    play = playoff(compute_standings(season))
    assert play is not None and play.is_match and play.margin == 30
    assert play.players == ("a", "b")
    assert play.games == (("a", "b"), ("b", "a"))  # #1 white in game 1
    (announcement,) = announcements(season, 1)
    assert announcement.playoff == play


def test_a_round_robin_when_more_are_within_the_margin():
    season = build(ONE_ROUND, "a:2000 b:1900 c:1800", ["a-b 1/2-1/2, c notice"])
    # c = 58 + 0.33 * 58 = 77.14: 12.36 behind a, so three players.
    play = playoff(compute_standings(season))
    assert play is not None and not play.is_match and play.players == ("a", "b", "c")
    assert Counter(frozenset(g) for g in play.games) == Counter(
        [frozenset("ab"), frozenset("ac"), frozenset("bc")])
    whites = Counter(w for w, _ in play.games)
    assert max(whites.values()) - min(whites[p] for p in "abc") <= 1


def test_round_robin_pairs_everyone_once():
    games = round_robin(list("abcdef"))
    assert len(games) == 15 and len({frozenset(g) for g in games}) == 15
    assert all(2 <= n <= 3 for n in Counter(w for w, _ in games).values())


def test_playoff_winner_by_points_then_head_to_head_then_rank():
    season = read_season((Path(__file__).parents[2] / "examples" / "sliedrecht.json").read_text())
    standings = compute_standings(season)
    rank = standings.ranking
    games = [(g.white, g.black, g.result) for r in season.rounds for g in r.games
             if g.result in (Result.WHITE_WINS, Result.BLACK_WINS)]
    # A pair where the lower-placed player won their game in the competition.
    upset = next((w, b) if r is Result.WHITE_WINS else (b, w) for w, b, r in games
                 if rank.index(w if r is Result.WHITE_WINS else b)
                 > rank.index(b if r is Result.WHITE_WINS else w)
                 and sum({w, b} == {x, y} for x, y, _ in games) == 1)
    higher, lower = sorted(upset, key=rank.index)
    assert lower == upset[0]  # the lower placed won their game
    match = Playoff((higher, lower), ((higher, lower), (lower, higher)), F(30))
    # Points decide first: the higher placed wins both games (white, then black).
    assert playoff_winner(season, standings, match,
                          [Result.WHITE_WINS, Result.BLACK_WINS]) == higher
    # 1-1: the better head-to-head score in the competition.
    assert playoff_winner(season, standings, match, [Result.DRAW, Result.DRAW]) == lower


def test_playoff_tie_with_equal_head_to_head_goes_to_the_higher_rank():
    season = build(ONE_ROUND, "a:2000 b:1900 c:1800", ["a-b 1/2-1/2, c no_notice"])
    standings = compute_standings(season)
    play = playoff(standings)
    assert play is not None
    # 1-1 in the play-off; they drew in the competition: a finished higher.
    assert playoff_winner(season, standings, play, [Result.WHITE_WINS, Result.WHITE_WINS]) \
        == "a"


PERIODS = {"preset": "drie-groepen", "top_value": 60, "planned_rounds": 4, "period_length": 2}
SIX = "a:2000 b:1900 c:1800 d:1700 e:1600 f:1500"


def test_groups_are_as_equal_as_possible_bigger_on_top():
    assert [len(g) for g in cut(list("abcdefgh"), 3)] == [3, 3, 2]
    assert [len(g) for g in cut(list("abcdefg"), 3)] == [3, 2, 2]


def test_period_groups_match_points_and_the_tie_rule():
    season = build(PERIODS, SIX, ["a-b 1/2-1/2, c-d 1-0, e-f 0-1",
                                  "a-c 1-0, b-d 1/2-1/2, e bye, f notice"])
    groups = period_groups(season, 1)
    # Period 1 is cut from the initial ranking: [a b] [c d] [e f].
    assert groups.groups == (("a", "b"), ("c", "d"), ("e", "f"))
    points = [{line.player: line.points for line in table} for table in groups.tables]
    # a: draw + win; b: two draws; c: win + loss; d: loss + draw;
    # e: loss + bye (1); f: win + sign-off (0).
    assert points == [{"a": F(3, 2), "b": 1}, {"c": 1, "d": F(1, 2)}, {"e": 1, "f": 1}]
    # e and f tie on 1: the lowest placed in the group (f) is period champion.
    assert groups.champions == ("a", "c", "f")
    assert {line.player: line.missed for line in groups.tables[2]} == {"e": 0, "f": 1}


def test_a_player_who_missed_more_than_half_stays_in_his_group():
    season = build(PERIODS, SIX, ["a notice, b-c 1-0, d-e 1-0, f no_notice",
                                  "a notice, b-c 1-0, d-e 1-0, f no_notice",
                                  "b-a 1-0, c-d 1-0, e-f 1-0"])
    ranking = compute_standings(season, 2).ranking
    assert ranking.index("a") >= 2  # by the ranking he would drop out of group 1
    groups = period_groups(season, 2).groups
    assert "a" in groups[0] and [len(g) for g in groups] == [2, 2, 2]
    assert not period_groups(season, 2).complete


def test_period_champions_are_announced_after_the_last_round_of_the_period():
    season = build(PERIODS, SIX, ["a-b 1/2-1/2, c-d 1-0, e-f 0-1",
                                  "a-c 1-0, b-d 1/2-1/2, e bye, f notice"])
    assert announcements(season, 1) == []
    (announcement,) = announcements(season, 2)
    assert announcement.period is not None and announcement.period.champions == ("a", "c", "f")


def grouped(players: str, groups: str) -> list[dict]:
    return [{"id": p, "name": p.upper(), "rating": 2000 - 10 * k, "group": int(g)}
            for k, (p, g) in enumerate(zip(players, groups, strict=True))]


def test_subgroups_prizes_and_promotion():
    rules = {"preset": "drie-cycli", "planned_rounds": 4, "period_length": 2, "promotion": 2}
    players = grouped("abcdefgh", "11112222")
    # Group 2 (e f g h) beats group 1 (a b c d) in both rounds before mid-season (round 2).
    rounds = ["e-a 1-0, f-b 1-0, g-c 1-0, h-d 1-0", "a-f 0-1, b-e 0-1, c-h 0-1, d-g 0-1",
              "a-b 1-0, c-d 1-0, e-f 1-0, g-h 1-0", "a-c 1-0, b-d 1-0, e-g 1-0, f-h 1-0"]
    season = build(rules, players, rounds)
    prizes = subgroups(season)
    assert prizes.half == 2
    mid = compute_standings(season, 2).ranking
    group1 = [p for p in mid if p in "abcd"]
    group2 = [p for p in mid if p in "efgh"]
    assert prizes.mid_prizes == (tuple(group1[:3]), tuple(group2[:3]))
    assert prizes.promoted == tuple(group2[:2])
    assert prizes.relegated == tuple(group1[2:])  # two up, so two down: group 1 keeps 4
    assert set(prizes.second_half[0]) == set(group1[:2]) | set(group2[:2])
    final = compute_standings(season).ranking
    assert prizes.overall == final[:3]
    assert prizes.end_prizes == tuple(tuple(p for p in final if p in g)[:3]
                                      for g in prizes.second_half)
    kinds = [a for a in announcements(season, 4)]
    assert kinds[0].subgroups == prizes and kinds[1].champion == final[0]


def test_fewer_go_down_when_group_one_has_shrunk():
    rules = {"preset": "drie-cycli", "planned_rounds": 4, "period_length": 2, "promotion": 2}
    players = grouped("abcdefgh", "11112222")
    players[3]["withdrawn"] = 1  # d stops after round 1: group 1 has three left
    rounds = ["e-a 1-0, f-b 1-0, g-c 1-0, h-d 1-0", "a-f 0-1, b-e 0-1, c-h 0-1, d-g 0-1"]
    rounds[1] = "a-f 0-1, b-e 0-1, c-h 0-1, g bye"
    season = build(rules, players, rounds)
    prizes = subgroups(season)
    # Only members still in count: 3 left + 2 up = 5, so one goes down to keep group 1 at 4;
    # d, who stopped, takes no place in either group (and no relegation place).
    assert len(prizes.promoted) == 2 and len(prizes.relegated) == 1
    assert "d" not in prizes.relegated and "d" not in prizes.mid_prizes[0]
    assert len(prizes.second_half[0]) == 4
    assert "d" not in prizes.second_half[0] + prizes.second_half[1]


EXAMPLES = Path(__file__).parents[2] / "examples"


def example(name: str):
    return read_season((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def test_drie_groepen_example_announces_period_champions_after_round_15():
    season = example("drie-groepen")
    assert announcements(season, 14) == []
    (news,) = announcements(season, 15)
    groups = news.period
    assert groups is not None and groups.complete and len(groups.tables) == 3
    for table, champion, members in zip(groups.tables, groups.champions, groups.groups,
                                        strict=True):
        best = max(line.points for line in table)
        tied = [m for m in members if any(x.player == m and x.points == best for x in table)]
        assert champion == tied[-1]  # the lowest placed of those with the most points


def test_drie_cycli_example_announces_mid_season_prizes_and_promotion():
    season = example("drie-cycli")
    (news,) = announcements(season, 13)
    prizes = news.subgroups
    assert prizes is not None and prizes.half == 13
    mid = compute_standings(season, 13).ranking
    group2 = [p for p in mid if p in prizes.first_half[1]]
    assert prizes.promoted == tuple(group2[:3])
    assert set(prizes.second_half[0]) >= set(prizes.promoted)
    assert not set(prizes.second_half[0]) & set(prizes.relegated)


def test_sliedrecht_example_has_no_title_before_the_last_round_and_one_after():
    import random

    from core.season import Player
    from core.simulation import simulate

    season = example("sliedrecht")
    assert all(announcements(season, r) == [] for r in range(1, season.complete_rounds + 1))
    members = tuple(Player(p.id, p.name, p.rating) for p in season.players)
    full = simulate(random.Random(30), rules="sliedrecht", players=members, rounds=30)
    (news,) = announcements(full, 30)
    final = compute_standings(full)
    gap = final.rows[0].score - final.rows[1].score
    if gap <= final.rows[0].value / 2:
        assert news.playoff is not None and news.playoff.players[:2] == final.ranking[:2]
    else:
        assert news.champion == final.ranking[0]
