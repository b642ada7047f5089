"""Every sentence a user sees, in one place: problems in files, table headings, labels.

Written in Dutch, the source language: `w(texts.NAME)` is a text in the words `w` of one
reader's language (`bot.language.i18n.words`), and each function here says its sentence in
the words it is given. The English is in `bot/language/locale/en/LC_MESSAGES/messages.po`."""

from __future__ import annotations

import difflib
import errno
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from bot.language.i18n import Words
from core.errors import Expected, Problem, ProblemCode
from core.numbers import exact_text, format_number
from core.pairing.model import BrokenRule, Fixes, Rule
from core.preview import Earning, SignOffPrice
from core.rounds import ResultState, RoundState
from core.rules import Colour, CompensationKind, Rules, rules_from_source, rules_to_mapping
from core.season import ExternalDay, Result
from storage.errors import StoreError, StoreProblem
from storage.states import WebAccess

if TYPE_CHECKING:  # the file formats load only with the commands that read them
    from core.ratings import Change, Proposal, RatingListError
    from core.trf import Assumed, TrfError, TrfHeader

_EXPECTED: Mapping[Expected, str] = {
    Expected.INTEGER: "een geheel getal",
    Expected.INTEGER_OR_NULL: "een geheel getal of null",
    Expected.NUMBER: "een getal",
    Expected.TEXT: "tekst",
    Expected.NON_EMPTY_TEXT: "niet-lege tekst",
    Expected.OBJECT: "een object {…}",
    Expected.LIST: "een lijst […]",
    Expected.TABLE: "een tabel",
    Expected.BOOLEAN: "true of false",
    Expected.PLAYER_ID: "een speler-id",
    Expected.PRESET_OR_TABLE: "de naam van een voorinstelling of een tabel",
    Expected.WIN_DRAW_LOSS: "[winst, remise, verlies]",
    Expected.TOP_EXCEPTION: "{from_round, top} of null",
    Expected.TEAM_NUMBER: "een teamnummer vanaf 1",
    Expected.TEAM_OF_TABLE: "een team uit team_table",
    Expected.TEAM_OF_RULES_TABLE: "een team uit de team_table van de regels",
    Expected.TOP_VALUE: 'een getal groter dan 0, of "1.5n"',
    Expected.ODD_PLAYERS: "een oneven aantal spelers",
    Expected.FRACTION_OR_TEAM: 'een breuk (alleen bij extern: "team")',
    Expected.DATE: "JJJJ-MM-DD",
    Expected.DECAY: "leeg (null) of een breuk groter dan 0 en hoogstens 1",
    Expected.FEDERATION: "drie hoofdletters (NED)",
    Expected.SEX: '"m" of "w"',
    Expected.TITLE: "een titel (GM, WIM; of zoals JaVaFo ze schrijft: g, wm)",
    Expected.SURNAME: "de laatste woorden van de naam",
    Expected.BIRTH: "JJJJ of JJJJ-MM-DD",
}
"""What a value should have been, for every `core.errors.Expected` (Dutch, the source;
translated when used)."""
EXPECTED_WORDS = frozenset(e.value for e in Expected)

_REASONS: Mapping[str, str] = {
    "only_external": "hoort alleen bij een externe partij",
    "last_round_only": "alleen de laatste ronde mag nog niet ingedeeld zijn",
}

_PROBLEMS: Mapping[ProblemCode, str] = {
    ProblemCode.UNKNOWN_KEY: "onbekend veld '{key}'",
    ProblemCode.MISSING_KEY: "veld '{key}' ontbreekt",
    ProblemCode.WRONG_TYPE: "verwacht {expected}, maar dit is {value}",
    ProblemCode.OUT_OF_RANGE: "{value} ligt buiten het toegestane bereik ({range})",
    ProblemCode.BAD_VALUE: "ongeldige waarde {value} (verwacht: {expected})",
    ProblemCode.UNKNOWN_PRESET: "onbekende voorinstelling {value} (kies uit: {expected})",
    ProblemCode.DUPLICATE_PLAYER_ID: "speler-id '{player}' komt meer dan één keer voor",
    ProblemCode.UNKNOWN_PLAYER: "onbekende speler '{player}'",
    ProblemCode.PLAYER_TWICE: "speler '{player}' staat er meer dan één keer in",
    ProblemCode.PLAYER_MISSING: "speler '{player}' ontbreekt{in_round}",
    ProblemCode.PLAYER_NOT_ACTIVE: "speler '{player}' doet{in_round} niet mee "
                                   "(nog niet begonnen of al gestopt)",
    ProblemCode.SELF_PAIRED: "speler '{player}' speelt tegen zichzelf",
    ProblemCode.BAD_RESULT: "ongeldige uitslag {value} (verwacht: {expected})",
    ProblemCode.ROUND_ORDER: "rondenummer {value} klopt niet, verwacht {expected}",
    ProblemCode.CONFLICT: "{value} spreekt {other} = {other_value} tegen",
    ProblemCode.NOT_JSON: "dit is geen geldige JSON (regel {line}, kolom {column}: {reason})",
    ProblemCode.NOT_TOML: "dit is geen geldige TOML ({reason})",
    ProblemCode.NOT_A_NAME: "regel {line} heeft geen naam ({value}); schrijf een lid per regel, "
                            "zoals Henk Bos, 1850",
}


def problem(w: Words, p: Problem) -> str:
    """One problem as a line in the reader's language: `rounds[3].games[2].result: ongeldige
uitslag "2-0" …`."""
    facts = dict(p.facts)
    expected = facts.get("expected", "")
    if expected in EXPECTED_WORDS:
        facts["expected"] = w._(_EXPECTED[Expected(expected)])
    low, high = facts.get("low", "-"), facts.get("high", "-")
    facts["range"] = (w._("van {low}") if high == "-" else w._("tot en met {high}") if low == "-"
                      else w._("{low} t/m {high}")).format(low=low, high=high)
    facts["in_round"] = w._(" in ronde {round}").format(round=facts["round"]) \
        if "round" in facts else ""
    reason = w._(_REASONS.get(facts.get("reason", ""), ""))
    if p.code is ProblemCode.ROUND_ORDER and reason:
        text = reason
    else:
        text = w._(_PROBLEMS[p.code]).format_map(_Missing(facts))
        if reason:
            text += f": {reason}"
    if p.code is ProblemCode.UNKNOWN_KEY:  # a typing error: the field that was meant
        meant = difflib.get_close_matches(facts.get("key", ""), expected.split(" | "), n=1)
        if meant:
            text += w._(" (bedoel je '{key}'?)").format(key=meant[0])
    return f"{p.path}: {text}" if p.path else text


class _Missing(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "?"


def chat_problems(w: Words, problems: tuple[Problem, ...], names: Mapping[str, str]) -> str:
    """Problems as a member or the arbiter reads them in the chat: players by name, no field
    paths (a rules parameter by the name he typed)."""
    lines = []
    for p in problems:
        facts = {k: names.get(v, v) if k == "player" else v for k, v in p.facts.items()}
        text = problem(w, Problem("", p.code, facts))
        rule = p.path.removeprefix("rules.").split(".")[0].split("[")[0] \
            if p.path.startswith("rules.") else ""
        lines.append(w._("regel {rule}: {text}").format(rule=rule, text=text) if rule else text)
    return w._(CHANGE_REFUSED) + ": " + "; ".join(dict.fromkeys(lines)) + "."


def problems_report(w: Words, title: str, problems: tuple[Problem, ...]) -> str:
    count = len(problems)
    head = f"{title}: " + w.ngettext("{count} probleem", "{count} problemen", count).format(
        count=count)
    return "\n".join([head, *(f"  - {problem(w, p)}" for p in problems)])


SEASON_UNUSABLE = "Het seizoensbestand {path} is niet bruikbaar"
MEMBERS_UNUSABLE = "De ledenlijst {path} is niet bruikbaar"
RULES_UNUSABLE = "Het reglementbestand {path} is niet bruikbaar"
FILE_UNREADABLE = "Kan {path} niet lezen: {reason}"
FILE_UNWRITABLE = "Kan {path} niet schrijven: {reason}"
FOLDER_MISSING = "de map {folder} bestaat niet"
PATH_IS_FOLDER = "{path} is een map; geef de naam van een bestand"
PATH_IS_FILE = "{path} is een bestand; geef de naam van een map"
DATABASE_MISSING = ("De database {path} bestaat niet. Een nieuwe maak je met keizerbot import "
                    "SEIZOEN.json; of bedoel je een andere (--db, KEIZER_DB)?")
ARGPARSE: Mapping[str, str] = {
    "usage: ": "gebruik: ",
    "positional arguments": "argumenten",
    "options": "opties",
    "show this help message and exit": "deze hulp tonen en stoppen",
    "%(prog)s: error: %(message)s\n": "%(prog)s: fout: %(message)s\n",
    "argument %(argument_name)s: %(message)s": "bij %(argument_name)s: %(message)s",
    "unrecognized arguments: %s": "onbekend: %s",
    "the following arguments are required: %s": "dit ontbreekt nog: %s",
    "one of the arguments %s is required": "een van deze hoort erbij: %s",
    "not allowed with argument %s": "niet samen met %s",
    "expected one argument": "hier hoort een waarde bij",
    "expected at most one argument": "hier hoort hoogstens een waarde bij",
    "expected at least one argument": "hier hoort minstens een waarde bij",
    "invalid choice: %(value)r (choose from %(choices)s)":
        "ongeldige keuze: %(value)r (kies uit %(choices)s)",
    "invalid %(type)s value: %(value)r": "ongeldige waarde: %(value)r",
    "ambiguous option: %(option)s could match %(matches)s":
        "%(option)s kan meer zijn: %(matches)s",
    "ignored explicit argument %r": "genegeerd: %r",
}
"""The command line's own words (Python's argparse writes them in English): as the reader
says them. Keyed by argparse's text."""
_OS_REASONS: Mapping[int, str] = {
    errno.ENOENT: "bestaat niet", errno.EACCES: "geen toestemming",
    errno.EPERM: "geen toestemming", errno.EISDIR: "dat is een map",
    errno.ENOTDIR: "een deel van het pad is geen map", errno.ENOSPC: "de schijf is vol",
    errno.EROFS: "alleen-lezen bestandssysteem", errno.EEXIST: "bestaat al",
    errno.ENAMETOOLONG: "de naam is te lang",
}
"""What the system says of a file, as the reader says it (its own words are English)."""


def os_reason(w: Words, exc: OSError) -> str:
    known = _OS_REASONS.get(exc.errno or 0)
    return w._(known) if known else exc.strerror or str(exc)
ROUND_OUT_OF_RANGE = "Ronde {round} bestaat niet: het bestand heeft {count} rondes."
ROUND_INCOMPLETE = "Let op: ronde {round} is nog niet compleet ({missing} uitslagen ontbreken)."

STANDINGS_TITLE = "Stand na ronde {round}"
STANDINGS_START = "Beginstand (voor ronde 1)"
STANDINGS_COLUMNS = ("Pos", "Naam", "Punten", "Waarde", "Gesp", "W", "R", "V", "%")
COMPACT_COLUMNS = ("Pos", "Naam", "Punten", "Waarde")
GROUP_COLUMNS = ("#", "Naam", "Punten")
BREAKDOWN_COLUMNS = ("Ronde", "Wat", "Uitslag", "Waarde", "×", "Punten")
BREAKDOWN_TOTAL = "Totaal"
BREAKDOWN_HEAD = "{name}: {rank}e met {score} punten (stand na ronde {round})"
BREAKDOWN_CAPPED = " (boven maximum)"
RESULT_IN_A_FILE: Mapping[Result, str] = {Result.WHITE_BY_FORFEIT: "1-0 regl.",
                                          Result.BLACK_BY_FORFEIT: "0-1 regl.",
                                          Result.DOUBLE_FORFEIT: "0-0 regl."}
"""Forfeits in the pages and spreadsheets: in words a spreadsheet cannot take for a formula
(a cell starting with `+` or `-` is one)."""
BREAKDOWN_FIXED = " (vast aantal punten)"
BREAKDOWN_DECAYED = " (afgebouwd: ×{decay})"
BREAKDOWN_FORFEIT_WON = "reglementair gewonnen van {name}"
BREAKDOWN_FORFEIT_LOST = "reglementair verloren tegen {name}"
CROSS_LEFT_OUT = "–"
"""In the cross table: an opponent who withdrew and is no longer in the ranking."""
COLOUR_LETTERS: Mapping[Colour, str] = {Colour.WHITE: "w", Colour.BLACK: "z"}


KIND_LABELS: Mapping[CompensationKind, str] = {
    CompensationKind.NOTICE: "afgemeld",
    CompensationKind.NO_NOTICE: "afwezig zonder afmelding",
    CompensationKind.BYE: "bye",
    CompensationKind.OPPONENT_ABSENT: "tegenstander niet gekomen",
    CompensationKind.ARBITER: "wedstrijdleiding",
    CompensationKind.EXTERNAL_CLUB_NIGHT: "extern op clubavond",
    CompensationKind.EXTERNAL_OTHER_DAY: "extern op andere dag",
    CompensationKind.LATE_JOIN: "later ingestroomd",
    CompensationKind.HALF_BYE: "vrij gevraagd (halve punt)",
    CompensationKind.ZERO_BYE: "vrij gevraagd (geen punt)",
}
UNKNOWN_PLAYER_ID = "Speler '{player}' staat niet in deze stand."
PAIRING_WITH_PENDING = "Let op: ronde {round} heeft nog uitslagen open; de indeling gaat uit " \
    "van de stand zonder die partijen."
PAIRING_TITLE = "Indeling ronde {round}"
PAIRING_COLUMNS = ("Bord", "Wit", "Pl", "Wrd", "Zwart", "Pl", "Wrd", "Tempo")
PAIRING_BYE = "Vrij (bye): {name}"
PAIRING_TEMPO = "Tempo {tempo}"
PAIRING_TEMPO_ONLINE = "Tempo {tempo}, op lichess"
PAIRING_TEMPO_YOUTH = "; jeugd {tempo}: {names}"
PAIRING_ALL_RULES_KEPT = "Alle regels van het reglement zijn gehaald."
PAIRING_BROKEN_TITLE = "Niet alle regels konden worden gehaald:"

BROKEN_RULES: Mapping[Rule, str] = {
    Rule.KEPT_APART: "{a} en {b} spelen tegen elkaar, hoewel ze nooit tegen elkaar zouden "
                     "spelen: geen indeling houdt ze uit elkaar",
    Rule.MAX_MEETINGS: "{a} en {b} spelen voor de {meeting}e keer dit seizoen "
                       "(maximaal {limit})",
    Rule.PER_PERIOD: "{a} en {b} treffen elkaar voor de {meeting}e keer in periode {period} "
                     "(maximaal {limit})",
    Rule.MIN_ROUNDS_BETWEEN: "{a} en {b} speelden al in ronde {last} "
                             "(pas weer vanaf ronde {earliest})",
    Rule.MAX_COLOUR_DIFFERENCE: "{a} komt op kleursaldo {balance} (maximaal ±{limit})",
    Rule.MAX_SAME_COLOUR_RUN: "{a} krijgt {run} keer achter elkaar {colour_nl} "
                              "(maximaal {limit})",
    Rule.REMATCH_REVERSES_COLOURS: "{a} en {b} hebben dezelfde kleuren als in ronde {last}",
    Rule.BYE: "{a} heeft de bye, terwijl {due} aan de beurt was",
    Rule.MAX_RANK_DISTANCE: "{a} en {b} staan {distance} plaatsen uit elkaar "
                            "(maximaal {limit})",
}
COLOURS_WORD = {"white": "wit", "black": "zwart"}


def broken_rule(w: Words, rule: BrokenRule, names: Mapping[str, str]) -> str:
    """A rule the pairing could not keep, players by `names` (by player id; an id without one
    as it is)."""
    facts: dict[str, object] = dict(rule.facts)
    facts["a"] = names.get(rule.players[0], rule.players[0])
    facts["b"] = names.get(rule.players[-1], rule.players[-1])
    if "due" in facts:
        facts["due"] = names.get(str(facts["due"]), str(facts["due"]))
    facts["colour_nl"] = w._(COLOURS_WORD.get(str(facts.get("colour", "")), ""))
    return w._(BROKEN_RULES[rule.rule]).format_map(facts)

CONFIG_TOKEN_SHAPE = ("TELEGRAM_BOT_TOKEN ziet er niet uit als een token van BotFather (zoiets "
                      "als 123456789:AAH...). Kopieer het opnieuw uit BotFather.")
CONFIG_BASE_URL = "TELEGRAM_BASE_URL moet een adres zijn als http://localhost:8081, niet {value}."
CONFIG_ARBITER = ("KEIZER_ARBITERS: {value} is geen Telegram-gebruikersnummer. Geef de nummers "
                  "met komma's ertussen, bijvoorbeeld 123456789,987654321 (je nummer vraag je "
                  "op bij @userinfobot).")
START_WEB_PORT = ("De clubpagina kan niet starten op poort {port} ({reason}). Kies een andere "
                  "KEIZER_WEB_PORT, of laat hem leeg.")
CONFIG_DB_PASSWORD = ("KEIZER_DB: de gebruikersnaam of het wachtwoord in het adres heeft een "
                      "teken dat in een adres iets anders betekent (/, @, # of %). Schrijf het "
                      "met procenttekens (/ als %2F, @ als %40, # als %23, % als %25), of laat "
                      "het wachtwoord uit het adres en zet het in PGPASSWORD.")
CONFIG_WEB_PORT = "KEIZER_WEB_PORT moet een poortnummer zijn (1 tot en met 65535), niet {value}."
CONFIG_WEB_HOST = ("KEIZER_WEB_HOST moet een IP-adres zijn, zoals 127.0.0.1 (alleen de proxy op "
                   "deze machine) of 0.0.0.0 (alle adressen), niet {value}.")
CONFIG_PUBLIC_URL = ("KEIZER_PUBLIC_URL moet een adres zijn als https://schaak.example.nl/keizer, "
                     "niet {value}.")
CONFIG_SECRET_KEY = ("{name} is geen geldige sleutel. Maak er een met: uv run python -c \"from "
                     "cryptography.fernet import Fernet; print(Fernet.generate_key().decode())\"")
CONFIG_HOST_KEY = ("Een host bewaart de bot-tokens van de clubs versleuteld: zet "
                   "KEIZER_SECRET_KEY in .env. Maak een sleutel met: uv run python -c \"from "
                   "cryptography.fernet import Fernet; print(Fernet.generate_key().decode())\"")
CONFIG_LICHESS_URL = ("KEIZER_LICHESS_URL moet een adres zijn dat met http:// of https:// begint, "
                      "niet {value}.")
LICHESS_USAGE = ("Gebruik: /lichess om je lichess-account te koppelen, /lichess uit om het te "
                 "ontkoppelen. De wedstrijdleider koppelt het account van de club met "
                 "/lichess club.")
LICHESS_PRIVATE = "Stuur /lichess in een privégesprek met mij: de link is alleen voor jou."
LICHESS_NOT_SET_UP = ("Koppelen met lichess staat bij deze bot nog niet aan: de beheerder zet "
                      "eerst KEIZER_SECRET_KEY en KEIZER_PUBLIC_URL.")
LICHESS_SIGN_IN = ("Open de link en meld je aan bij lichess om je account te koppelen. De link "
                   "werkt tien minuten en is alleen voor jou.")
LICHESS_SIGN_IN_CLUB = ("Open de link en meld je aan met het lichess-account van de club: "
                        "daarmee maakt de bot de partijen van een online ronde. De link werkt "
                        "tien minuten.")
LICHESS_NOW = "Nu gekoppeld: {name}. Opnieuw koppelen vervangt het."
LICHESS_BUTTON = "Koppelen met lichess"
LICHESS_LINKED = "Je lichess-account {name} is gekoppeld. Ontkoppelen: /lichess uit."
LICHESS_TAKEN = ("Het lichess-account {name} is al gekoppeld aan een ander lid van de club, dus "
                 "niet aan jou: lichess speelt met één account maar één partij tegelijk. Is het "
                 "toch van jou? Vraag de wedstrijdleider.")
LICHESS_CLUB_LINKED = ("Het lichess-account {name} is gekoppeld als account van de club. "
                       "Ontkoppelen: /lichess club uit.")
LICHESS_FORGOTTEN = "Je lichess-account {name} is ontkoppeld."
LICHESS_CLUB_FORGOTTEN = "Het lichess-account {name} van de club is ontkoppeld."
LICHESS_NONE = "Er is geen lichess-account gekoppeld."
LICHESS_PAGE_EXPIRED = "Deze link werkt niet meer. Stuur /lichess opnieuw aan de bot."
LICHESS_PAGE_DONE = "Gekoppeld: {name}. Je kunt terug naar Telegram."
LICHESS_PAGE_TAKEN = "Niet gekoppeld: {name} is al van een ander lid. Je kunt terug naar Telegram."
LICHESS_PAGE_DENIED = ("Je hebt het koppelen bij lichess afgebroken; er is niets gekoppeld. "
                       "Stuur /lichess opnieuw als je het toch wilt.")
LICHESS_PAGE_BUSY = ("lichess is nu niet bereikbaar; er is niets gekoppeld. Probeer het over een "
                     "paar minuten opnieuw met /lichess.")
LICHESS_PAGE_REFUSED = ("lichess weigerde het koppelen; er is niets gekoppeld. Stuur /lichess "
                        "opnieuw.")
LICHESS_GAME = ("Ronde {round}, bord {board}: je speelt met {colour} tegen {opponent}, op "
                "lichess: {link}\nDe uitslag lees ik daar af.")
LICHESS_MY_GAME = "Je partij op lichess, ronde {round}: {link}"
LICHESS_LEFT_OUT = "Ronde {round} op lichess: voor deze borden kan ik geen partij maken."
LICHESS_LEFT_OUT_BOARD = "Bord {board}, {white} – {black}: geen lichess-account van {who}."
LICHESS_LEFT_OUT_WHAT = ("Wie /lichess stuurt en zijn account koppelt, krijgt zijn partij "
                         "meteen. Lukt dat niet, dan spelen ze via een uitdaging op lichess en "
                         "geven ze de uitslag door met /uitslag.")
LICHESS_YOU_LEFT_OUT = ("Ronde {round} wordt op lichess gespeeld, maar ik kan je partij niet "
                        "maken: er is geen lichess-account van je gekoppeld dat lichess "
                        "aanneemt. Stuur /lichess om te koppelen; dan volgt je partij meteen.")
LICHESS_NO_ORGANISER = ("Ronde {round} wordt online gespeeld, maar het lichess-account van de "
                        "club is niet gekoppeld: stuur /lichess club in een privégesprek.")
LICHESS_DOWN = ("De partijen van ronde {round} staan nog niet op lichess: lichess is niet "
                "bereikbaar of vraagt te wachten. Ik blijf het proberen.")
LICHESS_REFUSED = ("lichess weigert de partijen van ronde {round} (antwoord {status}). Kijk of het "
                   "lichess-account van de club nog gekoppeld is: /lichess club.")
LICHESS_NOT_PLAYED = ("Ronde {round} bord {board}, {white} – {black}: op lichess niet gespeeld "
                      "({how}). Beslis met <code>/uitslag {board} UITSLAG ronde {round}</code>.")
LICHESS_HOW = {"noStart": "niet begonnen", "aborted": "afgebroken",
               "unknownFinish": "einde onbekend"}
LICHESS_RESULT_ASK = "Uitslag op lichess, ronde {round} bord {board}: {words}. Klopt dat?"
LICHESS_RESULT = "Uitslag op lichess, ronde {round} bord {board}: {words}. Genoteerd."
LICHESS_LIVE = "Op lichess:"
LICHESS_LIVE_BOARD = "Bord {board}: {state}"
LICHESS_STATES = {"waiting": "wacht op de start", "playing": "speelt nu",
                  "decided": "afgelopen", "not_played": "niet gespeeld",
                  "missing": "geen partij", "none": "nog niet gemaakt"}
RONDE_ONLINE = "Deze ronde wordt online gespeeld, op lichess, tempo {clock}."
RONDE_ONLINE_NO_CLUB = ("Koppel voor de publicatie nog het lichess-account van de club: "
                        "/lichess club (privé).")
ONLINE_MARK = " (online)"
ONLINE_SETTINGS = ("Online (lichess): {default}; tempo {clock}; {rated}; uitslag van lichess "
                   "{auto}.")
CLOCK_OF_CLUB = "{clock} (het tempo van de club)"
ONLINE_DEFAULT = {"on": "nieuwe rondes online", "off": "nieuwe rondes aan het bord"}
ONLINE_RATED = {"on": "rated", "off": "niet rated"}
ONLINE_AUTO = {"on": "meteen definitief", "off": "bevestigd door een speler"}
BAD_CLOCK = ("'{text}' is geen tempo voor lichess: schrijf minuten+seconden per zet, zoals "
             "45+15 (hoogstens {most}+{most}).")
CONFIG_WEB_APP = ("KEIZER_WEB_APP moet de korte naam van de Mini App bij @BotFather zijn "
                  "(letters, cijfers en _), niet {value}.")
CONFIG_WEBHOOK = ("KEIZER_WEBHOOK laat Telegram de berichten bij de server van de clubpagina "
                  "bezorgen: zet dan ook KEIZER_WEB_PORT en KEIZER_PUBLIC_URL (het HTTPS-adres "
                  "waar Telegram die server bereikt, via de proxy).")
CONFIG_TIMEZONE = ("KEIZER_TIMEZONE: {value} is geen tijdzone; gebruik bijvoorbeeld "
                   "Europe/Amsterdam.")
NO_TOKEN = """\
Er is nog geen bot-token (TELEGRAM_BOT_TOKEN).

Zo kom je eraan:
  1. Open Telegram en zoek @BotFather.
  2. Stuur /newbot en kies een naam en een gebruikersnaam (eindigt op 'bot').
  3. BotFather geeft je een token, zoiets als 123456789:AAH...
  4. Kopieer .env.example naar .env en zet het token achter TELEGRAM_BOT_TOKEN=.
  5. Zet je eigen Telegram-nummer achter KEIZER_ARBITERS= (vraag het op bij @userinfobot).

Start daarna opnieuw: uv run keizerbot

Eerst zien hoe het werkt? uv run keizerbot demo speelt een heel seizoen na, zonder token."""

DOCTOR_SETTINGS = "Instellingen in orde; tijdzone {zone}."
DOCTOR_TOKEN_REFUSED = ("Telegram weigert het token. Maak een nieuw token bij @BotFather (/token) "
                        "en zet het in .env.")
DOCTOR_CLUB_TOKEN_UNOPENED = ("Het bot-token gaat niet open met KEIZER_SECRET_KEY: is de "
                              "sleutel veranderd? Zet de oude als KEIZER_OLD_SECRET_KEY en "
                              "draai keizerbot rekey, of geef het token opnieuw met keizerbot "
                              "clubs token {id}.")
DOCTOR_CLUB_TOKEN_REFUSED = ("Telegram weigert het token. Maak een nieuw token bij @BotFather "
                             "(/token) en geef het de club met keizerbot clubs token {id} "
                             "--token TOKEN.")
DOCTOR_NO_TELEGRAM = ("Telegram is niet bereikbaar op {url}: {error}. Controleer de "
                      "internetverbinding of TELEGRAM_BASE_URL.")
DOCTOR_TOKEN_ERROR = "Telegram gaf een fout bij het controleren van het token: {error}."
DOCTOR_TOKEN_OK = "Het token werkt: dit is @{name}."
DOCTOR_DB_UNUSABLE = ("De database {path} is niet bruikbaar: {error}. Controleer KEIZER_DB en de "
                      "rechten op die map.")
DOCTOR_DB_OK = "Database {path}: schrijfbaar, schema versie {version}."
DOCTOR_NO_DATABASE = ("Database {path}: bestaat nog niet. Laad het seizoen met keizerbot import "
                      "SEIZOEN.json.")
DOCTOR_ENV_READABLE = ("{path} is ook leesbaar voor andere gebruikers van deze computer, en er "
                       "staat het bot-token in. Maak het privé: chmod 600 {path}")
DOCTOR_USE_CLUBS = ("Deze database heeft de clubs van een host ({clubs}). Controleer ze met "
                    "keizerbot doctor --clubs.")
DOCTOR_DB_READABLE = ("Database {path}: ook leesbaar voor andere gebruikers van deze computer "
                      "(er staan namen en Telegram-id's in). Maak hem privé: chmod 600 {path}")
DOCTOR_DB_READ_ONLY = "De database {path} is niet schrijfbaar: {error}."
DOCTOR_NO_SEASON = "Er is nog geen seizoen. Laad het met 'uv run keizerbot import SEIZOEN.json'."
DOCTOR_GROUP = "Clubgroep ingesteld."
DOCTOR_NO_CLUBS = "Er staan nog geen clubs in de database. Maak ze met keizerbot clubs add."
DOCTOR_OF_CLUB = "Club {id} ({name}): {check}"
DOCTOR_NO_CLUB_SEASON = ("Er is nog geen seizoen. Laad het met 'uv run keizerbot import "
                         "SEIZOEN.json --club {id}'.")
DOCTOR_NO_CLUB_ARBITER = ("Er is geen wedstrijdleider. Geef er een met keizerbot clubs arbiter "
                          "{id} --arbiter TELEGRAMNUMMER (vraag het op bij @userinfobot).")
DOCTOR_NO_GROUP = "Er is nog geen clubgroep. Voeg de bot toe aan de groep en stuur daar /club."
DOCTOR_ARBITERS = "Wedstrijdleiders: {ids}."
DOCTOR_NO_ARBITER = ("Er is geen wedstrijdleider. Zet je Telegram-nummer achter KEIZER_ARBITERS "
                     "in .env (vraag het op bij @userinfobot).")

START_BAD_TOKEN = ("Telegram kent dit bot-token niet (TELEGRAM_BOT_TOKEN). Kopieer het opnieuw "
                   "uit @BotFather (/mybots, API Token) en start opnieuw.")
START_NO_TELEGRAM = ("Telegram is niet bereikbaar ({url}). Controleer de internetverbinding "
                     "(of TELEGRAM_BASE_URL) en start opnieuw.")
CLUB_OF_FILE = ("--club {club} kiest een club in een PostgreSQL-database van meerdere clubs; "
                "{path} is een databasebestand van één club. Laat --club weg.")
REPLACE_KEPT_COPY = ("De database heeft gegevens van de club in gebruik (gekoppelde leden, "
                     "uitslagen of de clubgroep). Eerst een reservekopie gemaakt: {path}")
DATABASE_UNUSABLE = "De database {path} is niet bruikbaar: {reason}"
IMPORTED = "Seizoen geladen: {players} spelers, {rounds} rondes, in {path}."
EXPORTED_SEASON = ("Seizoen geschreven naar {path}. Rondes na de eerstvolgende, koppelingen en "
                   "instellingen staan niet in een seizoensbestand: voor alles gebruik je "
                   "--alles.")
EXPORTED_ALL = "Alles wat de bot bewaart, geschreven naar {path}."
BACKED_UP = "Reservekopie gemaakt: {path}"
CLUBS_NEED_POSTGRES = ("Meerdere clubs kunnen alleen in een PostgreSQL-database "
                       "(KEIZER_DB=postgresql://...); een databasebestand is één club.")
CLUBS_USAGE = ("keizerbot clubs add NAAM [--token TOKEN] [--arbiter ID], keizerbot clubs list, "
               "keizerbot clubs token CLUB [--token TOKEN], keizerbot clubs arbiter CLUB "
               "--arbiter ID of keizerbot clubs remove CLUB [--ja]; CLUB is het nummer of de "
               "naam van de club.")
CLUBS_NEED_KEY = ("De bot-tokens van de clubs worden versleuteld bewaard: zet eerst "
                  "KEIZER_SECRET_KEY in .env. Maak een sleutel met: uv run python -c \"from "
                  "cryptography.fernet import Fernet; print(Fernet.generate_key().decode())\"")
CLUBS_TOKEN_ASK = "Bot-token van de club (wordt niet getoond): "
CLUBS_IN_CLEAR = ("Let op: een oudere versie bewaarde bot-tokens onversleuteld. Verzegel ze met "
                  "keizerbot rekey.")
CLUBS_ARBITERS = "Club {id}: wedstrijdleiders {ids}."
CLUBS_TOKEN = ("Dat is geen bot-token zoals @BotFather het geeft (123456789:ABC...). Geef het "
               "met --token, met --token - via de invoer, in KEIZER_CLUB_TOKEN, of typ het als "
               "erom gevraagd wordt.")
HOST_OUTDATED = ("Een nieuwere keizerbot heeft de database bijgewerkt naar schema {version}; "
                 "deze host kent {known}. Hij is gestopt en zijn clubs draaien verder op de "
                 "hosts van de nieuwe versie. Werk deze host bij en start hem opnieuw.")
HOST_NEEDS_POSTGRES = ("keizerbot host draait de clubs van een PostgreSQL-database: zet "
                       "KEIZER_DB=postgresql://... en maak de clubs met keizerbot clubs add.")
CLUBS_LINE = "{id}: {name}"
CLUBS_NONE = ("Deze database heeft nog geen clubs. Maak er een met keizerbot clubs add NAAM "
              "--token TOKEN.")
SINGLE_ON_HOSTED = ("Deze database heeft de clubs van een host ({clubs}): start ze met "
                    "keizerbot host, elk met zijn eigen bot.")
CLUBS_WHICH = "Deze database heeft meerdere clubs; zeg met --club NUMMER welke ({clubs})."
CLUBS_ADDED = "Club {id} gemaakt: {name}."
CLUBS_REMOVED = "Club {id} is weg, met alles wat van hem was."
CLUBS_REMOVE_ASK = ("Club {id} ({name}) weghalen, met alles wat van hem is? Typ de naam van de "
                    "club over om het te bevestigen: ")
CLUBS_REMOVE_KEPT = ("Club {id} blijft: de naam is niet overgetypt. Typ hem over, of geef --ja "
                     "mee.")
CLUBS_WEBHOOK_GONE = "De bot van club {id} krijgt geen berichten meer van Telegram (webhook weg)."
CLUBS_WEBHOOK_LEFT = ("Club {id} blijft: de webhook van zijn bot kon niet weg ({error}), en "
                      "zonder de club kan niets hier hem nog weghalen. Probeer het opnieuw "
                      "zodra dat verholpen is, of haal de club toch weg met --zonder-webhook.")
CLUBS_WEBHOOK_KEPT = ("De webhook van de bot van club {id} is blijven staan ({error}). "
                      "Verwijder hem met deleteWebhook van de Bot API, of geef de bot een nieuw "
                      "token bij @BotFather (/revoke).")
CLUBS_TOKEN_UNOPENED = "het token van de club gaat niet open met KEIZER_SECRET_KEY"
CLUBS_TOKEN_SET = ("Club {id} heeft een nieuw bot-token; de host start de bot daarmee binnen "
                   "een minuut.")
CLUBS_UNKNOWN = "Geen club „{club}” in deze database. De clubs: {clubs}."
REKEYED = ("Tokens verzegeld met KEIZER_SECRET_KEY (bot-tokens van {clubs} clubs, en de "
           "lichess-tokens). Haal KEIZER_OLD_SECRET_KEY nu weg en herstart de bot of host.")
REKEY_CLUB_UNOPENED = ("Club {id}: het bot-token gaat met geen van beide sleutels open. Geef "
                       "het opnieuw met keizerbot clubs token {id}.")
REKEY_LICHESS_UNOPENED = ("{count} lichess-tokens gaan met geen van beide sleutels open: die "
                          "leden koppelen hun account opnieuw met /lichess (of zet "
                          "KEIZER_OLD_SECRET_KEY en probeer opnieuw).")
MIGRATED = "Database bijgewerkt van schema {before} naar {after}."
UP_TO_DATE = "De database heeft al schema {version}; er is niets bij te werken."
BACKUP_POSTGRES = ("Een PostgreSQL-database maak je een reservekopie van met pg_dump (zie "
                   "docs/deploy.md); keizerbot backup is voor het databasebestand.")

_STORE_PROBLEMS: Mapping[StoreProblem, str] = {
    StoreProblem.NO_SEASON: "Er is nog geen seizoen. Laad er een met keizerbot import.",
    StoreProblem.NOT_EMPTY: "De database heeft al een seizoen. Gebruik --replace om het te "
                            "vervangen (maak eerst een backup).",
    StoreProblem.UNKNOWN_PLAYER: "Speler {player} ken ik niet.",
    StoreProblem.UNKNOWN_ROUND: "Ronde {round} bestaat niet.",
    StoreProblem.ROUND_CLOSED: "Ronde {round} is al afgelopen.",
    StoreProblem.NO_SUCH_GAME: "In ronde {round} is er geen partij op bord {board}.",
    StoreProblem.NOT_IN_GAME: "{player} speelt die partij niet in ronde {round}.",
    StoreProblem.ALREADY_CONFIRMED: "De uitslag van bord {board} in ronde {round} staat al "
                                    "vast ({result}). Alleen de wedstrijdleider kan die nog "
                                    "wijzigen.",
    StoreProblem.NO_SIGNOFF: "{player} had zich niet afgemeld voor ronde {round}.",
    StoreProblem.TOO_LATE: "De afmeldtermijn voor ronde {round} is voorbij.",
    StoreProblem.BAD_STATE: "Dat kan niet meer: ronde {round} staat op '{state}'.",
    StoreProblem.NEWER_DATABASE: "Deze database komt van een nieuwere keizerbot (versie "
                                 "{version}, deze kent t/m {known}). Werk keizerbot bij.",
    StoreProblem.PEER_REFUSED: ("PostgreSQL laat {path} niet toe: over de socket kent het je "
                                "aan je gebruikersnaam op deze machine (peer), en die is niet "
                                "de naam van de rol. Draai keizerbot als die gebruiker (sudo -u "
                                "keizer ...), of geef de rol een wachtwoord en verbind via "
                                "127.0.0.1, met het wachtwoord in PGPASSWORD "
                                "(docs/deploy.md)."),
    StoreProblem.OLDER_DATABASE: ("Deze database heeft nog schema {version}; deze keizerbot "
                                  "werkt met {known}. Werk hem eerst bij met keizerbot migrate "
                                  "(met meerdere hosts: zie “Een nieuwe versie” in "
                                  "docs/deploy.md)."),
    StoreProblem.HOSTS_BEHIND: ("Op deze database draaien nog hosts van een oudere keizerbot: "
                                "{hosts}. Bijwerken zou ze stilleggen. Werk ze een voor een bij, "
                                "of draai keizerbot migrate --ja: hun clubs gaan dan naar de "
                                "hosts van deze versie (docs/deploy.md, “Een nieuwe "
                                "versie”)."),
    StoreProblem.IN_USE: "Er draait al een keizerbot op deze database ({path}). Stop die "
                         "eerst; twee tegelijk zouden rondes dubbel indelen.",
    StoreProblem.READ_ONLY: "Ik kan nu niets opslaan: de database is alleen-lezen. Opvragen "
                            "werkt nog; de wedstrijdleider moet de schijfrechten herstellen.",
    StoreProblem.DISK_FULL: "Ik kan nu niets opslaan: de schijf is vol. Opvragen werkt nog; "
                            "de wedstrijdleider moet ruimte maken.",
    StoreProblem.CORRUPT: "Het databasebestand {path} is beschadigd. Zet de laatste "
                          "reservekopie terug (zie docs/storage.md).",
    StoreProblem.UNREADABLE: "Ik kan de database {path} niet openen of schrijven ({reason}). "
                             "Controleer het pad (of het adres van de server) en de rechten.",
    StoreProblem.NO_DRAFT: ("Er is geen conceptindeling om te bevestigen. Maak er een met "
                            "<code>/indeling maak</code>."),
    StoreProblem.ROLE_SEES_ALL: ("De database-gebruiker {role} ziet de rijen van alle clubs (hij "
                                 "is superuser of mag om de beveiliging per rij heen), dus kan "
                                 "de ene club de andere lezen. Geef keizerbot een eigen "
                                 "gebruiker zonder die rechten (docs/deploy.md)."),
    StoreProblem.NO_CLUB: "Club {club} staat niet in deze database. Maak hem met keizerbot clubs "
                          "add.",
    StoreProblem.CLUB_NAME_TAKEN: "Er is al een club {name} (club {club}). Kies een andere naam.",
    StoreProblem.CLUB_TOKEN_TAKEN: ("Dat bot-token is van club {club} ({name}): twee clubs kunnen "
                                    "niet één bot delen. Maak bij @BotFather een bot voor deze "
                                    "club (/newbot) en geef zijn token."),
    StoreProblem.NO_GROUP: "Er is nog geen clubgroep: stuur /club in de groep.",
    StoreProblem.NO_ORGANISER: ("Ronde {round} wordt online gespeeld: koppel eerst het "
                                "lichess-account van de club met /lichess club (privé)."),
    StoreProblem.NOT_ON_BOARD: "{player} heeft geen partij in ronde {round}.",
    StoreProblem.RESULT_IN: ("Bord {board} van ronde {round} heeft al een uitslag; die blijft "
                             "staan. Corrigeer hem met /uitslag {board} UITSLAG."),
    StoreProblem.SEASON_NOT_DONE: ("Ronde {round} is nog niet klaar. Een nieuw seizoen begint "
                                    "als alle rondes klaar zijn; een ronde die niet meer "
                                    "gespeeld wordt, laat je vervallen met /ronde vervalt."),
    StoreProblem.SEASON_EMPTY: ("Dit seizoen heeft nog geen rondes: er is niets uitgespeeld om een "
                                 "nieuw seizoen op te laten volgen. Is het net begonnen, dan "
                                 "staat het klaar: plan de rondes met /ronde nieuw."),
    StoreProblem.START_PAST: ("Een ronde op {date} zou om {time} beginnen, en dat is al voorbij. "
                               "Kies een latere datum, of verzet eerst de aanvangstijd met "
                               "<code>/instellingen start UU:MM</code>."),
    StoreProblem.NO_PUBLISHED: "Er is geen gepubliceerde ronde om te wijzigen.",
    StoreProblem.BAD_CLUB_FILE: ("Het clubbestand is niet zoals keizerbot het schrijft (met de "
                                 "hand veranderd, of niet compleet). Er is niets ingelezen."),
    StoreProblem.ALREADY_PLAYING: "{player} staat al in de indeling van ronde {round}.",
    StoreProblem.HAS_BYE: ("{player} heeft de bye in ronde {round} en doet dus al mee. Kwam hij "
                           "niet, zet hem dan op afwezig met <code>/indeling afwezig</code> en "
                           "zijn naam."),
    StoreProblem.NOBODY_FREE: ("Er is niemand vrij om tegen {player} te spelen in ronde "
                               "{round} (geen bye, en niemand wiens tegenstander niet kwam)."),
    StoreProblem.NOT_IN_DRAFT: "{player} staat niet in de conceptindeling van ronde {round}; "
                               "ruilen kan alleen met wie er speelt.",
    StoreProblem.MOVE_ORDER: "Dan komt ronde {round} voorbij ronde {other} ({date}), en de "
                             "rondes blijven op datumvolgorde. Verplaats eerst ronde {other}, "
                             "of laat ronde {round} vervallen en plan een nieuwe.",
    StoreProblem.MOVE_PUBLISHED: ("Ronde {round} is al gepubliceerd; die verzet ik niet meer. "
                                  "Worden de partijen later gespeeld, dan komen de uitslagen "
                                  "gewoon later binnen (zelf invoeren: /uitslag BORD UITSLAG "
                                  "ronde {round}). De volgende ronde kan intussen al worden "
                                  "ingedeeld."),
    StoreProblem.ROUND_ORDER: "Ronde {round} op {date} is al ingedeeld of gespeeld. Een ronde "
                              "op een eerdere datum kan er niet meer voor.",
    StoreProblem.NOT_ON_SITE: ("Ronde {round} wordt niet ter plaatse ingedeeld: meld je af als "
                               "je niet komt, verder hoef je niets te doen."),
    StoreProblem.CHECK_IN_LATER: ("Ronde {round} wordt ter plaatse ingedeeld. Zeggen dat je er "
                                  "bent kan zodra de afmeldtermijn sluit."),
    StoreProblem.ROUND_OUT: ("De indeling van ronde {round} is al uit. Komt iemand niet, zet hem "
                             "dan op afwezig met <code>/indeling afwezig</code> en zijn naam."),
    StoreProblem.NOBODY_HERE: ("Voor ronde {round} zijn er nog maar {count} binnen; indelen kan "
                               "vanaf twee. Wie er is, tikt op Ik ben er (of zet hem erbij met "
                               "<code>/indeling erbij</code> en zijn naam)."),
}


def store_problem(w: Words, error: StoreError) -> str:
    return store_refusal(w, error.problem, error.facts)


def store_refusal(w: Words, problem: StoreProblem, facts: Mapping[str, object]) -> str:
    """What the store refused, with its facts as the reader knows them (a player by name)."""
    return w._(_STORE_PROBLEMS[problem]).format_map(_Missing(facts))


# --- the bot -----------------------------------------------------------------------------------


START = "Hallo! Ik regel de interne Keizercompetitie van de club."
START_LINK = ("Eerst koppelen: stuur <code>/ik je naam</code>, dan keurt de wedstrijdleider het "
              "goed.\nDaarna:")
START_COMMANDS = (
    "/afmelden – afmelden voor de volgende ronde\n"
    "/aanmelden – afmelding intrekken (flexibel lid: aanmelden)\n"
    "/uitslag 1-0 – uitslag doorgeven (als antwoord op de indeling)\n"
    "/stand – de stand, /stand mij – jouw punten per ronde\n"
    "/stand periode | groep | kruistabel | kansen; /grafiek [mij] – het verloop\n"
    "/indeling – de indeling, /mijn – jouw afmeldingen en partij\n"
    "/agenda – de rondes (en je partijen) in je agenda\n"
    "/herinnering aan | uit – de herinnering ook privé, met knoppen\n"
    "/taal en | nl – Engels of Nederlands\n"
    "/help – dit overzicht"
)
HELP_ARBITER = (
    "\n\nVoor de wedstrijdleider:\n"
    "/indeling maak | opnieuw | bevestig | bye NAAM | ruil NAAM en NAAM | wis\n"
    "/uitslag BORD UITSLAG [ronde N] – ook reglementair: +- -+ --\n"
    "/afmelden NAAM … – namens een lid, ook met <code>halvebye</code> of <code>nulbye</code>; "
    "/extern NAAM TEAM UITSLAG [clubavond|anderedag] [ronde N]\n"
    "/speler nieuw NAAM [rating] [jeugd] [flexibel] | weg NAAM | NAAM flexibel | NAAM vast; "
    "/spelers\n"
    "/seizoen nieuw [NAAM] – het volgende seizoen (eerst te zien, dan bevestigen)\n"
    "/ronde – programma; /ronde nieuw DATUM | uitstel N DATUM | vervalt N\n"
    "/instellingen [start 20:00 | deadline MIN | herinnering MIN | reglement NAAM | "
    "regel PARAMETER WAARDE] – halverwege het seizoen eerst getoond, dan met bevestig\n"
    "/club – deze groep wordt de clubgroep; /arbiter NUMMER | weg NUMMER\n"
    "/export [trf] [vorig] – stand, rondes en kruistabel als webpagina's en CSV, of de "
    "partijen als TRF voor de rating; van dit of het vorige seizoen\n"
    "Ratings: stuur de ratinglijst van de KNSB (het zip-bestand) hier als bestand"
)

HELP_LICHESS = "/lichess – je lichess-account koppelen, voor rondes die online gespeeld worden"
HELP_ARBITER_LICHESS = ("/ronde nieuw DATUM online – een ronde op lichess; /lichess club – het "
                        "lichess-account van de club; /instellingen online …")

NOT_LINKED = "Ik weet nog niet wie je bent. Stuur <code>/ik je naam</code>."
NO_ARBITER_YET = ("Dat mag alleen de wedstrijdleider, en deze club heeft er nog geen. Wie de "
                  "bot beheert, zet een Telegram-id in KEIZER_ARBITERS (in .env; het jouwe is "
                  "{id}) en start de bot opnieuw. Daarna maakt die wedstrijdleider anderen het "
                  "met /arbiter.")
NO_ARBITER_YET_HOSTED = ("Dat mag alleen de wedstrijdleider, en deze club heeft er nog geen. "
                         "Vraag de beheerder van de host: keizerbot clubs arbiter {club} "
                         "--arbiter {id} (dat is jouw Telegram-id).")
ONLY_ARBITER = "Dat mag alleen de wedstrijdleider."
NO_SEASON = "Er is nog geen seizoen geladen. De wedstrijdleider doet dat met keizerbot import."
UNKNOWN_COMMAND = "Dat commando ken ik niet. Stuur /help voor een overzicht."
EDITED = "Een gewijzigd bericht verwerk ik niet. Stuur het commando opnieuw."
PRIVATE_HINT = "Stuur /help voor wat ik kan."
SOMETHING_WRONG = "Er ging iets mis. De wedstrijdleider is ingelicht."

IK_USAGE = "Stuur /ik gevolgd door je naam, bijvoorbeeld <code>/ik Jan de Vries</code>."
IK_UNKNOWN = "Ik ken geen lid met de naam '{name}'. Vraag de wedstrijdleider je toe te voegen."
IK_CHOOSE = "Welke ben jij?"
IK_SENT = "Je verzoek om gekoppeld te worden aan {name} is naar de wedstrijdleider gestuurd."
IK_ASK_ARBITER = "{user} zegt {name} te zijn. Koppelen?"
IK_YES = "Ja, koppel"
IK_NO = "Nee"
IK_LINKED = "Gekoppeld: {user} is {name}."
IK_REFUSED = "Niet gekoppeld."
IK_MEMBER_LINKED = "Let op: {name} is al gekoppeld aan een ander Telegram-account."
IK_ACCOUNT_LINKED = "Let op: dat account is nu gekoppeld aan {name}."
IK_CONFIRM_TAKE_OVER = ("{name} is al gekoppeld aan een ander Telegram-account. Wil je die "
                        "koppeling echt overzetten naar {user}? Het andere account hoort het.")
IK_TAKE_OVER = "Ja, zet over"
IK_TAKEN_OVER = ("Je bent niet meer gekoppeld aan {name}: de wedstrijdleider heeft een ander "
                 "Telegram-account aan {name} gekoppeld. Klopt dat niet? Laat het de "
                 "wedstrijdleider weten.")
BUTTON_STALE = "Deze knop werkt niet meer."
IK_WELCOME = "Je bent gekoppeld aan {name}. Stuur /help voor wat je nu kunt."
IK_DECLINED = ("De wedstrijdleider heeft je koppeling niet goedgekeurd. Is dat een vergissing? "
               "Vraag het de wedstrijdleider.")
ALREADY_HANDLED = "Dit is al afgehandeld."

AFMELDEN_USAGE = ("Zo meld je je af: <code>/afmelden</code> (volgende ronde), "
                  "<code>/afmelden 12</code> (ronde 12), <code>/afmelden 3 dec</code> of "
                  "<code>donderdag</code> of <code>volgende week</code> (datum), "
                  "<code>/afmelden van 12 t/m 14</code>, <code>/afmelden tot 15 maart</code>, "
                  "eventueel met <code>extern</code> of <code>extern-clubavond</code> en een "
                  "reden.")
NO_OPEN_ROUND = "Er staat geen ronde meer open op het programma."
SIGN_OFF_NO_ROUND = "Er staat geen ronde op het programma om je voor af te melden."
SIGN_OFF_NO_ROUND_FOR = "Er staat geen ronde op het programma om {name} voor af te melden."
NO_ROUND_TO_PAIR = ("Er staat geen ronde op het programma om in te delen. Plan er een met "
                    "<code>/ronde nieuw DATUM</code>.")
NOT_SCHEDULED = "Ronde {round} staat niet op het programma."
NO_ROUND_ON_DATE = "Op {date} staat geen ronde op het programma."
NOT_A_ROUND = "'{text}' is geen rondenummer of datum."
BAD_RANGE = "Van {first} tot {last} kan niet: het begin komt eerst."
BAD_RANGE_END = ("Na 't/m' of 'tot' hoort de laatste ronde of datum, bijvoorbeeld "
                 "<code>van 12 t/m 14</code> of <code>tot 15 maart</code>.")
NO_ROUND_IN_RANGE = "Van {first} tot {last} staat geen ronde op het programma."
NUMBER_NOT_ROUND = ("Er is geen ronde {round}. Bedoel je een datum? Schrijf dan bijvoorbeeld "
                    "<code>{example}</code>.")
ROUND_WORD = "ronde {round}"
ONLY_YOURSELF = ("Je kunt alleen jezelf af- of aanmelden, niet {name}. De wedstrijdleider kan "
                 "dat voor een ander doen.")
SIGNED_OFF = "{who} is afgemeld voor ronde {round} ({date}){kind}. {earns}"
SIGNED_OFF_LATE = ("{who} is afgemeld voor ronde {round} ({date}), maar te laat: de deadline "
                   "was {deadline}. Het telt daarom als afwezig zonder afmelding (geen punten). "
                   "De wedstrijdleider is ingelicht.")
SIGNED_OFF_KEPT = ("{who} was al op tijd afgemeld voor ronde {round} ({date}){kind}. Dat blijft "
                   "zo: de deadline is voorbij, dus veranderen kan nu alleen de "
                   "wedstrijdleider.")
LATE_TO_ARBITER = "Te late afmelding: {who} voor ronde {round}{paired}."
LATE_PAIRED = " (al ingedeeld tegen {opponent})"
LATE_TO_OPPONENT = ("Je tegenstander {who} heeft zich te laat afgemeld voor ronde {round}. "
                    "De wedstrijdleider laat weten hoe het verder gaat.")
EARNS = "Dat levert {whom}{fraction} van {whose} waarde op (nu {value}: {points} punten)."
EARNS_TEAM = "Dat telt volgens de teamtabel zodra de uitslag bekend is."
EARNS_LATER = "Dat levert {whom}{fraction} van {whose} waarde in die ronde op."
EARNS_CAP = ("Afmelden levert punten op tot en met de {cap}e keer in het seizoen; daarna niet "
             "meer.")
EARNS_CAPPED = ("Het maximum van {cap} betaalde afmeldingen is bereikt: dit levert geen punten "
                "op.")
EARNS_NOTHING = "Dat levert geen punten op."
EARNS_POINTS = "Dat levert {whom}{points} punten op, wat {whose} waarde ook is."
SIGNED_OFF_FOR: Mapping[CompensationKind, str] = {
    CompensationKind.EXTERNAL_CLUB_NIGHT: " voor een externe partij op de clubavond",
    CompensationKind.EXTERNAL_OTHER_DAY: " voor een externe partij op een andere dag",
    CompensationKind.HALF_BYE: " met een gevraagde bye (halve punt)",
    CompensationKind.ZERO_BYE: " met een gevraagde bye (geen punt)"}
REQUESTED_BYE_BY_ARBITER = ("Een gevraagde bye (halvebye, nulbye) kent de wedstrijdleider toe. "
                            "Vraag het hem; afmelden kan gewoon met <code>/afmelden</code>.")
"""What a sign-off is for, after "afgemeld voor ronde N (datum)" (nothing for a plain one)."""
BOARD_TITLE = "Concept van ronde {round}"
BOARD_HOW = ("Tik twee spelers om ze te ruilen, of één speler en dan Bye, Afwezig of Erbij; "
             "of één speler, Nooit tegen en een tweede: die twee worden dit seizoen nooit "
             "tegen elkaar ingedeeld. Publiceren stuurt de indeling naar de groep en iedere "
             "speler.")
BOARD_STALE = ("De indeling is intussen veranderd (in de chat, of door een afmelding); dit is "
               "hij nu. Kijk hem na en tik opnieuw.")
BOARD_SWAPPED = "{a} en {b} zijn geruild; die borden blijven staan als je opnieuw indeelt."
BOARD_NONE = "Er ligt geen concept klaar: dat komt na de deadline, of met /indeling maak."
BOARD_LINK = "Concept indelen"
BOARD_BEST = "Zo goed als de beste indeling die het reglement toelaat."
BOARD_COST = ("Dit concept breekt {rules} regels, met afstand {distance} (de som van de "
              "kwadraten van de plaatsen tussen tegenstanders); de beste indeling breekt er "
              "{best_rules}, met afstand {best_distance}.")
BOARD_AWAY = "Niet ingedeeld:"
BOARD_APART = "Nooit tegen"
BOARD_MEET = "Mag weer"
BOARD_ABSENT = "Afwezig"
BOARD_BACK = "Erbij"
BOARD_ABSENT_DONE = "{name} is afgemeld; de ronde is opnieuw ingedeeld."
BOARD_BACK_DONE = "{name} speelt mee; de ronde is opnieuw ingedeeld."
BOARD_BYE = "Bye"
BOARD_PUBLISH = "Publiceren"
MY_ROUND_PLAYS = "speelt"
MY_ROUND_NOT_PLAYING = "speelt niet"
MY_ROUND_AWAY = "speelt niet: {why}"
CHANCES_TITLE = "Kansen na ronde {round}, met nog {left} rondes te gaan:"
CHANCES_LINE = "{name}: kampioen {first}%, top 3 {three}%"
CHANCES_YOU = ("Jij eindigt het vaakst als {place}e ({share}%); kampioen {first}%, "
               "top 3 {three}%.")
CHANCES_NEXT = ("Volgende ronde tegen {opponent}, de andere borden remise: winst maakt je {win}e, "
                "remise {draw}e, verlies {loss}e.")
CHANCES_RANGE = "Hoe de ronde ook gaat: op zijn best word je {best}e, op zijn slechtst {worst}e."
CHANCES_RANGE_FOUND = ("Op zijn best word je {best}e, op zijn slechtst {worst}e (het beste en "
                       "slechtste dat ik vond; alle uitslagen nagaan duurt te lang).")
CHANCES_CHART = "Jouw kansen op elke plaats aan het eind"
CHANCES_HOW = ("De rest van het seizoen {runs} keer nagespeeld: ieder komt zo vaak als hij "
               "tot nu toe kwam, tegen zijn buurman in de stand, en de uitslagen volgen de "
               "ratings.")
MY_ROUND_HERE = "je bent er"
MY_ROUND_COMING = "ter plaatse: tik als je er bent"
BOARD_PAIR = "Indelen"
LATE_TITLE = "Ronde {round}: laat binnengekomen"
LATE_HOW = ("Tik op een naam om hem te laten spelen: tegen wie de bye heeft, of hij krijgt die "
            "zelf. Wie je niet aantikt, blijft afwezig.")
BOARD_ROOM_HOW = "Tik op een naam om hem binnen te zetten, of weer niet."
MY_ROUND_GAME = "tegen {opponent} {result}"
AANMELDEN_DONE = "Je afmelding voor ronde {round} is ingetrokken: je speelt mee."
SIGNED_ON = "{name} is aangemeld voor ronde {round} ({date}) en wordt ingedeeld."
SIGNED_ON_ALREADY = "{name} was al aangemeld voor ronde {round} ({date})."

UITSLAG_USAGE = ("Zo geef je een uitslag door: <code>/uitslag 1-0</code>, <code>0-1</code> of "
                 "<code>remise</code> (wit eerst), als antwoord op de indeling of hier.")
UITSLAG_ONLY_OWN = ("Een bordnummer noemen kan alleen de wedstrijdleider. Je eigen uitslag "
                    "geef je zo door: <code>/uitslag 1-0</code> (wit eerst).")
UITSLAG_USAGE_ARBITER = "Wedstrijdleider: <code>/uitslag BORD UITSLAG [ronde N]</code>."
NO_PUBLISHED_ROUND = "Er is nog geen indeling gepubliceerd."
RESULT_WORDS = {
    "1-0": "{white} wint met wit van {black}",
    "0-1": "{black} wint met zwart van {white}",
    "1/2-1/2": "{white} en {black} spelen remise",
    "+-": "{white} wint reglementair: {black} kwam niet",
    "-+": "{black} wint reglementair: {white} kwam niet",
    "--": "{white} en {black} kwamen geen van beiden",
}
RESULT_RECORDED = "Genoteerd, ronde {round} bord {board}: {words}. {opponent} moet nog bevestigen."
RESULT_FINAL = "Vastgelegd, ronde {round} bord {board}: {words}."
RESULT_CONFLICT = ("{opponent} gaf voor ronde {round} bord {board} een andere uitslag door: "
                   "{words}. De wedstrijdleider beslist.")
CONFLICT_TO_ARBITER = ("Tegenstrijdige uitslagen, ronde {round} bord {board}: eerst '{first}', "
                       "nu '{second}'. Leg de uitslag vast met /uitslag {board} … ronde {round}.")
CONFLICT_LICHESS_TO_ARBITER = ("Tegenstrijdige uitslagen, ronde {round} bord {board}: een "
                               "speler gaf '{reported}' door, lichess zegt '{lichess}'. Leg de "
                               "uitslag vast met /uitslag {board} … ronde {round}.")
CONFIRM_ASK = "{reporter} gaf door voor ronde {round} bord {board}: {words}. Klopt dat?"
CONFIRM_YES = "Klopt"
CONFIRM_NO = "Klopt niet"
CONFIRMED = "Bevestigd: {words}."
DISPUTED = "Je hebt aangegeven dat het niet klopt. De wedstrijdleider beslist."
DISPUTE_TO_REPORTER = ("{who} zegt dat de uitslag van ronde {round} bord {board} ({words}) niet "
                       "klopt. De wedstrijdleider beslist.")
RESULT_DECIDED = ("De wedstrijdleider heeft de uitslag van ronde {round} bord {board} "
                  "vastgelegd: {words}.")
DISPUTE_TO_ARBITER = "{who} betwist de uitslag van ronde {round} bord {board}: {words}."
NOT_YOUR_BUTTON = "Deze knop is niet voor jou."
ROUND_COMPLETE = "Alle uitslagen van ronde {round} zijn binnen. De nieuwe stand:"

STAND_GROUP_MORE = "De hele stand: stuur /stand in een privégesprek met mij."
STAND_EXCERPT_MORE = ("De top {top} en jouw plaats. Alle {count} spelers: <code>{command}</code>, "
                      "of op de clubpagina.")
STANDINGS_MORE = "… en nog {count}. De hele stand: stuur /stand in een privégesprek met mij."
STAND_NOT_YET = "Je staat nog niet in de stand: je speelt mee vanaf ronde {round}."
STAND_EMPTY = "Er is nog geen stand: er is nog geen ronde gespeeld."
MIJN = "{name}: {rank}e met {score} punten, waarde {value}."
MIJN_SIGNOFFS = "Afgemeld voor: {rounds}."
MIJN_NO_SIGNOFFS = "Geen afmeldingen voor komende rondes."
MIJN_GAME = "Ronde {round}: bord {board}, {colour} tegen {opponent}{result}."
RESULT_WAITING = "{result}, nog niet bevestigd"
RESULT_DISPUTED = "{result}, betwist: de wedstrijdleider beslist"
MIJN_BYE = "Ronde {round}: je hebt vrij (bye)."

INDELING_NONE = "Er is nog geen indeling."
INDELING_DRAFT_TITLE = "Concept, nog niet gepubliceerd. Publiceren: /indeling bevestig"
DRAFT_TO_ARBITER = "De deadline van ronde {round} is verstreken; hier is de conceptindeling."
DRAFT_UPDATED = ("Er kwam nog een afmelding binnen die vóór de deadline was verstuurd; de "
                 "conceptindeling van ronde {round} is bijgewerkt.")
DRAFT_CAME = "{name} kwam nog binnen; de conceptindeling van ronde {round} is opnieuw gemaakt."
CHECK_IN_OPEN = ("Ronde {round} wordt ter plaatse ingedeeld. Ben je er? Tik op <b>Ik ben er</b>; "
                 "wie er is, wordt ingedeeld.")
CHECK_IN_TO_ARBITER = ("Ronde {round}: de afmeldtermijn is voorbij, en de leden tikken in de groep "
                       "op Ik ben er. Wie er is zie je met /indeling; iemand erbij zetten: "
                       "<code>/indeling erbij NAAM</code>. Indelen: <code>/indeling maak</code>.")
CHECK_IN_LATE = ("{name} is er nu ook, maar de indeling van ronde {round} is al uit. Een bord "
                 "voor hem (of de bye): <code>/indeling erbij {name} ronde {round}</code>.")
HERE_BUTTON = "Ik ben er"
HERE_NOTED = "Genoteerd: je bent er voor ronde {round}."
HERE_ALREADY = "Je stond er al voor ronde {round}."
HERE_LATE = ("Genoteerd. De indeling van ronde {round} is al uit; de wedstrijdleider kijkt of je "
             "nog kunt spelen.")
ROOM_HERE = "{name} is er voor ronde {round}. Binnen: {count}."
ROOM_ALREADY = "{name} stond er al voor ronde {round}. Binnen: {count}."
ROOM_GONE = "{name} staat niet meer als binnen voor ronde {round}. Binnen: {count}."
ROOM_NOT = "{name} stond niet als binnen voor ronde {round}."
ROOM_TITLE = "Ronde {round}, ter plaatse: {count} binnen."
ROOM_MISSING = "Nog niet binnen: {names}."
ROOM_OFF = "Afgemeld: {names}."
ROOM_HINT = "Indelen: <code>/indeling maak</code>."
PUBLISH_UNLINKED = "Niet gekoppeld, dus niet persoonlijk bericht: {names}."
THE_GROUP = "de clubgroep"
UNDELIVERABLE = "Een bericht aan {who} kwam niet aan: {reason}."
UNDELIVERABLE_SOMEONE = "een lid"
UNDELIVERABLE_BLOCKED = "de bot is geblokkeerd of uit de groep gezet"
UNDELIVERABLE_GONE = "die chat bestaat niet meer"
UNDELIVERABLE_REFUSED = "Telegram weigerde het bericht (zie het logboek)"
UNDELIVERABLE_UNREACHABLE = "Telegram was urenlang niet bereikbaar"
POLL_CONFLICT = ("Er haalt nog een ander programma berichten op met het token van deze bot. "
                 "Stop de andere keizerbot; zolang ze allebei draaien, missen ze berichten.")
DEADLINE_FAILED = ("Ronde {round} kon na de deadline niet worden ingedeeld met de vaste "
                   "keuzes. Wis ze met /indeling wis en deel opnieuw in met /indeling maak.")
FIXES_DROPPED = "Niet meer van toepassing door de nieuwe aanwezigheid, dus vervallen: {fixes}."
NO_DRAFT_YET = "Er is nog geen conceptindeling. Maak er een met /indeling maak."
BYE_EVEN = ("Er is geen bye: er spelen {count} spelers, een even aantal. Meldt iemand zich "
            "af of aan, dan kan het weer.")
BYE_NOT_PLAYING = "{name} speelt deze ronde niet mee, dus kan de bye niet krijgen."
FIXES_CLEARED = "De vaste keuzes voor ronde {round} zijn gewist."
NO_FIXES_TO_CLEAR = "Er zijn geen vaste keuzes voor ronde {round}."
ERROR_TO_ARBITER = ("Er ging iets mis in keizerbot. Ik meld hetzelfde soort fout hooguit één "
                    "keer per uur; de details staan in het logboek van de bot.")
CALENDAR_NAME = "{club}: Keizercompetitie {season}"
CALENDAR_ROUND = "{club}: ronde {round}"
CALENDAR_GAME = "met {colour} tegen {opponent} (bord {board})"
CALENDAR_BYE = "vrij (bye)"
AGENDA_CAPTION = ("De rondes van het seizoen. Open het bestand om ze in je agenda te zetten; "
                  "een nieuwer bestand werkt ze bij.")
AGENDA_CAPTION_OWN = ("Jouw rondes, met je tegenstander zodra de indeling er is. Open het "
                      "bestand om ze in je agenda te zetten; een nieuwer bestand werkt ze bij.")
AGENDA_NONE = "Er staan nog geen rondes met een datum op het programma."
SEIZOEN_PROPOSAL = ("Nieuw seizoen {name}: dezelfde regels, {players} spelers{gone}, in de "
                    "volgorde van de eindstand: {top}.\nKlopt dat? Stuur dan "
                    "<code>{confirm}</code>.")
SEIZOEN_GONE = " (gestopt: {names})"
SEIZOEN_STARTED = ("Seizoen {name} is begonnen, met {players} spelers. Het vorige blijft te zien "
                   "met /stand vorig. Plan de eerste ronde met /ronde nieuw DATUM.")
SEIZOEN_USAGE = ("<code>/seizoen nieuw [NAAM]</code>: het volgende seizoen, uit dit (de naam is "
                 "standaard het volgende jaar).")
SEIZOEN_NAME = ("Uit '{name}' volgt geen naam voor het nieuwe seizoen; geef er een, "
                "bijvoorbeeld <code>/seizoen nieuw 2027-2028</code>.")
STAND_NO_PREVIOUS = "Er is geen vorig seizoen in deze database."
STAND_PREVIOUS = "{season} (eindstand)"
NEW_SEASON = ("Seizoen {name} geschreven naar {path}: {players} spelers, in de volgorde van de "
              "eindstand van {old} ({gone} gestopt), dezelfde regels, nog geen rondes.")
NEW_SEASON_NAME = ("Uit '{name}' volgt geen naam voor het nieuwe seizoen; geef er een met "
                   "--naam, bijvoorbeeld --naam 2027-2028.")
FIRST_SEASON = ("Seizoen {name} van {club} geschreven naar {path}: {players} spelers, reglement "
                "{rules}, nog geen rondes. Laad het met keizerbot import {path}.")
FIRST_SEASON_CLUB = "Geef de naam van de club mee, bijvoorbeeld --vereniging \"SV De Toren\"."
EXPORTED_ICS = "Agenda met {rounds} rondes geschreven naar {path}."
RESULT_UNCHANGED = ("Die uitslag had je al doorgegeven (ronde {round}, bord {board}: {words}); "
                    "{opponent} bevestigt hem nog.")
WHICH_ROUND = ("Je hebt meer dan één partij zonder vaste uitslag. Voor welke is {result}? "
               "Tik de ronde.")
WHICH_ROUND_BUTTON = "Ronde {round}: tegen {opponent}"
PERSONAL_PAIRING = ("Ronde {round} ({date}): je speelt met {colour} tegen {opponent} "
                    "(bord {board}). Tempo: {tempo}.\nNa afloop: tik de uitslag (wit eerst).")
NIGHT_ABSENT_GROUP = "Wijziging ronde {round}: {absent} is er niet. {change}"
NIGHT_WHICH_ROUND = "{name} past in meer dan één ronde die nu gespeeld wordt. Welke bedoel je?"
NIGHT_ROUND_BUTTON = "Ronde {round} ({date})"
NIGHT_NO_BYE = "Niemand heeft nu de bye."
NIGHT_BYE_ABSENT = ("{player} had de bye in ronde {round} en is er niet: hij staat als afwezig "
                    "genoteerd, de bye vervalt.")
NIGHT_BYE_BACK = "{player} heeft de bye weer."
NIGHT_YOU_BYE = ("Wijziging ronde {round}: je bent er toch en hebt de bye weer; er is niemand "
                 "vrij om tegen je te spelen.")
NIGHT_BYE_LATE = "{player} heeft de bye; wie nog later komt, speelt tegen hem."
NIGHT_YOU_BYE_LATE = ("Wijziging ronde {round}: je hebt de bye; komt er nog iemand, dan speel je "
                      "tegen hem.")
NIGHT_REPAIRED = "Bord {board}: {white} – {black}."
NIGHT_FORFEIT = "{present} wint bord {board} reglementair."
NIGHT_ARRIVED_GROUP = "Wijziging ronde {round}: {late} is er toch. {change}"
NIGHT_NEW_OPPONENT = ("Wijziging ronde {round}: je speelt nu met {colour} tegen {opponent} "
                      "(bord {board}).")
NIGHT_YOU_WIN = ("Wijziging ronde {round}: {opponent} is er niet. Er is niemand vrij om tegen "
                 "je te spelen: je wint reglementair.")
NIGHT_YOU_ABSENT = ("Je staat in ronde {round} als afwezig genoteerd (niet gekomen). Klopt dat "
                    "niet? Zeg het de wedstrijdleider.")
NIGHT_BROKEN = "Daarvoor moest ik breken: {rules}."
PERSONAL_BYE = ("Ronde {round} ({date}): je hebt deze ronde vrij (bye), want het aantal "
                "spelers is oneven.")
INDELING_USAGE = ("<code>/indeling</code> toont de indeling. Voor de wedstrijdleider: "
                  "<code>maak</code>, <code>opnieuw</code>, <code>bevestig</code>, "
                  "<code>bye NAAM</code>, <code>ruil NAAM en NAAM</code> of <code>wis</code>; "
                  "op de speelavond <code>afwezig NAAM</code> (niet gekomen) of "
                  "<code>erbij NAAM</code> (toch gekomen).")

WHO_UNKNOWN = "Ik ken geen speler '{name}'."
SWAP_WHO = ("In '{text}' herken ik geen twee spelers. Schrijf de namen voluit, met 'en' "
            "ertussen: <code>/indeling ruil Anna Bos en Hugo de Boer</code>.")
SWAP_WHICH = "'{name}' kan meerdere spelers zijn. Wie bedoel je?"
SWAP_WITH = "{a} ↔ {b}"
SWAP_SAME = "{name} ruilen met zichzelf verandert niets."
WHO_AMBIGUOUS = "'{name}' kan meerdere spelers zijn: {names}. Wees preciezer."
SPELER_USAGE = ("<code>/speler nieuw NAAM [rating] [jeugd] [flexibel]</code>, "
                "<code>/speler weg NAAM</code>, of <code>/speler NAAM flexibel</code> "
                "(speelt alleen als hij zich aanmeldt) of <code>/speler NAAM vast</code> "
                "(speelt tenzij hij zich afmeldt).")
SPELER_KIND = {True: ("{name} is nu flexibel: hij speelt alleen de rondes waarvoor hij zich "
                      "aanmeldt (<code>/aanmelden</code>)."),
               False: ("{name} is nu vast: hij speelt, tenzij hij zich afmeldt "
                       "(<code>/afmelden</code>).")}
SPELERS_FLEXIBLE = " (flexibel)"
SPELER_ADDED = "{name} doet mee vanaf ronde {round}."
SPELER_GONE = "{name} doet niet meer mee na ronde {round}."
SPELER_REMOVED = "{name} is van de spelerslijst gehaald (nog geen ronde gespeeld)."
SPELERS_TITLE = "Spelers ({count}):"
SPELERS_SUMMARY = ("{count} spelers, {linked} gekoppeld, {flexible} flexibel: de lijst staat in "
                   "het bestand.")
SPELERS_FILE = "spelers.csv"
SPELERS_COLUMNS = ("Naam", "Gekoppeld", "Flexibel")
YES_NO = ("ja", "nee")
SPELERS_LINKED = " (gekoppeld)"
RONDE_USAGE = ("<code>/ronde nieuw DATUM</code> (ingedeeld in de zaal: <code>/ronde nieuw "
               "DATUM ter plaatse</code>; gespeeld op lichess: <code>/ronde nieuw DATUM "
               "online</code>, of <code>offline</code> waar de club online speelt), "
               "<code>/ronde uitstel N DATUM</code> of <code>/ronde vervalt N</code>.")
RONDE_CANCELLED = "Ronde {round} vervalt; de rondes erna schuiven een nummer op."
RONDE_NONE = "Er staan nog geen rondes op het programma."
RONDE_LINE = "Ronde {round}: {date}, afmelden tot {deadline} – {state}"
RONDE_LINE_PLAYED = "Ronde {round}: {date} – {state}"
RONDE_ADDED = "Ronde {round} gepland op {date}; afmelden kan tot {deadline}."
RONDE_ON_SITE = ("Deze ronde deel je ter plaatse in: na de deadline tikken de leden in de groep "
                 "op Ik ben er, en <code>/indeling maak</code> deelt in wie er is.")
ON_SITE_MARK = " (ter plaatse)"
RONDE_RENUMBERED = "De rondes daarna schuiven een nummer op."
RONDE_SAME_DAY = "Let op: op die dag staat ook ronde {rounds}."
RONDE_PAST = "{date} is al geweest. Kies een datum vanaf vandaag."
RONDE_MOVED = "Ronde {round} verplaatst naar {date}; afmelden kan tot {deadline}."
ROOM_DRAFT_DROPPED = ("De conceptindeling is vervallen. Deel opnieuw in met <code>/indeling "
                      "maak</code>.")
ROUND_MOVED_GROUP = ("Ronde {round} is verplaatst naar {date}. Afmelden kan tot {deadline}; wie "
                     "zich al afmeldde, is nog steeds afgemeld.")
RONDE_DRAFT_DROPPED = ("De conceptindeling is vervallen; bij de nieuwe deadline deel ik de ronde "
                       "opnieuw in.")
STATE_WORDS: Mapping[RoundState, str] = {
    RoundState.PLANNED: "gepland", RoundState.LOCKED: "deadline verstreken",
    RoundState.DRAFTED: "concept klaar", RoundState.PUBLISHED: "gepubliceerd",
    RoundState.COMPLETE: "afgelopen"}
BAD_DATE = "'{text}' is geen datum. Schrijf bijvoorbeeld 3-12, 3 december of donderdag."
GROUP_MIGRATED = ("De clubgroep is een supergroep geworden (Telegram geeft haar dan een nieuw "
                  "nummer). Ik stuur alles voortaan naar de nieuwe groep, ook wat nog "
                  "onderweg was; je hoeft niets te doen.")
CLUB_SET = "Deze groep is nu de clubgroep: indelingen en standen komen hier."
CLUB_ONLY_GROUP = "Stuur /club in de groep die de clubgroep moet worden."
ARBITER_USAGE = "<code>/arbiter NUMMER</code> of <code>/arbiter weg NUMMER</code>."
ARBITER_ADDED = "{id} is nu wedstrijdleider."
ARBITER_REMOVED = "{id} is geen wedstrijdleider meer."
INSTELLINGEN = ("Clubavond begint om {start}; afmelden kan tot {deadline} minuten ervoor; "
                "herinnering {reminder} minuten ervoor.\nClubpagina: {web}.\n"
                "Plaats: {city}. Ratinglijst van de KNSB: {rating_list}. Taal van de groep en "
                "de clubpagina: {language}.\n"
                "Reglement: {rules}.")
CITY_NONE = "niet ingesteld"
WEB_ACCESS_WORDS: Mapping[WebAccess, str] = {
    WebAccess.PUBLIC: "openbaar, voor iedereen",
    WebAccess.MEMBERS: "alleen voor gekoppelde leden, in Telegram",
    WebAccess.OFF: "uit",
}
"""The club page's setting (`club.web`), as the arbiter types it and as it is shown."""
INSTELLINGEN_USAGE = ("<code>/instellingen start 20:00</code>, <code>deadline 120</code>, "
                      "<code>herinnering 1440</code> (minuten voor de start), <code>web "
                      "openbaar|leden|uit</code>, <code>plaats Sliedrecht</code>, "
                      "<code>ratinglijst klassiek|rapid|snel</code>, <code>taal nl|en</code>, "
                      "<code>reglement drie-cycli</code>, <code>regel notice_cap 8</code>, "
                      "<code>nooit Anna Bos en Hugo de Boer</code> (nooit tegen elkaar "
                      "ingedeeld) of <code>nooit weg Anna Bos en Hugo de Boer</code>; online op "
                      "lichess: <code>online aan|uit</code>, <code>online tempo "
                      "45+15|club</code>, <code>online rated ja|nee</code>, <code>online "
                      "bevestig auto|speler</code>.")
INSTELLINGEN_DONE = "Opgeslagen."
APART_SET = ("{a} en {b} worden niet meer tegen elkaar ingedeeld, zolang een indeling dat "
             "toelaat.")
APART_ALREADY = "{a} en {b} werden al niet tegen elkaar ingedeeld."
APART_REMOVED = "{a} en {b} kunnen weer tegen elkaar ingedeeld worden."
APART_NOT_SET = "{a} en {b} konden al tegen elkaar ingedeeld worden."
APART_SAME = "Dat is twee keer {name}: noem twee verschillende spelers."
APART_WHO = ("In '{text}' herken ik geen twee spelers. Schrijf de namen voluit, met 'en' "
             "ertussen: <code>/instellingen nooit Anna Bos en Hugo de Boer</code>.")
APART_LIST = "Nooit tegen elkaar: {pairs}."
APART_DRAFT_WAITS = ("Het concept van ronde {round} was al gemaakt en blijft zo tot je "
                     "<code>{command}</code> stuurt.")
APART_PAIR = "{a} en {b}"
RULES_PREVIEW = ("Nog niet opgeslagen. Met deze wijziging wordt de stand na ronde {round} anders: "
                 "{count} spelers op een andere plaats. {moves}\nKlopt dat? Stuur dan "
                 "<code>{command}</code>.")
RULES_MOVED = "{name} {before}→{after}"
RULES_NO_MOVES = "(De volgorde blijft gelijk; de punten kunnen wel veranderen.)"
RULE_WORDS: Mapping[str, str] = {
    "planned_rounds": "geplande rondes", "period_length": "rondes per periode",
    "periods": "periodes", "top_value": "waarde van de nummer 1",
    "bottom_value": "waarde van de laatste", "step": "stap per plaats",
    "min_value": "laagste waarde", "ladder": "waardeladder", "revaluation": "herwaardering",
    "start_bonus": "startbonus", "start_bonus_fade": "afbouw startbonus",
    "compensation": "vergoedingen", "notice_cap": "betaalde afmeldingen (maximaal)",
    "late_join_counts_to_cap": "later instromen telt mee voor dat maximum",
    "flexible_absent": "flexibel lid zonder aanmelding telt als",
    "club_night": "clubavond", "display_decimals": "decimalen in de stand",
    "max_rank_distance": "grootste afstand in de ranglijst",
    "max_meetings": "ontmoetingen per seizoen (maximaal)",
    "per_period": "ontmoetingen per periode (maximaal)",
    "min_rounds_between": "rondes tussen twee ontmoetingen (minimaal)",
    "max_colour_difference": "kleurverschil (maximaal)",
    "max_same_colour_run": "zelfde kleur achter elkaar (maximaal)",
    "rematch_reverses_colours": "andere kleur bij een herhaalde ontmoeting",
    "promotion": "promotie en degradatie (maximaal)", "titles": "titels",
    "result_fractions": "uitslag als deel van de waarde van de tegenstander",
    "forfeit_scoring": "reglementaire uitslag als deel van de waarde van de tegenstander",
    "cap_kinds": "het maximum telt", "absence_decay": "afbouw per volgende afwezigheid",
    "withdrawn": "wie stopt", "ties": "gelijke stand", "frozen_bonus": "startbonus naar",
    "item_rounding": "elke post afgerond", "fixed_point_start": "herwaardering begint bij",
}
VARIANTS = ["result_fractions", "forfeit_scoring", "cap_kinds", "absence_decay", "withdrawn",
            "ties", "frozen_bonus", "item_rounding", "fixed_point_start"]
"""The scoring variants of other programs (docs/rules.md section 9): always shown where they
differ from the model, also when a preset sets them. Parameter names, not words: a list, which
the catalogue does not take for texts."""
VALUE_WORDS: Mapping[str, str] = {
    "win": "winst", "draw": "remise", "loss": "verlies", "double": "beiden afwezig",
    "compensation": "vergoeding", "points": "punten vast",
    "keep": "blijft in de stand", "absent": "telt daarna als afwezig zonder afmelding",
    "hide": "verdwijnt na zijn laatste ronde uit de stand", "previous": "de vorige stand",
    "rating": "op rating", "initial": "de beginstand", "current": "de huidige waarde",
    "exact": "niet", "half": "op halve punten", "whole": "op hele punten",
    **{kind.value: label for kind, label in KIND_LABELS.items()},
}
"""Parameter values and keys as the arbiter reads them back."""
RULES_VARIANTS = "telling: {parts}"


def rules_in_words(w: Words, source: object) -> str:
    """The rules as the club set them: the preset, then each own setting in words."""
    rules = dict(source) if isinstance(source, dict) else {"preset": source}
    preset = rules.pop("preset", None)
    head = w._("voorinstelling {preset}").format(preset=preset) if preset \
        else w._("eigen reglement")
    own = [f"{w._(RULE_WORDS.get(key, key))}: {_in_words(w, value)}" for key, value in rules.items()
           if key not in VARIANTS]
    text = w._("{head}, met {own}").format(head=head, own="; ".join(own)) if own else head
    variants = variants_in_words(w, rules_from_source(source))
    return text + (f"\n{variants}" if variants else "")


def variants_in_words(w: Words, rules: Rules) -> str:
    """Where the rules score as another program does (section 9), in words; empty where they
    keep the model's way."""
    shown, model = rules_to_mapping(rules), rules_to_mapping(Rules())
    parts = [f"{w._(RULE_WORDS[key])}: {_in_words(w, shown[key])}" for key in VARIANTS
             if shown[key] != model[key]]
    parts += [w._("{kind}: {points} punten vast").format(kind=w._(KIND_LABELS[kind]),
                                                         points=_in_words(w, exact_text(points)))
              for kind, points in rules.compensation_points.items()]
    return w._(RULES_VARIANTS).format(parts="; ".join(parts)) if parts else ""


def _in_words(w: Words, value: object) -> str:
    if value is True or value is False:
        return w._("ja") if value else w._("nee")
    if value is None:
        return w._("geen")
    if isinstance(value, dict):
        return ", ".join(f"{w._(VALUE_WORDS.get(k, k))} {_in_words(w, v)}"
                         for k, v in value.items())
    if isinstance(value, list):
        return "/".join(_in_words(w, v) for v in value)
    text = str(value)
    if _DECIMAL.fullmatch(text):
        return text.replace(".", ",") if w.language == "nl" else text
    return w._(VALUE_WORDS.get(text, text))


_DECIMAL = re.compile(r"-?\d+\.\d+")
DEADLINE_MOVED = "Ronde {round}: afmelden kan nu tot {deadline}."
BAD_TIME = "'{text}' is geen tijd. Schrijf bijvoorbeeld 20:00 of 19.30."
BAD_MINUTES = "'{text}' kan niet: geef een aantal minuten van 0 tot en met {most}."
ARBITER_CONFIGURED = ("{id} is wedstrijdleider via het configuratiebestand van de bot en blijft "
                      "dat. Laat de beheerder van de bot het daar weghalen.")
EXTERN_USAGE = ("<code>/extern NAAM TEAM UITSLAG [clubavond|anderedag] [ronde N]</code>, "
                "uitslag 1, ½ of 0. Zonder ronde: de ronde waarvoor hij zich extern afmeldde.")
EXTERN_DONE = ("Externe partij van {name} voor team {team} ({day}): {result}. Geboekt in "
               "ronde {round}.")
EXTERNAL_OPEN = ("Open: de externe uitslag van {name} in ronde {round} ontbreekt nog; tot die "
                 "er is, levert de ronde hem niets op. <code>/extern {name} TEAM UITSLAG ronde "
                 "{round}</code>.")
EXTERNAL_RESULT_WORDS = {Fraction(1): "gewonnen", Fraction(1, 2): "remise",
                         Fraction(0): "verloren"}
EXTERNAL_DAY_WORDS = {ExternalDay.CLUB_NIGHT: "op de clubavond",
                      ExternalDay.OTHER_DAY: "op een andere dag"}
REMINDER = ("Herinnering: ronde {round} is {date}. Afmelden kan tot {deadline}: tik hieronder, "
            "of stuur mij /afmelden in een privégesprek.")
REMINDER_PRIVATE = ("Herinnering: ronde {round} is {date}. Speel je mee? Tik hieronder; dat kan "
                    "tot {deadline}. (Geen herinneringen meer: /herinnering uit.)")
REMINDER_FLEXIBLE = ("Herinnering: ronde {round} is {date}. Je speelt alleen als je je aanmeldt: "
                     "tik <b>Ik speel</b>, tot {deadline}. (Geen herinneringen meer: "
                     "/herinnering uit.)")
ATTENDANCE_BUTTONS: Mapping[str, str] = {"play": "Ik speel", "off": "Ik kan niet",
                                         "ext": "Extern"}
"""The reminder's buttons: what each records, and its label."""
ATTEND_PLAYING = "Je speelt mee in ronde {round}."
ATTEND_UNLINKED = "Koppel eerst je account: in het gesprek met mij stuur je /ik met je naam."
HERINNERING_ON = ("Je krijgt de herinnering voor elke ronde voortaan ook hier, met knoppen om "
                  "te antwoorden. Uitzetten: /herinnering uit.")
HERINNERING_OFF = "Je krijgt de herinnering niet meer privé (in de clubgroep nog wel)."
HERINNERING_USAGE = ("<code>/herinnering aan</code>: de herinnering voor elke ronde ook privé; "
                     "<code>/herinnering uit</code>: niet meer.")
TEAM_USAGE = (
    "<code>/team</code>: de teams en hun volgende wedstrijd. <code>/team 2</code>: één team. "
    "Voor de aanvoerder: <code>/team 2 spelers A, B, C</code> (in bordvolgorde), "
    "<code>/team 2 wedstrijd za 12 dec 13:00 uit De Toren 8 wit</code> (de tijd en onze kleur "
    "aan bord 1 als je ze weet), <code>/team 2 vraag</code>, "
    "<code>/team 2 invallers</code>, <code>/team 2 opstelling</code> (met <code>bevestig</code>, "
    "of de namen), <code>/team 2 uitslag 1 ½ 0 1 1 0 ½ 1</code> (met <code>groep</code>: ook in "
    "de clubgroep; zonder uitslagen: een knop per bord). De wedstrijdleider: "
    "<code>/team nieuw 2 Naam</code>, <code>/team 2 aanvoerder NAAM</code>. Invallen: "
    "<code>/team invaller aan</code>.")
TEAM_NONE = ("Er zijn nog geen teams. De wedstrijdleider maakt ze met "
             "<code>/team nieuw 1 Naam</code>.")
TEAM_ABOUT = "<b>{team}</b>, aanvoerder {captain}. Vaste spelers: {players}."
TEAM_NO_CAPTAIN = "nog niemand"
TEAM_NO_PLAYERS = "nog geen"
TEAM_UNKNOWN = "Er is geen team {team}. <code>/team</code> toont de teams."
TEAM_ONLY_CAPTAIN = "Dat doet de aanvoerder van {team} (of de wedstrijdleider)."
TEAM_NO_MATCH = "{team} heeft geen wedstrijd meer op het programma."
TEAM_ADDED = ("Team {team} heet nu {name}. Wijs een aanvoerder aan: "
              "<code>/team {team} aanvoerder NAAM</code>.")
TEAM_EXISTS = "Er is al een team {team}."
TEAM_CAPTAIN_SET = "{name} is de aanvoerder van {team}."
TEAM_PLAYERS_SET = "De vaste spelers van {team}, in bordvolgorde: {names}."
TEAM_MATCH = "{team} speelt {date} {place} {opponent} ({boards} borden)"
TEAM_HOME = {True: "thuis tegen", False: "uit bij"}
TEAM_MATCH_ADDED = "Genoteerd: {match}."
TEAM_MATCH_EXISTS = "{team} heeft die dag al een wedstrijd."
TEAM_ASKED = "Gevraagd: {count}. Je hoort het antwoord van elk."
TEAM_ASK = "{match}. Kun je?"
TEAM_ASK_SUBSTITUTE = "{match}. Ze zoeken een invaller: kun je?"
TEAM_YES = "Ja"
TEAM_NO = "Nee"
TEAM_ANSWERED = {True: "Genoteerd: je kunt. De aanvoerder hoort het.",
                 False: "Genoteerd: je kunt niet. De aanvoerder hoort het."}
TEAM_ANSWER_TO_CAPTAIN = {True: "{name} kan spelen: {match}. Nu {count} van de {boards}.",
                          False: "{name} kan niet: {match}. Nu {count} van de {boards}."}
TEAM_NO_SUBSTITUTES = ("Er is niemand meer om te vragen. Leden melden zich als invaller met "
                       "<code>/team invaller aan</code>.")
TEAM_SUBSTITUTES_ASKED = "Gevraagd om in te vallen: {names}."
TEAM_GRID_YES = "Kunnen: {names}"
TEAM_GRID_NO = "Kunnen niet: {names}"
TEAM_GRID_WAITING = "Nog geen antwoord: {names}"
TEAM_GRID_LINEUP = "Opstelling: {boards}"
TEAM_BOARD = "{board}. {name}"
TEAM_LINEUP_PROPOSAL = {
    True: "Opstelling {match}: {boards}. Er zijn er nog {short} te weinig: <code>/team "
          "invallers</code> vraagt invallers.",
    False: "Opstelling {match}: {boards}. Bevestig met <code>opstelling bevestig</code>, of "
           "geef de namen zelf in bordvolgorde."}
TEAM_LINEUP_BAD = "Een opstelling is een tot {boards} verschillende spelers, in bordvolgorde."
TEAM_LINEUP_SET = "Bevestigd: {match}. {boards}. Elke speler heeft zijn bord gehoord."
TEAM_SIGNED_OFF = "Ze zijn afgemeld voor ronde {round} (extern)."
TEAM_NO_ROUND = "De club speelt die week geen ronde: er is niemand af te melden."
TEAM_LATE = "Na de deadline afgemeld (de wedstrijdleider weet het): {names}."
TEAM_KEPT = "Niet afgemeld, de ronde is al voorbij: {names}. De wedstrijdleider beslist."
TEAM_LINEUP_TO_PLAYER = {False: "Opstelling: {match}. Jij speelt aan bord {board}.",
                         True: "Opstelling: {match}. Jij speelt aan bord {board}, met {colour}."}
TEAM_AT = "{date} om {time}"
TEAM_NOT_TAKEN_BACK = ("{name} staat niet meer in de opstelling, maar zijn externe afmelding "
                       "voor ronde {round} kon niet meer worden ingetrokken.")
TEAM_NO_LINEUP = "{team} heeft geen gespeelde wedstrijd met een bevestigde opstelling."
TEAM_RESULTS_BAD = ("Geef de uitslag van elk bord, bord 1 eerst: {boards} keer 1, ½ of 0, "
                    "bijvoorbeeld <code>1 ½ 0 1</code>.")
TEAM_RESULTS_SET = "Uitslag {match}: {ours}-{theirs}. De stand is bijgewerkt."
TEAM_SCORE_TO_GROUP = "{match}: {ours}-{theirs}."
TEAM_MINE = {True: "Team: {match}. Jij speelt aan bord {board}.", False: "Team: {match}."}
CALENDAR_MATCH = "{team} {place} {opponent}"
SETTINGS_TEAM_ASK = ("Teams: de spelers worden {days} dagen voor een wedstrijd gevraagd of ze "
                     "kunnen (<code>/instellingen teamvraag DAGEN</code>).")
BAD_DAYS = "'{text}' is geen aantal dagen van 0 tot en met {most}."
TEAM_SCHEDULE_READ = ("Het programma is gelezen: {added} wedstrijden genoteerd, {known} stonden er "
                      "al; {others} regels gaan over andere teams.")
TEAM_RESULTS_SHEET = "Uitslag {match}. Tik per bord: 1, ½ of 0."
TEAM_BOARD_RESULT = "{board}. {name}: {result}"
TEAM_SCORE_SO_FAR = "Tot nu toe {ours}-{theirs}."
TEAM_WILLING = {True: "Je staat nu op de lijst van invallers: een aanvoerder kan je vragen.",
                False: "Je staat niet meer op de lijst van invallers."}
LANGUAGE_NAMES: Mapping[str, str] = {"nl": "Nederlands", "en": "Engels"}
RATING_LIST_WORD = "'{word}' is geen lijst van de KNSB: kies klassiek, rapid of snel (blitz)."
RATING_LIST_NAMES: Mapping[str, str] = {"klassiek": "klassiek", "rapid": "rapid",
                                        "snel": "snel"}
"""The KNSB's lists by the word the club chose one with, as the reader says it."""
TAAL_USAGE = ("Ik spreek nu {language} met je. <code>/taal en</code>: English; "
              "<code>/taal nl</code>: Nederlands.")
TAAL_DONE = "Vanaf nu spreek ik {language} met je, ook op je clubpagina."
COMMAND_MENU: Mapping[str, str] = {
    "afmelden": "afmelden voor een ronde", "aanmelden": "aanmelden, of afmelding intrekken",
    "uitslag": "uitslag doorgeven, bijv. /uitslag 1-0", "stand": "de stand",
    "indeling": "de indeling", "mijn": "mijn afmeldingen en partij",
    "grafiek": "het verloop van de ranglijst", "agenda": "de rondes in je agenda",
    "ik": "zeggen wie je bent", "herinnering": "herinnering ook privé: aan of uit",
    "taal": "taal: Nederlands of Engels", "team": "de teams: wedstrijden, opstelling, invallen",
    "help": "wat ik kan",
}
"""The members' command menu: each command and what it does."""
ARBITER_MENU: Mapping[str, str] = {
    "speler": "speler nieuw of weg", "spelers": "alle spelers", "ronde": "het programma",
    "extern": "externe partij boeken", "instellingen": "tijden en reglement",
    "arbiter": "wedstrijdleiders", "club": "deze groep wordt de clubgroep",
    "export": "webpagina's, CSV of TRF", "seizoen": "het volgende seizoen beginnen",
}
"""What the arbiter's menu adds."""
BACKUP_FAILED = ("De dagelijkse reservekopie is mislukt: {error}. Er is geen half bestand "
                 "achtergebleven; de vorige kopieën zijn er nog.")
BACKUP_REASONS: Mapping[StoreProblem, str] = {
    StoreProblem.DISK_FULL: "de schijf is vol",
    StoreProblem.READ_ONLY: "de map is alleen-lezen",
    StoreProblem.UNREADABLE: "de map voor de kopieën is niet te schrijven",
}


def backup_reason(w: Words, problem: StoreProblem) -> str:
    """Why the night's copy of the database failed, in words."""
    return w._(BACKUP_REASONS.get(problem, BACKUP_REASON_OTHER))


BACKUP_REASON_OTHER = "onbekende oorzaak (zie het logboek)"
CHANGE_REFUSED = "Dat kan niet, want dan klopt het seizoen niet meer"
SENT_PRIVATELY = "Dat heb ik je privé gestuurd."
START_PRIVATE_FIRST = "Start eerst een privégesprek met mij, dan stuur ik het je daar."

DEMO_TITLE = ("keizerbot demo: een seizoen van {rounds} rondes met {members} leden, door de echte "
              "bot (Telegram nagebootst op deze computer).")
DEMO_ROUND = "Ronde {round}: wat er in de chats gebeurde"
DEMO_FINAL = "Eindstand"
DEMO_GROUP = "clubgroep"
DEMO_PRIVATE = "privé met {name}"
DEMO_ARBITER = "privé met de wedstrijdleider"
CHAMPION = "🏆 {name} is clubkampioen!"
PLAYOFF_MATCH = ("De competitie is klaar, maar {a} en {b} liggen binnen {margin} punten van "
                 "elkaar: er komt een barrage van twee rapidpartijen ({tempo}). {a} heeft wit "
                 "in de eerste partij.")
PLAYOFF_ROUND_ROBIN = ("De competitie is klaar, maar {names} liggen binnen {margin} punten van "
                       "de koploper: er komt een enkelrondige barrage ({tempo}).\n{games}")
PERIOD_DONE = "Periode {period} is voorbij. De periodekampioenen:"
PERIOD_GROUP_LINE = "Groep {group}: {name} ({points} punten)"
PERIOD_TABLE_TITLE = "Periode {period} (rondes {first} t/m {last}), groep {group}"
PERIOD_COLUMNS = ("#", "Naam", "Punten", "Gemist")
NO_PERIOD_GROUPS = "Dit reglement kent geen periodegroepen."
NO_SUBGROUPS = "Dit reglement kent geen subgroepen."
SUBGROUP_TITLE = "Groep {group}"
MID_SEASON = ("Halverwege het seizoen. Prijzen groep 1: {g1}; groep 2: {g2}.\n"
              "Naar groep 1: {up}. Naar groep 2: {down}.")
SEASON_PRIZES = ("Prijzen tweede helft: groep 1: {g1}; groep 2: {g2}.\n"
                 "Beste drie van het seizoen: {overall}.")
NOBODY = "niemand"
WEB_OFF = "De clubpagina staat uit."
WEB_BUTTON = "Clubpagina: stand, rondes, kruistabel"
WEB_NOT_SIGNED = ("Telegram kon niet bevestigen wie je bent. Open de pagina opnieuw via de knop "
                  "bij /stand.")
WEB_NOT_FOUND = "Deze pagina bestaat niet (meer). Begin bij de stand."
WEB_SCHEDULE = "Programma"
WEB_GROUPS = "Groepen en prijzen"
WEB_ROUND_PLAYED = "gespeeld"
WEB_ROUND_PAIRED = "ingedeeld"
WEB_ROUND_PLANNED = "gepland"
WEB_NO_DATE = "datum volgt"
WEB_PLAYOFF_LATER = ("Na de laatste ronde: de clubkampioen, of een barrage als nummer 2 binnen "
                     "de helft van de hoogste waarde ligt.")
WEB_CROSSTABLE = "Kruistabel"
WEB_ROUND_COLUMN = "Ronde"
WEB_GAME_COLUMNS = ("Bord", "Wit", "Zwart", "Uitslag")
CROSSTABLE_FILE = "kruistabel.html"
CROSSTABLE_CAPTION = "Kruistabel na ronde {round}"
EXPORT_CAPTION = "Stand, rondes en kruistabel als webpagina's en CSV, na ronde {round}."
CHART_CAPTION = "Het verloop van de ranglijst na ronde {round}."
CHART_NONE = "Er is nog geen ronde gespeeld."


def fixes_words(w: Words, fixes: Fixes, names: Mapping[str, str]) -> str:
    """The arbiter's fixes in words: "bord Anna – Bram", "bye voor Cor"; `names` as the chat
    shows them (escaped)."""
    def name(code: str) -> str:
        return names.get(code, code)
    parts = [w._("bord {white} – {black}").format(white=name(white), black=name(black))
             for white, black in fixes.boards]
    parts += [w._("niet {a} tegen {b}").format(a=name(a), b=name(b))
              for a, b in (sorted(pair) for pair in fixes.forbidden)]
    if fixes.bye is not None:
        parts.append(w._("bye voor {name}").format(name=name(fixes.bye)))
    parts += [w._("{name} niet indelen").format(name=name(c)) for c in sorted(fixes.leave_out)]
    return "; ".join(parts)


def earns(w: Words, price: SignOffPrice, decimals: int, name: str | None = None) -> str:
    """What a sign-off earns, in words (empty where it is not priced): to the member himself
    ("je waarde"), or, when the arbiter signed `name` off, about him ("de eigen waarde")."""
    whom, whose = ("", w._("je")) if name is None else (f"{name} ", w._("de eigen"))
    fraction = f"{format_number(price.fraction * 100, 0)}%"
    if price.earning is Earning.TEAM:
        return w._(EARNS_TEAM)
    if price.earning is Earning.LATER:
        return w._(EARNS_LATER).format(whom=whom, fraction=fraction, whose=whose)
    if price.earning is Earning.CAPPED:
        return w._(EARNS_CAPPED).format(cap=price.cap)
    if price.earning is Earning.NOTHING:
        return w._(EARNS_NOTHING)
    if price.earning is Earning.POINTS and price.points is not None:
        return w._(EARNS_POINTS).format(whom=whom, whose=whose,
                                        points=w.number(price.points, decimals))
    if price.earning is Earning.FRACTION and price.value is not None \
            and price.points is not None:
        return w._(EARNS).format(whom=whom, fraction=fraction, whose=whose,
                                 value=format_number(price.value, 0),
                                 points=w.number(price.points, decimals))
    return ""


# --- the KNSB rating list and TRF ------------------------------------------------------------

_LIST_PROBLEMS: Mapping[str, str] = {
    # keyed by `core.ratings.ListProblem` values
    "too_big": "het bestand is te groot (meer dan {limit} MB); de KNSB-lijst is "
                         "veel kleiner",
    "empty_zip": "het zip-bestand is leeg",
    "no_csv": "in het zip-bestand staat geen {name}",
    "other_list": "in het zip-bestand staat {found}, niet de lijst die de club gebruikt "
                  "({name}); kies een andere lijst met /instellingen ratinglijst",
    "other_file": "dit bestand is {found}, niet de lijst die gevraagd is ({name}); neem dat "
                  "bestand, of kies de lijst (--lijst, of /instellingen ratinglijst)",
    "not_zip": "het zip-bestand is beschadigd",
    "encoding": "dit is geen tekstbestand in Windows-1252 of UTF-8, zoals de KNSB "
                          "het levert",
    "header": "de eerste regel is niet de kop van de KNSB-lijst ({expected})",
    "bad_row": "regel {line} is geen speler (relatienummer, naam en rating)",
    "no_rows": "de lijst heeft geen spelers",
}
RATING_LIST_UNUSABLE = "Deze ratinglijst kan ik niet gebruiken: {reason}. Er is niets veranderd."


def rating_list_problem(w: Words, error: RatingListError) -> str:
    return w._(RATING_LIST_UNUSABLE).format(
        reason=w._(_LIST_PROBLEMS[error.problem.value]).format_map(_Missing(error.facts)))


RATING_HEAD = "KNSB-ratinglijst met {listed} spelers, vergeleken met de leden:"
RATING_UPDATES = "Bijwerken ({count}):"
RATING_UPDATE = "• {name}: {old} → {new}"
RATING_NUMBER = " (relatienummer {knsb})"
RATING_CLOSE = "Lijkt op, alleen als jij het bevestigt ({count}):"
RATING_CLOSE_LINE = "• {mark}{name}{id} = {listed} ({knsb}, {rating}){why}"
RATING_NUMBER_ONLY = ": zelfde relatienummer, andere naam"
RATING_ALSO = "; ook {fields}"
IDENTITY_WORDS: Mapping[str, str] = {"title": "titel {value}", "federation": "federatie {value}",
                                     "sex": "{value}", "birth": "geboren {value}"}
SEX_WORDS: Mapping[str, str] = {"m": "man", "w": "vrouw"}
RATING_MISSING = "Niet in de lijst ({count}): {names}."
RATING_UNCHANGED = "Al goed: {count}."
RATING_NOTHING = "Niets te veranderen."
RATING_MORE = "… en nog {count}."
RATING_WAIT = "Er verandert niets tot je op Bijwerken drukt."
RATING_NONE = "geen"
RATING_BUTTON_ACCEPT = "{mark}{name} = {listed}"
RATING_BUTTON_APPLY = "Bijwerken ({count})"
RATING_BUTTON_CANCEL = "Annuleren"
RATING_CANCELLED = "Niets veranderd; de ratinglijst is terzijde gelegd."
RATING_DECIDED = "Deze ratinglijst is al afgehandeld."
RATING_ACCEPTED = "Meegenomen."
FILE_ONLY_ARBITER = ("Een bestand neem ik alleen aan van de wedstrijdleider: de ratinglijst "
                     "van de KNSB of een TRF-bestand.")
FILE_UNKNOWN_KIND = ("Ik ken de ratinglijst van de KNSB (het zip-bestand, of KLASSIEK.csv "
                     "daaruit) en een TRF-bestand uit een ander programma (.trf). Stuur een "
                     "van die twee.")
RATINGS_CONFIRM_HINT = ("Er is nog niets veranderd. Met --bevestig worden de ratings "
                        "bijgewerkt; een gelijkende naam neem je mee met --ook ID.")
RATINGS_UNKNOWN_CLOSE = "'{player}' staat niet bij de gelijkende namen."


def rating_proposal(w: Words, proposal: Proposal, names: Mapping[str, str], *, limit: int = 30,
                    ids: bool = False) -> str:
    """The proposal as the arbiter reads it (with `ids` on the command line, where a close
    match is taken along by its id); plain words, which the chat escapes whole."""
    from core.ratings import Match

    lines = [w._(RATING_HEAD).format(listed=proposal.listed)]

    def shown(items: list[str]) -> list[str]:
        return items[:limit] + ([w._(RATING_MORE).format(count=len(items) - limit)]
                                if len(items) > limit else [])

    if proposal.updates:
        lines.append(w._(RATING_UPDATES).format(count=len(proposal.updates)))
        lines += shown([_rating_update(w, c) for c in proposal.updates])
    if proposal.close:
        lines.append(w._(RATING_CLOSE).format(count=len(proposal.close)))
        lines += shown([w._(RATING_CLOSE_LINE).format(
            mark="✓ " if k in proposal.accepted else "", name=c.name,
            id=f" ({c.player})" if ids else "", listed=c.listed.name, knsb=c.listed.knsb,
            rating=c.listed.rating or w._(RATING_NONE),
            why=w._(RATING_NUMBER_ONLY) if c.match is Match.NUMBER_ONLY else "")
            for k, c in enumerate(proposal.close)])
    if proposal.missing:
        missing = [names.get(p, p) for p in proposal.missing]
        lines.append(w._(RATING_MISSING).format(count=len(missing), names=", ".join(
            shown(missing))))
    if proposal.unchanged:
        lines.append(w._(RATING_UNCHANGED).format(count=len(proposal.unchanged)))
    if not (proposal.updates or proposal.close):
        lines.append(w._(RATING_NOTHING))
    elif not ids:  # the command line says how to apply it in its own words
        lines.append(w._(RATING_WAIT))
    return "\n".join(lines)


def _rating_update(w: Words, change: Change) -> str:
    line = w._(RATING_UPDATE).format(name=change.name,
                                     old=change.old_rating or w._(RATING_NONE),
                                     new=change.new_rating or w._(RATING_NONE))
    line += w._(RATING_NUMBER).format(knsb=change.listed.knsb) \
        if change.listed.knsb != change.old_knsb else ""
    learnt = [w._(IDENTITY_WORDS[k]).format(
        value=w._(SEX_WORDS.get(v, v)) if k == "sex" else v)
              for k, v in change.new_identity.items() if change.old_identity.get(k) != v]
    return line + (w._(RATING_ALSO).format(fields=", ".join(learnt)) if learnt else "")


_TRF_PROBLEMS: Mapping[str, str] = {
    # keyed by `core.trf.TrfProblem` values
    "no_players": "er staan geen spelers in (regels die met 001 beginnen)",
    "bad_player_line": "regel {line}: het startnummer ontbreekt",
    "bad_entry": "regel {line}: ronde {round} is onleesbaar",
    "unknown_opponent": "regel {line}: in ronde {round} speelt hij tegen "
                                 "startnummer {opponent}, dat niet bestaat",
    "opponents_disagree": "regel {line}: ronde {round} klopt niet met die van "
                                   "startnummer {opponent}",
    "bad_comment": "regel {line}: een keizerbot-regel is beschadigd",
}
TRF_UNUSABLE = "Het TRF-bestand {path} is niet bruikbaar"
FILE_NOT_TEXT = "dit is geen tekstbestand in Windows-1252 of UTF-8"


def trf_problem(w: Words, error: TrfError) -> str:
    facts = dict(error.facts, line=str(error.line))
    return w._(_TRF_PROBLEMS[error.problem.value]).format_map(_Missing(facts))


_ASSUMED: Mapping[str, str] = {
    # keyed by `core.trf.Assumed` values
    "rules": "het bestand heeft geen Keizerreglement: {preset} genomen (kies een ander "
                   "met --reglement)",
    "absence_kind": "{count}× een ronde zonder partij zonder soort: U en F als bye, leeg als "
                    "afwezig zonder afmelding",
    "bye_as_sign_off": "{count}× een gevraagde bye (H of Z) als afmelding gelezen, zoals in een "
                       "Keizercompetitie (met --byes fide als FIDE's halve en nul-bye)",
    "unrated_result": "{count}× een niet-gespeelde uitslag (W, D, L) als gespeelde "
                            "partij gelezen",
    "joined_later": "{count}× een speler zonder de eerste rondes: later ingestroomd",
    "withdrawn": "{count}× een speler zonder de laatste rondes: gestopt",
    "ids": "{count} speler-id's gemaakt uit de namen",
    "name_as_written": "{count}× een naam zonder komma: gelaten zoals hij er staat, want welk "
                       "woord de achternaam is staat er niet bij",
    "waiting_round": "de laatste ronde heeft alleen vooraf ingevoerde byes: dat is de ronde "
                     "die nog ingedeeld moet worden, met die byes als afmeldingen",
}
TRF_IMPORTED = ("Seizoen geschreven naar {path}: {players} spelers, {rounds} rondes, "
                "{games} partijen.")
TRF_ASSUMED = "Aangenomen, omdat het bestand het niet zegt:"
TRF_CHAT_UNUSABLE = "Dit TRF-bestand kan ik niet lezen: {reason}. Er is niets veranderd."
TRF_READ = "Gelezen: {players} spelers, {rounds} rondes, {games} partijen."
TRF_READ_NEXT = ("Er is niets veranderd. Controleer het seizoensbestand (ook het reglement) en "
                 "laad het op de computer met keizerbot import seizoen.json.")
TRF_READ_CAPTION = "Het toernooi als seizoensbestand."
TRF_EXPORTED = "TRF met {rounds} rondes en {games} partijen geschreven naar {path}."
TRF_MISSING = "De ratingadministratie mist nog: {missing}."
TRF_MISSING_CITY = "de plaats van de club (regel 022; stuur /instellingen plaats NAAM)"
TRF_MISSING_ARBITER = ("de hoofdarbiter (regel 102; een wedstrijdleider die als lid gekoppeld "
                       "is, met /ik NAAM)")
TRF_NONE = "Er is nog geen ronde met alle uitslagen binnen; een TRF heeft dan niets te melden."
TRF_CAPTION = ("De partijen van ronde 1 t/m {round} als TRF16, voor de ratingadministratie "
               "van de KNSB.")
PREVIOUS_CAPTION = "Seizoen {name}, dat is afgelopen."
PREVIOUS_NONE = "Er is geen vorig seizoen in de bot."
EXPORT_UNKNOWN = ("Kies <code>/export</code> (webpagina's en CSV), <code>/export trf</code> "
                  "(voor de rating), met <code>vorig</code> erachter voor het vorige seizoen.")


def result_shown(w: Words, result: Result | None, state: ResultState | None) -> str:
    """A game's result as every view shows it: final as it is, else marked as waiting for the
    opponent or disputed (it counts nowhere until it is final); empty without one."""
    if result is None:
        return ""
    if state is ResultState.WAITING:
        return w._(RESULT_WAITING).format(result=result)
    if state is ResultState.DISPUTED:
        return w._(RESULT_DISPUTED).format(result=result)
    return str(result)


def trf_missing(w: Words, header: TrfHeader) -> str:
    """What a TRF's header lacks that the rating office wants, and how to set it; empty when
    nothing is missing."""
    missing = [text for text, known in ((TRF_MISSING_CITY, header.city),
                                        (TRF_MISSING_ARBITER, header.arbiter)) if not known]
    return w._(TRF_MISSING).format(missing="; ".join(w._(m) for m in missing)) if missing else ""


def assumed(w: Words, found: Mapping[Assumed, int], preset: str) -> list[str]:
    return [assumed_one(w, what, count, preset) for what, count in found.items()]


def assumed_one(w: Words, what: Assumed, count: int, preset: str) -> str:
    """One thing a file did not say and was taken as it usually is, `count` times."""
    return w._(_ASSUMED[what.value]).format(count=count, preset=preset)



# --- counted: the word follows the number, as each language writes it --------------------------


def publish_note(w: Words, round_: int, count: int, unlinked: Sequence[str] = ()) -> str:
    """What the arbiter hears when he publishes; the players not linked named (`unlinked`,
    as shown), who hear of their game from him."""
    note = _published(w, round_, count)
    if unlinked:
        note += "\n" + w._(PUBLISH_UNLINKED).format(names=", ".join(unlinked))
    return note


def _published(w: Words, round_: int, count: int) -> str:
    return w.ngettext("Ronde {round} is gepubliceerd. Ik stuur de indeling naar de clubgroep en "
                      "{count} speler zijn partij; lukt dat ergens niet, dan hoor je het.",
                      "Ronde {round} is gepubliceerd. Ik stuur de indeling naar de clubgroep en "
                      "{count} spelers hun partij; lukt dat ergens niet, dan hoor je het.",
                      count).format(round=round_, count=count)


def moved(w: Words, count: int) -> str:
    return w.ngettext("{count} plaats verschoven sinds de ronde ervoor",
                      "{count} plaatsen verschoven sinds de ronde ervoor",
                      count).format(count=count)


def site_written(w: Words, count: int, path: object) -> str:
    return w.ngettext("{count} bestand geschreven in {path}.",
                      "{count} bestanden geschreven in {path}.", count).format(count=count,
                                                                              path=path)


def ratings_applied(w: Words, count: int) -> str:
    return w.ngettext("De ratings zijn bijgewerkt: {count} lid. Het staat in het logboek.",
                      "De ratings zijn bijgewerkt: {count} leden. Het staat in het logboek.",
                      count).format(count=count)


def ratings_written(w: Words, count: int, path: object) -> str:
    return w.ngettext("{count} lid bijgewerkt in {path}.", "{count} leden bijgewerkt in {path}.",
                      count).format(count=count, path=path)
