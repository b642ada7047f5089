"""A chosen set of boards (edge indices) and bye, its objective, and the pairing it makes."""

from __future__ import annotations

from dataclasses import dataclass

from core.pairing.evaluate import EdgeTable
from core.pairing.model import (
    Board,
    BrokenRule,
    Objective,
    Pairing,
    PairingRequest,
    Rule,
    Timings,
)
from core.rules import Colour, Rules


@dataclass(frozen=True, slots=True)
class Selection:
    edges: tuple[int, ...]
    bye: int | None
    """Index of the player with the bye."""


def objective(table: EdgeTable, selection: Selection) -> Objective:
    edges = list(selection.edges)
    tiers = table.tiers[edges].sum(axis=0)
    colour = int(table.preference[edges].sum())
    if selection.bye is not None:
        tiers = tiers + table.bye_tiers()[selection.bye]
        colour += int(table.bye_preference[selection.bye])
    return Objective(tuple(int(t) for t in tiers), int(table.distance2[edges].sum()), colour)


def to_pairing(request: PairingRequest, table: EdgeTable, selection: Selection, *,
               optimal: bool, engine: str, timings: Timings) -> Pairing:
    players = table.players
    index = {p: k for k, p in enumerate(players)}
    boards: list[tuple[int, str, str, int]] = []
    broken: list[tuple[int, int, BrokenRule]] = []
    for e in selection.edges:
        a, b = int(table.i[e]), int(table.j[e])
        white, black = (players[a], players[b]) if table.i_white[e] else (players[b], players[a])
        boards.append((a, white, black, e))
    boards.sort()
    for number, (_, white, black, e) in enumerate(boards, start=1):
        if not table.tiers[e].any():
            continue  # the board breaks nothing: most boards, in most rounds
        for rule in _broken_on_board(request, table, e, white, black, index):
            broken.append((rule.rule.tier, number, rule))
    bye = None if selection.bye is None else players[selection.bye]
    if bye is not None and table.bye_broken[selection.bye]:
        broken.append((Rule.BYE.tier, len(boards) + 1,
                       BrokenRule(Rule.BYE, (bye,), {"due": table.due_bye or ""})))
    broken.sort(key=lambda item: (item[0], item[1]))
    return Pairing(
        round=request.round,
        boards=tuple(Board(k, w, b) for k, (_, w, b, _) in enumerate(boards, start=1)),
        bye=bye, broken=tuple(rule for _, _, rule in broken),
        objective=objective(table, selection), optimal=optimal, engine=engine, timings=timings)


def _colour_broken(rules: Rules, table: EdgeTable, e: int, player: str, k: int,
                   colour: Colour, sign: int) -> list[BrokenRule]:
    """The colour rules this board breaks for `player` (row `k`), who gets `colour`."""
    c, ctx = table.counts, table.context
    out: list[BrokenRule] = []
    if c[f"diff_{colour.value}"][e]:
        out.append(BrokenRule(Rule.MAX_COLOUR_DIFFERENCE, (player,),
                              {"balance": int(ctx["balance"][k]) + sign,
                               "limit": rules.max_colour_difference or 0}))
    if c[f"run_{colour.value}"][e]:
        out.append(BrokenRule(Rule.MAX_SAME_COLOUR_RUN, (player,),
                              {"colour": colour.value, "run": int(ctx["run_length"][k]) + 1,
                               "limit": rules.max_same_colour_run or 0}))
    return out


def _broken_on_board(request: PairingRequest, table: EdgeTable, e: int, white: str,
                     black: str, index: dict[str, int]) -> list[BrokenRule]:
    """Name what the table counted for this board, with the facts that show it (`index`:
    each player's place in the table)."""
    rules, c, ctx = request.rules, table.counts, table.context
    pair = (white, black)
    out: list[BrokenRule] = []
    met = int(ctx["met"][e])
    if c["kept_apart"][e]:
        out.append(BrokenRule(Rule.KEPT_APART, pair))
    if c["max_meetings"][e]:
        out.append(BrokenRule(Rule.MAX_MEETINGS, pair,
                              {"meeting": met + 1, "limit": rules.max_meetings or 0}))
    if c["per_period"][e]:
        out.append(BrokenRule(Rule.PER_PERIOD, pair,
                              {"meeting": int(ctx["met_period"][e]) + 1,
                               "period": rules.period_of(request.round),
                               "limit": rules.per_period or 0}))
    if c["min_rounds_between"][e]:
        last = int(ctx["last"][e])
        out.append(BrokenRule(Rule.MIN_ROUNDS_BETWEEN, pair,
                              {"last": last,
                               "earliest": last + (rules.min_rounds_between or 0) + 1}))
    for player, colour, sign in ((white, Colour.WHITE, 1), (black, Colour.BLACK, -1)):
        out.extend(_colour_broken(rules, table, e, player, index[player], colour, sign))
    if c["rematch"][e]:
        out.append(BrokenRule(Rule.REMATCH_REVERSES_COLOURS, pair, {"last": int(ctx["last"][e])}))
    if c["max_rank_distance"][e]:
        out.append(BrokenRule(Rule.MAX_RANK_DISTANCE, pair,
                              {"distance": abs(int(table.rank[index[black]]
                                                   - table.rank[index[white]])),
                               "limit": rules.max_rank_distance or 0}))
    return out

