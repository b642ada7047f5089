"""The command line as a user runs it: table, --json to the contract, exit codes, errors in
the shell's language. What it says is asserted by its meaning (`tests.meaning.fits`: a
catalogue text and its facts), so a rewording fails no test here."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from bot.cli import main
from bot.language import texts
from bot.language.i18n import words
from core.errors import InvalidInputError, ProblemCode
from core.season import read_season
from storage.errors import StoreProblem
from tests.meaning import fits
from tests.seasons import season_data

SEASON = season_data(
    {"preset": "drie-groepen", "top_value": 10},
    [{"id": "a", "name": "Anna de Wit", "rating": 2000}, {"id": "b", "name": "Bert Zwart",
                                                          "rating": 1900},
     {"id": "c", "name": "Cor", "rating": 1800}, {"id": "d", "name": "Dirk", "rating": 1700}],
    ["a-b 1-0, c-d 0-1", "a-d 1/2-1/2, b-c 1-0"],
)


@pytest.fixture
def season_file(tmp_path: Path) -> Path:
    path = tmp_path / "seizoen.json"
    path.write_text(json.dumps(SEASON), encoding="utf-8")
    return path


def nl(say, *args: object) -> str:
    """What a function of the catalogue says, in Dutch: the command line's language here."""
    return say(words("nl"), *args)


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_table_has_the_columns_clubs_use(capsys, season_file):
    code, out, _ = run(capsys, "standings", season_file)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Stand na ronde 2"
    assert lines[2].split() == ["Pos", "Naam", "Punten", "Waarde", "Gesp", "W", "R", "V", "%"]
    # a = 22.5 (see test_classic_reprices_every_round_with_the_previous_ranking)
    assert lines[4].split() == ["1", "Anna", "de", "Wit", "22,5", "10", "2", "1", "1", "0", "75"]


def test_json_follows_the_contract(capsys, season_file):
    code, out, _ = run(capsys, "standings", season_file, "--after-round", "1", "--json")
    assert code == 0
    doc = json.loads(out)
    assert set(doc) == {"after_round", "standings"} and doc["after_round"] == 1
    first = doc["standings"][0]
    assert list(first) == ["rank", "id", "name", "score", "value", "played", "won", "drawn",
                           "lost"]
    assert first == {"rank": 1, "id": "a", "name": "Anna de Wit", "score": 19, "value": 10,
                     "played": 1, "won": 1, "drawn": 0, "lost": 0}


def test_json_scores_have_two_decimals(capsys, tmp_path):
    data = season_data("drie-groepen", "a:2000 b:1900 c:1800", ["a notice, b-c 1-0"])
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    doc = json.loads(run(capsys, "standings", path, "--json")[1])
    assert {r["id"]: r["score"] for r in doc["standings"]}["a"] == 80  # 60 + 20
    data["rounds"][0]["absent"] = [{"player": "a", "reason": "bye"}]
    path.write_text(json.dumps(data), encoding="utf-8")
    doc = json.loads(run(capsys, "standings", path, "--json")[1])
    assert {r["id"]: r["score"] for r in doc["standings"]}["a"] == 100  # 60 + 40
    data["rounds"][0]["absent"] = [{"player": "b", "reason": "notice"}]
    data["rounds"][0]["games"] = [{"white": "a", "black": "c", "result": "1-0"}]
    path.write_text(json.dumps(data), encoding="utf-8")
    doc = json.loads(run(capsys, "standings", path, "--json")[1])
    assert {r["id"]: r["score"] for r in doc["standings"]}["b"] == 78.67  # 59 + 59/3


def test_a_broken_file_exits_2_naming_every_problem(capsys, tmp_path):
    data = json.loads(json.dumps(SEASON))
    data["rounds"][1]["games"][0]["result"] = "2-0"
    data["rounds"][0]["games"][1]["black"] = "zz"
    data["players"][2]["rating"] = "sterk"
    path = tmp_path / "kapot.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(capsys, "standings", path)
    assert code == 2 and out == ""
    with pytest.raises(InvalidInputError) as refused:
        read_season(path.read_text(encoding="utf-8"))
    problems = refused.value.problems
    assert {(p.path, p.code) for p in problems} == {
        ("rounds[0]", ProblemCode.PLAYER_MISSING),  # 'zz' took his place
        ("rounds[1].games[0].result", ProblemCode.BAD_RESULT),
        ("rounds[0].games[1].black", ProblemCode.UNKNOWN_PLAYER),
        ("players[2].rating", ProblemCode.WRONG_TYPE)}
    assert err.strip() == nl(texts.problems_report, texts.SEASON_UNUSABLE.format(path=path),
                             problems)


def test_a_missing_file_exits_2(capsys, tmp_path):
    code, _, err = run(capsys, "standings", tmp_path / "weg.json")
    assert code == 2 and fits(err, "FILE_UNREADABLE", path=tmp_path / "weg.json")


def test_a_round_that_does_not_exist_exits_1(capsys, season_file):
    code, _, err = run(capsys, "standings", season_file, "--after-round", "9")
    assert code == 1 and fits(err, "ROUND_OUT_OF_RANGE", round=9, count=2)


def test_player_breakdown_adds_up(capsys, season_file):
    code, out, _ = run(capsys, "standings", season_file, "--player", "a")
    assert code == 0
    assert fits(out.splitlines()[0], "BREAKDOWN_HEAD", name="Anna de Wit", rank=1,
                score="22,5", round=2)
    assert out.splitlines()[-1].split()[-1] == "22,5"
    assert run(capsys, "standings", season_file, "--player", "x")[0] == 1


def test_rules_file_is_checked_and_shown(capsys, tmp_path):
    good = tmp_path / "club.toml"
    good.write_text('preset = "sliedrecht"\nnotice_cap = 8\n', encoding="utf-8")
    code, out, _ = run(capsys, "rules", good)
    assert code == 0 and "notice_cap = 8" in out and '"notice": "0.33"' in out
    variants = tmp_path / "vrij.toml"
    variants.write_text('preset = "freekeizer"\nabsence_decay = 0.5\n'
                        '[compensation]\nbye = {points = 3}\n', encoding="utf-8")
    code, out, _ = run(capsys, "rules", variants)
    assert code == 0 and 'result_fractions = {"win": "1", "draw": "0.5", "loss": "1/6"}' in out
    assert 'absence_decay = "0.5"' in out and '"bye": {"points": "3"}' in out
    assert 'cap_kinds = ["notice", "no_notice"]' in out and 'ties = "previous"' in out
    bad = tmp_path / "fout.toml"
    bad.write_text('preset = "sliedrecht"\nnotice_kap = 8\n', encoding="utf-8")
    code, _, err = run(capsys, "rules", bad)
    assert code == 2 and fits(err, "_PROBLEMS", pick=ProblemCode.UNKNOWN_KEY, key="notice_kap")


def test_the_installed_command_runs(season_file):
    exe = shutil.which("keizerbot")
    assert exe, "the console script keizerbot is installed by uv sync"
    done = subprocess.run([exe, "standings", str(season_file), "--json"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0 and json.loads(done.stdout)["after_round"] == 2


def test_import_export_backup(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("KEIZER_DB", str(tmp_path / "data" / "keizer.db"))
    example = Path(__file__).resolve().parents[2] / "examples" / "drie-cycli.json"
    code, out, _ = run(capsys, "import", example)
    assert code == 0 and fits(out, "IMPORTED", players=20, rounds=19,
                              path=tmp_path / "data" / "keizer.db")
    code, _, err = run(capsys, "import", example)
    assert code == 1 and fits(err, "_STORE_PROBLEMS", pick=StoreProblem.NOT_EMPTY)
    assert run(capsys, "import", example, "--replace")[0] == 0
    code, out, _ = run(capsys, "export")
    assert code == 0 and out == example.read_text(encoding="utf-8")
    code, out, _ = run(capsys, "export", tmp_path / "terug.json")
    assert (tmp_path / "terug.json").read_text(encoding="utf-8") == \
        example.read_text(encoding="utf-8")
    code, out, _ = run(capsys, "backup", "--keep", "1")
    assert code == 0 and fits(out, "BACKED_UP")
    assert len(list((tmp_path / "data" / "backups").glob("keizer-*.db"))) == 1


def test_export_without_a_season_says_how_to_get_one(capsys, tmp_path):
    code, _, err = run(capsys, "export", "--db", tmp_path / "leeg.db")
    assert code == 2 and fits(err, "DATABASE_MISSING", path=tmp_path / "leeg.db")
    assert not (tmp_path / "leeg.db").exists()
    sqlite3.connect(tmp_path / "leeg.db").close()  # a database without a season
    code, _, err = run(capsys, "export", "--db", tmp_path / "leeg.db")
    assert code == 1 and fits(err, "_STORE_PROBLEMS", pick=StoreProblem.NO_SEASON)


def test_pairing_list_shows_each_players_time_control(capsys):
    example = Path(__file__).resolve().parents[2] / "examples" / "drie-cycli.json"
    code, out, _ = run(capsys, "pair", example)
    assert code == 0 and "Tempo" in out.splitlines()[2]
    assert "90+15" in out
    youth = json.loads(example.read_text(encoding="utf-8"))["players"]
    youth_names = {p["name"] for p in youth if p.get("youth")}
    lines = [line for line in out.splitlines() if any(n in line for n in youth_names)]
    assert lines and all("50+15" in line for line in lines)


def test_export_html_and_csv_from_a_season_file(capsys, tmp_path):
    example = Path(__file__).resolve().parents[2] / "examples" / "sliedrecht.json"
    code, out, _ = run(capsys, "export-html", tmp_path / "web", "--season", example)
    assert code == 0 and (tmp_path / "web" / "index.html").exists()
    assert out == nl(texts.site_written, len(list((tmp_path / "web").rglob("*.*"))),
                     tmp_path / "web") + "\n"
    code, out, _ = run(capsys, "export-csv", tmp_path / "csv", "--season", example)
    assert code == 0 and (tmp_path / "csv" / "stand.csv").exists()
    assert out == nl(texts.site_written, 3, tmp_path / "csv") + "\n"


def test_export_everything_imports_back_and_still_computes(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("KEIZER_DB", str(tmp_path / "keizer.db"))
    example = Path(__file__).resolve().parents[2] / "examples" / "drie-cycli.json"
    assert run(capsys, "import", example)[0] == 0
    code, out, _ = run(capsys, "export", tmp_path / "seizoen.json")
    # It says what a season file leaves out, and how to keep everything.
    assert code == 0 and fits(out, "EXPORTED_SEASON", path=tmp_path / "seizoen.json")
    code, out, _ = run(capsys, "export", "--alles", tmp_path / "alles.json")
    assert code == 0 and fits(out, "EXPORTED_ALL", path=tmp_path / "alles.json")
    club = json.loads((tmp_path / "alles.json").read_text(encoding="utf-8"))
    assert club["format"] == "keizer-club/1"
    assert club["season"] == json.loads(example.read_text(encoding="utf-8"))
    monkeypatch.setenv("KEIZER_DB", str(tmp_path / "tweede.db"))
    assert run(capsys, "import", tmp_path / "alles.json")[0] == 0
    code, out, _ = run(capsys, "export", "--alles")
    assert code == 0 and out == (tmp_path / "alles.json").read_text(encoding="utf-8")
    code, out, _ = run(capsys, "standings", tmp_path / "alles.json", "--json")
    assert code == 0 and json.loads(out)["after_round"] == 18  # round 19 is not played yet


def test_new_season_writes_the_next_file(tmp_path, capsys):
    target = tmp_path / "volgend.json"
    example = Path(__file__).resolve().parents[2] / "examples" / "sliedrecht.json"
    assert main(["new-season", str(example), str(target)]) == 0
    assert fits(capsys.readouterr().out, "NEW_SEASON", name="2027-2028", path=target)
    assert read_season(target.read_text(encoding="utf-8")).rounds == ()
    data = json.loads(example.read_text(encoding="utf-8"))
    data["season"] = "najaar"
    odd = tmp_path / "najaar.json"
    odd.write_text(json.dumps(data), encoding="utf-8")
    assert main(["new-season", str(odd), str(tmp_path / "x.json")]) == 2
    assert fits(capsys.readouterr().err, "NEW_SEASON_NAME", name="najaar")
    assert not (tmp_path / "x.json").exists()


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_trf_out_of_the_database_and_back_into_a_season_file(tmp_path, capsys):
    db = tmp_path / "keizer.db"
    assert run(capsys, "import", EXAMPLES / "drie-groepen.json", "--db", db)[0] == 0
    code, out, _ = run(capsys, "export-trf", tmp_path / "rating.trf", "--db", db)
    assert code == 0 and fits(out.splitlines()[0], "TRF_EXPORTED", rounds=16, games=145,
                              path=tmp_path / "rating.trf")
    written = (tmp_path / "rating.trf").read_bytes()
    assert written.startswith(b"012 Schaakclub") and b"\r\n001    1 " in written
    code, out, _ = run(capsys, "import-trf", tmp_path / "rating.trf", tmp_path / "terug.json")
    assert code == 0 and fits(out, "TRF_IMPORTED", path=tmp_path / "terug.json", rounds=16,
                              games=145)
    assert not fits(out, "TRF_ASSUMED")
    back = read_season((tmp_path / "terug.json").read_text("utf-8"))
    original = read_season((EXAMPLES / "drie-groepen.json").read_text("utf-8"))
    assert (back.rules, back.players) == (original.rules, original.players)


def test_a_foreign_trf_reports_what_was_assumed(tmp_path, capsys):
    foreign = tmp_path / "zomer.trf"
    assert main(["export-trf", str(foreign), "--season",
                 str(EXAMPLES / "sliedrecht.json")]) == 0
    foreign.write_bytes(b"\r\n".join(line for line in foreign.read_bytes().split(b"\r\n")
                                     if not line.startswith(b"###")))
    capsys.readouterr()
    code, out, _ = run(capsys, "import-trf", foreign, tmp_path / "s.json",
                       "--reglement", "drie-cycli")
    assert code == 0
    assert fits(out, "TRF_ASSUMED")
    assert fits(out, "_ASSUMED", pick="rules", preset="drie-cycli")
    assert fits(out, "_ASSUMED", pick="ids", count=28)
    assert read_season((tmp_path / "s.json").read_text("utf-8")).rules_source == \
        "drie-cycli"


@pytest.mark.parametrize(("content", "key", "pick", "facts"), [
    (b"012 Alleen een kop\r\n", "_TRF_PROBLEMS", "no_players", {}),
    ("001    1      A".ljust(91).encode() + b"0002 w 1", "_TRF_PROBLEMS", "unknown_opponent",
     {"line": 1, "round": 1, "opponent": 2}),
    ("\n".join(["001    1      A".ljust(91) + "0002 w 1",
                "001    2      B".ljust(91) + "0001 b 1"]).encode(),
     "_TRF_PROBLEMS", "opponents_disagree", {"line": 1, "round": 1, "opponent": 2}),
    ("001    1      A".encode("utf-16"), "FILE_NOT_TEXT", None, {}),
])
def test_an_unusable_trf_exits_2_and_writes_nothing(tmp_path, capsys, content, key, pick,
                                                    facts):
    (tmp_path / "x.trf").write_bytes(content)
    code, _out, err = run(capsys, "import-trf", tmp_path / "x.trf", tmp_path / "s.json")
    assert code == 2 and fits(err, key, pick=pick, **facts)
    assert fits(err, "TRF_UNUSABLE", path=tmp_path / "x.trf")
    assert not (tmp_path / "s.json").exists()


def test_trf_of_a_season_without_a_finished_round_says_so(tmp_path, capsys):
    data = json.loads((EXAMPLES / "sliedrecht.json").read_text("utf-8"))
    data["rounds"] = []
    (tmp_path / "leeg.json").write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(capsys, "export-trf", tmp_path / "x.trf", "--season",
                       tmp_path / "leeg.json")
    assert code == 1 and fits(err, "TRF_NONE")
    assert not (tmp_path / "x.trf").exists()


def knsb_zip(rows: list[str]) -> bytes:
    import io
    import zipfile
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("KLASSIEK.csv", "\r\n".join(
            ["Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S", *rows]).encode("cp1252"))
    return out.getvalue()


def test_ratings_are_shown_then_written_when_confirmed(tmp_path, capsys):
    (tmp_path / "s.json").write_text(json.dumps(SEASON), encoding="utf-8")
    (tmp_path / "lijst.zip").write_bytes(knsb_zip(["8000001;Wit, Anna de;;NED;2050;9;1990;V",
                                                   "8000002;Zwart, B.;;NED;1950;9;1980;M"]))
    code, out, _ = run(capsys, "ratings", tmp_path / "lijst.zip", "--season",
                       tmp_path / "s.json")
    assert code == 0
    assert fits(out, "RATING_UPDATE", name="Anna de Wit", old=2000, new=2050)
    assert fits(out, "RATING_NUMBER", knsb=8000001)
    assert fits(out, "RATING_CLOSE_LINE", mark="", name="Bert Zwart", id=" (b)",
                listed="Zwart, B.", knsb=8000002, rating=1950)
    assert fits(out, "RATING_MISSING", count=2, names="Cor, Dirk")
    assert fits(out, "RATINGS_CONFIRM_HINT")
    assert json.loads((tmp_path / "s.json").read_text("utf-8")) == SEASON  # nothing written
    code, out, _ = run(capsys, "ratings", tmp_path / "lijst.zip", "--season",
                       tmp_path / "s.json", "--bevestig", "--ook", "b")
    assert code == 0 and nl(texts.ratings_written, 2, tmp_path / "s.json") in out
    season = read_season((tmp_path / "s.json").read_text("utf-8"))
    assert [(p.rating, p.knsb) for p in season.players] == [
        (2050, 8000001), (1950, 8000002), (1800, None), (1700, None)]
    code, _, err = run(capsys, "ratings", tmp_path / "lijst.zip", "--season",
                       tmp_path / "s.json", "--ook", "c")
    assert code == 1 and fits(err, "RATINGS_UNKNOWN_CLOSE", player="c")


def test_ratings_into_the_database_are_in_the_audit_log(tmp_path, capsys):
    import asyncio

    from storage.audit import entries
    from storage.seasons import load_season
    from storage.store import open_store

    db = tmp_path / "keizer.db"
    (tmp_path / "s.json").write_text(json.dumps(SEASON), encoding="utf-8")
    assert run(capsys, "import", tmp_path / "s.json", "--db", db)[0] == 0
    (tmp_path / "lijst.csv").write_bytes("\r\n".join(
        ["Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S",
         "8000004;Dirk;;NED;1744;3;2001;M"]).encode("cp1252"))
    code, out, _ = run(capsys, "ratings", tmp_path / "lijst.csv", "--db", db, "--bevestig")
    assert code == 0 and nl(texts.ratings_written, 1, db) in out

    async def read() -> tuple:
        opened = await open_store(db)
        try:
            return await load_season(opened), await entries(opened.conn)
        finally:
            await opened.close()

    season, log = asyncio.run(read())
    assert (season.player("d").rating, season.player("d").knsb) == (1744, 8000004)
    assert [(e.action, e.entity_id, e.old, e.new) for e in log
            if e.action == "player.rating"] == [
        ("player.rating", "d", {"rating": 1700, "knsb": None},
         {"rating": 1744, "knsb": 8000004, "federation": "NED", "sex": "m", "birth": "2001"})]


@pytest.mark.parametrize(("content", "problem"), [
    (b"Nr;Naam;Elo\r\n1;A;1500", "header"),
    (b"PK\x05\x06" + b"\x00" * 18, "empty_zip"),
])
def test_a_file_that_is_no_rating_list_exits_2(tmp_path, capsys, content, problem):
    (tmp_path / "s.json").write_text(json.dumps(SEASON), encoding="utf-8")
    (tmp_path / "lijst.zip").write_bytes(content)
    code, _, err = run(capsys, "ratings", tmp_path / "lijst.zip", "--season",
                       tmp_path / "s.json", "--bevestig")
    assert code == 2 and fits(err, "_LIST_PROBLEMS", pick=problem)
    assert fits(err, "RATING_LIST_UNUSABLE")
    assert json.loads((tmp_path / "s.json").read_text("utf-8")) == SEASON


def test_the_clubs_city_arbiter_and_list_reach_the_files(tmp_path, capsys, monkeypatch):
    """Issue 25: from the database, the TRF's header names the club's city and its first
    arbiter who is a member; `--encoding cp1252` writes Windows-1252 without a `?`; `ratings`
    reads the KNSB list the club chose, unless `--lijst` says another."""
    import asyncio
    import io
    import zipfile

    from storage import club, roster
    from storage.store import open_store

    db = tmp_path / "keizer.db"
    season = json.loads(json.dumps(SEASON))
    season["players"][0]["name"] = "Łukasz de Wit"
    (tmp_path / "s.json").write_text(json.dumps(season), encoding="utf-8")
    assert run(capsys, "import", tmp_path / "s.json", "--db", db)[0] == 0

    async def set_up() -> None:
        store = await open_store(db)
        try:
            await club.change_settings(store, actor=None, city="Sliedrecht",
                                       rating_list=club.RatingList.BLITZ)
            await roster.link(store, "b", 4242, actor=None)
            await club.set_arbiter(store, 4242, actor=None)
        finally:
            await store.close()

    asyncio.run(set_up())
    assert run(capsys, "export-trf", tmp_path / "r.trf", "--db", db, "--encoding",
               "cp1252")[0] == 0
    text = (tmp_path / "r.trf").read_bytes().decode("cp1252")
    assert "\r\n022 Sliedrecht\r\n" in text and "\r\n102 Bert Zwart\r\n" in text
    assert "Wit, Lukasz de" in text and "?" not in text
    assert run(capsys, "export-trf", tmp_path / "u.trf", "--db", db)[0] == 0
    assert "Wit, Łukasz de" in (tmp_path / "u.trf").read_bytes().decode("utf-8")

    lists = io.BytesIO()
    with zipfile.ZipFile(lists, "w") as archive:
        for name, rating in (("KLASSIEK.csv", 1500), ("RAPID.csv", 1600), ("SNEL.csv", 1700)):
            archive.writestr(name, f"Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\r\n"
                                   f"8000004;Dirk;;NED;{rating};3;2001;M".encode("cp1252"))
    (tmp_path / "lijsten.zip").write_bytes(lists.getvalue())
    code, out, _ = run(capsys, "ratings", tmp_path / "lijsten.zip", "--db", db)
    assert code == 0 and fits(out, "RATING_UPDATE", name="Dirk", old=1700, new=1700)  # blitz
    code, out, _ = run(capsys, "ratings", tmp_path / "lijsten.zip", "--db", db, "--lijst",
                       "rapid")
    assert code == 0 and fits(out, "RATING_UPDATE", name="Dirk", old=1700, new=1600)
    code, out, _ = run(capsys, "ratings", tmp_path / "lijsten.zip", "--season",
                       tmp_path / "s.json")
    # A season file: the classical list.
    assert code == 0 and fits(out, "RATING_UPDATE", name="Dirk", old=1700, new=1500)


def test_a_workbook_beside_the_csv(tmp_path, capsys, season_file):
    code, out, _ = run(capsys, "export-xlsx", tmp_path / "site", "--season", season_file)
    assert code == 0 and out == nl(texts.site_written, 1, tmp_path / "site") + "\n"
    assert (tmp_path / "site" / "keizer.xlsx").read_bytes()[:2] == b"PK"


def test_the_command_line_speaks_the_shells_language(capsys, season_file, monkeypatch, tmp_path):
    """Issue 26: LANG (or LC_ALL, LC_MESSAGES before it) chooses; Dutch by default."""
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    code, out, _ = run(capsys, "standings", season_file)
    assert code == 0 and out.splitlines()[2].split()[:3] == ["Pos", "Name", "Points"]
    code, _, err = run(capsys, "standings", tmp_path / "missing.json")
    assert code == 2 and fits(err, "SEASON_UNUSABLE", "en", path=tmp_path / "missing.json")
    assert fits(err, "FILE_UNREADABLE", "en", path=tmp_path / "missing.json")
    monkeypatch.setenv("LC_ALL", "nl_NL.UTF-8")
    code, out, _ = run(capsys, "standings", season_file)
    assert out.splitlines()[2].split()[:3] == ["Pos", "Naam", "Punten"]
    monkeypatch.delenv("LC_ALL")
    monkeypatch.setenv("LANG", "C.UTF-8")
    code, _, err = run(capsys, "standings", tmp_path / "missing.json")
    assert fits(err, "SEASON_UNUSABLE", path=tmp_path / "missing.json")
    # The JSON is the contract, in no language.
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    english = run(capsys, "standings", season_file, "--json")[1]
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    assert run(capsys, "standings", season_file, "--json")[1] == english
