"""Issue 35: how the hosts alive share a database's clubs (`bot.telegram.host.share`)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from bot.telegram.host import share

CLUBS = st.sets(st.integers(1, 10_000), max_size=60)
HOSTS = st.lists(st.text("abcdef0123456789-", min_size=1, max_size=12), min_size=1,
                 max_size=6, unique=True)


@given(CLUBS, HOSTS)
def test_each_club_runs_on_one_host_alive_and_none_more_than_its_even_share(clubs, hosts):
    shared = share(clubs, hosts)
    assert set(shared) == clubs and set(shared.values()) <= set(hosts)
    room = -(-len(clubs) // len(hosts))
    assert max(Counter(shared.values()).values(), default=0) <= room


@given(CLUBS, HOSTS, st.randoms(use_true_random=False))
def test_every_host_works_out_the_same(clubs, hosts, rng):
    """Each host lists the clubs and the hosts in its own order: the share is the same."""
    shuffled_clubs, shuffled_hosts = list(clubs), list(hosts)
    rng.shuffle(shuffled_clubs)
    rng.shuffle(shuffled_hosts)
    assert share(shuffled_clubs, shuffled_hosts) == share(clubs, hosts)


def test_twelve_clubs_on_three_hosts_are_four_each_and_a_host_gone_leaves_its_own_only():
    hosts = ["host-a", "host-b", "host-c"]
    shared = share(range(1, 13), hosts)
    assert sorted(Counter(shared.values()).values()) == [4, 4, 4]
    after = share(range(1, 13), hosts[:2])
    assert sorted(Counter(after.values()).values()) == [6, 6]
    assert all(after[club] == host for club, host in shared.items() if host != "host-c")


def test_no_host_alive_runs_nothing():
    assert share([1, 2], []) == {}
