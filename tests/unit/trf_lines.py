"""TRF lines as the FIDE specification writes them, and a season without its board order
(shared by the TRF tests)."""

from __future__ import annotations

from core.season import Season, season_to_data


def spec_line(start: int, name: str, rating: str, fide_id: str, points: str, rank: int,
              rounds: list[str]) -> str:
    """A `001` line put together column by column, as the specification places them."""
    line = [" "] * (91 + 10 * len(rounds))

    def put(first: int, text: str) -> None:
        line[first - 1:first - 1 + len(text)] = text

    put(1, "001")
    put(5, f"{start:>4}")
    put(15, name)
    put(49, f"{rating:>4}")
    put(54, "NED")
    put(58, f"{fide_id:>11}")
    put(81, f"{points:>4}")
    put(86, f"{rank:>4}")
    for k, entry in enumerate(rounds):
        put(92 + 10 * k, entry)
    return "".join(line).rstrip()


def without_board_order(season: Season) -> dict:
    data = season_to_data(season)
    for rnd in data["rounds"]:
        rnd.get("games", []).sort(key=lambda g: (g["white"], g["black"]))
        rnd["absent"].sort(key=lambda a: a["player"])
    return data


