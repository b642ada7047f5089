"""Who reads in which language: each member's (chosen with `/taal`, or the one his Telegram
app first came with) and the club's (its group, its pages, its files). Read once from the
store and kept: asked at every update, and written only by the process that runs the club,
which keeps what it writes (`keep`). A process that only shows the pages forgets them when
the club's runtime writes (`forget`)."""

from __future__ import annotations

from bot.language import i18n
from storage import club
from storage.db import Database


class Languages:
    """One club's languages, kept."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._members: dict[int, str] | None = None
        self._club: str | None = None
        self._changing = False
        """A change of the club's settings is under way: what is read until it commits may
        be what was before, so it is not kept."""
        self._generation = 0
        """Moved at each change and its commit: a read that began before either is not
        kept."""
        self._listening = False

    def forget(self) -> None:
        """Read them again at the next question: another process writes them."""
        self._members = self._club = None

    def forget_the_clubs(self) -> None:
        """The club's settings change (or a change of them was refused): read it again, and
        keep nothing read before that change commits (a question answered meanwhile reads
        what was committed before it)."""
        self._club = None
        self._changing = True
        self._generation += 1
        if not self._listening:  # from the first change on: a club that never changes
            self._db.commits.on(self._committed)  # them pays nothing at each commit
            self._listening = True

    def _committed(self) -> None:
        if self._changing:
            self._changing = False
            self._club = None
            self._generation += 1

    async def club(self) -> str:
        """The language of the club's group, its pages and its files (`/instellingen
        taal`)."""
        if self._club is not None:
            return self._club
        began = self._generation
        found = (await club.settings(self._db)).language
        if not self._changing and began == self._generation:
            self._club = found
        return found

    async def _kept(self) -> dict[int, str]:
        if self._members is None:
            self._members = await club.languages(self._db)
        return self._members

    async def chosen(self, telegram_id: int) -> str | None:
        """The language this member chose or first came with, if any."""
        return (await self._kept()).get(telegram_id)

    async def of(self, telegram_id: int) -> str:
        """A member's language: the one he chose or first came with, else the club's."""
        return await self.chosen(telegram_id) or await self.club()

    async def keep(self, telegram_id: int, language: str, *, chosen: bool) -> None:
        """A member's language from now on: `chosen` with `/taal` (in the audit log), else
        the one he first came with (kept unless he has one)."""
        if chosen:
            await club.set_language(self._db, telegram_id, language, actor=telegram_id)
        else:
            await club.keep_language(self._db, telegram_id, language)
        kept = await self._kept()
        if chosen or telegram_id not in kept:
            kept[telegram_id] = language

    async def first_contact(self, telegram_id: int, code: str | None) -> str:
        """The language of a private chat. On first contact it is the Telegram app's, where
        the bot speaks it, and kept; after that the kept one (`/taal` changes it)."""
        kept = await self.chosen(telegram_id)
        if kept is not None:
            return kept
        found = i18n.from_code(code, "")
        if not found:
            return await self.club()
        await self.keep(telegram_id, found, chosen=False)
        return found
