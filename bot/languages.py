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

    def forget(self) -> None:
        """Read them again at the next question: another process writes them."""
        self._members = self._club = None

    def forget_the_clubs(self) -> None:
        """The club's settings change (or a change of them was refused): read it again."""
        self._club = None

    async def club(self) -> str:
        """The language of the club's group, its pages and its files (`/instellingen
        taal`)."""
        if self._club is None:
            self._club = (await club.settings(self._db)).language
        return self._club

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
