"""The command line as a user runs it: table, --json to the contract, exit codes, Dutch errors."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from bot.cli import main
from core.season import Season
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
    assert "4 problemen" in err
    assert "rounds[0]: speler 'd' ontbreekt in ronde 1" in err  # 'zz' took his place
    assert "rounds[1].games[0].result: ongeldige uitslag \"2-0\"" in err
    assert "rounds[0].games[1].black: onbekende speler 'zz'" in err
    assert "players[2].rating: verwacht een geheel getal" in err


def test_a_missing_file_exits_2(capsys, tmp_path):
    code, _, err = run(capsys, "standings", tmp_path / "weg.json")
    assert code == 2 and "Kan" in err and "niet lezen" in err


def test_a_round_that_does_not_exist_exits_1(capsys, season_file):
    code, _, err = run(capsys, "standings", season_file, "--after-round", "9")
    assert code == 1 and "Ronde 9 bestaat niet" in err


def test_player_breakdown_adds_up(capsys, season_file):
    code, out, _ = run(capsys, "standings", season_file, "--player", "a")
    assert code == 0
    assert out.splitlines()[0].startswith("Anna de Wit: 1e met 22,5 punten")
    assert out.splitlines()[-1].split()[-1] == "22,5"
    assert run(capsys, "standings", season_file, "--player", "x")[0] == 1


def test_rules_file_is_checked_and_shown(capsys, tmp_path):
    good = tmp_path / "club.toml"
    good.write_text('preset = "sliedrecht"\nnotice_cap = 8\n', encoding="utf-8")
    code, out, _ = run(capsys, "rules", good)
    assert code == 0 and "notice_cap = 8" in out and '"notice": "0.33"' in out
    bad = tmp_path / "fout.toml"
    bad.write_text('preset = "sliedrecht"\nnotice_kap = 8\n', encoding="utf-8")
    code, _, err = run(capsys, "rules", bad)
    assert code == 2 and "notice_kap: onbekend veld 'notice_kap'" in err


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
    assert code == 0 and "Seizoen geladen: 20 spelers, 19 rondes" in out
    code, _, err = run(capsys, "import", example)
    assert code == 1 and "--replace" in err
    assert run(capsys, "import", example, "--replace")[0] == 0
    code, out, _ = run(capsys, "export")
    assert code == 0 and out == example.read_text(encoding="utf-8")
    code, out, _ = run(capsys, "export", tmp_path / "terug.json")
    assert (tmp_path / "terug.json").read_text(encoding="utf-8") == \
        example.read_text(encoding="utf-8")
    code, out, _ = run(capsys, "backup", "--keep", "1")
    assert code == 0 and "Reservekopie gemaakt" in out
    assert len(list((tmp_path / "data" / "backups").glob("keizer-*.db"))) == 1


def test_export_without_a_season_says_how_to_get_one(capsys, tmp_path):
    code, _, err = run(capsys, "export", "--db", tmp_path / "leeg.db")
    assert code == 1 and "keizerbot import" in err


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
    assert "bestanden geschreven" in out
    code, out, _ = run(capsys, "export-csv", tmp_path / "csv", "--season", example)
    assert code == 0 and (tmp_path / "csv" / "stand.csv").exists()
    assert out.startswith("3 bestanden geschreven")


def test_export_everything_imports_back_and_still_computes(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("KEIZER_DB", str(tmp_path / "keizer.db"))
    example = Path(__file__).resolve().parents[2] / "examples" / "drie-cycli.json"
    assert run(capsys, "import", example)[0] == 0
    code, out, _ = run(capsys, "export", tmp_path / "seizoen.json")
    assert code == 0 and "--alles" in out  # says what a season file leaves out
    code, out, _ = run(capsys, "export", "--alles", tmp_path / "alles.json")
    assert code == 0 and "Alles wat de bot bewaart" in out
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
    assert "Seizoen 2027-2028 geschreven naar" in capsys.readouterr().out
    assert Season.from_json(target.read_text(encoding="utf-8")).rounds == ()
    data = json.loads(example.read_text(encoding="utf-8"))
    data["season"] = "najaar"
    odd = tmp_path / "najaar.json"
    odd.write_text(json.dumps(data), encoding="utf-8")
    assert main(["new-season", str(odd), str(tmp_path / "x.json")]) == 2
    assert "geef er een met --naam" in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()
