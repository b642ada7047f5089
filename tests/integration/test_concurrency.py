"""100 concurrent writers through one store: no "database is locked", nothing lost, every
change audited."""

from __future__ import annotations

import asyncio
import random

from core.pairing import pair, request_for_round
from core.season import Result
from storage import attendance, audit, results, rounds
from storage.seasons import load_season
from storage.store import open_store
from tests.integration.conftest import NOON


async def test_one_hundred_concurrent_writers(club):
    season = await load_season(club)
    pairing = pair(request_for_round(season, 21))
    await rounds.advance(club, 21, rounds.RoundState.PLANNED, rounds.RoundState.LOCKED, actor=1)
    await rounds.save_pairing(club, pairing, actor=1)
    await rounds.advance(club, 21, rounds.RoundState.DRAFTED, rounds.RoundState.PUBLISHED,
                         actor=1)
    await rounds.add_round(club, 22, actor=1)
    before = len(await audit.entries(club.reader, 10_000))

    rng = random.Random(100)
    signers = [p.id for p in season.players if p.active_in(22)][:25]
    boards = [b.number for b in pairing.boards]
    old_games = [(rnd.number, board) for rnd in season.rounds[:20]
                 for board in range(1, len(rnd.games) + 1)]
    corrections = rng.sample(old_games, 100 - len(signers) - len(boards))
    new_results = {key: rng.choice(list(Result)[:3]) for key in corrections}

    writers = (
        [attendance.sign_off(club, 22, pid, sent_at=NOON, actor=k)
         for k, pid in enumerate(signers)]
        + [results.report(club, 21, b, Result.DRAW, player=None, actor=1) for b in boards]
        + [results.correct(club, r, b, new_results[(r, b)], actor=1) for r, b in corrections]
    )
    assert len(writers) == 100
    rng.shuffle(writers)
    await asyncio.gather(*writers)

    after = await load_season(club)
    assert {a.player for a in after.rounds[21].absent} == set(signers)
    assert all(g.result is Result.DRAW for g in after.rounds[20].games)
    for (r, b), result in new_results.items():
        assert after.rounds[r - 1].games[b - 1].result is result
    log = (await audit.entries(club.reader, 10_000))[: -before or None]
    actions = [e.action for e in log]
    assert actions.count("signoff.set") == len(signers)
    assert actions.count("result.confirmed") == len(boards)
    assert actions.count("result.correct") == len(corrections)
    assert actions.count("round.state") == 1  # round 21 became complete, once


async def test_two_stores_on_one_database_claim_each_deadline_once(club):
    """Issue 27: two processes' stores (each its own connections) on one database race for
    each round's deadline: every round is locked by exactly one of them, on SQLite (its
    file's lock) and on PostgreSQL (an advisory lock for each write)."""
    other = await open_store(club.path)
    try:
        for number in range(22, 32):
            await rounds.add_round(club, number, actor=1)
        won = []
        for number in range(22, 32):
            claims = await asyncio.gather(*(
                rounds.advance(store, number, rounds.RoundState.PLANNED,
                               rounds.RoundState.LOCKED, actor=k)
                for k, store in enumerate((club, other, club, other))))
            won.append(claims.count(True))
        assert won == [1] * 10
        log = [e for e in await audit.entries(club.reader, 10_000) if e.action == "round.state"]
        assert len(log) == 10
    finally:
        await other.close()
