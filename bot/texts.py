"""Every Dutch sentence a user sees, in one place: problems in files, table headings, labels."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from core.errors import Problem, ProblemCode
from core.pairing.model import BrokenRule, Rule
from core.rules import CompensationKind
from storage.errors import StoreError, StoreProblem

_EXPECTED: Mapping[str, str] = {
    "integer": "een geheel getal",
    "integer or null": "een geheel getal of null",
    "number": "een getal",
    "text": "tekst",
    "non-empty text": "niet-lege tekst",
    "object": "een object {…}",
    "list": "een lijst […]",
    "table": "een tabel",
    "true or false": "true of false",
    "player id": "een speler-id",
    "preset name or table": "de naam van een voorinstelling of een tabel",
    "[win, draw, loss]": "[winst, remise, verlies]",
    "{from_round, top} or null": "{from_round, top} of null",
    "team number >= 1": "een teamnummer vanaf 1",
    "a team of team_table": "een team uit team_table",
    "a team of the rules' team_table": "een team uit de team_table van de regels",
    'number > 0 or "1.5n"': 'een getal groter dan 0, of "1.5n"',
}

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
    ProblemCode.BAD_FORMAT: "onbekend formaat {value} (verwacht: {expected})",
    ProblemCode.DUPLICATE_PLAYER_ID: "speler-id '{player}' komt meer dan één keer voor",
    ProblemCode.UNKNOWN_PLAYER: "onbekende speler '{player}'",
    ProblemCode.PLAYER_TWICE: "speler '{player}' staat er meer dan één keer in",
    ProblemCode.PLAYER_MISSING: "speler '{player}' ontbreekt{in_round}",
    ProblemCode.PLAYER_NOT_ACTIVE: "speler '{player}' doet{in_round} niet mee "
                                   "(nog niet begonnen of al gestopt)",
    ProblemCode.SELF_PAIRED: "speler '{player}' speelt tegen zichzelf",
    ProblemCode.BAD_RESULT: "ongeldige uitslag {value} (verwacht: {expected})",
    ProblemCode.ROUND_ORDER: "rondenummer {value} klopt niet, verwacht {expected}",
    ProblemCode.RANKING_MISMATCH: "de ranglijst klopt niet met de spelers",
    ProblemCode.CONFLICT: "{value} spreekt {other} = {other_value} tegen",
    ProblemCode.NOT_JSON: "dit is geen geldige JSON (regel {line}, kolom {column}: {reason})",
    ProblemCode.NOT_TOML: "dit is geen geldige TOML ({reason})",
}


def problem(p: Problem) -> str:
    """One problem as a Dutch line: `rounds[3].games[2].result: ongeldige uitslag "2-0" …`."""
    facts = dict(p.facts)
    facts["expected"] = _EXPECTED.get(facts.get("expected", ""), facts.get("expected", ""))
    low, high = facts.get("low", "-"), facts.get("high", "-")
    facts["range"] = f"van {low}" if high == "-" else f"tot en met {high}" if low == "-" \
        else f"{low} t/m {high}"
    facts["in_round"] = f" in ronde {facts['round']}" if "round" in facts else ""
    reason = _REASONS.get(facts.get("reason", ""))
    if p.code is ProblemCode.ROUND_ORDER and reason:
        text = reason
    else:
        text = _PROBLEMS[p.code].format_map(_Missing(facts))
        if reason:
            text += f": {reason}"
    return f"{p.path}: {text}" if p.path else text


class _Missing(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "?"


def problems_report(title: str, problems: tuple[Problem, ...]) -> str:
    count = len(problems)
    head = f"{title}: {count} {'probleem' if count == 1 else 'problemen'}"
    return "\n".join([head, *(f"  - {problem(p)}" for p in problems)])


SEASON_UNUSABLE = "Het seizoensbestand {path} is niet bruikbaar"
RULES_UNUSABLE = "Het reglementbestand {path} is niet bruikbaar"
FILE_UNREADABLE = "Kan {path} niet lezen: {reason}"
ROUND_OUT_OF_RANGE = "Ronde {round} bestaat niet: het bestand heeft {count} rondes."
ROUND_INCOMPLETE = "Let op: ronde {round} is nog niet compleet ({missing} uitslagen ontbreken)."

STANDINGS_TITLE = "Stand na ronde {round}"
STANDINGS_START = "Beginstand (voor ronde 1)"
STANDINGS_COLUMNS = ("Pos", "Naam", "Punten", "Waarde", "Gesp", "W", "R", "V", "%")

BOT_NOT_YET = (
    "keizerbot: de Telegram-bot zelf is nog in aanbouw.\n"
    "Wat nu al werkt:\n"
    "  keizerbot standings SEIZOEN.json [--after-round R] [--json]   de Keizerstand\n"
    "  keizerbot pair SEIZOEN.json [--json]                          de indeling van de ronde\n"
    "  keizerbot rules REGLEMENT.toml                                het reglement controleren\n"
    "Zie README.md."
)

KIND_LABELS: Mapping[CompensationKind, str] = {
    CompensationKind.NOTICE: "afgemeld",
    CompensationKind.NO_NOTICE: "afwezig zonder afmelding",
    CompensationKind.BYE: "oneven (bye)",
    CompensationKind.OPPONENT_ABSENT: "tegenstander niet gekomen",
    CompensationKind.ARBITER: "wedstrijdleiding",
    CompensationKind.EXTERNAL_CLUB_NIGHT: "extern op clubavond",
    CompensationKind.EXTERNAL_OTHER_DAY: "extern op andere dag",
    CompensationKind.LATE_JOIN: "later ingestroomd",
}
UNKNOWN_PLAYER_ID = "Speler '{player}' staat niet in deze stand."
PAIRING_WITH_PENDING = "Let op: ronde {round} heeft nog uitslagen open; de indeling gaat uit " \
    "van de stand zonder die partijen."
PAIRING_TITLE = "Indeling ronde {round}"
PAIRING_COLUMNS = ("Bord", "Wit", "Pl", "Wrd", "Zwart", "Pl", "Wrd")
PAIRING_BYE = "Oneven (bye): {name}"
PAIRING_ALL_RULES_KEPT = "Alle regels van het reglement zijn gehaald."
PAIRING_BROKEN_TITLE = "Niet alle regels konden worden gehaald:"

BROKEN_RULES: Mapping[Rule, str] = {
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
    Rule.BYE: "{a} is oneven, terwijl {due} aan de beurt was",
    Rule.MAX_RANK_DISTANCE: "{a} en {b} staan {distance} plaatsen uit elkaar "
                            "(maximaal {limit})",
}
COLOURS_NL = {"white": "wit", "black": "zwart"}


def broken_rule(rule: BrokenRule, name: Callable[[str], str]) -> str:
    facts: dict[str, object] = dict(rule.facts)
    facts["a"] = name(rule.players[0])
    facts["b"] = name(rule.players[-1])
    if "due" in facts:
        facts["due"] = name(str(facts["due"]))
    facts["colour_nl"] = COLOURS_NL.get(str(facts.get("colour", "")), "")
    return BROKEN_RULES[rule.rule].format_map(facts)

DATABASE_UNUSABLE = "De database {path} is niet bruikbaar: {reason}"
IMPORTED = "Seizoen geladen: {players} spelers, {rounds} rondes, in {path}."
EXPORTED = "Seizoen geschreven naar {path}."
BACKED_UP = "Reservekopie gemaakt: {path}"

_STORE_PROBLEMS: Mapping[StoreProblem, str] = {
    StoreProblem.NO_SEASON: "Er is nog geen seizoen. Laad er een met keizerbot import.",
    StoreProblem.NOT_EMPTY: "De database heeft al een seizoen. Gebruik --replace om het te "
                            "vervangen (maak eerst een backup).",
    StoreProblem.UNKNOWN_PLAYER: "Speler '{player}' ken ik niet.",
    StoreProblem.UNKNOWN_ROUND: "Ronde {round} bestaat niet.",
    StoreProblem.ROUND_CLOSED: "Ronde {round} is al afgelopen.",
    StoreProblem.NO_SUCH_GAME: "In ronde {round} is er geen partij op bord {board}.",
    StoreProblem.NOT_IN_GAME: "{player} speelt die partij niet in ronde {round}.",
    StoreProblem.ALREADY_CONFIRMED: "De uitslag van bord {board} in ronde {round} staat al "
                                    "vast ({result}). Alleen de wedstrijdleider kan die nog "
                                    "wijzigen.",
    StoreProblem.NO_SIGNOFF: "{player} had zich niet afgemeld voor ronde {round}.",
    StoreProblem.TOO_LATE: "De afmeldtermijn voor ronde {round} is voorbij.",
    StoreProblem.BAD_STATE: "Dat kan niet nu ronde {round} in de fase '{state}' is.",
    StoreProblem.NEWER_DATABASE: "Deze database komt van een nieuwere keizerbot (versie "
                                 "{version}, deze kent t/m {known}). Werk keizerbot bij.",
}


def store_problem(error: StoreError) -> str:
    return _STORE_PROBLEMS[error.problem].format_map(_Missing(error.facts))
