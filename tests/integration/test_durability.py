"""Durability: SIGKILL a writer at random moments; nothing it was told "ok" about is lost, and
nothing is half-written."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from core.season import Player
from core.simulation import simulate
from storage.seasons import import_season, load_season
from storage.store import open_store
from tests.integration.conftest import ROOT

CHILD = Path(__file__).with_name("durability_child.py")


def run_and_kill(path: Path, seed: int, rng: random.Random) -> list[list[str]]:
    """Start the writer, kill it with SIGKILL after a random time, return what it printed."""
    # Run as a file: the child needs the project's packages, not the tests' (once, in CI,
    # `-m tests.integration...` did not find the `tests` package at all).
    child = subprocess.Popen([sys.executable, str(CHILD), str(path), str(seed)], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[list[str]] = []
    ready = threading.Event()

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            if line.strip() == "ready":
                ready.set()
            elif line.endswith("\n"):  # a line cut off by the kill was never said
                lines.append(line.split())

    reader = threading.Thread(target=read)
    reader.start()
    assert ready.wait(30), child.stderr.read() if child.stderr else "no output"
    time.sleep(rng.uniform(0.05, 0.6))
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    reader.join()
    assert child.stderr is not None
    child.stderr.close()
    return lines


@pytest.mark.slow
@pytest.mark.parametrize("kills", [pytest.param(3, id="quick"), pytest.param(25, id="full")])
async def test_sigkill_loses_nothing_and_leaves_nothing_half_written(tmp_path, kills):
    rng = random.Random(2026)
    path = tmp_path / "keizer.db"
    members = tuple(Player(f"p{k:02d}", f"Lid {k}", rating=2000 - 40 * k) for k in range(11))
    db = await open_store(path)
    await import_season(db, simulate(random.Random(1), rules="sliedrecht", players=members,
                                     rounds=1))
    await db.close()
    written: list[list[str]] = []
    for kill in range(kills):
        written += run_and_kill(path, kill, rng)
        db = await open_store(path)
        try:
            async with db.reader.execute("PRAGMA integrity_check") as cur:
                assert (await cur.fetchone())[0] == "ok"
            # The core validates every round: a pairing is all there or not at all.
            season = await load_season(db)
            for fact in written:
                check(season, fact)
        finally:
            await db.close()
    assert len(written) > 3 * kills, "the writer made progress between kills"


def check(season, fact: list[str]) -> None:
    kind, number = fact[0], int(fact[1])
    assert number <= len(season.rounds), fact
    rnd = season.round(number)
    if kind == "signoff":
        assert fact[2] in {a.player for a in rnd.absent}, fact
    elif kind == "pairing":
        assert len(rnd.games) == int(fact[2]), fact
    elif kind == "result":
        assert rnd.games[int(fact[2]) - 1].result.value == fact[3], fact
