"""Issue 15: the KNSB rating list read as the KNSB publishes it, and matched to the members
by relation number, else by name, with close matches left to the arbiter."""

from __future__ import annotations

import io
import zipfile

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import names
from core.ratings import (
    HEADER,
    MAX_BYTES,
    Listed,
    ListProblem,
    Match,
    RatingList,
    RatingListError,
    apply,
    propose,
    read_list,
)
from core.season import Season, season_from_data

HEAD = ";".join(HEADER)


def rating_csv(rows: list[str], *, header: str = HEAD, encoding: str = "cp1252") -> bytes:
    return "\r\n".join([header, *rows]).encode(encoding)


def zipped(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


ROWS = ["8123456;Vries, Jan de;;NED;1912;45;1970;M",
        "8100001;Jansen, C.;FM;NED;2201;120;1980;M",
        "8200002;Çelik, Ömer;;NED;;0;2010;M",
        "8300003;Bakker, Anna;;NED;1650;12;1990;V"]


def test_the_zip_the_knsb_publishes():
    listed = read_list(zipped({"KLASSIEK.csv": rating_csv(ROWS)}))
    assert listed == [
        Listed(8123456, "Vries, Jan de", 1912, federation="NED", sex="m", birth="1970"),
        Listed(8100001, "Jansen, C.", 2201, title="FM", federation="NED", sex="m",
               birth="1980"),
        Listed(8200002, "Çelik, Ömer", None, federation="NED", sex="m", birth="2010"),
        Listed(8300003, "Bakker, Anna", 1650, federation="NED", sex="w", birth="1990")]


@pytest.mark.parametrize("which", list(RatingList))
def test_each_of_the_three_lists_from_one_zip(which):
    """The KNSB's classical, rapid and blitz lists, often in one zip: the club's choice is
    read, and a zip with only another list is refused by name."""
    ratings = {RatingList.CLASSICAL: 1912, RatingList.RAPID: 1844, RatingList.BLITZ: 1777}
    archive = zipped({w.file_name: rating_csv([f"8123456;Vries, Jan de;;NED;{r};4;1970;M"])
                      for w, r in ratings.items()})
    assert [row.rating for row in read_list(archive, which)] == [ratings[which]]
    other = next(w for w in RatingList if w is not which)
    with pytest.raises(RatingListError) as caught:
        read_list(zipped({other.file_name: rating_csv(ROWS)}), which)
    assert (caught.value.problem, caught.value.facts) == (
        ListProblem.OTHER_LIST, {"name": which.file_name, "found": other.file_name})


def test_the_csv_alone_and_saved_again_as_utf8():
    assert read_list(rating_csv(ROWS)) == read_list(rating_csv(ROWS, encoding="utf-8-sig"))
    assert read_list(rating_csv(ROWS))[2].name == "Çelik, Ömer"


@pytest.mark.parametrize(("data", "problem"), [
    (zipped({}), ListProblem.EMPTY_ZIP),
    (zipped({"leesmij.txt": b"hallo", "b.txt": b"x"}), ListProblem.NO_CSV),
    (b"PK\x03\x04 kapot", ListProblem.NOT_ZIP),
    (rating_csv(ROWS, encoding="utf-16"), ListProblem.ENCODING),
    (b"Relatienummer;Naam\x81;Titel", ListProblem.ENCODING),
    (rating_csv(ROWS, header="Nr,Naam,Elo"), ListProblem.HEADER),
    (b"", ListProblem.HEADER),
    (rating_csv([*ROWS, "abc;Iemand;;NED;1500;1;2000;M"]), ListProblem.BAD_ROW),
    (rating_csv(["8123456;Vries, Jan de;;NED;veel;45;1970;M"]), ListProblem.BAD_ROW),
    (rating_csv([]), ListProblem.NO_ROWS),
    (b" " * (MAX_BYTES + 1), ListProblem.TOO_BIG),
])
def test_a_file_that_is_no_rating_list_is_refused(data, problem):
    with pytest.raises(RatingListError) as caught:
        read_list(data)
    assert caught.value.problem is problem


def test_a_zip_that_unpacks_too_big_is_refused_before_unpacking():
    bomb = zipped({"KLASSIEK.csv": rating_csv(ROWS) + b" " * MAX_BYTES})
    assert len(bomb) < MAX_BYTES // 100
    with pytest.raises(RatingListError) as caught:
        read_list(bomb)
    assert caught.value.problem is ListProblem.TOO_BIG
    assert read_list(zipped({"lijst/klassiek.CSV": rating_csv(ROWS)}))  # the name, any case


def club(*players: dict) -> Season:
    return season_from_data({"format": "keizer-season/1", "club": "C", "season": "2026-2027",
                             "rules": "sliedrecht", "players": list(players), "rounds": []})


def test_members_found_by_number_then_by_name_in_any_spelling():
    season = club({"id": "jan", "name": "Jan de Vries", "rating": 1850},
                  {"id": "anna", "name": "Anna Bakker", "rating": 1650},
                  {"id": "omer", "name": "Omer Celik", "rating": 1400},
                  {"id": "c", "name": "Cor Jansen", "rating": 1500, "knsb": 8100001},
                  {"id": "weg", "name": "Cees Jansen", "withdrawn": 1})
    proposal = propose(season, read_list(rating_csv(ROWS)))
    found = {c.player: (c.match, c.listed.knsb, c.old_rating, c.new_rating)
             for c in proposal.updates}
    # The number finds "Jansen, C." for Cor Jansen: the same surname and initial.
    assert found == {"jan": (Match.NAME, 8123456, 1850, 1912),
                     "anna": (Match.NAME, 8300003, 1650, 1650),
                     "c": (Match.KNSB, 8100001, 1500, 2201),
                     "omer": (Match.NAME, 8200002, 1400, 1400)}  # unrated: keeps his rating
    assert proposal.close == ()  # a withdrawn member is not looked for
    assert proposal.listed == 4


def test_a_number_under_another_name_waits_for_the_arbiter():
    """A relation number is certain only under its own name: an id from another register
    (a FIDE id taken for a KNSB number) or a number typed wrong goes to the arbiter, and the
    line's own member is still found by name."""
    season = club({"id": "garry", "name": "Garry Kasparov", "rating": 2812, "knsb": 8300003},
                  {"id": "anna", "name": "Anna Bakker", "rating": 1600})
    proposal = propose(season, read_list(rating_csv(ROWS)))
    assert [(c.player, c.match) for c in proposal.close] == [("garry", Match.NUMBER_ONLY)]
    assert [(c.player, c.match) for c in proposal.updates] == [("anna", Match.NAME)]
    assert "garry" not in {c.player for c in proposal.to_apply()}


def test_title_federation_sex_and_birth_come_with_the_rating():
    season = club({"id": "cor", "name": "C. Jansen", "rating": 2201, "knsb": 8100001,
                   "federation": "BEL"})
    proposal = propose(season, read_list(rating_csv(ROWS)))
    [change] = proposal.updates
    assert change.new_identity == {"title": "FM", "federation": "NED", "sex": "m",
                                   "birth": "1980"}
    cor = apply(season, proposal.to_apply()).player("cor")
    assert (cor.rating, cor.title, cor.federation, cor.sex, cor.birth) == (
        2201, "FM", "NED", "m", "1980")


def test_alike_names_wait_for_the_arbiter():
    season = club({"id": "cor", "name": "Cor Jansen", "rating": 2100},
                  {"id": "typo", "name": "Anna Bakkr"},
                  {"id": "twice", "name": "Piet Smit"})
    rows = [*ROWS, "8400004;Smit, Piet;;NED;1500;1;1960;M", "8400005;Smit, Piet;;NED;1600;1;1990;M"]
    proposal = propose(season, read_list(rating_csv(rows)))
    assert proposal.updates == ()
    assert [(c.player, c.listed.knsb, c.match) for c in proposal.close] == [
        ("cor", 8100001, Match.CLOSE), ("typo", 8300003, Match.CLOSE),
        ("twice", 8400004, Match.CLOSE)]
    assert proposal.to_apply() == ()
    chosen = proposal.__class__(proposal.updates, proposal.close, accepted=frozenset({0}))
    assert [c.player for c in chosen.to_apply()] == ["cor"]
    changed = apply(season, chosen.to_apply())
    assert (changed.player("cor").rating, changed.player("cor").knsb) == (2201, 8100001)
    assert changed.player("typo") == season.player("typo")


def test_a_member_already_right_is_unchanged():
    season = club({"id": "jan", "name": "Jan de Vries", "rating": 1912, "knsb": 8123456,
                   "federation": "NED", "sex": "m", "birth": "1970"})
    proposal = propose(season, read_list(rating_csv(ROWS)))
    assert (proposal.updates, proposal.unchanged) == ((), ("jan",))


GIVEN = st.sampled_from(["Jan", "Anna", "Ömer", "Jan Peter", "Els", "Zoë"])
PARTS = st.sampled_from(["", "de", "van", "van der", "van 't", "ter"])
SURNAME = st.sampled_from(["Vries", "Berg", "Çelik", "Hof", "Groot-Bruinderink"])


@given(GIVEN, PARTS, SURNAME)
def test_every_spelling_of_a_name_has_one_key(given_name, particles, surname):
    name = " ".join(w for w in (given_name, particles, surname) if w)
    spellings = [name, names.surname_first(name), name.upper(),
                 f"{particles} {surname}, {given_name}".strip(),
                 f"{surname} {particles}, {given_name}".replace("  ", " ")]
    assert {names.key(s) for s in spellings} == {names.key(name)}
    assert names.given_first(names.surname_first(name)) == name
