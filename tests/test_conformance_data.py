"""The rules against data recorded from the original program (shared/conformance)."""

from __future__ import annotations

import json

import pytest

from chameleon_lab.games.chameleon import Colour, Position, all_seatings


def test_every_recorded_position_yields_the_recorded_successors_in_order(successor_records):
    assert len(successor_records) == 1000
    mismatches = []
    for i, rec in enumerate(successor_records):
        got = [s.to_compact() for s in Position.from_legacy(rec["state"]).successors()]
        if got != rec["successors"]:
            mismatches.append(i)
    assert mismatches == []


def test_start_positions_and_perft_match_perft_json(conformance_dir):
    records = json.loads((conformance_dir / "perft.json").read_text())
    assert len(records) == len(all_seatings()) == 11
    for seating, rec in zip(all_seatings(), records, strict=True):
        assert [int(c in seating) for c in Colour] == rec["players"]
        start = Position.start(seating)
        assert start.to_legacy() == rec["state"]
        assert [start.perft(d) for d in range(1, 6)] == rec["perft"], seating


def test_legacy_positions_round_trip_and_follow_each_other_by_legal_moves(legacy_sessions):
    """Every recorded position converts both ways unchanged, and each follows its
    predecessor by exactly one legal move, so the rules explain every recorded game."""
    positions = 0
    for name, session in legacy_sessions.items():
        for g, game in enumerate(session["games"]):
            previous = None
            for k, obj in enumerate(game["gameStates"]):
                pos = Position.from_legacy(obj)
                assert pos.to_legacy() == obj, (name, g, k)
                if previous is not None:
                    previous.move_to(pos)  # raises if no legal move leads there
                previous = pos
                positions += 1
    assert positions > 10_000


@pytest.mark.parametrize("index", [0, 1, 500, 999])
def test_compact_round_trip(successor_records, index):
    for text in successor_records[index]["successors"]:
        assert Position.from_compact(text).to_compact() == text
