"""An independent, slow, board-by-board reading of rules.md section 5: the tests' oracle for
the vectorised rule table, and a brute-force optimum for small rounds."""

from __future__ import annotations

from collections.abc import Iterator

from core.pairing import PairingRequest, Rule, Tier
from core.rules import Colour

W, B = Colour.WHITE, Colour.BLACK


def place(request: PairingRequest) -> dict[str, int]:
    return {pid: k for k, pid in enumerate(request.ranking, start=1)}


def board_breaks(request: PairingRequest, white: str, black: str) -> list[tuple[Rule, tuple]]:
    rules, now, pos = request.rules, request.round, place(request)
    games = [m for m in request.meetings if {m.white, m.black} == {white, black}]
    out: list[tuple[Rule, tuple]] = []
    if frozenset((white, black)) in request.apart:
        out.append((Rule.KEPT_APART, (white, black)))
    if rules.max_meetings is not None and len(games) + 1 > rules.max_meetings:
        out.append((Rule.MAX_MEETINGS, (white, black)))
    period = rules.period_of(now)
    in_period = [m for m in games if rules.period_of(m.round) == period]
    top = rules.top_exception
    exempt = top is not None and now >= top.from_round and pos[white] <= top.top \
        and pos[black] <= top.top
    if rules.per_period is not None and len(in_period) + 1 > rules.per_period and not exempt:
        out.append((Rule.PER_PERIOD, (white, black)))
    if rules.min_rounds_between is not None and games \
            and now - max(m.round for m in games) <= rules.min_rounds_between:
        out.append((Rule.MIN_ROUNDS_BETWEEN, (white, black)))
    for player, colour in ((white, W), (black, B)):
        after = (*request.colours.get(player, ()), colour)
        balance = sum(1 if c is W else -1 for c in after)
        if rules.max_colour_difference is not None and abs(balance) > rules.max_colour_difference:
            out.append((Rule.MAX_COLOUR_DIFFERENCE, (player,)))
        run = rules.max_same_colour_run
        if run is not None and len(after) > run and all(c is colour for c in after[-run - 1:]):
            out.append((Rule.MAX_SAME_COLOUR_RUN, (player,)))
    if rules.rematch_reverses_colours and games \
            and max(games, key=lambda m: m.round).white == white:
        out.append((Rule.REMATCH_REVERSES_COLOURS, (white, black)))
    if rules.max_rank_distance is not None \
            and abs(pos[white] - pos[black]) > rules.max_rank_distance:
        out.append((Rule.MAX_RANK_DISTANCE, (white, black)))
    return out


def balance(request: PairingRequest, player: str) -> int:
    return sum(1 if c is W else -1 for c in request.colours.get(player, ()))


def against_preference(request: PairingRequest, white: str, black: str) -> int:
    rules, pos = request.rules, place(request)
    met = any({m.white, m.black} == {white, black} for m in request.meetings)
    if rules.rematch_reverses_colours and met:
        return int(any(r is Rule.REMATCH_REVERSES_COLOURS
                       for r, _ in board_breaks(request, white, black)))
    bw, bb = balance(request, white), balance(request, black)
    if bw != bb:
        return int(bw > bb)
    higher = white if pos[white] < pos[black] else black
    wanted = white if rules.equal_balance_higher_gets is W else black
    return int(higher != wanted)


def players(request: PairingRequest) -> list[str]:
    pos = place(request)
    return sorted(request.present - request.fixes.leave_out, key=pos.__getitem__)


def due_bye(request: PairingRequest) -> str | None:
    field = players(request)
    if len(field) % 2 == 0:
        return None
    fewest = min(request.byes.get(p, 0) for p in field)
    return [p for p in field if request.byes.get(p, 0) == fewest][-1]


def best_board(request: PairingRequest, a: str, b: str) -> tuple[str, str]:
    """The better colours for a pair: fewer colour rules broken, then fewer of balance and
    run (a rematch's reversal gives way first), then preference."""
    def key(wb: tuple[str, str]) -> tuple[int, int, int]:
        broken = board_breaks(request, *wb)
        colour = sum(r.tier is Tier.COLOUR for r, _ in broken)
        hard = sum(r.tier is Tier.COLOUR and r is not Rule.REMATCH_REVERSES_COLOURS
                   for r, _ in broken)
        return colour, hard, against_preference(request, *wb)
    return min([(a, b), (b, a)], key=key)


def cost(request: PairingRequest, boards: list[tuple[str, str]], bye: str | None):
    """(violations per tier, sum of squared distances, preference) of a pairing."""
    pos = place(request)
    tiers = [0] * len(Tier)
    pref = 0
    for white, black in boards:
        for rule, _ in board_breaks(request, white, black):
            tiers[rule.tier] += 1
        pref += against_preference(request, white, black)
    if bye is not None:
        field = players(request)
        fewest = min(request.byes.get(p, 0) for p in field)
        if request.fixes.bye is None:
            tiers[Rule.BYE.tier] += bye != due_bye(request)
            pref += min(request.byes.get(bye, 0) - fewest, 7) * len(field) \
                + (len(field) - 1 - field.index(bye))
    distance = sum((pos[w] - pos[b]) ** 2 for w, b in boards)
    return tuple(tiers), distance, pref


def matchings(people: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for k, other in enumerate(rest):
        for tail in matchings(rest[:k] + rest[k + 1:]):
            yield [(first, other), *tail]


def all_costs(request: PairingRequest):
    """The cost of every possible pairing (small rounds only)."""
    field = players(request)
    byes = [None] if len(field) % 2 == 0 else (
        [request.fixes.bye] if request.fixes.bye else field)
    for bye in byes:
        rest = [p for p in field if p != bye]
        for pairs in matchings(rest):
            yield cost(request, [best_board(request, a, b) for a, b in pairs], bye)


def brute_force(request: PairingRequest):
    """The minimum cost over every possible pairing."""
    return min(all_costs(request))


def all_pairing_tiers(request: PairingRequest):
    """Violations per tier of every possible pairing."""
    return [tiers for tiers, _, _ in all_costs(request)]
