"""Seatings: the original's designs (checked against its session files) and others."""

from __future__ import annotations

import json
from itertools import product

import pytest

from chameleon_lab.tournament import every_seating, original_seatings, parse_seating
from chameleon_lab.tournament.seatings import check_seatings


@pytest.mark.parametrize(("agents", "games"), [(4, 24), (3, 54), (2, 38), (1, 3)])
def test_original_session_sizes(agents, games):
    """original-semantics.md, section Sessions: 24, 54, 38 and 3 games."""
    names = ["a", "b", "c", "d"][:agents]
    seatings = original_seatings(names)
    assert len(seatings) == games
    assert len(set(seatings)) == games
    assert all(s[0] is not None for s in seatings)
    assert all(sum(x is not None for x in s) >= 2 for s in seatings)
    assert all(set(names) <= set(s) for s in seatings) or agents == 1


def test_original_seatings_match_every_legacy_file(legacy_dir):
    """The order, too: game i of every session file sits as seating i of the design."""
    files = sorted(legacy_dir.glob("*.json"))
    assert len(files) == 32
    for path in files:
        data = json.loads(path.read_text())
        recorded = [tuple(g["players"].get(str(s)) for s in range(4)) for g in data["games"]]
        assert recorded == original_seatings(data["algorithms"]), path.name


def _brute_force(names, players, red):
    """Every assignment of {empty} + names to four seats, filtered by the definition."""
    out = set()
    for seating in product([None, *names], repeat=4):
        occupied = [s for s in seating if s is not None]
        if len(occupied) != players or set(occupied) != set(names):
            continue
        if red and seating[0] is None:
            continue
        out.add(seating)
    return out


@pytest.mark.parametrize(
    ("agents", "players", "red"),
    [
        (2, 2, False),
        (2, 2, True),
        (2, 3, False),
        (2, 4, False),
        (3, 3, False),
        (4, 4, False),
        (3, 4, True),
        (1, 3, False),
    ],
)
def test_every_seating_is_every_seating(agents, players, red):
    names = ["a", "b", "c", "d"][:agents]
    seatings = every_seating(names, players, red_occupied=red)
    assert len(seatings) == len(set(seatings))
    assert set(seatings) == _brute_force(names, players, red)


def test_every_seating_counts_by_hand():
    # two agents at two of four seats: 6 seat pairs x 2 orders; all four seats: 2^4 - 2
    assert len(every_seating(["a", "b"], 2)) == 12
    assert len(every_seating(["a", "b"], 4)) == 14


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: every_seating(["a", "b", "c"], 2), "cannot seat 3 agents"),
        (lambda: every_seating(["a", "b"], 5), "players must be 2, 3 or 4"),
        (lambda: original_seatings(["a", "a"]), "distinct"),
        (lambda: original_seatings(["a", "b", "c", "d", "e"]), "1 to 4"),
        (lambda: parse_seating("a,b,_"), "four seats"),
        (lambda: check_seatings(["a,_,_,_"], ["a"]), "fewer than two"),
        (lambda: check_seatings(["a,zz,_,_"], ["a"]), "unknown agent"),
        (lambda: check_seatings([], ["a"]), "empty"),
    ],
)
def test_impossible_seatings_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_parse_seating_round_trip():
    assert parse_seating("a, b,_,") == ("a", "b", None, None)
    assert parse_seating(["a", None, "_", "b"]) == ("a", None, None, "b")
