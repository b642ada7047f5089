"""The engines that pair a round: blossom (exact for every rule of the presets), CP-SAT (the
general one) and the traditional top-down pairing (for comparison)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import TypeVar

from core.pairing import blossom, topdown
from core.pairing.evaluate import EdgeTable, evaluate
from core.pairing.model import (
    Objective,
    Pairing,
    PairingImpossibleError,
    PairingRequest,
    Tier,
    Timings,
)
from core.pairing.selection import Selection, objective, to_pairing

_Model = TypeVar("_Model")
_Outcome = TypeVar("_Outcome")


class Engine(StrEnum):
    BLOSSOM = "blossom"
    """Exact for every rule that depends on one board only: all rules of the three presets."""
    CPSAT = "cpsat"
    """The general engine (OR-Tools CP-SAT)."""


def pair(request: PairingRequest, engine: Engine = Engine.BLOSSOM) -> Pairing:
    """The best pairing of the round. When the rules cannot all be kept it breaks the fewest
    and least important and names them; it fails only when the arbiter's fixes allow no
    pairing at all (PairingImpossibleError)."""
    selection, optimal = None, True
    if engine is Engine.BLOSSOM:
        table, selection, timings = _blossom(request)
    if selection is None and (engine is Engine.CPSAT or _apart_here(request)):
        # No pairing keeps every pair apart (or CP-SAT was asked for): CP-SAT, which weighs
        # the pairs kept apart as rules above all others, breaks the fewest of them.
        from core.pairing import cpsat  # OR-Tools loads pandas: 0.7 s, only when asked for

        table, (selection, optimal), timings = _timed(request, None, cpsat.build, cpsat.solve,
                                                      apart_allowed=True)
    if selection is None:
        raise PairingImpossibleError(f"no pairing of round {request.round} fits the fixes")
    return to_pairing(request, table, selection, optimal=optimal, engine=engine.value,
                      timings=timings)


def _blossom(request: PairingRequest) -> tuple[EdgeTable, Selection | None, Timings]:
    """Blossom on the band of near boards first, wider until the band proves the optimum."""
    within = blossom.first_band(request)
    spent = Timings(0.0, 0.0, 0.0)
    while True:
        table, outcome, timings = _timed(request, within, blossom.build, blossom.solve)
        spent += timings
        if not isinstance(outcome, blossom.Wider):
            return table, outcome, spent
        within = outcome.within


def _apart_here(request: PairingRequest) -> bool:
    """Whether a pair kept apart is among those paired this round."""
    playing = request.present - request.fixes.leave_out
    return any(pair <= playing for pair in request.apart)


def _timed(request: PairingRequest, within: int | None, build: Callable[[EdgeTable], _Model],
           solve: Callable[[EdgeTable, _Model], _Outcome], *, apart_allowed: bool = False) \
        -> tuple[EdgeTable, _Outcome, Timings]:
    """One engine's three steps on the round's table, each timed."""
    start = time.perf_counter()
    table = evaluate(request, within, apart_allowed=apart_allowed)
    evaluated = time.perf_counter()
    model = build(table)
    built = time.perf_counter()
    outcome = solve(table, model)
    timings = Timings(evaluated - start, built - evaluated, time.perf_counter() - built)
    return table, outcome, timings


def judged(request: PairingRequest, boards: Sequence[tuple[str, str]],
           bye: str | None) -> Objective:
    """What a pairing of the round that is given (the arbiter's, say) costs, by the measure
    the engine minimises (each board in its better colours)."""
    table = evaluate(request, apart_allowed=True)
    index = {pid: k for k, pid in enumerate(table.players)}
    edges = tuple(sorted(table.edge(index[white], index[black]) for white, black in boards))
    return objective(table, Selection(edges, None if bye is None else index[bye]))


def baseline(request: PairingRequest) -> Pairing | None:
    """The traditional top-down pairing (for comparison): None when it finds no pairing that
    keeps every rule."""
    table, selection, timings = _timed(request, None, topdown.build, topdown.solve)
    if selection is None:
        return None
    return to_pairing(request, table, selection, optimal=False, engine="topdown",
                      timings=timings)


def conflicting_tiers(request: PairingRequest) -> tuple[Tier, ...]:
    """Which families of rules cannot all be kept together this round (empty if all can)."""
    from core.pairing import cpsat  # see pair()

    return cpsat.conflicting_families(evaluate(request, apart_allowed=True))
