"""Plain-text tables (monospace), for the command line and for `<pre>` blocks in chats."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Protocol

from bot.language import texts
from bot.language.i18n import Words
from core.numbers import format_number
from core.online import Clock
from core.pairing import Board, BrokenRule
from core.results import UnsettledResults
from core.rules import Colour, CompensationKind
from core.season import Game, Result, Season
from core.standings import BreakdownLine, Standings


def table(header: Sequence[str], rows: Sequence[Sequence[str]], *,
          left: frozenset[int] = frozenset({1})) -> str:
    """Columns padded to their widest cell; columns in `left` are left-aligned."""
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i in left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *map(line, rows)])




def standings_table(w: Words, standings: Standings, decimals: int, *, compact: bool = False) -> str:
    """The standings; `compact` (for a phone): place, name, points and value only."""
    if compact:
        rows = compact_rows(w, standings, decimals)
        return f"{standings_title(w, standings)}\n\n{table(w(texts.COMPACT_COLUMNS), rows)}"
    return _full_standings(w, standings, decimals)


def compact_rows(w: Words, standings: Standings, decimals: int) -> list[list[str]]:
    """Each row's place, name, points and value (texts.COMPACT_COLUMNS)."""
    return [[str(r.rank), r.player.name, w.number(r.score, decimals), format_number(r.value, 0)]
            for r in standings.rows]


def excerpt(w: Words, title: str, rows: Sequence[Sequence[str]], shown: Sequence[int]) -> str:
    """The compact standings' rows at `shown` (indices, in order), a `…` where rows are
    left out between them and after the last."""
    picked: list[Sequence[str]] = []
    for k, at in enumerate(shown):
        if k and at != shown[k - 1] + 1:
            picked.append(["…", "", "", ""])
        picked.append(rows[at])
    if shown and shown[-1] < len(rows) - 1:
        picked.append(["…", "", "", ""])
    return f"{title}\n\n{table(w(texts.COMPACT_COLUMNS), picked)}"


def standings_title(w: Words, standings: Standings) -> str:
    return w(texts.STANDINGS_START) if standings.after_round == 0 else \
        w(texts.STANDINGS_TITLE).format(round=standings.after_round)


def standings_cells(w: Words, standings: Standings, decimals: int) -> list[list[str]]:
    """Every column of the standings (texts.STANDINGS_COLUMNS), as the chat, the web pages
    and the CSV files show them: a value with decimals only where it has them."""
    rows = []
    for row in standings.rows:
        pct = row.percentage
        rows.append([
            str(row.rank), row.player.name, w.number(row.score, decimals),
            w.number(row.value, decimals if row.value.denominator != 1 else 0),
            str(row.played), str(row.won), str(row.drawn), str(row.lost),
            "" if pct is None else format_number(pct * 100, 0),
        ])
    return rows


def _full_standings(w: Words, standings: Standings, decimals: int) -> str:
    rows = standings_cells(w, standings, decimals)
    return f"{standings_title(w, standings)}\n\n{table(w(texts.STANDINGS_COLUMNS), rows)}"




def breakdown_table(w: Words, standings: Standings, player_id: str, decimals: int) -> str:
    """A player's score round by round: what each round gave, and at what value."""
    names = {p.id: p.name for p in (*(row.player for row in standings.rows),
                                    *standings.left_out)}
    lines = standings.breakdown(player_id)
    rows = [breakdown_cells(w, line, names, decimals) for line in lines]
    total = sum((line.points for line in lines), Fraction(0))
    row = standings.row(player_id)
    rows.append(["", w(texts.BREAKDOWN_TOTAL), "", "", "",
                 w.number(total, decimals)])
    head = w(texts.BREAKDOWN_HEAD).format(name=row.player.name, rank=row.rank,
                                          score=w.number(row.score, decimals),
                                          round=standings.after_round)
    return f"{head}\n\n{table(w(texts.BREAKDOWN_COLUMNS), rows, left=frozenset({1}))}"


def breakdown_cells(w: Words, line: BreakdownLine, names: dict[str, str],
                    decimals: int) -> list[str]:
    """One line of a player's breakdown as its columns (texts.BREAKDOWN_COLUMNS)."""
    def num(value: Fraction | None) -> str:
        return "" if value is None else w.number(value, decimals)

    opponent = names.get(line.opponent or "", "")
    if line.round == 0:
        what = w._("eigen waarde (startbonus)")
    elif line.forfeit:
        what = (w(texts.BREAKDOWN_FORFEIT_WON) if line.kind is CompensationKind.OPPONENT_ABSENT
                else w(texts.BREAKDOWN_FORFEIT_LOST)).format(name=opponent)
    elif line.kind is None:
        what = w._("tegen {name}").format(name=opponent)
    else:
        what = w(texts.KIND_LABELS)[line.kind] + (w(texts.BREAKDOWN_CAPPED) if line.capped else "")
        if line.fixed:
            what += w(texts.BREAKDOWN_FIXED)
        if line.decay != 1 and not line.capped:
            what += w(texts.BREAKDOWN_DECAYED).format(decay=_factor(w, line.decay))
    result = w._("nog te spelen") if line.pending else "" if line.result is None \
        else {Fraction(1): "1", Fraction(1, 2): "½", Fraction(0): "0"}[line.result]
    # A game's factor is its result, unless the rules price results otherwise.
    factor = "" if line.factor is None or (line.kind is None and line.round
                                           and line.factor == line.result) \
        else _factor(w, line.factor)
    return [str(line.round or ""), what, result, num(line.value), factor, num(line.points)]


def _factor(w: Words, value: Fraction) -> str:
    text = w.number(value, 3)
    return text.rstrip("0").rstrip(",.") if "," in text or "." in text else text


class PairingView(Protocol):
    """A fresh pairing (core) or a stored one (storage): what a pairing list shows."""

    @property
    def round(self) -> int: ...
    @property
    def boards(self) -> tuple[Board, ...]: ...
    @property
    def bye(self) -> str | None: ...
    @property
    def broken(self) -> tuple[BrokenRule, ...]: ...


def pairing_table(w: Words, pairing: PairingView, season: Season, ranking: Sequence[str],
                  values: Mapping[str, Fraction]) -> str:
    """A pairing list a club can print: board, white and black with place and value, the bye,
    and the rules it could not keep."""
    place = {pid: k for k, pid in enumerate(ranking, start=1)}

    def name(pid: str) -> str:
        return season.player(pid).name

    def value(pid: str) -> str:
        return format_number(values[pid], 0) if pid in values else "-"

    def tempo(board: Board) -> str:
        own = {season.rules.youth_time_control if season.player(p).youth
               else season.rules.time_control for p in (board.white, board.black)}
        if len(own) == 1:
            return own.pop()
        return " / ".join(season.rules.youth_time_control if season.player(p).youth
                          else season.rules.time_control for p in (board.white, board.black))

    rows = [[str(b.number), name(b.white), str(place[b.white]), value(b.white),
             name(b.black), str(place[b.black]), value(b.black), tempo(b)]
            for b in pairing.boards]
    parts = [w(texts.PAIRING_TITLE).format(round=pairing.round), "",
             table(w(texts.PAIRING_COLUMNS), rows, left=frozenset({1, 4}))]
    if pairing.bye:
        parts += ["", w(texts.PAIRING_BYE).format(name=name(pairing.bye))]
    parts.append("")
    if pairing.broken:
        parts.append(w(texts.PAIRING_BROKEN_TITLE))
        names = {p.id: p.name for p in season.players}
        parts += [f"  - {texts.broken_rule(w, rule, names)}" for rule in pairing.broken]
    else:
        parts.append(w(texts.PAIRING_ALL_RULES_KEPT))
    return "\n".join(parts)


CROSS_SYMBOLS = {Fraction(1): "1", Fraction(1, 2): "½", Fraction(0): "0"}
def kind_short(w: Words, kind: str) -> str:
    """A round without a game in the cross table, in a word of a few letters."""
    return {"notice": w._("afm"), "no_notice": w._("afw"), "bye": w._("bye"),
            "opponent_absent": w._("regl"), "arbiter": w._("wl"), "external_club_night": w._("ext"),
            "external_other_day": w._("ext"), "late_join": w._("nw"), "half_bye": w._("½bye"),
            "zero_bye": w._("0bye")}[kind]


def crosstable(w: Words, standings: Standings, decimals: int) -> tuple[list[str], list[list[str]]]:
    """The classic grid: per player and round, opponent's place, colour, result and the value
    the opponent was priced at (`12w1 45`); rounds without a game show their kind."""
    place = {pid: k for k, pid in enumerate(standings.ranking, start=1)}
    rounds = standings.after_round
    header = [w._("Pos"), w._("Naam"), *(str(r) for r in range(1, rounds + 1)), w._("Punten")]
    rows = []
    for row in standings.rows:
        cells = [""] * rounds
        for line in standings.breakdown(row.id):
            if not line.round:
                continue
            if line.kind is None and line.opponent is not None:
                colour = w(texts.COLOUR_LETTERS)[line.colour or Colour.BLACK]
                result = "…" if line.pending else CROSS_SYMBOLS.get(line.result or Fraction(0), "")
                value = "" if line.value is None else format_number(line.value, 0)
                where = place.get(line.opponent, w(texts.CROSS_LEFT_OUT))
                cells[line.round - 1] = f"{where}{colour}{result} {value}".strip()
            elif line.kind is not None:
                cells[line.round - 1] = kind_short(w, line.kind.value)
        rows.append([str(row.rank), row.player.name, *cells, w.number(row.score, decimals)])
    return header, rows


def game_result(w: Words, game: Game, round_no: int, unsettled: UnsettledResults,
                final: Callable[[Result], str] = str) -> str:
    """A game's result as the pages and files show it: a final one (as `final` writes it),
    else one reported and not final yet, marked as such; empty without one."""
    if game.result is not None:
        return final(game.result)
    found = unsettled.get((round_no, game.white))
    return "" if found is None else texts.result_shown(w, found.result, found.state)


def pairing_lines(w: Words, pairing: PairingView, season: Season, ranking: Sequence[str],
                  results: Sequence[str] = (), online: Clock | None = None) -> str:
    """A pairing for a phone: one short line per board (places in brackets, the board's
    result where `results` has one), the bye, the time control (who plays at another; a
    round `online` is played at its lichess clock, everyone alike), and the rules it could
    not keep. Plain text: the chat's message escapes it whole (`messages.pairing`)."""
    place = {pid: k for k, pid in enumerate(ranking, start=1)}

    def name(pid: str) -> str:
        return season.player(pid).name

    shown = [f": {r}" if r else "" for r in results] or [""] * len(pairing.boards)
    lines = [f"{b.number}. {name(b.white)} ({place[b.white]}) – {name(b.black)} "
             f"({place[b.black]}){result}" for b, result in zip(pairing.boards, shown,
                                                               strict=True)]
    if pairing.bye:
        lines.append(w(texts.PAIRING_BYE).format(name=name(pairing.bye)))
    youth = [name(p) for b in pairing.boards for p in (b.white, b.black)
             if season.player(p).youth]
    if online is not None:
        lines.append(w(texts.PAIRING_TEMPO_ONLINE).format(tempo=online))
    else:
        lines.append(w(texts.PAIRING_TEMPO).format(tempo=season.rules.time_control) + (
            w(texts.PAIRING_TEMPO_YOUTH).format(tempo=season.rules.youth_time_control,
                                                names=", ".join(youth)) if youth else ""))
    if pairing.broken:
        lines.append(w(texts.PAIRING_BROKEN_TITLE))
        names = {p.id: p.name for p in season.players}
        lines += [f"– {texts.broken_rule(w, rule, names)}" for rule in pairing.broken]
    else:
        lines.append(w(texts.PAIRING_ALL_RULES_KEPT))
    return "\n".join(lines)
