"""Writes sign-offs, pairings and results in a loop and prints each one once committed; the
durability test kills it with SIGKILL at random moments. It resumes from whatever state the
database is in.

    python -m tests.integration.durability_child DB SEED
"""

from __future__ import annotations

import asyncio
import datetime as dt
import random
import sys
from pathlib import Path

from core.pairing import pair, request_for_round
from core.season import Result
from storage import attendance, results, rounds
from storage.db import Database
from storage.seasons import load_season, round_row, season_id
from storage.store import open_store

RESULTS = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)


def say(*words: object) -> None:
    # One write per line: with PYTHONUNBUFFERED each of print's pieces is a write of its own,
    # and a kill between them left a torn fact ("round" without its number).
    sys.stdout.write(" ".join(map(str, words)) + "\n")
    sys.stdout.flush()


async def step(db: Database, rng: random.Random) -> None:
    season = await load_season(db)
    last = season.rounds[-1]
    state = (await round_row(db.reader, await season_id(db), last.number))["state"]
    if last.is_complete:
        await rounds.add_round(db, last.number + 1, actor=1)
        say("round", last.number + 1)
    elif state == rounds.RoundState.DRAFTED:
        await rounds.advance(db, last.number, rounds.RoundState.DRAFTED,
                             rounds.RoundState.PUBLISHED, actor=1)
    elif not last.is_paired:
        signed = {a.player for a in last.absent}
        free = [p.id for p in season.players if p.id not in signed]
        if len(signed) < 3:
            player = rng.choice(free)
            await attendance.sign_off(db, last.number, player, sent_at=dt.datetime.now(dt.UTC),
                                      actor=2)
            say("signoff", last.number, player)
        else:
            pairing = pair(request_for_round(season, last.number))
            await rounds.advance(db, last.number, rounds.RoundState.PLANNED,
                                 rounds.RoundState.LOCKED, actor=1)
            await rounds.save_pairing(db, pairing, actor=1)
            say("pairing", last.number, len(pairing.boards))
    else:
        board = next(k for k, g in enumerate(last.games, start=1) if g.result is None)
        result = rng.choice(RESULTS)
        await results.report(db, last.number, board, result, player=None, actor=1)
        say("result", last.number, board, result.value)


async def main(path: Path, seed: int) -> None:
    rng = random.Random(seed)
    db = await open_store(path)
    say("ready")
    while True:
        await step(db, rng)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
