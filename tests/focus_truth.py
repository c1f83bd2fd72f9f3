"""Focus written from its rules in plain Python, independent of the library (it imports
nothing of it), so a test comparing the kernel with it compares two implementations.

The rules (Sackson's Focus, with the short game's goals the multi-player papers use):
an 8 x 8 board without the three squares of each corner; rows from the top. A player
takes the top ``k`` pieces of a stack whose top piece is its own (``k`` from 1 to the
stack's height) and moves them exactly ``k`` squares up, down, left or right (jumping
whatever lies between) onto a square of the board, on top of whatever is there; or it
puts one piece from its reserve on any square. A stack taller than five loses pieces
from its bottom until five are left: the mover's own pieces go to its reserve, the
others' count as its captures. Players move in turn, skipping those who can do
nothing. The mover wins when no other player can move, or (short game) when it has
captured ``each`` pieces of every opponent or ``total`` in all.

A position here is a dict: ``board`` maps ``(row, col)`` to the list of owners from
the bottom up, ``reserve`` and ``captured`` (``captured[p][q]``) count pieces,
``side`` is the player to move.
"""

from __future__ import annotations

import copy

GOALS = {2: (6, 6), 3: (3, 10), 4: (2, 10)}


def on_board(r: int, c: int) -> bool:
    """All squares but the three at each corner."""
    if not (0 <= r < 8 and 0 <= c < 8):
        return False
    corner_r, corner_c = min(r, 7 - r), min(c, 7 - c)
    return not ((corner_r == 0 and corner_c <= 1) or (corner_c == 0 and corner_r <= 1))


def new_game(layout: dict[tuple[int, int], int], players: int) -> dict:
    return {
        "board": {sq: [p] for sq, p in layout.items()},
        "reserve": [0] * players,
        "captured": [[0] * players for _ in range(players)],
        "side": 0,
        "players": players,
    }


def legal(pos: dict) -> list[tuple]:
    """The moves of the player to move: ``("move", from, to, k)`` and ``("enter", to)``."""
    side, out = pos["side"], []
    for (r, c), stack in pos["board"].items():
        if stack and stack[-1] == side:
            for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
                for k in range(1, len(stack) + 1):
                    if on_board(r + k * dr, c + k * dc):
                        out.append(("move", (r, c), (r + k * dr, c + k * dc), k))
    if pos["reserve"][side]:
        out += [("enter", (r, c)) for r in range(8) for c in range(8) if on_board(r, c)]
    return out


def can_move(pos: dict, p: int) -> bool:
    return pos["reserve"][p] > 0 or any(s and s[-1] == p for s in pos["board"].values())


def play(pos: dict, move: tuple, short: bool = True) -> tuple[dict, int | None]:
    """The position after ``move`` and the winner it makes, if any."""
    pos = copy.deepcopy(pos)
    side, board = pos["side"], pos["board"]
    if move[0] == "enter":
        pos["reserve"][side] -= 1
        moving, to = [side], move[1]
    else:
        _, frm, to, k = move
        moving = board[frm][-k:]
        board[frm] = board[frm][:-k]
        if not board[frm]:
            del board[frm]
    stack = board.get(to, []) + moving
    while len(stack) > 5:
        bottom = stack.pop(0)
        if bottom == side:
            pos["reserve"][side] += 1
        else:
            pos["captured"][side][bottom] += 1
    board[to] = stack
    n = pos["players"]
    others = [(side + i) % n for i in range(1, n)]
    able = [p for p in others if can_move(pos, p)]
    winner = None
    row = pos["captured"][side]
    each, total = GOALS[n]
    if not able or (short and (min(row[q] for q in others) >= each or sum(row) >= total)):
        winner = side
    pos["side"] = able[0] if able else side
    return pos, winner


def perft(pos: dict, depth: int) -> int:
    """Leaves ``depth`` plies deep (a won position is a leaf)."""
    if depth == 0:
        return 1
    total = 0
    for move in legal(pos):
        child, winner = play(pos, move)
        total += 1 if winner is not None else perft(child, depth - 1)
    return total
