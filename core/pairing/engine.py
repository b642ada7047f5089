"""The engines that pair a round: blossom (exact for every rule of the presets), CP-SAT (the
general one) and the traditional top-down pairing (for comparison)."""

from __future__ import annotations

import time
from enum import StrEnum

from core.pairing import blossom, topdown
from core.pairing.evaluate import evaluate
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
    start = time.perf_counter()
    table = evaluate(request)
    evaluated = time.perf_counter()
    selection: Selection | None
    if engine is Engine.CPSAT:
        from core.pairing import cpsat  # OR-Tools loads pandas: 0.7 s, only when asked for

        model = cpsat.build(table)
        built = time.perf_counter()
        selection, optimal = cpsat.solve(table, model)
    else:
        costs = blossom.build(table)
        built = time.perf_counter()
        selection, optimal = blossom.solve(table, costs), True
    solved = time.perf_counter()
    if selection is None:
        raise PairingImpossibleError(f"no pairing of round {request.round} fits the fixes")
    timings = Timings(evaluated - start, built - evaluated, solved - built)
    return to_pairing(request, table, selection, optimal=optimal, engine=engine.value,
                      timings=timings)


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
