"""A file from another program read for the arbiter, changing nothing: a TRF as a season file,
with what had to be assumed (the same words as `keizerbot import-trf`)."""

from __future__ import annotations

import asyncio

from bot.language import texts
from core.errors import InvalidInputError
from core.season import Season

PRESET = "sliedrecht"
"""The rules a TRF without Keizer rules gets; the arbiter changes them in the file."""


async def season_from_trf(data: bytes) -> tuple[Season, str] | str:
    """The season and the report, or why the file cannot be read (in the language of the
moment)."""
    from core.encoding import decode
    from core.trf import TrfError, read_trf

    try:
        imported = await asyncio.to_thread(lambda: read_trf(decode(data), preset=PRESET))
    except UnicodeError:
        return texts.TRF_CHAT_UNUSABLE.format(reason=texts.FILE_NOT_TEXT)
    except TrfError as exc:
        return texts.TRF_CHAT_UNUSABLE.format(reason=texts.trf_problem(exc))
    except InvalidInputError as exc:
        return texts.TRF_CHAT_UNUSABLE.format(reason="; ".join(
            texts.problem(p) for p in exc.problems[:3]))
    season = imported.season
    lines = [texts.TRF_READ.format(players=len(season.players), rounds=len(season.rounds),
                                   games=sum(len(r.games) for r in season.rounds))]
    if imported.assumed:
        lines += [texts.TRF_ASSUMED, *(f"• {line}" for line in texts.assumed(
            imported.assumed, PRESET))]
    lines.append(texts.TRF_READ_NEXT)
    return season, "\n".join(lines)
