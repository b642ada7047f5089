"""The engines that pair a round: blossom (exact for every rule of the presets), CP-SAT (the
general one) and the traditional top-down pairing (for comparison)."""

from __future__ import annotations

import time
from enum import StrEnum

from core.pairing import blossom, topdown
from core.pairing.evaluate import EdgeTable, evaluate
from core.pairing.model import Pairing, PairingImpossibleError, PairingRequest, Tier, Timings
from core.pairing.selection import Selection, to_pairing


class Engine(StrEnum):
    BLOSSOM = "blossom"
    """Exact for every rule that depends on one board only: all rules of the three presets."""
    CPSAT = "cpsat"
    """The general engine (OR-Tools CP-SAT)."""


def pair(request: PairingRequest, engine: Engine = Engine.BLOSSOM) -> Pairing:
    """The best pairing of the round. When the rules cannot all be kept it breaks the fewest
    and least important and names them; it fails only when the arbiter's fixes allow no
    pairing at all (PairingImpossibleError)."""
    if engine is Engine.CPSAT:
        from core.pairing import cpsat  # OR-Tools loads pandas: 0.7 s, only when asked for

        start = time.perf_counter()
        table = evaluate(request)
        evaluated = time.perf_counter()
        model = cpsat.build(table)
        built = time.perf_counter()
        selection, optimal = cpsat.solve(table, model)
        timings = Timings(evaluated - start, built - evaluated, time.perf_counter() - built)
    else:
        table, selection, timings = _blossom(request)
        optimal = True
    if selection is None:
        raise PairingImpossibleError(f"no pairing of round {request.round} fits the fixes")
    return to_pairing(request, table, selection, optimal=optimal, engine=engine.value,
                      timings=timings)


def _blossom(request: PairingRequest) -> tuple[EdgeTable, Selection | None, Timings]:
    """Blossom on the band of near boards first, wider until the band proves the optimum."""
    within = blossom.first_band(request)
    spent = [0.0, 0.0, 0.0]
    while True:
        start = time.perf_counter()
        table = evaluate(request, within)
        evaluated = time.perf_counter()
        costs = blossom.build(table)
        built = time.perf_counter()
        outcome = blossom.solve(table, costs)
        for k, seconds in enumerate((evaluated - start, built - evaluated,
                                     time.perf_counter() - built)):
            spent[k] += seconds
        if not isinstance(outcome, blossom.Wider):
            return table, outcome, Timings(*spent)
        within = outcome.within


def baseline(request: PairingRequest) -> Pairing | None:
    """The traditional top-down pairing (for comparison): None when it finds no pairing that
    keeps every rule."""
    start = time.perf_counter()
    table = evaluate(request)
    evaluated = time.perf_counter()
    legal = topdown.build(table)
    built = time.perf_counter()
    selection = topdown.solve(table, legal)
    solved = time.perf_counter()
    if selection is None:
        return None
    return to_pairing(request, table, selection, optimal=False, engine="topdown",
                      timings=Timings(evaluated - start, built - evaluated, solved - built))


def conflicting_tiers(request: PairingRequest) -> tuple[Tier, ...]:
    """Which families of rules cannot all be kept together this round (empty if all can)."""
    from core.pairing import cpsat  # see pair()

    return cpsat.conflicting_families(evaluate(request))
