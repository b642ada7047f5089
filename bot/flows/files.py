"""A file from another program read for the arbiter, changing nothing: a TRF as a season file,
with what had to be assumed (the same words as `keizerbot import-trf`)."""

from __future__ import annotations

import asyncio

from bot.language.notice import Lines, Phrase, Said, Text, lines
from core.errors import InvalidInputError
from core.season import Season

PRESET = "sliedrecht"
"""The rules a TRF without Keizer rules gets; the arbiter changes them in the file."""


async def season_from_trf(data: bytes) -> tuple[Season, Said] | Said:
    """The season and the report, or why the file cannot be read."""
    from core.encoding import decode
    from core.trf import TrfError, read_trf

    try:
        imported = await asyncio.to_thread(lambda: read_trf(decode(data), preset=PRESET))
    except UnicodeError:
        return Text("TRF_CHAT_UNUSABLE", {"reason": Text("FILE_NOT_TEXT")})
    except TrfError as exc:
        return Text("TRF_CHAT_UNUSABLE", {"reason": Phrase("trf_problem", (exc,), markup=False)})
    except InvalidInputError as exc:
        return Text("TRF_CHAT_UNUSABLE", {"reason": Lines(tuple(
            Phrase("problem", (p,), markup=False) for p in exc.problems[:3]), "; ")})
    season = imported.season
    assumed = [Lines(("• ", Phrase("assumed_one", (what, count, PRESET), markup=False)), "")
               for what, count in imported.assumed.items()]
    return season, lines(
        Text("TRF_READ", {"players": len(season.players), "rounds": len(season.rounds),
                          "games": sum(len(r.games) for r in season.rounds)}),
        *([Text("TRF_ASSUMED"), *assumed] if assumed else []),
        Text("TRF_READ_NEXT"))
