"""Issue 15: the season as FIDE TRF16 for the rating administration, and TRF read back.

The writer is checked against a reader written here from the FIDE specification (C.04 Annex
2, TRF16: the columns are 1-based and fixed), not against our own reader; golden files pin
the three example seasons; our own reader must give back the season the file was written
from, and read a foreign file with a report of what it assumed."""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest

from core.encoding import UTF8, WINDOWS, decode
from core.errors import InvalidSeasonError
from core.names import surname_first
from core.season import Season, read_season, season_from_data
from core.standings import compute_standings
from core.trf import (
    Assumed,
    TrfError,
    TrfProblem,
    read_trf,
    trf_bytes,
    write_trf,
)
from tests.unit.trf_lines import spec_line, without_board_order

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ("sliedrecht", "drie-cycli", "drie-groepen")
SEASONS = [ROOT / "examples" / f"{name}.json" for name in EXAMPLES] + \
    [ROOT / "tests" / "data" / "sevilla-2025-26.season.json"]


def example(path: Path) -> Season:
    return read_season(path.read_text("utf-8"))


def field(line: str, first: int, last: int) -> str:
    """Columns `first`..`last`, 1-based and inclusive, as the specification numbers them."""
    return line[first - 1:last]


def spec_read(text: str) -> dict:
    """A TRF16 reader from the specification's tables, for checking the writer."""
    players, dates, header = {}, [], {}
    for line in text.split("\r\n"):
        code = field(line, 1, 3)
        if code == "001":
            assert field(line, 4, 4) == " " and field(line, 9, 9) == " "
            rounds = []
            column = 92
            while column <= len(line):
                rounds.append((field(line, column, column + 3), field(line, column + 5,
                                                                      column + 5),
                               field(line, column + 7, column + 7)))
                assert field(line, column - 2, column - 1) in ("  ", " ", "")
                column += 10
            players[int(field(line, 5, 8))] = {
                "sex": field(line, 10, 10).strip(), "title": field(line, 11, 13).strip(),
                "birth": field(line, 70, 79).strip(),
                "name": field(line, 15, 47).rstrip(), "rating": field(line, 49, 52).strip(),
                "federation": field(line, 54, 56), "id": field(line, 58, 68).strip(),
                "points": field(line, 81, 84).strip(), "rank": field(line, 86, 89).strip(),
                "rounds": rounds}
        elif code == "132":
            column = 92
            while column <= len(line):
                dates.append(field(line, column, column + 7).strip())
                column += 10
        elif code.isdigit() or code == "XXR":
            header[code] = line[4:]
    return {"players": players, "dates": dates, "header": header}


@pytest.mark.parametrize("path", SEASONS, ids=lambda p: p.stem)
def test_the_file_reads_by_the_specification_as_the_season(path):
    season = example(path)
    written = write_trf(season)
    read = spec_read(written)
    done = season.rounds[:season.complete_rounds]
    order = list(season.starting_order())
    order += [p.id for p in season.players if p.id not in order]
    number = {pid: k for k, pid in enumerate(order, start=1)}
    players = read["players"]
    assert sorted(players) == list(range(1, len(season.players) + 1))
    assert read["header"]["062"] == str(len(season.players))
    assert read["dates"] == [f"{r.date:%y/%m/%d}" for r in done]
    assert read["header"]["122"] == season.rules.time_control
    assert read["header"]["XXR"] == str(season.rules.planned_rounds)
    rows = {row.id: row for row in compute_standings(season, len(done)).rows}
    for pid, k in number.items():
        player, line = season.player(pid), players[k]
        assert line["name"] == surname_first(player.name)[:33]
        assert line["rating"] == str(player.rating or "")
        assert line["federation"].strip() == (player.federation or "")
        assert line["id"] == str(player.fide_id or "")
        assert line["rank"] == str(rows[pid].rank)
        # The points column holds the game points: the sum of the line's results, as FIDE's
        # readers add them up (a bye U or F a point, H a half, Z nothing).
        worth = {"1": 1, "+": 1, "U": 1, "F": 1, "=": Fraction(1, 2), "H": Fraction(1, 2)}
        assert Fraction(line["points"]) == sum(Fraction(worth.get(e[2], 0))
                                               for e in line["rounds"])
    games = 0
    for rnd in done:
        for game in rnd.games:
            games += 1
            white = players[number[game.white]]["rounds"][rnd.number - 1]
            black = players[number[game.black]]["rounds"][rnd.number - 1]
            assert (white[0], white[1]) == (f"{number[game.black]:04d}", "w")
            assert (black[0], black[1]) == (f"{number[game.white]:04d}", "b")
            assert white[2] + black[2] == {"1-0": "10", "0-1": "01", "1/2-1/2": "==",
                                          "+-": "+-", "-+": "-+", "--": "--"}[game.result]
        for absence in rnd.absent:
            entry = players[number[absence.player]]["rounds"][rnd.number - 1]
            assert entry == ("0000", "-", {"bye": "U", "half_bye": "H"}.get(absence.reason, "Z"))
    codes = [e[2] for p in players.values() for e in p["rounds"]]
    assert codes.count("1") + codes.count("0") + codes.count("=") + codes.count("+") + \
        codes.count("-") == 2 * games  # every game twice, nothing else looks like one
    # The Keizer score travels in our comment lines, and the rank follows it.
    keizer = {entry["number"]: entry for entry in (
        json.loads(x.split(" ", 2)[2]) for x in written.splitlines()
        if x.startswith("### keizerbot:keizer "))}
    assert sorted(keizer) == sorted(players)
    for pid, k in number.items():
        assert Fraction(keizer[k]["score"]) == rows[pid].score
        assert keizer[k]["rank"] == rows[pid].rank
    by_rank = sorted(keizer.values(), key=lambda p: p["rank"])
    assert all(Fraction(a["score"]) >= Fraction(b["score"])
               for a, b in itertools.pairwise(by_rank))
    assert "### Punten (kolom 81-84): de partijpunten" in written


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_example_seasons_as_golden_files(name, golden):
    written = write_trf(example(ROOT / "examples" / f"{name}.json"))
    golden(ROOT / "tests" / "data" / "golden" / f"{name}.trf", written.replace("\r\n", "\n"))


@pytest.mark.parametrize("path", SEASONS, ids=lambda p: p.stem)
def test_written_and_read_back_it_is_the_same_season(path):
    season = example(path)
    finished = dataclasses.replace(season, rounds=season.rounds[:season.complete_rounds])
    for charset in (UTF8, WINDOWS):
        back = read_trf(decode(trf_bytes(season, charset=charset)))
        assert back.assumed == {}
        assert without_board_order(back.season) == without_board_order(finished)


def test_what_chesspairing_cannot_say_comes_back_too():
    season = season_from_data({
        "format": "keizer-season/1", "club": "C", "season": "2026-2027",
        "rules": {"preset": "sliedrecht"},
        "players": [{"id": "a", "name": "Ömer Çelik", "rating": 1900, "knsb": 8123456},
                    {"id": "b", "name": "Jan de Vries", "youth": True},
                    {"id": "c", "name": "Piet", "flexible": True},
                    {"id": "d", "name": "Kees van der Berg", "group": 2, "joined": 2}],
        "rounds": [
            {"round": 1, "date": "2026-09-03", "games": [{"white": "a", "black": "b",
                                                          "result": "-+"}],
             "absent": [{"player": "c", "reason": "arbiter"}]},
            {"round": 2, "games": [{"white": "c", "black": "d", "result": "1/2-1/2"}],
             "absent": [{"player": "a", "reason": "external", "day": "other_day"},
                        {"player": "b", "reason": "no_notice"}]}]})
    written = write_trf(season, charset=WINDOWS)
    assert "### chesspairing:bye round=1 player=3 type=excused" in written
    assert "Celik, Omer" not in written  # written as it is; Windows-1252 has both letters
    back = read_trf(decode(trf_bytes(season, charset=WINDOWS))).season
    assert without_board_order(back) == without_board_order(season)


def test_a_foreign_file_becomes_a_season_with_what_was_assumed():
    lines = [
        "012 Open Zomer",
        "042 2026/07/01",
        "132".ljust(91) + "26/07/01  26/07/08  26/07/15",
        spec_line(1, "Vries, Jan de", "1900", "8123456", "2.0", 1,
                  ["0002 w 1", "0003 b W", "0000 - H"]),
        spec_line(2, "Bakker, Anna", "1800", "", "0.5", 3,
                  ["0001 b 0", "0000 - U", "0003 w ="]),
        spec_line(3, "Smit, Piet", "1700", "", "1.5", 2, ["", "0001 w L", "0002 b ="]),
    ]
    imported = read_trf("\r\n".join(lines), preset="drie-groepen")
    season = imported.season
    assert (season.club, season.name, season.rules_source) == ("Open Zomer", "2026-2027",
                                                               "drie-groepen")
    # The id column is FIDE's: never taken for a KNSB relation number.
    assert [(p.id, p.name, p.rating, p.fide_id, p.knsb, p.joined) for p in season.players] == [
        ("jan-de-vries", "Jan de Vries", 1900, 8123456, None, 1),
        ("anna-bakker", "Anna Bakker", 1800, None, None, 1),
        ("piet-smit", "Piet Smit", 1700, None, None, 2)]
    assert [r.date for r in season.rounds] == [dt.date(2026, 7, d) for d in (1, 8, 15)]
    assert [str(g) for r in season.rounds for g in r.games] == [
        "jan-de-vries-anna-bakker 1-0", "piet-smit-jan-de-vries 0-1",
        "anna-bakker-piet-smit ½-½"]
    assert [(a.player, a.reason.value) for r in season.rounds for a in r.absent] == [
        ("anna-bakker", "bye"), ("jan-de-vries", "notice")]
    # U is the pairing's bye; H, a bye he asked for, is a sign-off in a Keizer competition.
    # Both are guesses, and the report names each.
    assert imported.assumed == {Assumed.IDS: 3, Assumed.RULES: 1, Assumed.JOINED_LATER: 1,
                                Assumed.UNRATED_RESULT: 1, Assumed.ABSENCE_KIND: 1,
                                Assumed.BYE_AS_SIGN_OFF: 1}


def test_requested_byes_cross_a_trf_as_h_and_z_both_ways():
    lines = [spec_line(1, "A, A", "", "", "1.5", 1, ["0002 w 1", "0000 - H"]),
             spec_line(2, "B, B", "", "", "1.0", 2, ["0001 b 0", "0003 w 1"]),
             spec_line(3, "C, C", "", "", "0.5", 3, ["0000 - H", "0002 b 0"])]
    season = read_trf("\n".join(lines), fide_byes=True).season
    assert [(r.number, a.reason.value) for r in season.rounds for a in r.absent] == \
        [(1, "half_bye"), (2, "half_bye")]
    lines[2] = spec_line(3, "C, C", "", "", "0.0", 3, ["0000 - Z", "0002 b 0"])
    season = read_trf("\n".join(lines), fide_byes=True).season
    assert season.round(1).absent[0].reason.value == "zero_bye"
    written = write_trf(season)
    entries = {x[4:8].strip(): x[91:].split() for x in written.splitlines() if x.startswith("001")}
    assert entries["1"][3:] == ["0000", "-", "H"] and entries["3"][:3] == ["0000", "-", "Z"]
    assert "type=half" in written and "type=zero" in written


def test_a_chesspairing_bye_type_is_read_as_the_keizer_kind():
    lines = [spec_line(1, "B, A", "", "", "0.0", 1, ["0000 - Z"]),
             "### chesspairing:bye round=1 player=1 type=clubcommitment"]
    season = read_trf("\n".join(lines)).season
    assert season.rounds[0].absent[0].kind.value == "external_club_night"


@pytest.mark.parametrize(("lines", "problem", "line"), [
    (["012 Niets"], TrfProblem.NO_PLAYERS, 0),
    (["001 abcd"], TrfProblem.BAD_PLAYER_LINE, 1),
    (["001    1      A".ljust(91) + "0002 x 1"], TrfProblem.BAD_ENTRY, 1),
    (["001    1      A".ljust(91) + "0002 w 1"], TrfProblem.UNKNOWN_OPPONENT, 1),
    (["001    1      A".ljust(91) + "0002 w 1", "001    2      B".ljust(91) + "0001 b 1"],
     TrfProblem.OPPONENTS_DISAGREE, 1),
    (["001    1      A".ljust(91) + "0000 - Z", "### keizerbot:season {kapot"],
     TrfProblem.BAD_COMMENT, 2),
])
def test_a_file_that_is_no_usable_trf_names_the_line(lines, problem, line):
    with pytest.raises(TrfError) as caught:
        read_trf("\n".join(lines))
    assert (caught.value.problem, caught.value.line) == (problem, line)


def test_rules_that_do_not_exist_are_the_season_files_problem():
    with pytest.raises(InvalidSeasonError):
        read_trf("001    1      A".ljust(91) + "0000 - Z", preset="geen-reglement")


def test_no_finished_round_writes_only_the_players():
    season = example(ROOT / "examples" / "sliedrecht.json")
    empty = dataclasses.replace(season, rounds=())
    read = spec_read(write_trf(empty))
    assert len(read["players"]) == len(season.players)
    assert all(p["rounds"] == [] for p in read["players"].values())
