"""Files sent to the bot by the arbiter, in private: the KNSB rating list (the answer is a
proposal with buttons; nothing changes until he confirms), or a TRF from another program
(read into a season file, sent back with what had to be assumed; nothing changes)."""

from __future__ import annotations

from telegram import Update
from telegram.error import BadRequest
from telegram.ext import MessageHandler, filters

from bot.callbacks import Rating
from bot.flows import files, ratings, teams
from bot.keyboard import Button, Keyboard
from bot.language.notice import Phrase, Text
from bot.services import Context
from bot.telegram.answer import Answer, Edit, File, Toast, Write
from bot.telegram.room import Room, answering, button, is_arbiter
from core.ratings import MAX_BYTES, ListProblem, RatingListError
from core.season import season_to_json
from core.teams import Fixture, read_fixtures


def _markup(shown: ratings.Shown) -> Keyboard | None:
    proposal = shown.proposal
    if not proposal.updates and not proposal.close:
        return None
    rows = [[Button(
        Text("RATING_BUTTON_ACCEPT", {"mark": "✓ " if k in proposal.accepted else "",
                                      "name": c.name, "listed": c.listed.name}),
        Rating(shown.number, f"c{k}").pack())] for k, c in enumerate(proposal.close)]
    rows.append([
        Button(Text("RATING_BUTTON_APPLY", {"count": len(proposal.to_apply())}),
               Rating(shown.number, "ok").pack()),
        Button(Text("RATING_BUTTON_CANCEL"), Rating(shown.number, "no").pack())])
    return Keyboard.of(rows)


def _text(shown: ratings.Shown) -> Phrase:
    return Phrase("rating_proposal", (shown.proposal, shown.names), markup=False)


async def received(update: Update, context: Context) -> Answer | Write:
    """A file in a private chat: the arbiter's rating list, compared with the members (read
    first, outside any transaction, then stored as a proposal); or a tournament file."""
    message, user = update.effective_message, update.effective_user
    assert message is not None and user is not None
    document = message.document
    assert document is not None
    arbiter = await is_arbiter(update, context)
    if not arbiter and not await teams.captains(context.services, user.id):
        return Answer(Text("FILE_ONLY_ARBITER"))
    name = (document.file_name or "").lower()
    if not name.endswith((".zip", ".csv", ".trf", ".trfx", ".txt")):
        return Answer(Text("FILE_UNKNOWN_KIND"))
    try:
        if (document.file_size or 0) > MAX_BYTES:  # not fetched at all
            raise RatingListError(ListProblem.TOO_BIG, limit=MAX_BYTES // (1024 * 1024))
        try:
            data = bytes(await (await document.get_file()).download_as_bytearray())
        except BadRequest as exc:  # a network failure is not caught: the update comes again
            if "too big" not in exc.message.lower():
                raise
            raise RatingListError(ListProblem.TOO_BIG,
                                  limit=MAX_BYTES // (1024 * 1024)) from None
        fixtures = read_fixtures(data.decode("utf-8", "replace")) \
            if name.endswith(".csv") else None
        if fixtures is not None:  # a team schedule, not a rating list
            return await _schedule(context, fixtures, user.id)
        if not arbiter:
            return Answer(Text("FILE_ONLY_ARBITER"))
        if not name.endswith((".zip", ".csv")):
            return await _tournament(data)
        compared = await ratings.compare(context.services, data, document.file_name or "")
    except RatingListError as exc:
        return Answer(Phrase("rating_list_problem", (exc,), markup=False))

    async def store() -> Answer:
        shown = await ratings.keep(context.services, compared, actor=user.id)
        return Answer(_text(shown), markup=_markup(shown))
    return Write(store)


async def _schedule(context: Context, fixtures: list[Fixture], user: int) -> Write:
    """A federation's team schedule: the matches of the sender's teams, stored."""
    async def store() -> Answer:
        done = await teams.import_fixtures(context.services, fixtures, user=user)
        return Answer(Text("TEAM_SCHEDULE_READ", {"added": done.added, "known": done.known,
                                                  "others": done.others}))
    return Write(store)


async def _tournament(data: bytes) -> Answer:
    """A TRF read into a season file: sent back, with what the file did not say."""
    read = await files.season_from_trf(data)
    if not isinstance(read, tuple):
        return Answer(read)
    season, report = read
    return Answer(report, file=File(season_to_json(season).encode(), "seizoen.json",
                                         Text("TRF_READ_CAPTION")))


async def proposal_button(update: Update, context: Context, pressed: Rating) -> Answer:
    query = update.callback_query
    assert query is not None
    # What the arbiter is told follows the commit: "bijgewerkt" only once it is stored.
    if pressed.what.startswith("c"):
        shown = await ratings.accept(context.services, pressed.proposal, int(pressed.what[1:]))
        if shown is None:
            return Answer(edit=Edit(Text("RATING_DECIDED")))
        return Answer(toast=Toast(Text("RATING_ACCEPTED")),
                      edit=Edit(_text(shown), markup=_markup(shown)))
    done = await ratings.decide(context.services, pressed.proposal,
                                confirm=pressed.what == "ok", actor=query.from_user.id)
    if done is None:
        return Answer(edit=Edit(Text("RATING_DECIDED")))
    if pressed.what == "ok":
        return Answer(edit=Edit(Phrase("ratings_applied", (len(done),))))
    return Answer(edit=Edit(Text("RATING_CANCELLED")))


room = Room(handlers=(
    MessageHandler(filters.UpdateType.MESSAGE & filters.ChatType.PRIVATE & filters.Document.ALL,
                   answering(received, reads_first=True)),
    button((Rating,), proposal_button, arbiter=True)))
