"""The KNSB rating list, and what it would change in a season: which members it knows (by
relation number, else by name), their new ratings, and the close matches the arbiter decides.

The KNSB publishes its lists monthly, as zips holding `KLASSIEK.csv`, `RAPID.csv` and
`SNEL.csv` (classical, rapid, blitz; sometimes all three in one zip): Windows-1252,
`;`-separated, with the header `Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S`.
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from core import names
from core.encoding import decode
from core.errors import KeizerError
from core.season import Player, Season

HEADER = ("Relatienummer", "Naam", "Titel", "FED", "Rating", "Nv", "Geboren", "S")


class RatingList(StrEnum):
    """The KNSB's three lists, by the word the club chooses one with."""

    CLASSICAL = "klassiek"
    RAPID = "rapid"
    BLITZ = "snel"

    @property
    def file_name(self) -> str:
        return f"{self.value.upper()}.csv"

    @classmethod
    def named(cls, word: str) -> RatingList | None:
        """The list a word names, in Dutch or in English (`snel` and `blitz` alike)."""
        return _LIST_NAMES.get(word.strip().lower())


_LIST_NAMES = {**{kind.value: kind for kind in RatingList}, "classical": RatingList.CLASSICAL,
               "classic": RatingList.CLASSICAL, "blitz": RatingList.BLITZ}


MAX_BYTES = 20 * 1024 * 1024
"""The largest list taken, packed or not; the national list is a few megabytes."""
CLOSE = 85
"""How alike two names' keys must be (rapidfuzz's ratio, 0-100) to be a close match."""


class ListProblem(StrEnum):
    TOO_BIG = "too_big"
    OTHER_LIST = "other_list"
    """The zip holds another of the KNSB's lists, not the one asked for."""
    OTHER_FILE = "other_file"
    """The CSV is named as another of the KNSB's lists than the one asked for."""
    EMPTY_ZIP = "empty_zip"
    NO_CSV = "no_csv"
    NOT_ZIP = "not_zip"
    ENCODING = "encoding"
    HEADER = "header"
    BAD_ROW = "bad_row"
    NO_ROWS = "no_rows"


class RatingListError(KeizerError):
    """A file that is not a usable KNSB rating list."""

    def __init__(self, problem: ListProblem, **facts: object) -> None:
        self.problem = problem
        self.facts = {k: str(v) for k, v in facts.items()}
        super().__init__(f"{problem.value} {self.facts}")


@dataclass(frozen=True, slots=True)
class Listed:
    """One line of the list."""

    knsb: int
    name: str
    """As the list writes it: `Vries, Jan de`."""
    rating: int | None
    title: str | None = None
    federation: str | None = None
    sex: str | None = None
    """`m` or `w` (the list's `M` and `V`)."""
    birth: str | None = None
    """`YYYY` or `YYYY-MM-DD`, as the season file writes it."""

    @property
    def identity(self) -> dict[str, str]:
        """What the line says of who he is, as a player's fields; only what it says."""
        found = {"title": self.title, "federation": self.federation, "sex": self.sex,
                 "birth": self.birth}
        return {k: v for k, v in found.items() if v is not None}


class Match(StrEnum):
    KNSB = "knsb"
    """By relation number, and the names agree."""
    NAME = "name"
    """By name: one line of the list has his name."""
    CLOSE = "close"
    """A name alike but not the same, or one of several with his name: the arbiter decides."""
    NUMBER_ONLY = "number_only"
    """His relation number, but another name: the arbiter decides (a number typed wrong, or
    an id from another register)."""


@dataclass(frozen=True, slots=True)
class Change:
    """What the list would change for one member."""

    player: str
    name: str
    listed: Listed
    match: Match
    old_rating: int | None
    old_knsb: int | None
    old_identity: Mapping[str, str] = field(default_factory=dict)
    """His title, federation, sex and birth as the club has them."""

    @property
    def new_rating(self) -> int | None:
        """The list's rating; an unrated line keeps the club's."""
        return self.old_rating if self.listed.rating is None else self.listed.rating

    @property
    def new_identity(self) -> dict[str, str]:
        """What the list says of him, over what the club had."""
        return {**self.old_identity, **self.listed.identity}

    @property
    def changes_anything(self) -> bool:
        return self.new_rating != self.old_rating or self.listed.knsb != self.old_knsb \
            or self.new_identity != dict(self.old_identity)


@dataclass(frozen=True, slots=True)
class Proposal:
    """The list against the season, before anything is written."""

    updates: tuple[Change, ...]
    """Certain matches that change a rating or learn a relation number."""
    close: tuple[Change, ...]
    """Matches the arbiter confirms one by one."""
    unchanged: tuple[str, ...] = ()
    """Members found whose rating and number are already right."""
    missing: tuple[str, ...] = ()
    """Members the list does not have (ids)."""
    listed: int = 0
    """How many lines the list has."""
    accepted: frozenset[int] = field(default_factory=frozenset)
    """The close matches (by index) the arbiter has confirmed so far."""

    def to_apply(self) -> tuple[Change, ...]:
        chosen = (c for i, c in enumerate(self.close) if i in self.accepted)
        return tuple(c for c in (*self.updates, *chosen) if c.changes_anything)


def read_list(data: bytes, which: RatingList = RatingList.CLASSICAL,
              name: str = "") -> list[Listed]:
    """The lines of a rating list, from a zip the KNSB publishes (the list `which`) or the
    CSV inside it. A CSV says which list it is by its `name` only (`RAPID.csv`): one of the
    KNSB's names that is not `which` is refused, as such a zip is."""
    if len(data) > MAX_BYTES:
        raise RatingListError(ListProblem.TOO_BIG, limit=MAX_BYTES // (1024 * 1024))
    if data[:2] == b"PK":
        data = _unpacked(data, which)
    else:
        _named_as(which, name)
    return _rows(_decoded(data))


def _named_as(which: RatingList, name: str) -> None:
    other = next((kind for kind in RatingList if kind.file_name.upper() == name.upper()), None)
    if other is not None and other is not which:
        raise RatingListError(ListProblem.OTHER_FILE, name=which.file_name, found=name)


def _unpacked(data: bytes, which: RatingList) -> bytes:
    import zipfile  # only for a zipped list

    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise RatingListError(ListProblem.NOT_ZIP) from exc
    with archive:
        members = [m for m in archive.infolist() if not m.is_dir()]
        if not members:
            raise RatingListError(ListProblem.EMPTY_ZIP)
        named = {m.filename.rsplit("/", 1)[-1].upper(): m for m in members}
        inside = named.get(which.file_name.upper())
        if inside is None:
            others = [w for w in RatingList if w.file_name.upper() in named]
            if others:
                raise RatingListError(ListProblem.OTHER_LIST, name=which.file_name,
                                      found=others[0].file_name)
            csvs = [m for m in members if m.filename.lower().endswith(".csv")]
            if len(csvs) != 1:
                raise RatingListError(ListProblem.NO_CSV, name=which.file_name)
            inside = csvs[0]
        if inside.file_size > MAX_BYTES:  # a zip bomb is refused before it is unpacked
            raise RatingListError(ListProblem.TOO_BIG, limit=MAX_BYTES // (1024 * 1024))
        try:
            return archive.read(inside)
        except (zipfile.BadZipFile, OSError, EOFError) as exc:
            raise RatingListError(ListProblem.NOT_ZIP) from exc


def _decoded(data: bytes) -> str:
    try:
        return decode(data)
    except UnicodeError:
        raise RatingListError(ListProblem.ENCODING) from None


def _rows(text: str) -> list[Listed]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=";")
    header = next(reader, None)
    if header is None or tuple(h.strip() for h in header[:len(HEADER)]) != HEADER:
        raise RatingListError(ListProblem.HEADER, expected=";".join(HEADER))
    listed: list[Listed] = []
    for line, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        number, name = (row[0].strip(), row[1].strip()) if len(row) >= 5 else ("", "")
        rating = row[4].strip() if len(row) >= 5 else ""
        if not number.isdecimal() or not name or not (rating == "" or rating.isdecimal()):
            raise RatingListError(ListProblem.BAD_ROW, line=line)
        cells = [cell.strip() for cell in row] + [""] * (len(HEADER) - len(row))
        listed.append(Listed(int(number), name, (int(rating) or None) if rating else None,
                             title=_title(cells[2]), federation=_federation(cells[3]),
                             birth=_birth(cells[6]), sex=_SEXES.get(cells[7].lower())))
    if not listed:
        raise RatingListError(ListProblem.NO_ROWS)
    return listed


_SEXES = {"m": "m", "v": "w", "w": "w"}
"""The list's `S` column (`M`, `V`) as the season file writes it."""


def _title(cell: str) -> str | None:
    return cell.upper() if re.fullmatch(r"[A-Za-z]{1,3}", cell) else None


def _federation(cell: str) -> str | None:
    return cell.upper() if re.fullmatch(r"[A-Za-z]{3}", cell) else None


def _birth(cell: str) -> str | None:
    """A year, or a date as `YYYY-MM-DD` or `DD-MM-YYYY`; anything else is not kept."""
    if re.fullmatch(r"\d{4}(-\d{2}-\d{2})?", cell):
        return cell
    found = re.fullmatch(r"(\d{2})-(\d{2})-(\d{4})", cell)
    return f"{found[3]}-{found[2]}-{found[1]}" if found else None


def propose(season: Season, listed: Iterable[Listed]) -> Proposal:
    """What the list changes for the members still playing: by relation number first, then
    by a name only one line has; a name alike, or shared by several lines, is a close
    match."""
    rows = list(listed)
    by_number = {row.knsb: row for row in rows}
    # A line a member has by number, under his name, is his: no other member gets it by name.
    claimed = {p.knsb for p in season.players
               if p.knsb in by_number and _same_person(p.name, by_number[p.knsb].name)}
    index = _Index([row for row in rows if row.knsb not in claimed])
    updates: list[Change] = []
    close: list[Change] = []
    unchanged: list[str] = []
    missing: list[str] = []
    for player in season.players:
        if player.withdrawn is not None:
            continue
        if player.knsb is not None and player.knsb in by_number:
            row = by_number[player.knsb]
            if not _same_person(player.name, row.name):
                close.append(_change(player, row, Match.NUMBER_ONLY))
                continue
            found: Change | None = _change(player, row, Match.KNSB)
        else:
            same = index.by_key.get(names.key(player.name), [])
            found = _change(player, same[0], Match.NAME) if len(same) == 1 else None
            if found is None:
                near = same[0] if same else index.nearest(player.name)
                if near is not None:
                    close.append(_change(player, near, Match.CLOSE))
                    continue
        if found is None:
            missing.append(player.id)
        elif found.changes_anything:
            updates.append(found)
        else:
            unchanged.append(player.id)
    return Proposal(tuple(updates), tuple(close), tuple(unchanged), tuple(missing), len(rows))


def _change(player: Player, row: Listed, match: Match) -> Change:
    return Change(player.id, player.name, row, match, player.rating, player.knsb,
                  {k: v for k in IDENTITY if (v := getattr(player, k)) is not None})


IDENTITY = ("title", "federation", "sex", "birth")
"""The player's fields the list can tell."""


def _same_person(name: str, listed: str) -> bool:
    """The club's name and the list's are one person's: the same key; the same first initial
    and a surname word in common (`Visser-de Wit, A.` for Anna Visser); or alike but for a
    typing error."""
    if names.key(name) == names.key(listed):
        return True
    first, other = names.initials(name), names.initials(listed)
    if first[:1] and first[:1] == other[:1] and \
            _surname_words(name) & _surname_words(listed):
        return True
    from rapidfuzz import fuzz  # only when the names differ

    return fuzz.ratio(names.key(name), names.key(listed)) >= CLOSE


def _surname_words(name: str) -> set[str]:
    return set(names.surname_key(name).split()) - names.PARTICLES


class _Index:
    """The list's lines by name key and by surname, for finding a member's line."""

    def __init__(self, rows: list[Listed]) -> None:
        self.by_key: dict[str, list[Listed]] = defaultdict(list)
        self.by_surname: dict[str, list[Listed]] = defaultdict(list)
        for row in rows:
            self.by_key[names.key(row.name)].append(row)
            self.by_surname[names.surname_key(row.name)].append(row)
        self.keys = list(self.by_key)

    def nearest(self, name: str) -> Listed | None:
        """The line most alike: the same surname and initials (`J. de Vries` for `Jan de
        Vries`), else a name alike enough (a typing error)."""
        first = names.initials(name)
        for row in self.by_surname.get(names.surname_key(name), []):
            if first and names.initials(row.name) == first:
                return row
        from rapidfuzz import fuzz, process  # only when a name is not found as it is

        near = process.extractOne(names.key(name), self.keys, scorer=fuzz.ratio,
                                  score_cutoff=CLOSE)
        return self.by_key[near[0]][0] if near else None


def apply(season: Season, changes: Iterable[Change]) -> Season:
    """The season with the list's ratings and relation numbers for these members."""
    chosen = {c.player: c for c in changes}
    return replace(season, players=tuple(
        _applied(p, chosen[p.id]) if p.id in chosen else p for p in season.players))


def _applied(player: Player, change: Change) -> Player:
    new = change.new_identity
    return replace(player, rating=change.new_rating, knsb=change.listed.knsb,
                   title=new.get("title"), federation=new.get("federation"),
                   sex=new.get("sex"), birth=new.get("birth"))
