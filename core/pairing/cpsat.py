"""The general engine: OR-Tools CP-SAT on the same table.

It solves the objective in three stages (rule tiers, then distance, then colour preference
and tie-break), each stage keeping the optimum of the one before, because the whole
lexicographic objective does not fit CP-SAT's 64-bit coefficients. It is the engine for club
rules that link several boards, and it explains an impossible round: which rule families
cannot all be kept.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from core.pairing.evaluate import TIE_WIDTH, EdgeTable, tier_weights
from core.pairing.model import Tier
from core.pairing.selection import Selection

TIME_LIMIT_SECONDS = 30.0


def _solver() -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.linearization_level = 2
    solver.parameters.max_cut_rounds_at_level_zero = 5
    solver.parameters.max_time_in_seconds = TIME_LIMIT_SECONDS
    return solver


class _Model:
    def __init__(self, table: EdgeTable) -> None:
        self.table = table
        self.model = cp_model.CpModel()
        n = len(table.players)
        self.edges = [int(e) for e in table.allowed.nonzero()[0]]
        self.x = {e: self.model.new_bool_var(f"e{e}") for e in self.edges}
        self.bye = {int(p): self.model.new_bool_var(f"bye{p}")
                    for p in table.bye_allowed.nonzero()[0]} if table.needs_bye else {}
        incident: list[list[cp_model.IntVar]] = [[] for _ in range(n)]
        for e, var in self.x.items():
            incident[int(table.i[e])].append(var)
            incident[int(table.j[e])].append(var)
        for p, var in self.bye.items():
            incident[p].append(var)
        for vars_ in incident:
            self.model.add_exactly_one(vars_)
        if self.bye:
            self.model.add_exactly_one(self.bye.values())  # one bye node, as in the matching
        tiers, bye_tiers = table.tiers, table.bye_tiers()
        self.tier_sums = [
            sum(int(tiers[e, t]) * v for e, v in self.x.items())
            + sum(int(bye_tiers[p, t]) * v for p, v in self.bye.items())
            for t in range(len(Tier))]
        self.distance = sum(int(table.distance2[e]) * v for e, v in self.x.items())
        self.last = sum(((int(table.preference[e]) << TIE_WIDTH) + int(table.tie[e])) * v
                        for e, v in self.x.items()) + sum(
            ((int(table.bye_preference[p]) << TIE_WIDTH) + int(table.bye_tie[p])) * v
            for p, v in self.bye.items())

    def selection(self, solver: cp_model.CpSolver) -> Selection:
        edges = tuple(e for e, v in self.x.items() if solver.boolean_value(v))
        bye = next((p for p, v in self.bye.items() if solver.boolean_value(v)), None)
        return Selection(edges, bye)


def build(table: EdgeTable) -> _Model:
    return _Model(table)


def solve(table: EdgeTable, m: _Model) -> tuple[Selection | None, bool]:
    """(the optimal selection or None if the fixes allow none, proved optimal)."""
    solver = _solver()
    proved = True
    tiers = sum(w * total for w, total in zip(tier_weights(), m.tier_sums, strict=True))
    stages = [tiers, m.distance, m.last]
    for k, expression in enumerate(stages):
        m.model.minimize(expression)
        status = solver.solve(m.model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None, False
        proved &= status == cp_model.OPTIMAL
        if k == len(stages) - 1:
            break
        # Keep this stage's optimum while the next one optimises, starting from this solution.
        m.model.add(expression <= int(solver.value(expression)))
        m.model.clear_hints()  # type: ignore[no-untyped-call]
        for var in m.x.values():
            m.model.add_hint(var, solver.boolean_value(var))
    return m.selection(solver), proved


def conflicting_families(table: EdgeTable) -> tuple[Tier, ...]:
    """Rule families (tiers) that cannot all be kept together this round: a small set whose
    rules conflict. Empty when every rule can be kept."""
    m = _Model(table)
    assume = []
    for tier, total in zip(Tier, m.tier_sums, strict=True):
        keep = m.model.new_bool_var(f"keep_{tier.name}")
        m.model.add(total == 0).only_enforce_if(keep)
        assume.append((tier, keep))
    m.model.add_assumptions([lit for _, lit in assume])
    solver = _solver()
    status = solver.solve(m.model)
    if status != cp_model.INFEASIBLE:
        return ()
    core = set(solver.sufficient_assumptions_for_infeasibility())
    return tuple(tier for tier, lit in assume if lit.index in core)
