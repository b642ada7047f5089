"""What the store refuses, as codes with facts; the bot's text catalogue words them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum

from core.errors import KeizerError


class StoreProblem(StrEnum):
    NO_SEASON = "no_season"
    NOT_EMPTY = "not_empty"
    UNKNOWN_PLAYER = "unknown_player"
    UNKNOWN_ROUND = "unknown_round"
    ROUND_CLOSED = "round_closed"
    NO_SUCH_GAME = "no_such_game"
    NOT_IN_GAME = "not_in_game"
    ALREADY_CONFIRMED = "already_confirmed"
    NO_SIGNOFF = "no_signoff"
    TOO_LATE = "too_late"
    BAD_STATE = "bad_state"
    NEWER_DATABASE = "newer_database"
    OLDER_DATABASE = "older_database"
    """A command that only reads, on a database this keizerbot would migrate first."""
    HOSTS_BEHIND = "hosts_behind"
    """A migration while hosts that know an older schema run on the database (`hosts`)."""
    IN_USE = "in_use"
    """Another keizerbot has this database open."""
    ROLE_SEES_ALL = "role_sees_all"
    """A PostgreSQL role that passes row level security (a superuser, or BYPASSRLS): a club's
    store would see every club's rows."""
    READ_ONLY = "read_only"
    DISK_FULL = "disk_full"
    CORRUPT = "corrupt"
    UNREADABLE = "unreadable"
    PEER_REFUSED = "peer_refused"
    """PostgreSQL's peer login (Debian's default over the socket) refused this machine's
    user: another user than the role's name."""
    NO_DRAFT = "no_draft"
    NO_CLUB = "no_club"
    """A PostgreSQL store opened for a club that database does not have."""
    CLUB_NAME_TAKEN = "club_name_taken"
    """A club of that name is in the database already (`club`, `name`)."""
    CLUB_TOKEN_TAKEN = "club_token_taken"
    """Another club has that bot token already (`club`, `name`): one bot serves one club."""
    NO_GROUP = "no_group"
    NO_ORGANISER = "no_organiser"
    NOT_IN_DRAFT = "not_in_draft"
    ROUND_ORDER = "round_order"
    NOT_ON_BOARD = "not_on_board"
    """The player has no game in the published round (to be absent from)."""
    RESULT_IN = "result_in"
    """The game has a result already: the change would overwrite it."""
    ALREADY_PLAYING = "already_playing"
    """The player came late, but he is in the pairing already."""
    HAS_BYE = "has_bye"
    """The player came late, but he has the round's bye (he is in it already)."""
    NO_PUBLISHED = "no_published"
    """No round is published (to change at the board)."""
    BAD_CLUB_FILE = "bad_club_file"
    """A club file whose parts beside the season are not as keizerbot writes them."""
    SEASON_NOT_DONE = "season_not_done"
    """A round of the season is not complete: no next season yet."""
    SEASON_EMPTY = "season_empty"
    """The season has no rounds: it is not finished, so no next season follows from it."""
    NOBODY_FREE = "nobody_free"
    """Nobody is free to play the late comer (no bye, no opponent who lost his)."""
    START_PAST = "start_past"
    """The round would start at a moment already gone (its deadline too)."""
    MOVE_ORDER = "move_order"
    """A round moved past another one (rounds are numbered by date)."""
    MOVE_PUBLISHED = "move_published"
    """A published round moved: its games are out, they are played when they are played."""
    """A round dated before a round already under way (rounds are numbered by date)."""
    NOT_ON_SITE = "not_on_site"
    """"I am here" for a round that is not paired at the venue."""
    CHECK_IN_LATER = "check_in_later"
    """"I am here" before the round's check-in opens (at its deadline)."""
    ROUND_OUT = "round_out"
    """Who is in the room is taken back after the pairing went out."""
    NOBODY_HERE = "nobody_here"
    """A round at the venue paired with fewer than two players there."""


class StoreError(KeizerError):
    """A change the store refused; nothing was written."""

    def __init__(self, problem: StoreProblem, **facts: object) -> None:
        self.problem = problem
        self.facts: Mapping[str, str] = {k: str(v) for k, v in facts.items()}
        super().__init__(f"{problem.value}: {dict(self.facts)}")

    def __reduce__(self) -> tuple[Callable[..., StoreError], tuple[object, ...]]:
        # Read back as raised (from a worker process): the facts are keywords.
        return _rebuilt, (type(self), self.problem, dict(self.facts))


def _rebuilt(kind: type[StoreError], problem: StoreProblem,
             facts: dict[str, str]) -> StoreError:
    return kind(problem, **facts)


class InputStoreError(StoreError, ValueError):
    """Refused because the request itself is wrong (unknown player, no such game, ...)."""
