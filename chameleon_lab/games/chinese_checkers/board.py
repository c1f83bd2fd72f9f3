"""The star board of Chinese Checkers: its holes, their names and the tables the kernel
reads (neighbours, hops, triangles, distances), built once in Python.

A star of triangle side ``n`` (``n = 4`` the standard board of 121 holes, ``3`` one of
73, ``2`` one of 37) is the set of cube coordinates ``(x, y, z)``, ``x + y + z = 0``,
at most ``2n`` from the centre, of which at most one is farther than ``n``: a hexagon
of side ``n + 1`` with a triangle of ``n (n + 1) / 2`` holes on each of its six edges.
The rows of the picture run along ``z``: row 0 (``z = -2n``) is the top tip, row ``4n``
the bottom one; within a row the holes run left to right by ``x``.

The six triangles (corners) are numbered clockwise from the top: 0 north (``z < -n``),
1 north-east (``x > n``), 2 south-east (``y < -n``), 3 south (``z > n``), 4 south-west
(``x < -n``), 5 north-west (``y > n``); corner ``k``'s opposite is ``(k + 3) % 6``.

Holes are numbered in reading order (row by row from the top, left to right), and named
by the row's letter (``a`` the top tip) and the hole's place in the row from the left
(``1`` ..): the top tip is ``a1``, the widest row of the standard board ``e1`` ..
``e13``.
"""

from __future__ import annotations

from functools import cache

import numpy as np

#: The board sizes (triangle sides) the game offers, and the largest.
SIZES = (2, 3, 4)
MAX_SIZE = 4
#: Holes of the largest board, and the pieces a player has on it.
MAX_CELLS = 121
MAX_PIECES = 10
#: The six directions of a hex grid in cube coordinates.
DIRECTIONS = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))
CORNER_NAMES = ("north", "north-east", "south-east", "south", "south-west", "north-west")


def corner_of(cell: tuple[int, int, int], n: int) -> int:
    """The triangle (corner 0..5) holding the cube coordinate ``cell``, -1 the hexagon."""
    x, y, z = cell
    for corner, test in enumerate((z < -n, x > n, y < -n, z > n, x < -n, y > n)):
        if test:
            return corner
    return -1


def tip(corner: int, n: int) -> tuple[int, int, int]:
    """The far tip of triangle ``corner``."""
    return ((n, n, -2 * n), (2 * n, -n, -n), (n, -2 * n, n),
            (-n, -n, 2 * n), (-2 * n, n, n), (-n, 2 * n, -n))[corner]  # fmt: skip


def distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
    """Steps between two holes of the hex grid."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))


@cache
def holes(n: int) -> tuple[tuple[int, int, int], ...]:
    """The holes of the star of side ``n`` in reading order, as cube coordinates."""
    out = []
    for z in range(-2 * n, 2 * n + 1):
        for x in range(-2 * n, 2 * n + 1):
            y = -x - z
            far = sum(abs(v) > n for v in (x, y, z))
            if max(abs(x), abs(y), abs(z)) <= 2 * n and far <= 1:
                out.append((x, y, z))
    return tuple(out)


@cache
def names(n: int) -> tuple[str, ...]:
    """Each hole's name (row letter, place in the row), by hole number."""
    out, row, place = [], None, 0
    for _x, _y, z in holes(n):
        if z != row:
            row, place = z, 0
        place += 1
        out.append(f"{chr(ord('a') + z + 2 * n)}{place}")
    return tuple(out)


def pieces(n: int) -> int:
    """Pieces a player has on the board of side ``n`` (its triangle's holes)."""
    return n * (n + 1) // 2


def _tables(n: int) -> dict[str, np.ndarray]:
    cells = holes(n)
    index = {c: i for i, c in enumerate(cells)}
    neigh = np.full((MAX_CELLS, 6), -1, dtype=np.int64)
    jump = np.full((MAX_CELLS, 6), -1, dtype=np.int64)
    corner = np.full(MAX_CELLS, -1, dtype=np.int64)
    dist = np.zeros((6, MAX_CELLS), dtype=np.int64)
    members = np.full((6, MAX_PIECES), -1, dtype=np.int64)
    filled = [0] * 6
    for i, c in enumerate(cells):
        for d, (dx, dy, dz) in enumerate(DIRECTIONS):
            neigh[i, d] = index.get((c[0] + dx, c[1] + dy, c[2] + dz), -1)
            jump[i, d] = index.get((c[0] + 2 * dx, c[1] + 2 * dy, c[2] + 2 * dz), -1)
        k = corner_of(c, n)
        corner[i] = k
        if k >= 0:
            members[k, filled[k]] = i
            filled[k] += 1
        for k in range(6):
            dist[k, i] = distance(c, tip(k, n))
    return {"neigh": neigh, "jump": jump, "corner": corner, "dist": dist, "members": members}


def stacked() -> dict[str, np.ndarray]:
    """The kernel's tables for every size, stacked on a first axis ``size - 2``: ``neigh``
    and ``jump`` (the hole one and two steps away in each direction, -1 off the board),
    ``corner`` (each hole's triangle, -1 the hexagon), ``dist`` (steps from each hole to
    each triangle's tip) and ``members`` (each triangle's holes)."""
    per = [_tables(n) for n in SIZES]
    return {name: np.stack([t[name] for t in per]) for name in per[0]}


#: The corners the players sit at, by player count (clockwise, so also the order of
#: play): two face each other, three take every other corner, four two facing pairs.
SEATS = {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4)}
