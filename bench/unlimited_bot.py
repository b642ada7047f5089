"""The real `keizerbot` process without Telegram's flood limits (30 messages a second): for
`bench/latency.py --no-flood-limits`, which times the bot's own work rather than the queue
the limits make when large tables go out.

    uv run python bench/unlimited_bot.py      (as `keizerbot`, from the environment)
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import cli
from bot.telegram import runtime, serve

serve.SingleClub = functools.partial(  # type: ignore[misc]
    runtime.SingleClub, flood_limits=False)

if __name__ == "__main__":
    sys.exit(cli.main())
