"""Issue 23: button data as values. Every kind packs to Telegram's 64 bytes and reads back as
itself; buttons already sent (older versions) still read; no other code builds or splits
button data."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import callbacks
from bot.callbacks import (
    Attendance,
    Callback,
    Choose,
    Confirm,
    Dispute,
    Link,
    NoLink,
    Rating,
    Report,
    Swap,
    TakeOver,
)

ROOT = Path(__file__).resolve().parents[2]
KINDS: tuple[type[Callback], ...] = (Attendance, Report, Confirm, Dispute, Swap, Choose, Link,
                                     TakeOver, NoLink, Rating)
rounds = st.integers(1, 999_999)
results = st.sampled_from(["1-0", "0-1", "1/2-1/2"])
keys = st.text("0123456789abcdef", min_size=12, max_size=12)
users = st.integers(1, 10**15 - 1)
VALUES = {
    Attendance: st.builds(Attendance, rounds, st.sampled_from(["play", "off", "ext"])),
    Report: st.builds(Report, rounds, rounds, results),
    Confirm: st.builds(Confirm, rounds, rounds, results),
    Dispute: st.builds(Dispute, rounds, rounds, results),
    Swap: st.builds(Swap, keys, keys),
    Choose: st.builds(Choose, keys),
    Link: st.builds(Link, keys, users),
    TakeOver: st.builds(TakeOver, keys, users),
    NoLink: st.builds(NoLink, users),
    Rating: st.builds(Rating, st.integers(1, 999_999_999),
                      st.sampled_from(["ok", "no", "c0", "c12", "c999"])),
}


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.__name__)
@given(data=st.data())
def test_every_kind_reads_back_what_it_packs_and_only_itself(kind, data):
    value = data.draw(VALUES[kind])
    packed = value.pack()
    assert len(packed.encode()) <= callbacks.LIMIT
    assert kind.unpack(packed) == value
    assert callbacks.unpack(KINDS, packed) == value  # no other kind takes it
    assert [k for k in KINDS if k.unpack(packed) is not None] == [kind]
    assert re.fullmatch(callbacks.pattern(KINDS), packed)


@pytest.mark.parametrize(("data", "value"), [
    ("att:v1:3:off", Attendance(3, "off")),
    ("uit:v1:2:4:1/2-1/2", Report(2, 4, "1/2-1/2")),
    ("res:v1:1:1:1-0", Confirm(1, 1, "1-0")),
    ("resno:v1:1:2:0-1", Dispute(1, 2, "0-1")),
    ("swap:v1:0123456789ab:ba9876543210", Swap("0123456789ab", "ba9876543210")),
    ("ik:v1:p7", Choose("p7")),  # version 1 named the player's code
    ("link:v1:p7:4242", Link("p7", 4242)),
    ("take:v2:0123456789ab:4242", TakeOver("0123456789ab", 4242)),
    ("nolink:v1:4242", NoLink(4242)),
    ("rat:v1:12:c3", Rating(12, "c3")),
])
def test_buttons_already_sent_still_read(data, value):
    assert callbacks.unpack(KINDS, data) == value


@pytest.mark.parametrize("data", ["att:v2:3:off", "att:v1:3:maybe", "uit:v1:2:4:2-0",
                                  "res:v1:1:1:1-0:extra", "swap:v1:zz:yy", "nolink:v3:1",
                                  "rat:v1:1:c1234", "", "att:v1:1234567:off", None])
def test_forged_or_stale_data_reads_as_nothing(data):
    assert callbacks.unpack(KINDS, data) is None


def test_a_value_too_long_for_telegram_is_refused():
    with pytest.raises(ValueError, match="64 bytes"):
        Choose("x" * 70).pack()


def test_no_other_code_builds_or_splits_button_data():
    for path in (ROOT / "bot").rglob("*.py"):
        if path.name == "callbacks.py" or "demo" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"callback_data=f[\"']", text), path
        assert "data.split(" not in text, path
