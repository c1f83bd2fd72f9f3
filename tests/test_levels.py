"""The seed programs' level tournaments and the opening values of Connect Four."""

from __future__ import annotations

import pytest

from chameleon_lab.analysis.levels import (
    connect4_levels_session,
    opening_values,
    reversi_levels_session,
)
from chameleon_lab.games.connect4.levels import level_depth


def test_level_sessions_are_round_robins_of_the_seed_agents():
    c4 = connect4_levels_session([1, 3], [1, 5])
    names = ["L1A1", "L1A5", "L3A1", "L3A5"]
    assert list(c4.agents) == names
    assert len(c4.seating_list()) == 4 * 3  # every ordered pair
    assert c4.agents["L3A5"]["depth"] == level_depth(3) == 6
    rev = reversi_levels_session(["easy", "hard"])
    assert rev.game_params == {"variant": "reversi"}
    assert rev.seating_list() == [("easy", "hard"), ("hard", "easy")]
    with pytest.raises(ValueError, match=r"aggressiveness must be a whole number 1\.\.5"):
        connect4_levels_session([1], [6])


def test_opening_values_are_the_negated_values_of_the_positions_after_them():
    from chameleon_lab.games import get_game
    from chameleon_lab.search.solve import solve

    values = opening_values(4, 4, method="generic")
    start = get_game("connect4", width=4, height=4).start()
    assert values["move"].tolist() == [str(m) for m in start.legal_moves]
    for move, value in zip(values["move"], values["value"], strict=True):
        assert value == -solve(start.play(move), method="generic").value
    # the first player's best first move is worth the start position's value
    assert values["value"].max() == solve(start, method="generic").value


def test_level_tournaments_play_game_pairs_on_distinct_openings():
    session = connect4_levels_session([1, 2], [3], repetitions=3)
    tasks = list(session.tasks())
    openings = {t.repetition: t.opening_moves for t in tasks}
    assert len(set(openings.values())) == 3 and all(len(o) == 2 for o in openings.values())
    for block in range(3):
        games = [t.seating for t in tasks if t.repetition == block]
        assert sorted(games) == [("L1A3", "L2A3"), ("L2A3", "L1A3")]
    with pytest.raises(ValueError, match="give opening_plies >= 1"):
        reversi_levels_session(["easy", "hard"], opening_plies=0)
