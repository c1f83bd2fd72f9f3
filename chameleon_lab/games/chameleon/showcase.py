"""Positions that show the rules (the thesis appendix's figures), found or built.

* :func:`role_examples`: one pawn standing on a field of each role, with its targets;
* :func:`shrink_points`: the moves of a game after which the board shrank;
* :func:`deadlock_points`: moves after which the deadlock rule removed a pawn (a pawn
  vanished that was not on the target field).
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import FIELD_COLOUR, Role, role_on, square_name
from .position import Position


def role_examples(knight_colour: int = 0) -> list[tuple[Position, str, Role]]:
    """For each role, a lone RED pawn (knight on ``knight_colour``) on a central field
    where it has that role, against one GREEN pawn far away: (position, square, role)."""
    out = []
    for role in (Role.KNIGHT, Role.QUEEN, Role.BISHOP, Role.ROOK):
        for sq in (27, 28, 35, 36, 19, 20, 43, 44, 26, 29, 34, 37):
            if role_on(int(FIELD_COLOUR[sq]), knight_colour) == role:
                pos = Position.from_pawns(
                    [(0, sq // 8, sq % 8, knight_colour), (1, 0, 7, 0)], to_move=0
                )
                out.append((pos, square_name(sq), role))
                break
    return out


def shrink_points(positions: Sequence[Position]) -> list[int]:
    """Indices ``k`` with ``positions[k]``'s limits smaller than those before it."""
    return [k for k in range(1, len(positions)) if positions[k].limits != positions[k - 1].limits]


def deadlock_points(positions: Sequence[Position]) -> list[int]:
    """Indices ``k`` where more pawns vanished between ``k-1`` and ``k`` than a capture
    explains: the deadlock rule fired on that move."""
    out = []
    for k in range(1, len(positions)):
        before, after = positions[k - 1], positions[k]
        move = before.move_to(after)
        captured = 1 if move.capture else 0
        if len(before.pawns) - len(after.pawns) > captured:
            out.append(k)
    return out
