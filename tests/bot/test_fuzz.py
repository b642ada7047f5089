"""Issue 12: random traffic leaves no error and no message or button press unanswered."""

from __future__ import annotations

from tests.bot.fuzzing import run
from tests.bot.steps import pass_deadline, set_up_club


async def test_random_traffic_is_always_answered_and_never_an_error(bot, members):
    """bench/fuzz.py runs the same traffic ten thousand times over, heavy commands too."""
    seed = 2
    await set_up_club(bot, members, rounds=3)
    await pass_deadline(bot, 1)  # a draft to publish, swap and report on
    tally = await run(bot, members, 160, seed=seed)
    assert tally.messages > 90 and tally.presses > 20
    assert tally.unanswered == [] and tally.presses_unanswered == []
