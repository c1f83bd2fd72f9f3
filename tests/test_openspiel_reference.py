"""Our rules and our alpha-beta against OpenSpiel's, on positions OpenSpiel's own random
play reached (``tests/data/openspiel_alphabeta.txt``, written by
:func:`chameleon_lab.bench.games.write_openspiel_reference`; OpenSpiel need not be
installed to run these tests).

Every recorded action must be legal for us too; our plain alpha-beta with OpenSpiel's
constant evaluation must find OpenSpiel's value (TicTacToe to the end: the exact
value; at a fixed depth: whether a player forces a win within it); and on Othello,
where both generate moves in square order, it must visit exactly OpenSpiel's nodes:
the same alpha-beta (fail-soft, cut-off at alpha >= beta) over the same tree.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from chameleon_lab.bench.games import _openspiel_action
from chameleon_lab.games import get_game
from chameleon_lab.games.heuristics import uniform_two
from chameleon_lab.search.api import search

DATA = Path(__file__).parent / "data" / "openspiel_alphabeta.txt"
OURS = {"tic_tac_toe": "tictactoe", "connect_four": "connect4", "othello": "othello"}


def _rows():
    rows = []
    for line in DATA.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        game, depth, value, nodes, *actions = line.split()
        actions = [] if actions == ["-"] else [int(a) for a in actions]
        depth = None if depth == "end" else int(depth)
        rows.append((game, depth, float(value), int(nodes), actions))
    return rows


ROWS = _rows()


def _position(game, actions):
    pos = get_game(OURS[game]).start()
    for action in actions:
        by_action = {_openspiel_action(OURS[game], m): m for m in pos.legal_moves}
        assert action in by_action, (
            f"{game}: OpenSpiel's action {action} is not legal for us after {actions}"
        )
        pos = pos.play(by_action[action])
    return pos


def test_the_reference_covers_every_game_and_both_kinds_of_value():
    games = {row[0] for row in ROWS}
    assert games == set(OURS)
    assert {np.sign(row[2]) for row in ROWS if row[0] == "othello"} == {-1, 0, 1}
    assert any(64 in row[4] for row in ROWS if row[0] == "othello")  # passes too


@pytest.mark.parametrize("game", sorted(OURS))
def test_alpha_beta_finds_openspiel_s_values(game):
    rows = [row for row in ROWS if row[0] == game]
    mismatches = []
    for _, depth, value, nodes, actions in rows:
        pos = _position(game, actions)
        heuristic = None if depth is None else uniform_two
        result = search(pos, "alphabeta", depth=depth or 9, iterative=False, heuristic=heuristic)
        ours = np.sign(result.scores[result.index])  # both: the mover's value
        if ours != np.sign(value):
            mismatches.append((depth, actions, value, ours))
        if game == "othello" and result.nodes != nodes:
            mismatches.append((depth, actions, "nodes", nodes, result.nodes))
    assert not mismatches, mismatches[:5]
