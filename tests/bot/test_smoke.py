import json

from bot import texts
from tests.bot.conftest import ARBITER


async def test_start_and_help(bot):
    answer = await bot.ask(ARBITER, "/start")
    assert "Keizercompetitie" in answer.text and "wedstrijdleider" in answer.text


async def test_the_command_menus_list_what_each_may_use_and_every_entry_works(bot):
    """Members see their commands; the arbiter's own chat also his; each one is handled."""
    lists = {json.loads(scope)["type"]: [c["command"] for c in commands]
             for scope, commands in bot.tg.commands.items()}
    assert lists["default"] == lists["all_private_chats"]
    assert "afmelden" in lists["default"] and "speler" not in lists["default"]
    assert set(lists["default"]) < set(lists["chat"]) and "indeling" in lists["chat"]
    for name in lists["chat"]:
        answer = await bot.ask(ARBITER, f"/{name}")
        assert answer.text != texts.UNKNOWN_COMMAND, name


async def test_unknown_command(bot, members):
    answer = await bot.ask(members[0], "/onzin")
    assert "ken ik niet" in answer.text
