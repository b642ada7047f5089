"""The schema, as ordered migrations applied by `PRAGMA user_version`.

Each migration runs in one transaction together with the version bump, so a failed migration
leaves the database at the previous version, untouched. Shipped migrations are never edited:
a change is a new migration at the end.
"""

from __future__ import annotations


def _signoff_table(name: str, reasons: tuple[str, ...]) -> str:
    """The sign-off table (any round without a game), with the reasons it takes."""
    allowed = ", ".join(f"'{reason}'" for reason in reasons)
    return f"""
    CREATE TABLE {name} (
        id INTEGER PRIMARY KEY,
        round_id INTEGER NOT NULL REFERENCES round(id) ON DELETE CASCADE,
        player_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE,
        reason TEXT NOT NULL CHECK (reason IN ({allowed})),
        day TEXT CHECK (day IN ('club_night', 'other_day')),
        team INTEGER,
        result TEXT CHECK (result IN ('1', '1/2', '0')),
        note TEXT NOT NULL DEFAULT '',
        sent_at TEXT,
        entered_by INTEGER,
        on_time INTEGER NOT NULL DEFAULT 1,
        UNIQUE (round_id, player_id)
    );
    """


def _bumps_version(*tables: str) -> str:
    """Triggers: every write to these tables moves the club's version (migration 8)."""
    return "".join(
        f"CREATE TRIGGER {table}_{event.lower()}_bumps AFTER {event} ON {table} "
        "BEGIN UPDATE club_version SET version = version + 1; END;\n"
        for table in tables for event in ("INSERT", "UPDATE", "DELETE"))


def _moves_standings(*tables: str) -> str:
    """Triggers: every write to these tables moves the standings' version (migration 10)."""
    return "".join(
        f"CREATE TRIGGER {table}_{event.lower()}_moves_standings AFTER {event} ON {table} "
        "BEGIN UPDATE club_version SET standings = standings + 1; END;\n"
        for table in tables for event in ("INSERT", "UPDATE", "DELETE"))


def _moves_standings_when_played(*tables: str) -> str:
    """Triggers: a write to a round's rows moves the standings' version once the round is
    published or complete (migration 10)."""
    return "".join(
        f"CREATE TRIGGER {table}_{event.lower()}_moves_standings AFTER {event} ON {table} "
        f"WHEN (SELECT state FROM round WHERE id = {row}.round_id) IN ('published', 'complete') "
        "BEGIN UPDATE club_version SET standings = standings + 1; END;\n"
        for table in tables
        for event, row in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")))


MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema.
    """
    CREATE TABLE club (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        name TEXT NOT NULL DEFAULT '',
        round_start TEXT NOT NULL DEFAULT '20:00',
        deadline_minutes INTEGER NOT NULL DEFAULT 120,
        reminder_minutes INTEGER NOT NULL DEFAULT 1440,
        group_chat_id INTEGER,
        group_thread_id INTEGER
    );
    INSERT INTO club (id) VALUES (1);

    CREATE TABLE arbiter (
        telegram_id INTEGER PRIMARY KEY,
        name TEXT NOT NULL DEFAULT '',
        added_at TEXT NOT NULL
    );

    CREATE TABLE season (
        id INTEGER PRIMARY KEY,
        club TEXT NOT NULL DEFAULT '',
        name TEXT NOT NULL DEFAULT '',
        rules TEXT NOT NULL,
        planned_rounds INTEGER,
        initial_ranking TEXT,
        active INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL
    );

    CREATE TABLE player (
        id INTEGER PRIMARY KEY,
        season_id INTEGER NOT NULL REFERENCES season(id) ON DELETE CASCADE,
        code TEXT NOT NULL,
        name TEXT NOT NULL,
        rating INTEGER,
        youth INTEGER NOT NULL DEFAULT 0,
        joined INTEGER NOT NULL DEFAULT 1,
        withdrawn INTEGER,
        grp INTEGER,
        telegram_id INTEGER,
        position INTEGER NOT NULL,
        UNIQUE (season_id, code)
    );
    CREATE INDEX player_telegram ON player (telegram_id);

    CREATE TABLE round (
        id INTEGER PRIMARY KEY,
        season_id INTEGER NOT NULL REFERENCES season(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        date TEXT,
        deadline TEXT,
        reminded_at TEXT,
        fixes TEXT,
        state TEXT NOT NULL DEFAULT 'planned'
            CHECK (state IN ('planned', 'locked', 'drafted', 'published', 'complete')),
        UNIQUE (season_id, number)
    );

    """ + _signoff_table("signoff", ("notice", "no_notice", "bye", "arbiter", "external"))
    + """

    CREATE TABLE game (
        id INTEGER PRIMARY KEY,
        round_id INTEGER NOT NULL REFERENCES round(id) ON DELETE CASCADE,
        board INTEGER NOT NULL,
        white_id INTEGER NOT NULL REFERENCES player(id),
        black_id INTEGER NOT NULL REFERENCES player(id),
        result TEXT CHECK (result IN ('1-0', '0-1', '1/2-1/2', '+-', '-+', '--')),
        reported_by INTEGER,
        reported_at TEXT,
        confirmed_by INTEGER,
        confirmed_at TEXT,
        UNIQUE (round_id, board),
        CHECK (white_id <> black_id),
        CHECK (confirmed_at IS NULL OR result IS NOT NULL)
    );

    CREATE TABLE broken_rule (
        id INTEGER PRIMARY KEY,
        round_id INTEGER NOT NULL REFERENCES round(id) ON DELETE CASCADE,
        rule TEXT NOT NULL,
        players TEXT NOT NULL,
        facts TEXT NOT NULL
    );

    CREATE TABLE posted_message (
        id INTEGER PRIMARY KEY,
        round_id INTEGER NOT NULL REFERENCES round(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        chat_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        player_id INTEGER REFERENCES player(id) ON DELETE CASCADE
    );
    CREATE INDEX posted_message_lookup ON posted_message (chat_id, message_id);

    CREATE TABLE audit (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        actor INTEGER,
        action TEXT NOT NULL,
        entity TEXT NOT NULL,
        entity_id TEXT NOT NULL,
        old TEXT,
        new TEXT
    );
    """,
    # 2: the inbox (updates stored before Telegram forgets them) and the outbox (every
    # message the bot owes).
    """
    CREATE TABLE inbox (
        update_id INTEGER PRIMARY KEY,
        payload TEXT NOT NULL,
        received_at TEXT NOT NULL,
        done_at TEXT
    );
    CREATE INDEX inbox_pending ON inbox (update_id) WHERE done_at IS NULL;

    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,
        thread_id INTEGER,
        text TEXT NOT NULL,
        markup TEXT,
        round_no INTEGER,
        kind TEXT,
        player TEXT,
        about TEXT,
        created_at TEXT NOT NULL,
        due_at TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        sent_at TEXT,
        message_id INTEGER,
        failed_at TEXT,
        error TEXT
    );
    CREATE INDEX outbox_due ON outbox (due_at) WHERE sent_at IS NULL AND failed_at IS NULL;
    """,
    # 3: flexible members (absent unless they sign on) and their sign-ons.
    """
    ALTER TABLE player ADD COLUMN flexible INTEGER NOT NULL DEFAULT 0;

    CREATE TABLE signon (
        id INTEGER PRIMARY KEY,
        round_id INTEGER NOT NULL REFERENCES round(id) ON DELETE CASCADE,
        player_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE,
        sent_at TEXT NOT NULL,
        entered_by INTEGER,
        UNIQUE (round_id, player_id)
    );
    """,
    # 4: members who asked for the reminder in private too.
    """
    ALTER TABLE player ADD COLUMN remind INTEGER NOT NULL DEFAULT 0;
    """,
    # 5: a message owed as a reply to one sent before (a correction under the pairing).
    """
    ALTER TABLE outbox ADD COLUMN reply_to INTEGER;
    """,
    # 6: the member's KNSB relation number (how the rating list knows him), and rating lists
    # waiting for the arbiter's confirmation.
    """
    ALTER TABLE player ADD COLUMN knsb INTEGER;

    CREATE TABLE rating_proposal (
        id INTEGER PRIMARY KEY,
        season_id INTEGER NOT NULL REFERENCES season(id) ON DELETE CASCADE,
        proposal TEXT NOT NULL,
        created_at TEXT NOT NULL,
        created_by INTEGER,
        done_at TEXT
    );
    """,
    # 7: who may see the club's live pages: everyone, linked members in Telegram, or nobody.
    """
    ALTER TABLE club ADD COLUMN web TEXT NOT NULL DEFAULT 'openbaar'
        CHECK (web IN ('openbaar', 'leden', 'uit'));
    """,
    # 8: a version of the club's own data, moved by every write to it and by none to the
    # inbox, the outbox or the messages posted: the caches of the season and the pages are
    # kept on it (SQLite's data_version moves with every commit, a /help's too).
    """
    CREATE TABLE club_version (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        version INTEGER NOT NULL
    );
    INSERT INTO club_version (id, version) VALUES (1, 0);
    """ + _bumps_version("club", "arbiter", "season", "player", "round", "signoff", "game",
                         "broken_rule", "signon", "rating_proposal"),
    # 9: whether a complete round's standings were posted. They are computed outside the
    # write that completed the round and posted by a claim of their own; a round loaded or
    # restored counts as posted.
    """
    ALTER TABLE round ADD COLUMN announced INTEGER NOT NULL DEFAULT 1;
    """,
    # 10: a version of what the standings depend on: the players, the rules and the rounds
    # whose results are in. A sign-off for a round still to be paired leaves it, so the
    # standings and their rendered tables are kept across every member's sign-off.
    """
    ALTER TABLE club_version ADD COLUMN standings INTEGER NOT NULL DEFAULT 0;
    """ + _moves_standings("season", "player", "round")
    + _moves_standings_when_played("game", "signoff", "signon"),
    # 11: the requested byes (`half_bye`, `zero_bye`) as reasons of a round without a game.
    # SQLite cannot widen a CHECK: the table is built anew, with its triggers.
    _signoff_table("signoff_new", ("notice", "no_notice", "bye", "arbiter", "external",
                                    "half_bye", "zero_bye")) + f"""
    INSERT INTO signoff_new SELECT * FROM signoff;
    DROP TABLE signoff;
    ALTER TABLE signoff_new RENAME TO signoff;
    {_bumps_version("signoff")}
    {_moves_standings_when_played("signoff")}
    """,
    # 12: what the federation's files say of a player beside his KNSB number, the club's
    # city for a TRF's header, and which KNSB rating list (classical, rapid, blitz) the club
    # takes its ratings from.
    """
    ALTER TABLE player ADD COLUMN fide_id INTEGER;
    ALTER TABLE player ADD COLUMN federation TEXT;
    ALTER TABLE player ADD COLUMN sex TEXT;
    ALTER TABLE player ADD COLUMN title TEXT;
    ALTER TABLE player ADD COLUMN birth TEXT;
    ALTER TABLE player ADD COLUMN name_as_written INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE club ADD COLUMN city TEXT NOT NULL DEFAULT '';
    ALTER TABLE club ADD COLUMN rating_list TEXT NOT NULL DEFAULT 'klassiek'
        CHECK (rating_list IN ('klassiek', 'rapid', 'snel'));
    """,
    # 13: the language each member chose (`/taal`), and the club's for its group. A member
    # without a choice is spoken to in his Telegram app's language, where the bot has it.
    """
    CREATE TABLE language (
        telegram_id INTEGER PRIMARY KEY,
        language TEXT NOT NULL CHECK (language IN ('nl', 'en'))
    );
    ALTER TABLE club ADD COLUMN language TEXT NOT NULL DEFAULT 'nl'
        CHECK (language IN ('nl', 'en'));
    """,
    # 14: a surname of more than one word as a file wrote it (`Gorrochategui Torres, Eugenio`),
    # so that the file written back says it the same way.
    """
    ALTER TABLE player ADD COLUMN surname TEXT;
    """,
    # 15: a reported result the opponent disputed (or answered with another): the arbiter
    # decides, and until then every view says so.
    """
    ALTER TABLE game ADD COLUMN disputed_at TEXT;
    """,
    # 16: an edit of a message already sent, owed as messages are (a confirmation's
    # "Bevestigd", buttons a decision made stale): the message it edits.
    """
    ALTER TABLE outbox ADD COLUMN edits INTEGER;
    """,
)

VERSION = len(MIGRATIONS)
