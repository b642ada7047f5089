import json

from bot.language import texts
from tests.bot.conftest import ARBITER, says


async def test_start_and_help(bot):
    answer = await bot.ask(ARBITER, "/start")
    assert answer.text.startswith(says("START")) and texts.HELP_ARBITER.strip() in answer.text


async def test_the_command_menus_list_what_each_may_use_and_every_entry_works(bot):
    """Members see their commands; the arbiter's own chat also his; each one is handled."""
    await bot.settled()  # the menus are set beside the start's work
    lists = {(json.loads(scope)["type"], language): [c["command"] for c in commands]
             for (scope, language), commands in bot.tg.commands.items()}
    for language, signoff in (("", "afmelden"), ("en", "signoff")):
        assert lists["default", language] == lists["all_private_chats", language]
        assert signoff in lists["default", language]
        assert "speler" not in lists["default", language]
        assert "player" not in lists["default", language]
        assert set(lists["default", language]) < set(lists["chat", language])
    # The English menu names each command in English, and says what it does in English.
    english = {c["command"]: c["description"] for (_, language), commands
               in bot.tg.commands.items() if language == "en" for c in commands}
    assert english["signoff"] == "sign off for a round"
    assert not set(english) & {"afmelden", "uitslag", "stand", "indeling"}
    for name in lists["chat", ""] + lists["chat", "en"]:
        answer = await bot.ask(ARBITER, f"/{name}")
        assert answer.text != texts.UNKNOWN_COMMAND, name


async def test_unknown_command(bot, members):
    answer = await bot.ask(members[0], "/onzin")
    assert answer.text == texts.UNKNOWN_COMMAND
