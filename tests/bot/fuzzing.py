"""Random traffic for the bot: commands with odd arguments from members, strangers and the
arbiter, in private and in the group, and button presses with real and made-up data. Used by
the fuzz test (a few hundred) and bench/fuzz.py (ten thousand)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bot.demo.fakeapi import NotSent, Sent, User
from bot.demo.runner import LocalBot
from tests.bot.conftest import ARBITER, GROUP

COMMANDS = ["/start", "/help", "/afmelden", "/aanmelden", "/uitslag", "/stand", "/mijn", "/ik",
            "/indeling", "/speler", "/spelers", "/ronde", "/club", "/arbiter", "/instellingen",
            "/extern", "/team", "/onbekend", "/afmelden@keizerbot", "/afmelden@andere_bot"]
WORDS = ["1", "2", "3", "9", "0", "-1", "²", "٣", "1000000000000000000000000000000", "3-12",
         "31-2", "2026-12-10", "30-11", "van", "t/m", "ronde", "extern", "extern-clubavond",
         "clubavond", "anderedag", "Anna", "Anna Visser", "Bram de Boer", "Cor", "Femke Kok",
         "bye", "ruil", "en", ",", "1-0", "0-1", "½", "remise", "1/2-1/2", "+-", "=", "nieuw",
         "weg", "mij", "periode", "groep", "start", "deadline", "herinnering", "20:00", "9:30",
         "25:61", "regel", "reglement", "top_value", "notice_cap", "sliedrecht", "drie-cycli",
         "zwolle", "bevestig", "maak", "opnieuw", "wis", "uitstel", "vervalt", "<b>", "&amp;",
         "🏆", "'", '"', "1001", "99999999999", "null", "true", "{}", "[1]", "aanvoerder",
         "spelers", "wedstrijd", "thuis", "uit", "vraag", "invallers", "opstelling", "invaller",
         "aan", "13:00", "wit", "zwart"]
HEAVY = {"/grafiek", "/export"}
"""Drawn in a worker: slow, so the short run leaves them to the benchmark."""
FAKE_DATA = ["res:v1:x:y:z", "res:v1:1:99:1-0", "res:v1:1:1:2-0", "link:v2:abc:1",
             "nolink:v2:x", "ik:v2:nobody", "take:v2:000000000000:5", "oud:v0", "", "a" * 64,
             "team:v1:1:yes", "team:v1:999999999:no", "tbord:v1:1:1:h", "tbord:v1:5:99:0"]


@dataclass
class Tally:
    messages: int = 0
    unanswered: list[str] = field(default_factory=list)
    presses: int = 0
    presses_unanswered: list[str] = field(default_factory=list)


def sender(rng: random.Random, members: list[User], stranger: User) -> User:
    return rng.choice([ARBITER, stranger, *members, *members])


def message(rng: random.Random, heavy: bool) -> str:
    commands = COMMANDS + sorted(HEAVY) if heavy else COMMANDS
    return " ".join([rng.choice(commands), *rng.choices(WORDS, k=rng.randint(0, 4))])


async def run(bot: LocalBot, members: list[User], count: int, *, seed: int = 1,
              heavy: bool = False, in_group: float = 0.3, timeout: float = 10.0) -> Tally:
    """`count` messages (about one in four a button press), each waited for: a message
    must get an answer in its chat (a command for another bot none), a press a toast.
    `in_group` of the messages go to the club group."""
    rng = random.Random(seed)
    stranger = User(888, "Vreemde", "Eend")
    tally = Tally()
    seen: list[Sent] = []
    for _ in range(count):
        user = sender(rng, members, stranger)
        if seen and rng.random() < 0.25:
            with_buttons = [s for s in seen[-50:] if s.buttons]
            target = rng.choice(with_buttons or seen[-50:])
            data = rng.choice([d for _, d in target.buttons] or FAKE_DATA)
            answered = len(bot.tg.answered)
            tally.presses += 1
            bot.tg.press(user, target, data)
            try:
                await bot.tg.toast(answered, timeout=timeout)
            except TimeoutError:
                tally.presses_unanswered.append(data)
            continue
        text = message(rng, heavy)
        chat = GROUP if rng.random() < in_group else user.id
        tally.messages += 1
        mark = len(bot.tg.sent)
        if "@andere_bot" in text.split(" ", 1)[0]:
            bot.says(user, text, chat_id=chat)
            continue
        try:
            await bot.ask(user, text, chat_id=chat, timeout=timeout)
        except NotSent:
            tally.unanswered.append(f"{user.first_name} in {chat}: {text}")
        seen += bot.tg.sent[mark:]
    return tally
