from tests.bot.conftest import ARBITER


async def test_start_and_help(bot):
    answer = await bot.ask(ARBITER, "/start")
    assert "Keizercompetitie" in answer.text and "wedstrijdleider" in answer.text
    assert bot.tg.commands  # the command lists were set


async def test_unknown_command(bot, members):
    answer = await bot.ask(members[0], "/onzin")
    assert "ken ik niet" in answer.text
