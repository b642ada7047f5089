"""The standings made in the worker process and kept on the standings version (issue 23):
what the chat shows is what the season now says, also right after a correction."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from telegram import Update

from bot.files import messages
from bot.language.i18n import words
from bot.language.notice import Text
from bot.services import Context
from bot.telegram.answer import Answer, Refused, Write
from bot.telegram.room import Spoken
from core.errors import InvalidSeasonError, Problem, ProblemCode
from core.season import Season, season_from_data
from core.standings import compute_standings
from storage import roster
from storage.errors import InputStoreError, StoreProblem
from storage.seasons import load_season
from storage.store import open_store
from tests.bot.conftest import ARBITER, MEMBERS, club_bot, fits, meaning, said, says
from tests.bot.steps import set_up_club
from tests.seasons import season_data

PLAYERS = [{"id": f"p{k}", "name": name, "rating": 2000 - 50 * k}
           for k, name in enumerate(MEMBERS)]


def played() -> Season:
    return season_from_data(season_data(
        {"preset": "sliedrecht", "planned_rounds": 3, "period_length": 3}, PLAYERS,
        ["p0-p1 1-0, p2-p3 1/2-1/2, p4-p5 0-1", "p1-p2 1-0, p3-p4 1-0, p5-p0 0-1"]))


async def shown_by_the_file(path: Path) -> str:
    """The standings table as the season in the file says, computed here."""
    db = await open_store(path)
    try:
        season = await load_season(db)
    finally:
        await db.close()
    return said(messages.standings_table(words("nl"), compute_standings(season),
                                         season.rules.display_decimals))


async def test_a_correction_shows_in_the_next_standings(tg, tmp_path, members, processes):
    path = tmp_path / "keizer.db"
    bot = await club_bot(tg, path, processes, played())
    try:
        db = await open_store(path)
        await roster.link(db, "p0", members[0].id, actor=None)
        await db.close()
        first = await bot.ask(ARBITER, "/stand")
        assert first.text == await shown_by_the_file(path)
        mine = await bot.ask(members[0], "/stand mij")
        await bot.ask(ARBITER, "/uitslag 1 0-1 ronde 1",
                      contains=meaning("RESULT_FINAL", round=1, board=1))
        again = await bot.ask(ARBITER, "/stand")
        assert again.text != first.text
        assert again.text == await shown_by_the_file(path)
        mine_again = await bot.ask(members[0], "/stand mij")
        assert says("BREAKDOWN_TOTAL") in mine_again.text and mine_again.text != mine.text
    finally:
        await bot.stop()


def test_refusals_cross_the_process_boundary_as_raised():
    """A refusal raised in the worker reaches the bot as the same error, with its facts."""
    store = pickle.loads(pickle.dumps(InputStoreError(StoreProblem.UNKNOWN_PLAYER, player="x")))
    assert isinstance(store, InputStoreError)
    assert (store.problem, dict(store.facts)) == (StoreProblem.UNKNOWN_PLAYER, {"player": "x"})
    problem = Problem("rounds[2]", ProblemCode.PLAYER_TWICE, {"player": "p1"})
    season = pickle.loads(pickle.dumps(InvalidSeasonError([problem])))
    assert isinstance(season, InvalidSeasonError) and season.problems == (problem,)



async def handled(bot, user, text: str) -> Answer | Write:
    """What a command's handler answers, as a value (called directly on the running bot's
    application, with the update Telegram would send)."""
    app = bot.app
    update = Update.de_json({"update_id": 1, "message": bot.tg.message(
        user.id, 1, text, user.as_json(), date=bot.clock.now.timestamp(),
        entities=[{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}])},
        app.bot)
    context = Context.from_update(update, app)
    context.args = text.split()[1:]
    spoken = next(h for h in app.handlers[0] if isinstance(h, Spoken)
                  and text.split()[0].lstrip("/") in h.commands)
    return await spoken.made(update, context)


async def test_handlers_answer_with_values_from_the_catalogue(bot, members):
    """Handlers return what they answer: a test reads the catalogue entry and its facts,
    not only the Dutch a member gets."""
    assert await handled(bot, members[0], "/stand") == Answer(Text("STAND_EMPTY"))
    assert await handled(bot, members[0], "/uitslag 2-0") == Answer(Text("UITSLAG_USAGE"))
    with pytest.raises(Refused) as refused:  # not linked yet
        await handled(bot, members[0], "/uitslag 1-0")
    assert refused.value.text == Text("NOT_LINKED")
    await set_up_club(bot, members, rounds=2)
    assert await handled(bot, members[0], "/uitslag 1-0") == Answer(Text("NO_PUBLISHED_ROUND"))
    with pytest.raises(Refused) as refused:
        await handled(bot, members[0], "/afmelden Bram de Boer")
    assert refused.value.text == Text("ONLY_YOURSELF", {"name": "Bram de Boer"})
    write = await handled(bot, members[0], "/afmelden")
    assert isinstance(write, Write)  # priced first, stored by the runner in one transaction
    async with bot.app.bot_data.db.transaction():
        stored = await write.store()
    assert stored.reply is not None and fits(said(stored.reply), "SIGNED_OFF",
                                             who="Anna Visser", round=1)


async def test_a_sign_off_reads_the_schedule_once_before_its_write(bot, members, monkeypatch):
    """Issue 48: the /afmelden walk read the club's schedule three times (the open round,
    the schedule, the flow's own); the handler reads it once, and the unit of work once. (The
    jobs' planner reads it after each commit, to plan the coming deadlines: not the walk.)"""
    import traceback

    from storage import programme

    await set_up_club(bot, members, rounds=2)
    walked = []
    read = programme.schedule

    async def counted(db):
        if not any("jobs.py" in frame.filename for frame in traceback.extract_stack()):
            walked.append(db)
        return await read(db)
    monkeypatch.setattr(programme, "schedule", counted)
    answer = await bot.ask(members[0], "/afmelden")
    assert fits(answer.text, "SIGNED_OFF", round=1) and len(walked) == 2
