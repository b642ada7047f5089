"""The `keizerbot` command line: the bot (no subcommand) and the file tools.

Exit codes follow docs/season-format.md: 0 a result was printed, 2 an input file that
cannot be used (reasons on stderr), 1 anything else.
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import os
import sys
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import replace
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from bot.config import TOKEN_SHAPE, ConfigError, settings, store_of
from bot.config import load as load_config
from bot.files import tables
from bot.language import texts
from bot.language.i18n import Words, from_code, words
from bot.language.notice import Said, SaidError, plain
from core.encoding import UTF8, WINDOWS
from core.errors import InvalidInputError
from core.numbers import round_half_up
from core.pairing import Pairing, request_for_round
from core.ratings import RatingList
from core.results import UnsettledResults
from core.rules import PRESETS, rules_from_toml, rules_to_mapping
from core.season import Season, read_season, season_to_json
from core.standings import Standings, compute_standings
from core.trf import TrfHeader
from storage.address import PostgresUrl, SqliteFile, StoreAddress
from storage.club_format import is_club_file, season_part
from storage.seal import Rekey, Seal, valid_key

if TYPE_CHECKING:
    from storage import postgres
    from storage.db import Database

# The commands that read a season file (standings, pair) load no database code and no
# asyncio: those come with the commands that use the store (`_with_database`).

DEFAULT_DB = Path("data") / "keizer.db"
T = TypeVar("T")


class ExitCode(IntEnum):
    OK = 0
    FAILURE = 1
    UNUSABLE_INPUT = 2


class CliError(SaidError):
    """A failure to report on stderr with an exit code."""

    def __init__(self, said: Said | str, code: ExitCode) -> None:
        super().__init__(said)
        self.code = code


def main(argv: Sequence[str] | None = None) -> int:
    # The command line speaks the language of the shell (Dutch unless it says English).
    return _main(words(from_code(os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES")
                                 or os.environ.get("LANG"))), argv)


def _main(w: Words, argv: Sequence[str] | None) -> int:
    # argparse's only way in for its own words
    argparse._ = functools.partial(_argparse_words, w)  # type: ignore[attr-defined]
    parser = _parser(w)
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the command that was given, with its own usage
        getattr(args, "parser", parser).error(_argparse_words(w, "unrecognized arguments: %s")
                                              % " ".join(extra))
    try:
        return int(args.run(w, args))
    except CliError as exc:
        print(plain(exc.said, w), file=sys.stderr)
        return int(exc.code)
    except BrokenPipeError:
        return int(ExitCode.OK)


def _argparse_words(w: Words, text: str) -> str:
    return w(texts.ARGPARSE).get(text, text)


def _database_option(w: Words,
                     target: argparse.ArgumentParser | argparse._MutuallyExclusiveGroup) -> None:
    target.add_argument("--db", type=functools.partial(_store_option, w), default=None,
                        help=w._("databasebestand (standaard: KEIZER_DB of data/keizer.db)"))
    target.add_argument("--club", dest="club_number", type=int, default=None, metavar=w._("NUMMER"),
                        help=w._("de club in een PostgreSQL-database van meerdere clubs (zie "
                                 "keizerbot clubs list)"))


def _parser(w: Words) -> argparse.ArgumentParser:
    # What an option's value must be, refused in the words `w`.
    file_out, folder_out = functools.partial(output_file, w), functools.partial(output_folder, w)
    store_option, list_named = functools.partial(_store_option, w), \
        functools.partial(_rating_list_named, w)
    parser = argparse.ArgumentParser(
        prog="keizerbot", description=w._("Keizercompetitie voor schaakclubs."),
        epilog=w._("Zonder COMMANDO draait keizerbot de bot van de club, met de instellingen uit "
                   "de omgeving of .env (TELEGRAM_BOT_TOKEN, KEIZER_ARBITERS, KEIZER_DB; zie "
                   ".env.example). Geen ander commando start de bot; keizerbot host draait de "
                   "clubs van een PostgreSQL-database."))
    parser.set_defaults(run=_run_bot)
    sub = parser.add_subparsers(metavar=w._("COMMANDO"))

    standings = sub.add_parser("standings", help=w._("de Keizerstand van een seizoensbestand"))
    standings.add_argument("season", type=Path, metavar=w._("SEIZOEN.json"))
    standings.add_argument("--after-round", type=int, metavar="R",
                           help=w._("stand na ronde R (standaard: de laatste complete ronde)"))
    standings.add_argument("--json", action="store_true", help=w._("uitvoer als JSON"))
    standings.add_argument("--decimals", type=int, choices=range(5), metavar="N",
                           help=w._("aantal decimalen van de punten (standaard: uit het "
                                    "reglement)"))
    standings.add_argument("--player", metavar="ID",
                           help=w._("de punten van één speler, ronde voor ronde"))
    standings.set_defaults(run=_run_standings)

    pairing = sub.add_parser("pair", help=w._("de indeling van de volgende ronde"))
    pairing.add_argument("season", type=Path, metavar=w._("SEIZOEN.json"))
    pairing.add_argument("--json", action="store_true", help=w._("uitvoer als JSON"))
    pairing.set_defaults(run=_run_pair)

    show = sub.add_parser("demo", help=w._("een gesimuleerd seizoen door de echte bot, zonder "
                                           "token"))
    show.add_argument("--chat-page", type=Path, metavar=w._("BESTAND.html"),
                      help=w._("schrijf ook de chats van één ronde als webpagina"))
    show.set_defaults(run=_run_demo)

    check = sub.add_parser("doctor", help=w._("de installatie controleren"))
    check.add_argument("--clubs", action="store_true",
                       help=w._("elke club van een host (keizerbot host) controleren"))
    check.set_defaults(run=_run_doctor)

    load = sub.add_parser("import", help=w._("een seizoensbestand in de database laden"))
    load.add_argument("file", type=Path, metavar=w._("SEIZOEN.json"))
    _database_option(w, load)
    load.add_argument("--replace", action="store_true",
                      help=w._("het seizoen in de database vervangen"))
    load.set_defaults(run=_run_import)

    dump = sub.add_parser("export", help=w._("het seizoen uit de database als seizoensbestand"))
    dump.add_argument("file", type=file_out, nargs="?", metavar=w._("SEIZOEN.json"),
                      help=w._("standaard: naar het scherm"))
    dump.add_argument("--alles", "--everything", dest="everything", action="store_true",
                      help=w._("alles wat de bot bewaart (ook latere rondes, koppelingen en "
                               "instellingen), om te verhuizen of terug te zetten"))
    _database_option(w, dump)
    dump.set_defaults(run=_run_export)

    copy = sub.add_parser("backup", help=w._("een reservekopie van de database maken"))
    copy.add_argument("directory", type=folder_out, nargs="?", metavar=w._("MAP"),
                      help=w._("standaard: backups/ naast de database"))
    _database_option(w, copy)
    copy.add_argument("--keep", type=int, help=w._("zoveel kopieën bewaren"))
    copy.set_defaults(run=_run_backup)

    for name, writer, what in (
            ("export-html", "write_html", w._("stand, rondes en kruistabel als webpagina's")),
            ("export-csv", "write_csv", w._("stand, rondes en kruistabel als CSV-bestanden")),
            ("export-xlsx", "write_xlsx", w._("stand, rondes en kruistabel als werkboek "
                                              "(keizer.xlsx)"))):
        web = sub.add_parser(name, help=what)
        web.add_argument("directory", type=folder_out, metavar=w._("MAP"))
        source = web.add_mutually_exclusive_group()
        _database_option(w, source)
        source.add_argument("--season", type=Path, default=None, metavar=w._("SEIZOEN.json"),
                            help=w._("uit een seizoensbestand in plaats van de database"))
        web.set_defaults(run=_run_site, writer=writer)

    new = sub.add_parser("new-season", help=w._("het volgende seizoen uit dit: dezelfde regels, de "
                         "leden die blijven, beginnend in de volgorde van de eindstand; of het "
                         "eerste uit een lijst met namen"))
    new.add_argument("season", type=Path, metavar=w._("SEIZOEN.json|LEDEN.txt"),
                     help=w._("een seizoensbestand, of een lijst met een lid per regel (een "
                              "rating na een komma mag)"))
    new.add_argument("file", type=file_out, metavar=w._("NIEUW.json"))
    new.add_argument("--naam", "--name", dest="name", metavar=w._("NAAM"),
                     help=w._("de naam van het nieuwe seizoen, standaard het volgende jaar "
                              "(2026-2027 wordt 2027-2028)"))
    new.add_argument("--vereniging", "--club-name", dest="club", metavar=w._("NAAM"),
                     help=w._("de naam van de club (bij een lijst met namen)"))
    new.add_argument("--reglement", "--rules", dest="preset", default="sliedrecht",
                     choices=sorted(PRESETS), help=w._("het reglement (bij een lijst met namen)"))
    new.set_defaults(run=_run_new_season)

    ics = sub.add_parser("export-ics", help=w._("de rondes als agendabestand (.ics)"))
    ics.add_argument("file", type=file_out, metavar=w._("AGENDA.ics"))
    _database_option(w, ics)
    ics.set_defaults(run=_run_ics)

    trf = sub.add_parser("export-trf",
                         help=w._("de partijen als TRF16, voor de ratingadministratie"))
    trf.add_argument("file", type=file_out, metavar=w._("BESTAND.trf"))
    source = trf.add_mutually_exclusive_group()
    _database_option(w, source)
    source.add_argument("--season", type=Path, default=None, metavar=w._("SEIZOEN.json"),
                        help=w._("uit een seizoensbestand in plaats van de database"))
    trf.add_argument("--encoding", choices=(UTF8, WINDOWS), default=UTF8,
                     help=w._("utf-8 (standaard, zoals Swiss-Manager) of cp1252 voor een programma "
                              "dat Windows-1252 verwacht; letters die daar niet in staan worden "
                              "Latijnse letters (Ł wordt L)"))
    trf.set_defaults(run=_run_export_trf)

    read_trf = sub.add_parser("import-trf", help=w._("een TRF-bestand (Swiss-Manager, Tornelo, "
                              "Sharly-Chess, chesspairing) als seizoensbestand"))
    read_trf.add_argument("trf", type=Path, metavar=w._("BESTAND.trf"))
    read_trf.add_argument("file", type=file_out, metavar=w._("SEIZOEN.json"))
    read_trf.add_argument("--reglement", "--rules", dest="preset", default="sliedrecht",
                          help=w._("het Keizerreglement als het bestand er geen heeft "
                                   "(standaard: sliedrecht)"))
    read_trf.add_argument("--byes", choices=("afgemeld", "fide"), default="afgemeld",
                          help=w._("een gevraagde bye (H, Z): een afmelding (standaard), of "
                                   "FIDE's halve en nul-bye"))
    read_trf.set_defaults(run=_run_import_trf)

    ratings = sub.add_parser("ratings", help=w._("de ratings van de leden uit de KNSB-ratinglijst"))
    ratings.add_argument("list", type=Path, metavar=w._("LIJST.zip"),
                         help=w._("de lijst van de KNSB (zip), of KLASSIEK.csv daaruit"))
    source = ratings.add_mutually_exclusive_group()
    _database_option(w, source)
    source.add_argument("--season", type=Path, default=None, metavar=w._("SEIZOEN.json"),
                        help=w._("een seizoensbestand bijwerken in plaats van de database"))
    ratings.add_argument("--lijst", "--list", dest="which", type=list_named, default=None,
                         metavar="klassiek|rapid|snel", help=w._(
                             "welke lijst van de KNSB (ook: classical, blitz; standaard: die "
                             "van de club, zie /instellingen; anders klassiek)"))
    ratings.add_argument("--bevestig", "--confirm", dest="confirm", action="store_true",
                         help=w._("de ratings echt bijwerken (anders alleen tonen)"))
    ratings.add_argument("--ook", "--also", dest="also", action="append", default=[], metavar="ID",
                         help=w._("een gelijkende naam toch meenemen (speler-id; herhaalbaar)"))
    ratings.set_defaults(run=_run_ratings)

    hosted = sub.add_parser("clubs", help=w._("de clubs van een PostgreSQL-database (KEIZER_DB): "
                                              "add, list, token, arbiter of remove"))
    actions = ("add", "list", "token", "arbiter", "remove")
    hosted.add_argument("action", choices=actions, metavar="{" + ",".join(actions) + "}")
    hosted.add_argument("club", nargs="?", default=None, metavar=w._("NAAM|NUMMER"))
    hosted.add_argument("--token", default="",
                        help=w._("het bot-token van de club (add, token); '-' leest het van de "
                                 "invoer, zonder --token komt het uit KEIZER_CLUB_TOKEN of wordt "
                                 "het gevraagd"))
    hosted.add_argument("--arbiter", type=int, action="append", default=[], metavar="ID",
                        help=w._("Telegram-id van een wedstrijdleider van de club (add, "
                                 "arbiter; herhaalbaar)"))
    hosted.add_argument("--db", type=store_option, default=None, metavar="postgresql://...",
                        help=w._("de database (standaard: KEIZER_DB)"))
    hosted.add_argument("--ja", "--yes", dest="ja", action="store_true",
                        help=w._("weghalen zonder de naam van de club over te typen (remove)"))
    hosted.add_argument("--zonder-webhook", "--without-webhook", dest="without_webhook",
                        action="store_true",
                        help=w._("weghalen ook als de webhook van de bot niet weg kan (remove)"))
    hosted.set_defaults(run=_run_clubs)

    migrate = sub.add_parser("migrate", help=w._("de database bijwerken naar deze versie van "
                                                 "keizerbot"))
    migrate.add_argument("--db", type=store_option, default=None,
                         help=w._("databasebestand (standaard: KEIZER_DB of data/keizer.db)"))
    migrate.add_argument("--ja", "--yes", dest="ja", action="store_true",
                         help=w._("ook als er nog hosts van een oudere versie draaien: hun clubs "
                                  "gaan naar de hosts van deze versie"))
    migrate.set_defaults(run=_run_migrate)

    rekey = sub.add_parser("rekey", help=w._("de tokens in de database verzegelen met "
                                             "KEIZER_SECRET_KEY (na KEIZER_OLD_SECRET_KEY)"))
    _database_option(w, rekey)
    rekey.set_defaults(run=_run_rekey)

    host = sub.add_parser("host", description=w._(
        "Draait alle clubs van een PostgreSQL-database, elk met zijn eigen bot, tot een signaal "
        "hem stopt. Instellingen uit de omgeving of .env: KEIZER_DB (postgresql://...), "
        "KEIZER_SECRET_KEY (verzegelt de tokens van de clubs), KEIZER_WEB_PORT, "
        "KEIZER_PUBLIC_URL en KEIZER_WEBHOOK=1 (webhooks en de pagina's), TELEGRAM_BASE_URL, "
        "KEIZER_TIMEZONE. De clubs zelf: keizerbot clubs. Zie docs/deploy.md."),
        help=w._("alle clubs van een PostgreSQL-database (KEIZER_DB) "
                                         "in één proces"))
    host.set_defaults(run=_run_host)

    rules = sub.add_parser("rules", help=w._("een reglementbestand (TOML) controleren en tonen"))
    rules.add_argument("file", type=Path, metavar=w._("REGLEMENT.toml"))
    rules.set_defaults(run=_run_rules)
    for command in sub.choices.values():
        command.set_defaults(parser=command)
    return parser


def _run_bot(w: Words, args: argparse.Namespace) -> ExitCode:
    """The main job: run the Telegram bot until stopped."""
    import asyncio

    from bot.telegram.serve import Redact, StartError, serve  # the Telegram stack: bot only

    try:
        config = load_config()
    except ConfigError as exc:
        raise CliError(exc.said, ExitCode.FAILURE) from exc
    _log_to(Redact(config.token, *config.database.secrets))
    if isinstance(config.database, PostgresUrl):
        asyncio.run(_one_club_only(w, config.database, w(texts.SINGLE_ON_HOSTED)))
    try:
        asyncio.run(serve(config))
    except StartError as exc:
        raise CliError(exc.said, ExitCode.FAILURE) from None
    return ExitCode.OK


def _run_host(w: Words, args: argparse.Namespace) -> ExitCode:
    """Every club of a PostgreSQL database in one process, until stopped."""
    import asyncio

    from bot.telegram.host import ClubInLog, Host  # the Telegram stack: bot only
    from bot.telegram.serve import Redact, StartError, serve

    try:
        config = load_config(hosted=True)
    except ConfigError as exc:
        raise CliError(exc.said, ExitCode.FAILURE) from exc
    redact = Redact(*config.database.secrets)
    _log_to(redact, ClubInLog(), form="%(asctime)s %(levelname)s %(club)s%(name)s: %(message)s")
    host = Host(config, known=redact.add)
    try:
        asyncio.run(serve(config, host))
    except StartError as exc:
        raise CliError(exc.said, ExitCode.FAILURE) from None
    return ExitCode.OK


def _log_to(*filters: logging.Filter,
            form: str = "%(asctime)s %(levelname)s %(name)s: %(message)s") -> None:
    """The bot's log on standard error, through `filters` (one keeps the tokens out)."""
    logging.basicConfig(format=form, level=logging.INFO)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request, token in URL
    # Two lines per job run: every 30 s a club, every 0.1 s on a host of 300 clubs.
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    for handler in logging.getLogger().handlers:
        for kept_out in filters:
            handler.addFilter(kept_out)


def _read(w: Words, path: Path, title: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = texts.os_reason(w, exc) if isinstance(exc, OSError) else str(exc)
        raise CliError(f"{title.format(path=path)}: "
                       f"{w(texts.FILE_UNREADABLE).format(path=path, reason=reason)}",
                       ExitCode.UNUSABLE_INPUT) from exc


def output_file(w: Words, text: str) -> Path:
    """A file to write, checked before any work: a mistyped folder is named at once."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(w(texts.PATH_IS_FOLDER).format(path=path))
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(w(texts.FOLDER_MISSING).format(folder=path.parent))
    return path


def output_folder(w: Words, text: str) -> Path:
    """A folder to write into (made if it is not there), checked before any work."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(w(texts.PATH_IS_FILE).format(path=path))
    return path


def write(w: Words, path: Path, data: bytes, *, private: bool = False) -> None:
    """Write a file the user named; what the system refuses is said in a sentence. A
    `private` one (the members' Telegram ids, the club's settings) only its owner can read,
    whatever it was before."""
    try:
        if private:
            from storage.sqlite import private_dir

            private_dir(path.parent)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as out:
                os.fchmod(out.fileno(), 0o600)
                out.write(data)
        else:
            path.write_bytes(data)
    except OSError as exc:
        raise CliError(w(texts.FILE_UNWRITABLE).format(path=path, reason=texts.os_reason(w, exc)),
                       ExitCode.UNUSABLE_INPUT) from exc


def load_season(w: Words, path: Path) -> Season:
    """A season file, or the season inside a club file (`keizerbot export --alles`)."""
    title = w(texts.SEASON_UNUSABLE)
    try:
        return read_season(season_part(_read(w, path, title)))
    except InvalidInputError as exc:
        raise CliError(texts.problems_report(w, title.format(path=path), exc.problems),
                       ExitCode.UNUSABLE_INPUT) from exc


def _run_standings(w: Words, args: argparse.Namespace) -> ExitCode:
    season = load_season(w, args.season)
    after = args.after_round
    if after is not None and not 0 <= after <= len(season.rounds):
        raise CliError(w(texts.ROUND_OUT_OF_RANGE).format(round=after, count=len(season.rounds)),
                       ExitCode.FAILURE)
    standings = compute_standings(season, after)
    if standings.after_round:
        missing = sum(g.result is None for g in season.round(standings.after_round).games)
        if missing or not season.round(standings.after_round).is_paired:
            print(w(texts.ROUND_INCOMPLETE).format(round=standings.after_round,
                                                   missing=missing or "alle"), file=sys.stderr)
    if args.player is not None and args.player not in standings.ranking:
        raise CliError(w(texts.UNKNOWN_PLAYER_ID).format(player=args.player), ExitCode.FAILURE)
    if args.json:
        print(json.dumps(standings_json(standings), ensure_ascii=False))
        return ExitCode.OK
    decimals = season.rules.display_decimals if args.decimals is None else args.decimals
    if args.player is not None:
        print(tables.breakdown_table(w, standings, args.player, decimals))
    else:
        print(tables.standings_table(w, standings, decimals))
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


def _run_pair(w: Words, args: argparse.Namespace) -> ExitCode:
    season = load_season(w, args.season)
    waiting = bool(season.rounds) and not season.rounds[-1].is_paired
    round_no = len(season.rounds) if waiting else len(season.rounds) + 1
    if round_no > 1 and not season.round(round_no - 1).is_complete:
        print(w(texts.PAIRING_WITH_PENDING).format(round=round_no - 1), file=sys.stderr)
    from core.pairing import pair  # numpy and the blossom: only for this command

    request = request_for_round(season, round_no)
    result = pair(request)
    if args.json:
        print(json.dumps(pairing_json(result), ensure_ascii=False))
        return ExitCode.OK
    standings = compute_standings(season, round_no - 1)
    print(tables.pairing_table(w, result, season, request.ranking, standings.values))
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


def _run_demo(w: Words, args: argparse.Namespace) -> ExitCode:
    import asyncio

    from bot.demo import play as demo

    asyncio.run(demo.run(w, sys.stdout, chat_page=args.chat_page))
    return ExitCode.OK


def _run_doctor(w: Words, args: argparse.Namespace) -> ExitCode:
    import asyncio

    from bot import doctor

    found = asyncio.run(doctor.host_checks() if args.clubs else doctor.checks())
    print(doctor.report(w, found))
    return ExitCode.OK if all(c.ok for c in found) else ExitCode.FAILURE


def database_path(option: StoreAddress | None) -> StoreAddress:
    """--db, else KEIZER_DB (a file, or a PostgreSQL address; the environment, then .env),
    else ./data/keizer.db."""
    if option:
        return option
    try:
        return store_of(settings().get("KEIZER_DB", "").strip() or str(DEFAULT_DB))
    except ConfigError as exc:
        raise CliError(exc.said, ExitCode.FAILURE) from exc


def _store_option(w: Words, text: str) -> StoreAddress:
    """--db: what KEIZER_DB may be."""
    try:
        return store_of(text)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(plain(exc.said, w)) from exc


def _with_database(w: Words, path: StoreAddress, work: Callable[[Database], Awaitable[T]], *,
                   club: int | None = None, create: bool = False,
                   exclusive: bool = False, writes: bool = False) -> T:
    import asyncio

    return asyncio.run(_opened(w, path, work, club, create, exclusive, writes))


async def _opened(w: Words, path: StoreAddress, work: Callable[[Database], Awaitable[T]],
                  club: int | None = None, create: bool = False,
                  exclusive: bool = False, writes: bool = False) -> T:
    """`work` on the database; only a command that `create`s one (import) makes a file that
    is not there: for every other, a mistyped path is named, not made an empty database.
    Only a command that `writes` (or creates) migrates an older schema: one that reads says
    to migrate first, so that hosts of the release before are not upgraded away under it."""
    import sqlite3

    from storage.errors import StoreError
    from storage.store import open_store

    if isinstance(path, SqliteFile) and club is not None:
        raise CliError(w(texts.CLUB_OF_FILE).format(path=path, club=club), ExitCode.FAILURE)
    if isinstance(path, SqliteFile) and not create and not path.path.exists():
        raise CliError(w(texts.DATABASE_MISSING).format(path=path), ExitCode.UNUSABLE_INPUT)
    if isinstance(path, PostgresUrl) and club is None:
        await _one_club_only(w, path)
    try:
        db = await open_store(path, club=club, exclusive=exclusive, migrate=writes or create)
    except StoreError as exc:
        raise CliError(texts.store_problem(w, exc), ExitCode.UNUSABLE_INPUT) from exc
    except (OSError, sqlite3.Error) as exc:
        raise CliError(w(texts.DATABASE_UNUSABLE).format(path=path.shown, reason=exc),
                       ExitCode.UNUSABLE_INPUT) from exc
    try:
        return await work(db)
    except StoreError as exc:
        raise CliError(texts.store_problem(w, exc), ExitCode.FAILURE) from exc
    finally:
        await db.close()


def _run_import(w: Words, args: argparse.Namespace) -> ExitCode:
    """A season file (or a club file) into the database. Replacing a club's data in use keeps
    a copy first and says where; while a bot runs on the database it is refused (the lock)."""
    season = load_season(w, args.file)
    text = _read(w, args.file, w(texts.SEASON_UNUSABLE))
    path = database_path(args.db)

    async def work(db: Database) -> ExitCode:
        from storage.club_file import import_club
        from storage.seasons import holds_club_data, import_season

        if args.replace and await holds_club_data(db):
            print(w(texts.REPLACE_KEPT_COPY).format(
                path=await _keep_a_copy(w, db, path, args.club_number)))
        if is_club_file(text):
            await import_club(db, text, replace=args.replace)
        else:
            await import_season(db, season, replace=args.replace)
        print(w(texts.IMPORTED).format(players=len(season.players), rounds=len(season.rounds),
                                       path=path.shown))
        return ExitCode.OK

    return _with_database(w, path, work, club=args.club_number, create=True,
                          exclusive=args.replace)


async def _backed_up(w: Words, db: Database, directory: Path, keep: int | None = None) -> Path:
    """A SQLite store's backup in `directory` (the newest `keep` kept); what stops it is said
    in a sentence."""
    from storage.backup import KEEP, backup
    from storage.errors import StoreError

    try:
        return await backup(db, directory, keep=KEEP if keep is None else keep)
    except StoreError as exc:
        raise CliError(w(texts.BACKUP_FAILED).format(error=texts.backup_reason(w, exc.problem)),
                       ExitCode.FAILURE) from exc


async def _keep_a_copy(w: Words, db: Database, path: StoreAddress, club: int | None) -> Path:
    """What the store holds, kept before it is replaced: a file's backup beside it, a
    PostgreSQL club's everything (`export --alles`) in ./backups; readable by its owner only."""
    if isinstance(path, SqliteFile):
        return await _backed_up(w, db, path.path.parent / "backups")
    import datetime as dt

    from storage.club_file import export_club

    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
    target = Path("backups") / f"club-{club or 1}-{stamp}.json"
    write(w, target, (await export_club(db)).encode(), private=True)
    return target


def _run_export(w: Words, args: argparse.Namespace) -> ExitCode:
    async def work(db: Database) -> ExitCode:
        from storage.club_file import export_club
        from storage.seasons import export_json

        text = await (export_club(db) if args.everything else export_json(db))
        if args.file is None:
            sys.stdout.write(text)
        else:
            write(w, args.file, text.encode(), private=args.everything)
            print((w(texts.EXPORTED_ALL) if args.everything else w(texts.EXPORTED_SEASON))
                  .format(path=args.file))
        return ExitCode.OK

    return _with_database(w, database_path(args.db), work, club=args.club_number)


def _run_backup(w: Words, args: argparse.Namespace) -> ExitCode:
    path = database_path(args.db)
    if not isinstance(path, SqliteFile):
        raise CliError(w(texts.BACKUP_POSTGRES), ExitCode.FAILURE)
    directory = args.directory or path.path.parent / "backups"

    async def work(db: Database) -> ExitCode:
        print(w(texts.BACKED_UP).format(path=await _backed_up(w, db, directory, args.keep)))
        return ExitCode.OK

    return _with_database(w, path, work)


def _run_new_season(w: Words, args: argparse.Namespace) -> ExitCode:
    from core.next_season import next_season

    text = _read(w, args.season, w(texts.SEASON_UNUSABLE))
    if not text.lstrip().startswith("{"):
        return _first_season(w, args, text)
    old = load_season(w, args.season)
    try:
        new = next_season(old, args.name)
    except InvalidInputError as exc:
        raise CliError(w(texts.NEW_SEASON_NAME).format(name=old.name),
                       ExitCode.UNUSABLE_INPUT) from exc
    write(w, args.file, season_to_json(new).encode())
    print(w(texts.NEW_SEASON).format(name=new.name, path=args.file, players=len(new.players),
                                     old=old.name, gone=len(old.players) - len(new.players)))
    return ExitCode.OK


def _first_season(w: Words, args: argparse.Namespace, members: str) -> ExitCode:
    """A club's first season file from a list of its members' names."""
    import datetime as dt

    from core.next_season import first_season, season_of

    if not args.club:
        raise CliError(w(texts.FIRST_SEASON_CLUB), ExitCode.FAILURE)
    try:
        new = first_season(members, club=args.club, rules=args.preset,
                           name=args.name or season_of(dt.date.today()))
    except InvalidInputError as exc:
        raise CliError(texts.problems_report(w, w(texts.MEMBERS_UNUSABLE).format(
            path=args.season), exc.problems), ExitCode.UNUSABLE_INPUT) from exc
    write(w, args.file, season_to_json(new).encode())
    print(w(texts.FIRST_SEASON).format(name=new.name, club=new.club, path=args.file,
                                       players=len(new.players), rules=args.preset))
    return ExitCode.OK


def _run_ics(w: Words, args: argparse.Namespace) -> ExitCode:
    """export-ics: the club's rounds, from its database, in its time zone."""
    from bot.config import timezone_of
    from bot.files.calendar import rounds_ics
    from bot.flows import views

    try:
        zone = timezone_of(settings())
    except ConfigError as exc:
        raise CliError(exc.said, ExitCode.FAILURE) from exc

    async def work(db: Database) -> ExitCode:
        agenda = await views.calendar(db, zone)
        if agenda is None:
            raise CliError(w(texts.AGENDA_NONE), ExitCode.FAILURE)
        write(w, args.file, rounds_ics(w, agenda))
        print(w(texts.EXPORTED_ICS).format(rounds=len(agenda.rounds), path=args.file))
        return ExitCode.OK

    return _with_database(w, database_path(args.db), work, club=args.club_number)


def _run_site(w: Words, args: argparse.Namespace) -> ExitCode:
    """export-html / export-csv, from a season file or the club's database."""
    from bot.files import exports

    # The club's pages in the club's language, its results not final yet marked; from a
    # season file (final results only), in the shell's.
    season, language, unsettled = (load_season(w, args.season), w.language, {}) \
        if args.season is not None else \
        _with_database(w, database_path(args.db), _club_site, club=args.club_number)
    try:
        written = getattr(exports, args.writer)(words(language), season, args.directory,
                                                unsettled)
    except OSError as exc:
        raise CliError(w(texts.FILE_UNWRITABLE).format(path=exc.filename or args.directory,
                                                       reason=texts.os_reason(w, exc)),
                       ExitCode.UNUSABLE_INPUT) from exc
    print(texts.site_written(w, len(written), args.directory))
    return ExitCode.OK


def _season_from(w: Words, args: argparse.Namespace) -> Season:
    """--season FILE, else the club's database."""
    if args.season is not None:
        return load_season(w, args.season)

    async def work(db: Database) -> Season:
        from storage.seasons import load_season as load_db_season

        return await load_db_season(db)

    return _with_database(w, database_path(args.db), work, club=args.club_number)


def _run_export_trf(w: Words, args: argparse.Namespace) -> ExitCode:
    from core.trf import trf_bytes

    season = _season_from(w, args)
    done = season.complete_rounds
    if not done:
        raise CliError(w(texts.TRF_NONE), ExitCode.FAILURE)
    header = TrfHeader() if args.season is not None else \
        _with_database(w, database_path(args.db), trf_header, club=args.club_number)
    write(w, args.file, trf_bytes(season, header, args.encoding))
    print(w(texts.TRF_EXPORTED).format(rounds=done, path=args.file, games=sum(
        len(r.games) for r in season.rounds[:done])))
    if missing := texts.trf_missing(w, header):
        print(missing)
    return ExitCode.OK


async def trf_header(db: Database) -> TrfHeader:
    from storage.club import trf_header as stored

    configured = [int(p) for p in settings().get("KEIZER_ARBITERS", "").replace(" ", "")
                  .split(",") if p.isdigit()]
    return await stored(db, configured)


async def _club_site(db: Database) -> tuple[Season, str, UnsettledResults]:
    """What the club's pages are made of: its season, language, results not final yet."""
    from storage.club import settings
    from storage.results import unsettled
    from storage.seasons import load_season as load_db_season

    return (await load_db_season(db), (await settings(db)).language,
            await unsettled(db))


async def _rating_list(db: Database) -> RatingList:
    from storage.club import settings

    return (await settings(db)).rating_list


def _run_import_trf(w: Words, args: argparse.Namespace) -> ExitCode:
    from core.encoding import decode
    from core.trf import TrfError, read_trf

    title = w(texts.TRF_UNUSABLE).format(path=args.trf)
    try:
        text = decode(args.trf.read_bytes())
        imported = read_trf(text, preset=args.preset, fide_byes=args.byes == "fide")
    except OSError as exc:
        reason = w(texts.FILE_UNREADABLE).format(path=args.trf, reason=texts.os_reason(w, exc))
        raise CliError(f"{title}: {reason}", ExitCode.UNUSABLE_INPUT) from exc
    except UnicodeError as exc:
        raise CliError(f"{title}: {w(texts.FILE_NOT_TEXT)}", ExitCode.UNUSABLE_INPUT) from exc
    except TrfError as exc:
        raise CliError(f"{title}: {texts.trf_problem(w, exc)}", ExitCode.UNUSABLE_INPUT) from exc
    except InvalidInputError as exc:
        raise CliError(texts.problems_report(w, title, exc.problems),
                       ExitCode.UNUSABLE_INPUT) from exc
    season = imported.season
    write(w, args.file, season_to_json(season).encode())
    print(w(texts.TRF_IMPORTED).format(path=args.file, players=len(season.players),
                                       rounds=len(season.rounds),
                                       games=sum(len(r.games) for r in season.rounds)))
    if imported.assumed:
        print(w(texts.TRF_ASSUMED))
        for line in texts.assumed(w, imported.assumed, args.preset):
            print(f"  - {line}")
    return ExitCode.OK


def _rating_list_named(w: Words, word: str) -> RatingList:
    found = RatingList.named(word)
    if found is None:
        raise argparse.ArgumentTypeError(w(texts.RATING_LIST_WORD).format(word=word))
    return found


def _run_ratings(w: Words, args: argparse.Namespace) -> ExitCode:
    from core.ratings import RatingListError, apply, propose, read_list

    which = args.which if args.which else RatingList.CLASSICAL \
        if args.season is not None else _with_database(w, database_path(args.db), _rating_list,
                                                       club=args.club_number)
    try:
        listed = read_list(args.list.read_bytes(), which, args.list.name)
    except OSError as exc:
        raise CliError(w(texts.FILE_UNREADABLE).format(path=args.list,
                                                       reason=texts.os_reason(w, exc)),
                       ExitCode.UNUSABLE_INPUT) from exc
    except RatingListError as exc:
        raise CliError(texts.rating_list_problem(w, exc), ExitCode.UNUSABLE_INPUT) from exc
    season = _season_from(w, args)
    proposal = propose(season, listed)
    close = {c.player: k for k, c in enumerate(proposal.close)}
    unknown = [p for p in args.also if p not in close]
    if unknown:
        raise CliError(w(texts.RATINGS_UNKNOWN_CLOSE).format(player=unknown[0]), ExitCode.FAILURE)
    proposal = replace(proposal, accepted=frozenset(close[p] for p in args.also))
    print(texts.rating_proposal(w, proposal, {p.id: p.name for p in season.players}, ids=True))
    if not args.confirm:
        print(w(texts.RATINGS_CONFIRM_HINT))
        return ExitCode.OK
    changes = proposal.to_apply()
    if args.season is not None:
        write(w, args.season, season_to_json(apply(season, changes)).encode())
        target = args.season
    else:
        async def work(db: Database) -> None:
            from storage.ratings import update_players

            await update_players(db, changes, actor=None)

        _with_database(w, database_path(args.db), work, club=args.club_number, writes=True)
        target = database_path(args.db).shown
    print(texts.ratings_written(w, len(changes), target))
    return ExitCode.OK


def _run_clubs(w: Words, args: argparse.Namespace) -> ExitCode:
    """clubs add NAME [--token T] [--arbiter ID] | list | token CLUB [--token T] | arbiter
    CLUB --arbiter ID | remove CLUB, on a PostgreSQL database; a club by number or name."""
    from storage import postgres

    address = database_path(args.db)
    if not isinstance(address, PostgresUrl):
        raise CliError(w(texts.CLUBS_NEED_POSTGRES), ExitCode.FAILURE)
    store = address.url
    if args.action == "list":
        return _list_clubs(w, store)
    if not args.club:
        raise CliError(w(texts.CLUBS_USAGE), ExitCode.FAILURE)
    if args.action == "add":
        key = _seal(w)
        added = _registered(w, postgres.add_club(store, args.club, _club_token(w, args.token), key))
        if args.arbiter:
            _add_arbiters(w, address, added.id, args.arbiter)
        print(w(texts.CLUBS_ADDED).format(id=added.id, name=added.name))
        return ExitCode.OK
    seal = _seal(w) if args.action in ("token", "remove") else None
    club = _club_named(w, store, args.club, seal)
    if args.action == "remove":
        return _remove_club(w, store, club, confirmed=args.ja, without_webhook=args.without_webhook)
    if args.action == "arbiter":
        if not args.arbiter:
            raise CliError(w(texts.CLUBS_USAGE), ExitCode.FAILURE)
        arbiters = _add_arbiters(w, address, club.id, args.arbiter)
        print(w(texts.CLUBS_ARBITERS).format(id=club.id, ids=", ".join(map(str, arbiters))))
        return ExitCode.OK
    assert seal is not None
    if not _registered(w, postgres.set_token(store, club.id, _club_token(w, args.token), seal)):
        raise CliError(_unknown_club(w, store, args.club), ExitCode.FAILURE)
    print(w(texts.CLUBS_TOKEN_SET).format(id=club.id))
    return ExitCode.OK


def _list_clubs(w: Words, store: str) -> ExitCode:
    from storage import postgres

    listed = _registered(w, postgres.clubs(store))
    for found in listed:
        print(w(texts.CLUBS_LINE).format(id=found.id, name=found.name))
    if not listed:
        print(w(texts.CLUBS_NONE))
    if any(found.in_clear for found in listed):
        print(w(texts.CLUBS_IN_CLEAR))
    return ExitCode.OK


def _seal(w: Words) -> Seal:
    """The deployment's key, which seals the clubs' bot tokens at rest."""
    key = settings().get("KEIZER_SECRET_KEY", "").strip()
    if not key:
        raise CliError(w(texts.CLUBS_NEED_KEY), ExitCode.FAILURE)
    if not valid_key(key):
        raise CliError(w(texts.CONFIG_SECRET_KEY).format(name="KEIZER_SECRET_KEY"),
                       ExitCode.FAILURE)
    return Seal(key)


def _club_token(w: Words, given: str) -> str:
    """A club's bot token, kept out of the shell's history and `ps` where the administrator
    likes: `--token -` reads it from standard input; without `--token`, KEIZER_CLUB_TOKEN,
    else it is asked for without being shown."""
    import getpass

    if given == "-":
        given = sys.stdin.readline()
    elif not given:
        given = os.environ.get("KEIZER_CLUB_TOKEN", "")
        if not given and sys.stdin.isatty():
            given = getpass.getpass(w(texts.CLUBS_TOKEN_ASK))
    token = given.strip()
    if not TOKEN_SHAPE.match(token):
        raise CliError(w(texts.CLUBS_TOKEN), ExitCode.FAILURE)
    return token


def _club_named(w: Words, store: str, named: str, seal: Seal | None) -> postgres.Club:
    """The club `named` (its number, or its name in any case), its token opened by `seal`."""
    from storage import postgres

    listed = _registered(w, postgres.clubs(store, seal))
    found = next((c for c in listed if str(c.id) == named.strip()), None) or next(
        (c for c in listed if c.name.casefold() == named.strip().casefold()), None)
    if found is None:
        raise CliError(_unknown_club(w, store, named, listed), ExitCode.FAILURE)
    return found


def _unknown_club(w: Words, store: str, named: str,
                  listed: list[postgres.Club] | None = None) -> str:
    from storage import postgres

    listed = _registered(w, postgres.clubs(store)) if listed is None else listed
    return w(texts.CLUBS_UNKNOWN).format(club=named, clubs=", ".join(
        w(texts.CLUBS_LINE).format(id=c.id, name=c.name) for c in listed) or "-")


def _remove_club(w: Words, store: str, club: postgres.Club, *, confirmed: bool,
                 without_webhook: bool) -> ExitCode:
    """The club gone, once its name is typed back (or `--ja`). Its bot's webhook goes first
    (else Telegram would go on posting its members' messages to a path that answers 404, and
    with the token gone nothing here could stop it): if that fails the club stays, unless
    `without_webhook`."""
    from storage import postgres

    if not confirmed:
        try:
            typed = input(w(texts.CLUBS_REMOVE_ASK).format(id=club.id, name=club.name))
        except (EOFError, OSError):  # no one at a keyboard: not confirmed
            typed = ""
        if typed.strip().casefold() != club.name.casefold():
            raise CliError(w(texts.CLUBS_REMOVE_KEPT).format(id=club.id), ExitCode.FAILURE)
    dropped = _drop_webhook(w, club, store)
    if dropped is not None and not without_webhook:
        raise CliError(w(texts.CLUBS_WEBHOOK_LEFT).format(id=club.id, error=dropped),
                       ExitCode.FAILURE)
    if not _registered(w, postgres.remove_club(store, club.id)):
        raise CliError(_unknown_club(w, store, str(club.id)), ExitCode.FAILURE)
    print(w(texts.CLUBS_REMOVED).format(id=club.id))
    print(w(texts.CLUBS_WEBHOOK_GONE).format(id=club.id) if dropped is None else
          w(texts.CLUBS_WEBHOOK_KEPT).format(id=club.id, error=dropped))
    return ExitCode.OK


def _drop_webhook(w: Words, club: postgres.Club, store: str) -> str | None:
    """The bot's webhook deleted at Telegram (as the host of `store` reaches it); what
    stopped that, else None."""
    import asyncio

    from telegram import Bot
    from telegram.error import InvalidToken, TelegramError

    async def drop(base_url: str) -> None:
        async with Bot(club.token, base_url=base_url) as bot:
            await bot.delete_webhook()

    if not club.token:
        return w(texts.CLUBS_TOKEN_UNOPENED)
    try:
        asyncio.run(drop(load_config({**settings(), "KEIZER_DB": store}, hosted=True).api_url))
    except InvalidToken:  # a bot Telegram no longer knows posts nothing anywhere
        return None
    except ConfigError as exc:
        return plain(exc.said, w)
    except TelegramError as exc:
        return str(exc)
    return None


def _run_migrate(w: Words, args: argparse.Namespace) -> ExitCode:
    """The database brought to this release's schema: the one command that does only that,
    and the step of an upgrade of several hosts (docs/deploy.md)."""
    from storage import postgres

    store = database_path(args.db)
    if isinstance(store, PostgresUrl):
        before, after = _registered(w, postgres.migrate(store.url, over_hosts=args.ja))
    else:
        import asyncio

        from storage.errors import StoreError
        from storage.sqlite import migrate_file

        if not store.path.exists():
            raise CliError(w(texts.DATABASE_MISSING).format(path=store), ExitCode.UNUSABLE_INPUT)
        try:
            before, after = asyncio.run(migrate_file(store.path))
        except StoreError as exc:
            raise CliError(texts.store_problem(w, exc), ExitCode.UNUSABLE_INPUT) from exc
    print(w(texts.MIGRATED).format(before=before, after=after) if before != after
          else w(texts.UP_TO_DATE).format(version=after))
    return ExitCode.OK


def _run_rekey(w: Words, args: argparse.Namespace) -> ExitCode:
    """Every token the database keeps sealed with KEIZER_SECRET_KEY: the clubs' bot tokens
    (those an older release kept in the clear, and, given KEIZER_OLD_SECRET_KEY, those
    sealed with the old key) and the members' lichess tokens."""
    from storage import postgres
    from storage.lichess import reseal

    old_key = settings().get("KEIZER_OLD_SECRET_KEY", "").strip()
    if old_key and not valid_key(old_key):
        raise CliError(w(texts.CONFIG_SECRET_KEY).format(name="KEIZER_OLD_SECRET_KEY"),
                       ExitCode.FAILURE)
    rekey = Rekey(_seal(w), Seal(old_key) if old_key else None)
    store = database_path(args.db)
    if isinstance(store, PostgresUrl) and args.club_number is None:
        done, unopened = _registered(w, postgres.reseal_tokens(store.url, rekey))
        clubs = sorted({postgres.FIRST_CLUB, *done, *unopened})
    else:
        done, unopened, clubs = [], [], [args.club_number]
    lichess = sum(_with_database(w, store, lambda db: reseal(db, rekey), club=club, writes=True)
                  for club in clubs)
    print(w(texts.REKEYED).format(clubs=len(done)))
    for club in unopened:
        print(w(texts.REKEY_CLUB_UNOPENED).format(id=club))
    if lichess:
        print(w(texts.REKEY_LICHESS_UNOPENED).format(count=lichess))
    return ExitCode.OK if not unopened and not lichess else ExitCode.FAILURE


async def _one_club_only(w: Words, database: PostgresUrl, refusal: str | None = None) -> None:
    """A PostgreSQL database of one club is that club; one that holds `keizerbot clubs`
    needs to be told which (else the work would go to a club no command shows): `refusal`
    (else CLUBS_WHICH) lists them."""
    from storage import postgres
    from storage.errors import StoreError

    try:
        hosted = await postgres.clubs(database.url)
    except StoreError as exc:
        raise CliError(texts.store_problem(w, exc), ExitCode.UNUSABLE_INPUT) from exc
    if hosted:
        raise CliError((refusal or w(texts.CLUBS_WHICH)).format(clubs=", ".join(
            w(texts.CLUBS_LINE).format(id=c.id, name=c.name) for c in hosted)), ExitCode.FAILURE)


def _registered(w: Words, work: Coroutine[Any, Any, T]) -> T:
    """A change of the table of clubs, or a look at it; what the store refuses (the database
    out of reach, a name or a bot another club has) is said in a sentence."""
    import asyncio

    from storage.errors import StoreError

    try:
        return asyncio.run(work)
    except StoreError as exc:
        raise CliError(texts.store_problem(w, exc), ExitCode.FAILURE) from exc


def _add_arbiters(w: Words, store: PostgresUrl, number: int, arbiters: list[int]) -> list[int]:
    """`arbiters` made arbiters of club `number`; every arbiter it has now."""
    from storage.club import arbiters as arbiters_of
    from storage.club import set_arbiter

    async def work(db: Database) -> list[int]:
        for arbiter in arbiters:
            await set_arbiter(db, arbiter, actor=None)
        return sorted(await arbiters_of(db))

    return _with_database(w, store, work, club=number, writes=True)


def _run_rules(w: Words, args: argparse.Namespace) -> ExitCode:
    title = w(texts.RULES_UNUSABLE)
    try:
        rules = rules_from_toml(_read(w, args.file, title))
    except InvalidInputError as exc:
        raise CliError(texts.problems_report(w, title.format(path=args.file), exc.problems),
                       ExitCode.UNUSABLE_INPUT) from exc
    for key, value in rules_to_mapping(rules).items():
        print(f"{key} = {json.dumps(value, ensure_ascii=False)}")
    return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main())
