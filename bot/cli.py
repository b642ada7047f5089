"""The `keizerbot` command line: the bot (no subcommand) and the file tools.

Exit codes follow shared/spec/season-format.md: 0 a result was printed, 2 an input file that
cannot be used (reasons on stderr), 1 anything else.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from enum import IntEnum
from pathlib import Path
from typing import Any

from bot import tables, texts
from core.errors import InvalidInputError
from core.numbers import round_half_up
from core.pairing import Pairing, pair, request_for_round
from core.rules import rules_from_toml, rules_to_mapping
from core.season import Season, season_from_json
from core.standings import Standings, compute_standings


class ExitCode(IntEnum):
    OK = 0
    FAILURE = 1
    UNUSABLE_INPUT = 2


class CliError(Exception):
    """A failure to report on stderr with an exit code."""

    def __init__(self, message: str, code: ExitCode) -> None:
        super().__init__(message)
        self.code = code


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except CliError as exc:
        print(exc, file=sys.stderr)
        return int(exc.code)
    except BrokenPipeError:
        return int(ExitCode.OK)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="keizerbot",
                                     description="Keizercompetitie voor schaakclubs.")
    parser.set_defaults(run=_run_bot)
    sub = parser.add_subparsers(metavar="COMMANDO")

    standings = sub.add_parser("standings", help="de Keizerstand van een seizoensbestand")
    standings.add_argument("season", type=Path, metavar="SEIZOEN.json")
    standings.add_argument("--after-round", type=int, metavar="R",
                           help="stand na ronde R (standaard: de laatste complete ronde)")
    standings.add_argument("--json", action="store_true", help="uitvoer als JSON")
    standings.add_argument("--decimals", type=int, choices=range(5), metavar="N",
                           help="aantal decimalen van de punten (standaard: uit het reglement)")
    standings.add_argument("--player", metavar="ID",
                           help="de punten van één speler, ronde voor ronde")
    standings.set_defaults(run=_run_standings)

    pairing = sub.add_parser("pair", help="de indeling van de volgende ronde")
    pairing.add_argument("season", type=Path, metavar="SEIZOEN.json")
    pairing.add_argument("--json", action="store_true", help="uitvoer als JSON")
    pairing.set_defaults(run=_run_pair)

    rules = sub.add_parser("rules", help="een reglementbestand (TOML) controleren en tonen")
    rules.add_argument("file", type=Path, metavar="REGLEMENT.toml")
    rules.set_defaults(run=_run_rules)
    return parser


def _run_bot(args: argparse.Namespace) -> ExitCode:
    print(texts.BOT_NOT_YET)
    return ExitCode.OK


def _read(path: Path, title: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise CliError(f"{title.format(path=path)}: "
                       f"{texts.FILE_UNREADABLE.format(path=path, reason=reason)}",
                       ExitCode.UNUSABLE_INPUT) from exc


def load_season(path: Path) -> Season:
    title = texts.SEASON_UNUSABLE
    try:
        return season_from_json(_read(path, title))
    except InvalidInputError as exc:
        raise CliError(texts.problems_report(title.format(path=path), exc.problems),
                       ExitCode.UNUSABLE_INPUT) from exc


def _run_standings(args: argparse.Namespace) -> ExitCode:
    season = load_season(args.season)
    after = args.after_round
    if after is not None and not 0 <= after <= len(season.rounds):
        raise CliError(texts.ROUND_OUT_OF_RANGE.format(round=after, count=len(season.rounds)),
                       ExitCode.FAILURE)
    standings = compute_standings(season, after)
    if standings.after_round:
        missing = sum(g.result is None for g in season.round(standings.after_round).games)
        if missing or not season.round(standings.after_round).is_paired:
            print(texts.ROUND_INCOMPLETE.format(round=standings.after_round,
                                                missing=missing or "alle"), file=sys.stderr)
    if args.player is not None and args.player not in standings.ranking:
        raise CliError(texts.UNKNOWN_PLAYER_ID.format(player=args.player), ExitCode.FAILURE)
    if args.json:
        print(json.dumps(standings_json(standings), ensure_ascii=False))
        return ExitCode.OK
    decimals = season.rules.display_decimals if args.decimals is None else args.decimals
    if args.player is not None:
        print(tables.breakdown_table(standings, args.player, decimals))
    else:
        print(tables.standings_table(standings, decimals))
    return ExitCode.OK


def standings_json(standings: Standings) -> dict[str, Any]:
    """The contract's `standings --json` document (scores to 2 decimals)."""
    return {
        "after_round": standings.after_round,
        "standings": [
            {"rank": row.rank, "id": row.id, "name": row.player.name,
             "score": _json_number(row.score), "value": _json_number(row.value),
             "played": row.played, "won": row.won, "drawn": row.drawn, "lost": row.lost}
            for row in standings.rows
        ],
    }


def _json_number(value: Any) -> int | float:
    rounded = round_half_up(value, 2)
    return rounded.numerator if rounded.denominator == 1 else float(rounded)


def _run_pair(args: argparse.Namespace) -> ExitCode:
    season = load_season(args.season)
    waiting = bool(season.rounds) and not season.rounds[-1].is_paired
    round_no = len(season.rounds) if waiting else len(season.rounds) + 1
    if round_no > 1 and not season.round(round_no - 1).is_complete:
        print(texts.PAIRING_WITH_PENDING.format(round=round_no - 1), file=sys.stderr)
    request = request_for_round(season, round_no)
    result = pair(request)
    if args.json:
        print(json.dumps(pairing_json(result), ensure_ascii=False))
        return ExitCode.OK
    standings = compute_standings(season, round_no - 1)
    print(tables.pairing_table(result, season, request.ranking, standings.values))
    return ExitCode.OK


def pairing_json(pairing: Pairing) -> dict[str, Any]:
    """The contract's `pair --json` document."""
    return {
        "round": pairing.round,
        "pairings": [{"board": b.number, "white": b.white, "black": b.black}
                     for b in pairing.boards],
        "bye": pairing.bye,
        "broken_rules": [{"rule": r.rule.value, "players": list(r.players), "detail": r.detail}
                         for r in pairing.broken],
    }


def _run_rules(args: argparse.Namespace) -> ExitCode:
    title = texts.RULES_UNUSABLE
    try:
        rules = rules_from_toml(_read(args.file, title))
    except InvalidInputError as exc:
        raise CliError(texts.problems_report(title.format(path=args.file), exc.problems),
                       ExitCode.UNUSABLE_INPUT) from exc
    for key, value in rules_to_mapping(rules).items():
        print(f"{key} = {json.dumps(value, ensure_ascii=False)}")
    return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main())
