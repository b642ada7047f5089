"""Issue 25: TRF files other programs wrote (tests/data/trf, sources in tests/data/README.md),
read field by field, and written back so that every game, name, id, federation, sex, title and
birth date survives; the names in the encodings readers need; TRF-2026's games not played yet
and byes entered ahead of a round.

Each file is checked against a column reader written here from the FIDE table (C.04 Annex 2:
1-based, fixed columns), not against the importer it tests."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core import names
from core.encoding import UTF8, WINDOWS, decode
from core.season import Season, read_season, season_from_data, season_to_data, season_to_json
from core.trf import Assumed, TrfError, TrfHeader, TrfProblem, read_trf, trf_bytes, write_trf
from tests.unit.trf_lines import spec_line, without_board_order

FILES = sorted((Path(__file__).resolve().parents[1] / "data" / "trf").glob("*.trf"))
CODES = {"1": "1", "0": "0", "=": "=", "+": "+", "-": "-", "W": "1", "L": "0", "D": "="}
BYES = {"H": "half_bye", "Z": "zero_bye", "U": "bye", "F": "bye"}
"""The byes of these Swiss files in FIDE's meaning (`--byes fide`): a half-point bye is one."""


def columns(text: str) -> dict[int, dict]:
    """Each `001` line's fields by the FIDE column table, by start number."""
    players = {}
    for line in re.split(r"\r\n|\r|\n", text):
        if not line.startswith("001"):
            continue

        def at(first: int, last: int, row: str = line) -> str:
            return row[first - 1:last].strip()

        rounds = []
        for column in range(92, len(line) + 1, 10):
            rounds.append((at(column, column + 3), at(column + 5, column + 5),
                           at(column + 7, column + 7)))
        players[int(at(5, 8))] = {
            "sex": at(10, 10), "title": at(11, 13), "name": at(15, 47), "rating": at(49, 52),
            "federation": at(54, 56), "fide_id": at(58, 68), "birth": at(70, 79),
            "points": at(81, 84), "rank": at(86, 89), "rounds": rounds}
    return players


def games_of(players: dict[int, dict]) -> set[tuple[int, int, int, str, str]]:
    """(round, white, black, white's code, black's code) of every game, seen from white."""
    found = set()
    for start, player in players.items():
        for number, (opponent, colour, code) in enumerate(player["rounds"], start=1):
            if opponent.isdigit() and int(opponent) and colour == "w":
                theirs = players[int(opponent)]["rounds"][number - 1][2]
                found.add((number, start, int(opponent), CODES.get(code, code),
                           CODES.get(theirs, theirs)))
    return found


def identity(player: dict) -> tuple:
    birth = player["birth"].replace("/", "-")
    return (player["name"], player["fide_id"], player["federation"], player["sex"],
            player["title"], birth)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_each_file_is_read_field_by_field(path):
    text = decode(path.read_bytes())
    lines = columns(text)
    imported = read_trf(text, fide_byes=True)
    season = imported.season
    start_of = {pid: start for start, pid in zip(sorted(lines), [p.id for p in season.players],
                                                  strict=True)}
    for player in season.players:
        line = lines[start_of[player.id]]
        written = line["name"]
        if "," in written:
            assert player.name == names.given_first(written) and not player.name_as_written
        else:
            assert (player.name, player.name_as_written) == (" ".join(written.split()), True)
        assert player.rating == (int(line["rating"]) if line["rating"].strip("0") else None)
        assert player.fide_id == (int(line["fide_id"]) if line["fide_id"] else None)
        assert player.knsb is None  # the id column is FIDE's, never a KNSB number
        assert player.federation == (line["federation"] or None)
        assert player.sex == (line["sex"] or None)
        assert player.title == (line["title"] or None)
        assert (player.birth or "").replace("-", "/") == line["birth"]
    number = {start: pid for pid, start in start_of.items()}
    read_games = {(r.number, start_of[g.white], start_of[g.black]): g.result
                  for r in season.rounds for g in r.games}
    assert {k[:3] for k in games_of(lines)} == set(read_games)
    for rnd, white, black, code, theirs in games_of(lines):
        assert read_games[rnd, white, black].value == {
            ("1", "0"): "1-0", ("0", "1"): "0-1", ("=", "="): "1/2-1/2", ("+", "-"): "+-",
            ("-", "+"): "-+", ("-", "-"): "--"}[code, theirs]
    for start, line in lines.items():
        for rnd, (opponent, _, code) in enumerate(line["rounds"], start=1):
            if opponent in ("0000", "0") or code in BYES:
                absent = {a.player: a.reason.value for a in season.round(rnd).absent}
                assert absent[number[start]] == BYES[code]
    assert Assumed.NAME_AS_WRITTEN in imported.assumed or all(
        "," in line["name"] for line in lines.values())


def keyed(players: dict[int, dict]) -> set[tuple]:
    """The games with each player by who he is, not by his start number."""
    return {(rnd, identity(players[white]), identity(players[black]), code, theirs)
            for rnd, white, black, code, theirs in games_of(players)}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("charset", [UTF8, WINDOWS])
def test_written_back_every_game_name_and_id_survives(path, charset):
    original = columns(decode(path.read_bytes()))
    season = read_trf(decode(path.read_bytes()), fide_byes=True).season
    written = trf_bytes(season, charset=charset)
    again = columns(written.decode(charset))
    assert sorted(identity(p) for p in again.values()) == \
        sorted(identity(p) for p in original.values())
    done = season.complete_rounds
    assert keyed(again) == {game for game in keyed(original) if game[0] <= done}
    back = read_trf(written.decode(charset)).season
    finished = season_from_data({**season_to_data(season),
                                 "rounds": season_to_data(season)["rounds"][:done]})
    assert without_board_order(back) == without_board_order(finished)


def test_a_round_of_byes_entered_ahead_is_the_round_waiting_to_be_paired():
    """A file saved between rounds: round 3 holds only byes entered ahead. It is the next
    round, its byes its sign-offs; no one withdrew."""
    lines = [spec_line(1, "A, Anna", "", "", "1.0", 1, ["0002 w 1", "0003 b 1", "0000 - H"]),
             spec_line(2, "B, Bob", "", "", "0.0", 4, ["0001 b 0", "0004 w 0"]),
             spec_line(3, "C, Cor", "", "", "1.0", 2, ["0004 b 1", "0001 w 0", "0000 - Z"]),
             spec_line(4, "D, Dirk", "", "", "1.0", 3, ["0003 w 0", "0002 b 1", "0000 - U"]),
             spec_line(5, "E, Els", "", "", "0.0", 5, ["", "", "0000 - H"])]
    imported = read_trf("\r".join(lines))
    season = imported.season
    waiting = season.round(3)
    assert not waiting.is_paired and waiting.games == ()
    # A requested bye in a Keizer competition is a sign-off (the report says so); the
    # pairing's bye U stays a bye. Read as FIDE means them, H and Z keep their points.
    assert {(a.player, a.reason.value) for a in waiting.absent} == {
        ("anna-a", "notice"), ("cor-c", "notice"), ("dirk-d", "bye"), ("els-e", "notice")}
    assert imported.assumed[Assumed.BYE_AS_SIGN_OFF] == 3
    fide = read_trf("\r".join(lines), fide_byes=True).season.round(3)
    assert {(a.player, a.reason.value) for a in fide.absent} == {
        ("anna-a", "half_bye"), ("cor-c", "zero_bye"), ("dirk-d", "bye"), ("els-e", "half_bye")}
    assert [p.withdrawn for p in season.players] == [None] * 5
    assert season.player("els-e").joined == 3  # his first round is the one to be paired
    assert season.complete_rounds == 2
    assert imported.assumed[Assumed.WAITING_ROUND] == 1


def test_trf_2026_games_not_played_yet_and_byes_in_records_of_their_own():
    lines = ["012 Clubkampioenschap",
             spec_line(1, "A, Anna", "", "", "1.0", 1, ["0002 w 1", "0003 w *"]),
             spec_line(2, "B, Bob", "", "", "0.0", 3, ["0001 b 0", "0004 b 1"]),
             spec_line(3, "C, Cor", "", "", "1.0", 2, ["0004 w 1", "0001 b *"]),
             spec_line(4, "D, Dirk", "", "", "0.0", 4, ["0003 b 0", "0002 w 0"]),
             spec_line(5, "E, Els", "", "", "0.0", 5, []),
             "240 H 2 5"]
    season = read_trf("\r".join(lines)).season
    second = season.round(2)
    assert second.is_paired and not second.is_complete
    assert {(g.white, g.black, g.result) for g in second.games} == {
        ("anna-a", "cor-c", None), ("dirk-d", "bob-b", "0-1")}
    assert [(a.player, a.reason.value) for a in second.absent] == [("els-e", "notice")]
    # One side not yet played, the other with a result: that is broken, and said where.
    lines[3] = spec_line(3, "C, Cor", "", "", "1.0", 2, ["0004 w 1", "0001 b 1"])
    with pytest.raises(TrfError) as caught:
        read_trf("\r".join(lines))
    assert (caught.value.problem, caught.value.line) == (TrfProblem.OPPONENTS_DISAGREE, 2)
    lines[3:] = [spec_line(3, "C, Cor", "", "", "1.0", 2, ["0004 w 1", "0001 b *"]),
                 "240 Q 2 5"]
    with pytest.raises(TrfError) as caught:
        read_trf("\r".join(lines))
    assert (caught.value.problem, caught.value.line) == (TrfProblem.BAD_ENTRY, 5)


NAMES = {"l": "Łukasz Wiśniewski", "z": "Zoë de Wit", "g": "Ζωή Παπαδοπούλου",
         "d": "Đorđe Ødegård", "m": "Mirzoev Azer"}


def named_season() -> Season:
    ids = list(NAMES)
    return season_from_data({
        "format": "keizer-season/1", "club": "Ζ Club", "season": "2026-2027",
        "rules": "sliedrecht",
        "players": [{"id": k, "name": n, **({"name_as_written": True} if k == "m" else {})}
                    for k, n in NAMES.items()],
        "rounds": [{"round": 1, "games": [{"white": ids[0], "black": ids[1], "result": "1-0"},
                                          {"white": ids[2], "black": ids[3], "result": "0-1"}],
                    "absent": [{"player": ids[4], "reason": "notice"}]}]})


def test_utf8_by_default_and_windows_1252_in_latin_letters_never_a_question_mark():
    season = named_season()
    utf8 = columns(trf_bytes(season).decode("utf-8"))
    assert {p["name"] for p in utf8.values()} == {
        "Wiśniewski, Łukasz", "Wit, Zoë de", "Παπαδοπούλου, Ζωή", "Ødegård, Đorđe",
        "Mirzoev Azer"}  # no comma in the name: written as it was read
    windows = trf_bytes(season, charset=WINDOWS)
    text = windows.decode("cp1252")
    assert "?" not in text
    assert {p["name"] for p in columns(text).values()} == {
        "Wisniewski, Lukasz", "Wit, Zoë de", "Papadopoyloy, Zoi", "Ødegård, Dorde",
        "Mirzoev Azer"}
    assert text.startswith("012 Z Club 2026-2027")
    back = read_trf(decode(trf_bytes(season))).season  # UTF-8 is read back as it was
    assert [p.name for p in back.players] == [p.name for p in season.players]


def test_the_header_says_where_who_how_long_and_how_many_rounds():
    season = named_season()
    text = write_trf(season, TrfHeader(city="Sliedrecht", arbiter="Jan de Vries"))
    head = {line[:3]: line[4:] for line in text.split("\r\n") if line[:3] in
            ("022", "102", "122", "XXR")}
    assert head == {"022": "Sliedrecht", "102": "Jan de Vries", "122": "90+15", "XXR": "30"}
    assert "022" not in {line[:3] for line in write_trf(season).split("\r\n")}


def test_double_surnames_and_javafo_titles_come_back_as_written():
    """Issue 33: a surname of more words keeps its comma where the file put it, and JaVaFo's
    lowercase titles stay lowercase; a file whose names all have a comma assumes none."""
    def titled(line: str, title: str) -> str:
        return line[:10] + title.ljust(3) + line[13:]

    lines = [titled(spec_line(1, "Gorrochategui Torres, Eugenio", "2400", "", "1.0", 1,
                              ["0002 w 1"]), "g"),
             titled(spec_line(2, "Visser-de Wit, Anna", "2300", "", "0.0", 4, ["0001 b 0"]),
                    "wg"),
             titled(spec_line(3, "de Vries, Jan", "2200", "", "1.0", 2, ["0004 w 1"]), "m"),
             spec_line(4, "Meer, Gert van der", "2100", "", "0.0", 3, ["0003 b 0"])]
    imported = read_trf("\r\n".join(lines))
    assert Assumed.NAME_AS_WRITTEN not in imported.assumed
    season = imported.season
    assert [p.name for p in season.players] == [
        "Eugenio Gorrochategui Torres", "Anna Visser-de Wit", "Jan de Vries",
        "Gert van der Meer"]
    assert [p.title for p in season.players] == ["g", "wg", "m", None]
    written = write_trf(read_season(season_to_json(season)))  # through the season file too
    original, again = columns("\n".join(lines)), columns(written)
    assert [(p["name"], p["title"]) for p in again.values()] == \
        [(p["name"], p["title"]) for p in original.values()]


def _lichess_line(start: int, name: str, points: str, rounds: list[str]) -> str:
    """A `001` line as a lichess Swiss export writes it: the name, the points, no rating,
    federation, id or birth, and a round without a game as its code alone (`U`)."""
    line = f"001 {start:>4}      {name}".ljust(81) + points.rjust(4)
    line = line.ljust(91)
    for entry in rounds:
        line += (entry if " " in entry else entry.rjust(8)).rjust(8) + "  "
    return line.rstrip()


def test_a_lichess_swiss_export_is_read_its_byes_a_bare_code():
    """Issue 47: lichess writes a bye as `U` alone (no `0000`, no colour) and no ratings;
    such a file is read, and what was assumed is said."""
    lines = ["012 Juni Blitz", "022 https://lichess.org/swiss/abcdefgh", "032 Lichess",
             "042 Jun 26, 2020", "062 3", "092 Individual: Swiss-System", "XXR 2",
             _lichess_line(1, "anna_schaakt", "1.5", ["   2 w 1", "U"]),
             _lichess_line(2, "bram77", "1.0", ["   1 b 0", "   3 w 1"]),
             _lichess_line(3, "corvis", "0.0", ["U", "   2 b 0"])]
    assert "0000" not in "\n".join(lines) and lines[-1].endswith("2 b 0")
    imported = read_trf("\n".join(lines) + "\n")
    season = imported.season
    assert [p.name for p in season.players] == ["anna_schaakt", "bram77", "corvis"]
    assert all(p.rating is None for p in season.players)
    first, second = season.rounds
    assert len(first.games) == 1 and len(second.games) == 1
    names = {p.id: p.name for p in season.players}
    assert [names[a.player] for a in first.absent] == ["corvis"]
    assert [names[a.player] for a in second.absent] == ["anna_schaakt"]
    assert imported.assumed[Assumed.ABSENCE_KIND] == 2
