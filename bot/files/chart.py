"""The ranking race as a picture: places over the rounds, readable on a phone.

Drawn on a `matplotlib.figure.Figure` of its own, not pyplot's global state: it runs in a
worker thread beside the event loop, and matplotlib is imported only when a chart is drawn
(it takes most of a second).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from core.season import Season
from core.standings import Standings

TOP = 8


def race(season: Season, history: Sequence[Standings], players: Sequence[str] | None = None,
         *, title: str = "") -> bytes:
    """A PNG of the places of `players` (default: the current top 8) after every round."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    rounds = [s.after_round for s in history if s.after_round]
    shown = list(players or history[-1].ranking[:TOP])
    figure = Figure(figsize=(7.2, 9.0), dpi=110)
    axis = figure.subplots()
    for pid in shown:
        places = [float(s.ranking.index(pid) + 1) if pid in s.ranking else float("nan")
                  for s in history if s.after_round]  # NaN: not in the competition yet
        axis.plot(rounds, places, marker="o", linewidth=2.4, markersize=4,
                  label=season.player(pid).name)
    axis.invert_yaxis()
    axis.yaxis.set_major_locator(MaxNLocator(integer=True))
    axis.set_xlabel("Ronde", fontsize=13)
    axis.set_ylabel("Plaats", fontsize=13)
    axis.set_xticks(rounds[:: max(1, len(rounds) // 12)])
    axis.grid(alpha=0.3)
    axis.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=2, fontsize=11,
                frameon=False)
    axis.set_title(title or season.club, fontsize=15)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
