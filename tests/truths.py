"""Independent truths for the small games: exact game values by plain-Python solvers.

Each solver is written from the rules in ``shared/conformance/CONTRACT.md`` (section
"Other games") and nothing else: it never imports the library, so a test comparing the
library's kernels or searches with these values compares two separate implementations.

Values are for the player to move: +1 win, 0 draw, -1 loss with perfect play.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache


# --------------------------------------------------------------------------- NIM
def nim_value(heaps: Sequence[int], misere: bool) -> int:
    """The value of NIM with ``heaps`` on the table for the player to move.

    Written from the rules, independent of the library: a move takes one or more objects
    from one heap; in normal play whoever takes the last object wins, in misère play
    whoever takes it loses. With every heap empty the game is over: the player to move
    did not take the last object, so has lost (normal) or won (misère). There are no
    draws. Heaps are sorted before the memoised search (the value does not depend on
    their order), which keeps the memo small.
    """
    return _nim(tuple(sorted(int(h) for h in heaps)), bool(misere))


@cache
def _nim(heaps: tuple[int, ...], misere: bool) -> int:
    if sum(heaps) == 0:
        return 1 if misere else -1
    best = -1
    for i, size in enumerate(heaps):
        for rest in range(size):  # take size - rest >= 1 objects
            child = tuple(sorted((*heaps[:i], rest, *heaps[i + 1 :])))
            best = max(best, -_nim(child, misere))
            if best == 1:
                return 1
    return best


# -------------------------------------------------------------------- dice tipping
def dice_value(target: int, start: int) -> int:
    """The value of dice tipping from the start face ``start`` for the first player.

    Written from the rules (Würfelkippen, seed 001), independent of the library: the sum
    starts at the start face, which is on top; a tip brings up one of the four side faces
    (not the top face, not the bottom one, ``7 - top``) and adds it to the sum; the sum may
    not pass the target; whoever brings the sum to the target exactly wins; a player with
    no legal tip ends the game in a draw. A start face at or above the target allows no
    tip, so that game is a draw at once.
    """
    return _dice_mover(int(target), int(start), int(start))


def dice_position_value(target: int, total: int, top: int) -> int:
    """The value for the player to move after at least one tip, with sum ``total`` and
    ``top`` on top (-1 when the opponent's tip has just reached the target)."""
    if total == target:
        return -1
    return _dice_mover(int(target), int(total), int(top))


def _dice_mover(target: int, total: int, top: int) -> int:
    """Value for the player to move at sum ``total`` with ``top`` on top (the target
    not reached yet)."""
    if total >= target:
        return 0  # only a start at or above the target gets here: no tip is possible
    return _dice_table(target)[total][top]


@cache
def _dice_table(target: int) -> list[list[int]]:
    """``table[total][top]``: the value for the player to move at sum ``total < target``
    with ``top`` on top, worked out from the largest sums down (no deep recursion)."""
    table = [[0] * 7 for _ in range(target)]
    for total in range(target - 1, 0, -1):
        for top in range(1, 7):
            faces = [f for f in range(1, 7) if f != top and f != 7 - top and total + f <= target]
            if not faces:
                table[total][top] = 0  # no legal tip: a draw
                continue
            # reaching the target wins; otherwise the opponent moves at the new sum
            table[total][top] = max(
                1 if total + f == target else -table[total + f][f] for f in faces
            )
    return table


# ------------------------------------------------------------------------ TicTacToe
def tictactoe_value(rows: Sequence[str]) -> int:
    """The value of a TicTacToe board for the side to move (X when the marks are equal).

    ``rows`` are three strings of ``X``, ``O`` and ``.`` (any row order: the value does
    not depend on it). TicTacToe is the 3,3,3-game: :func:`mnk_value` with ``k = 3``.
    """
    return mnk_value(rows, 3)


# ------------------------------------------------------------------ m,n,k-games
def mnk_value(rows: Sequence[str], k: int, marks: str = "XO") -> int:
    """The value of an m,n,k-game board for the side to move (the first player, whose
    mark is ``marks[0]``, when the marks are equal).

    ``rows`` are equal-length strings of the two ``marks`` and ``.`` (any row order;
    Five-in-a-row writes ``B`` and ``W``, black moving first). Written
    from the rules, independent of the library: ``k`` or more marks of one player in a
    row, across, up or along a diagonal, win; a full board is a draw. A board where
    someone has already won is valued for the side to move, who has lost. Plain memoised
    minimax over the board as a string: for boards of up to about 16 cells.
    """
    width = len(rows[0])
    cells = "".join(rows).upper().replace(marks[0], "X").replace(marks[1], "O")
    return _mnk(cells, width, len(rows), k)


def _k_in_a_row(cells: str, width: int, height: int, k: int, mark: str) -> bool:
    for row in range(height):
        for col in range(width):
            for dcol, drow in ((1, 0), (0, 1), (1, 1), (1, -1)):
                run = 0
                r, c = row, col
                while 0 <= r < height and 0 <= c < width and cells[r * width + c] == mark:
                    run += 1
                    r += drow
                    c += dcol
                if run >= k:
                    return True
    return False


@cache
def _mnk(cells: str, width: int, height: int, k: int) -> int:
    mover = "X" if cells.count("X") == cells.count("O") else "O"
    other = "O" if mover == "X" else "X"
    if _k_in_a_row(cells, width, height, k, other):
        return -1
    if "." not in cells:
        return 0
    best = -1
    for i, c in enumerate(cells):
        if c == ".":
            best = max(best, -_mnk(cells[:i] + mover + cells[i + 1 :], width, height, k))
            if best == 1:
                break
    return best
