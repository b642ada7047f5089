"""A write that touches one round checks that round, not the whole season (issue 23), and
comes to exactly the season the whole check would: the whole check is the oracle."""

from __future__ import annotations

import random
from collections.abc import Awaitable

import pytest

from core.errors import InvalidSeasonError, ProblemCode
from core.ledger import one_player
from core.season import (
    AbsenceReason,
    ExternalDay,
    Result,
    Season,
    read_season,
    season_from_data,
)
from storage import attendance, results, roster, rounds, seasons
from storage.db import versions
from storage.errors import StoreError
from storage.seasons import load_season
from tests.conftest import examples
from tests.integration.conftest import NOON, ROOT, dump

REASONS = (AbsenceReason.NOTICE, AbsenceReason.NO_NOTICE, AbsenceReason.EXTERNAL)
RESULTS = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW, None)


async def whole_check(db) -> Season:
    return season_from_data(await READ(db.reader))


async def one_write(db, rng: random.Random, codes: list[str]) -> None:
    """A random write of one round: a sign-off (also the arbiter's, in a played round), its
    undoing, a flexible member's sign-on, or a corrected result."""
    kind = rng.randrange(4)
    player, number = rng.choice(codes), rng.choice((3, 20, 21, 21, 21, 22))
    if kind == 0:
        reason = rng.choice(REASONS)
        await attendance.sign_off(
            db, number, player, reason, sent_at=NOON, actor=1, correction=number <= 20,
            day=rng.choice(tuple(ExternalDay)) if reason is AbsenceReason.EXTERNAL else None)
    elif kind == 1:
        await attendance.cancel_sign_off(db, number, player, sent_at=NOON, actor=1,
                                         correction=True)
    elif kind == 2:
        await attendance.sign_on(db, number, player, sent_at=NOON, actor=1, correction=True)
    else:
        await results.correct(db, rng.choice((3, 19, 20)), rng.randint(1, 12),
                              rng.choice(RESULTS), actor=1)


READ = seasons.season_data
"""The whole season's read, the oracle (the tests count the store's own calls of it)."""


@pytest.fixture
def whole_reads(monkeypatch) -> list[int | None]:
    """Every whole read of the season the store makes from here on."""
    reads: list[int | None] = []

    async def counted(conn, sid=None):
        reads.append(sid)
        return await READ(conn, sid)
    monkeypatch.setattr(seasons, "season_data", counted)
    return reads


@pytest.mark.parametrize("seed", range(examples(3, least=1)))
@pytest.mark.parametrize("at_hand", ["season at hand", "outline", "kept"])
async def test_one_round_writes_come_to_the_whole_check(club, whole_reads, seed, at_hand):
    """Random one-round writes, each checked on the season at hand (read between them), or,
    with none ever at hand (as after a start: nothing reads it between them), on its outline:
    either way the season stays the one the whole check reads. Read as the standings worker
    reads it (`kept`: only the rounds written since), it is that season too."""
    kept = seasons.KeptSeason()

    def read() -> Awaitable[Season]:
        if at_hand == "kept":
            return seasons.season_since(club.reader, kept)
        return load_season(club) if at_hand == "season at hand" \
            else seasons.stored_season(club.reader)

    await rounds.add_round(club, 22)
    await club.writer.execute("UPDATE player SET flexible = 1 WHERE code IN ('rm0', 'bv1')")
    await club.writer.commit()
    codes = [p.id for p in (await read()).players]
    whole_reads.clear()  # loading it once above is no write
    rng = random.Random(seed)
    stored = 0
    for _ in range(60):
        try:
            await one_write(club, rng, codes)
            stored += 1
        except (StoreError, InvalidSeasonError):
            pass  # refused as a member or the arbiter would be: nothing changed
        assert await read() == await whole_check(club)
    assert stored >= 30
    assert whole_reads == [], "a one-round write read the whole season"


BOARD_2_OF_4 = "board = 2 AND round_id = (SELECT id FROM round WHERE number = 4)"


@pytest.mark.parametrize(("change", "read_again"), [
    ("a result corrected", {3}),
    ("a game undone, its players signed off", {4}),
    ("a sign-off deleted", {6}),
    ("a sign-off", {21}),
    ("a round's date moved", {5}),
    ("a player's code changed", set(range(1, 22))),
])
async def test_a_kept_season_reads_again_only_the_rounds_written(club, monkeypatch, change,
                                                                read_again):
    """Issue 50.2: the standings worker keeps the season, and after a change reads the games
    and sign-offs of the rounds it wrote alone (and of round 21, waiting to be paired: its
    flexible members follow the sign-ons); every other round is the one it kept, and the
    season is the one read whole. A deletion alone counts too (on the count the round's
    rows made, or the migration gave a round of an older store)."""
    kept = seasons.KeptSeason()
    before = await seasons.season_since(club.reader, kept)
    read: list[int] = []
    by_round = seasons._by_round

    async def counted(conn, sid, own, rounds):
        read.extend(rounds)
        return await by_round(conn, sid, own, rounds)
    monkeypatch.setattr(seasons, "_by_round", counted)
    if change == "a result corrected":
        await results.correct(club, 3, 1, Result.DRAW, actor=1)
    elif change == "a sign-off":
        await attendance.sign_off(club, 21, before.players[0].id, sent_at=NOON, actor=1)
    else:
        for sql in {
            "a game undone, its players signed off": (
                f"INSERT INTO signoff (round_id, player_id, reason) SELECT round_id, {side}, "
                f"'notice' FROM game WHERE {BOARD_2_OF_4}" for side in ("white_id", "black_id")),
            "a sign-off deleted": ["DELETE FROM signoff WHERE id = (SELECT min(s.id) FROM "
                                   "signoff s JOIN round r ON r.id = s.round_id "
                                   "WHERE r.number = 6)"],
            "a round's date moved": ["UPDATE round SET date = '2026-01-01' WHERE number = 5"],
            "a player's code changed": ["UPDATE player SET code = 'zz9' WHERE code = 'rm0'"],
        }[change]:
            await club.writer.execute(sql)
        if change.startswith("a game undone"):
            await club.writer.execute(f"DELETE FROM game WHERE {BOARD_2_OF_4}")
        await club.writer.commit()
    read.clear()  # what the write itself read
    after = await seasons.season_since(club.reader, kept)
    async with club.reader.execute("SELECT id, number FROM round") as cur:
        numbers = {row[0]: row[1] for row in await cur.fetchall()}
    assert {numbers[rid] for rid in read} == read_again | {21}
    assert after == await seasons.stored_season(club.reader)
    if change != "a sign-off deleted":  # its player is missing from a played round
        assert after == await whole_check(club)
    assert [a is b for a, b in zip(after.rounds, before.rounds, strict=True)] == [
        rnd.number not in read_again | {21} for rnd in after.rounds]


async def test_a_cleared_result_is_checked_in_its_round(club, whole_reads):
    """A result cleared by the arbiter takes the round back to published: still its round's
    check, and the same season as the whole check."""
    await load_season(club)
    whole_reads.clear()
    await results.correct(club, 20, 1, None, actor=1)
    assert whole_reads == []
    assert await load_season(club) == await whole_check(club)


@pytest.mark.parametrize("name", ["sliedrecht", "drie-groepen", "drie-cycli"])
async def test_the_season_as_stored_is_the_season_the_whole_check_reads(db, name):
    """Issue 50: the season built from the rows as they are (trusted) is the one the season
    file's checks make of them, for every preset's example (external games by team, groups,
    a round waiting to be paired with its flexible members' absences)."""
    await seasons.import_season(db, read_season((ROOT / "examples" / f"{name}.json").read_text(
        "utf-8")))
    await db.writer.execute("UPDATE player SET flexible = 1 WHERE position % 7 = 0")
    await db.writer.commit()
    assert await seasons.stored_season(db.reader) == await whole_check(db)


async def test_a_write_with_no_checked_season_at_hand_checks_only_its_round(
        club, whole_reads, monkeypatch):
    """Issue 50: the first write after a start, or after a change this process did not make,
    finds no checked season at hand. It checks its own round against the season's outline
    (players, rules, which rounds are paired): no whole read, not even of the rows as stored
    (a second at thousands of players), and the same season as the whole check."""
    player = (await load_season(club)).players[0].id
    await club.writer.execute("UPDATE player SET rating = 1234 WHERE code = ?", (player,))
    await club.writer.commit()
    whole_reads.clear()
    rows_read = []
    stored = seasons._stored

    async def counted(*args):
        rows_read.append(args)
        return await stored(*args)
    monkeypatch.setattr(seasons, "_stored", counted)
    await attendance.sign_off(club, 21, player, sent_at=NOON, actor=1)
    assert whole_reads == [] and rows_read == []
    assert await load_season(club) == await whole_check(club)


@pytest.mark.parametrize("name", ["sliedrecht", "drie-groepen", "drie-cycli"])
async def test_a_players_own_season_is_the_whole_one_cut_to_him(db, name):
    """What prices a sign-off (`player_season`, his rows alone) is what the ledger makes of
    the whole season for him (`one_player`), for every player of every preset's example."""
    await seasons.import_season(db, read_season((ROOT / "examples" / f"{name}.json").read_text(
        "utf-8")))
    await db.writer.execute("UPDATE player SET flexible = 1 WHERE position % 7 = 0")
    await db.writer.commit()
    whole = await seasons.stored_season(db.reader)
    for player in whole.players:
        assert await seasons.player_season(db, player.id) == one_player(whole, player.id)


@pytest.mark.parametrize("at_hand", [True, False], ids=["season at hand", "outline"])
async def test_a_one_round_write_that_breaks_the_round_is_refused(club, at_hand):
    """A withdrawn player cannot be signed off for a round after he left: the round's check
    refuses it, with the same problem the whole check names, and nothing is stored; whether
    the season is at hand or only its outline."""
    await club.writer.execute("UPDATE player SET withdrawn = 20 WHERE code = 'rm0'")
    await club.writer.commit()
    if at_hand:
        await load_season(club)
    before = await dump(club)
    with pytest.raises(InvalidSeasonError) as caught:
        await attendance.sign_off(club, 21, "rm0", sent_at=NOON, actor=1)
    assert [(p.path, p.code) for p in caught.value.problems] == \
        [("rounds[20]", ProblemCode.PLAYER_NOT_ACTIVE)]
    assert await dump(club) == before


async def test_the_standings_version_moves_only_with_what_the_standings_depend_on(club):
    """Kept across a sign-off for the round still to be paired; moved by a result, a
    player, the rules, a round's state, and the attendance of a played round."""
    async def standings_version() -> int:
        return (await versions(club.reader)).standings

    start = await standings_version()
    await attendance.sign_off(club, 21, "rm0", sent_at=NOON, actor=1)
    await attendance.sign_on(club, 21, "bv1", sent_at=NOON, actor=1)
    await attendance.cancel_sign_off(club, 21, "rm0", sent_at=NOON, actor=1)
    assert await standings_version() == start
    moves = [
        lambda: results.correct(club, 20, 1, Result.DRAW, actor=1),
        lambda: attendance.sign_off(club, 20, "av6", sent_at=NOON, actor=1, correction=True),
        lambda: roster.withdraw(club, "rm0", last_round=21, actor=1),
        lambda: rounds.add_round(club, 22),
    ]
    for move in moves:
        before = await standings_version()
        await move()
        assert await standings_version() > before
