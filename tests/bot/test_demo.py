"""`keizerbot demo` plays a whole season through the real bot and shows it."""

from __future__ import annotations

import re

from bot.cli import main
from bot.demo import play as demo
from bot.language import texts


def test_the_demo_plays_a_season_and_prints_a_round_and_the_final_standings(tmp_path,
                                                                           monkeypatch, capsys):
    """`keizerbot demo` as the README shows it (the README test leaves it to this one: it
    plays a whole season). Also with other wording for every message the demo once waited
    for: it follows the store and the buttons, so rewriting a text never breaks it."""
    for name, text in [("DRAFT_TO_ARBITER", "Concept {round}."),
                       ("IK_ASK_ARBITER", "{user}={name}?"), ("IK_WELCOME", "Welkom, {name}."),
                       ("CONFIRMED", "Akkoord: {words}."),
                       ("ROUND_COMPLETE", "Ronde {round} is rond."),
                       ("PAIRING_TITLE", "Paringen {round}")]:
        monkeypatch.setattr(texts, name, text)
    page = tmp_path / "chat.html"
    assert main(["demo", "--chat-page", str(page)]) == 0
    text = capsys.readouterr().out
    round_part, final_part = text.split("=== Eindstand ===")
    assert f"Ronde {demo.SHOWN_ROUND}" in round_part
    assert "/indeling bevestig" in round_part and "Klopt" in round_part
    assert "je speelt met" in round_part and "/uitslag" in round_part
    assert f"Stand na ronde {demo.ROUNDS}" in final_part
    rows = [line for line in final_part.splitlines() if re.match(r"\s*\d+\s", line)]
    assert len(rows) == len(demo.NAMES)
    assert "clubkampioen" in final_part or "barrage" in final_part
    assert "<pre>" in page.read_text(encoding="utf-8")


def test_the_demo_speaks_the_language_of_the_shell(monkeypatch, capsys):
    """Issue 33: under an English LANG the club, its members and the printout are English,
    the commands typed under their English names; and the scheduler's routine is not shown."""
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.setattr(demo, "ROUNDS", demo.SHOWN_ROUND)  # the language, not a whole season
    assert main(["demo"]) == 0
    printed = capsys.readouterr()
    round_part, final_part = printed.out.split("=== Final standings ===")
    assert f"=== Round {demo.SHOWN_ROUND}: what happened in the chats ===" in round_part
    assert "/pairing confirm" in round_part and "/result" in round_part
    assert "Pairing round" in round_part and "Indeling" not in round_part
    assert f"Standings after round {demo.ROUNDS}" in final_part
    assert "club champion" in final_part or "play-off" in final_part
    assert "maximum number of running instances" not in printed.err
