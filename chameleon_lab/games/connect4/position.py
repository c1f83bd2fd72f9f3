"""Positions of Connect Four.

Notation
--------
A move is the column a stone is dropped into, as a digit ``1``..``width`` (``1`` is the
leftmost column); the stone falls to the lowest free cell. Reading ignores surrounding
spaces. There is no pass.

JSON
----
``{"game": "connect4", "params": {"width": 7, "height": 6}, "board": [row, ...]}``:
``board`` lists the rows as strings from the top row down, one character per column
from the left: ``.`` an empty cell, ``X`` a stone of player 0 (red, moves first), ``O``
one of player 1 (yellow), read in any case. Who is to move follows from the stone
counts. Boards no game reaches are refused: floating stones, wrong stone counts, both
players with four in a row, a game that went on after a win, or stones that cannot
have been dropped in turn (for example an ``O`` under the only ``X``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ..position import IllegalMoveError, KernelPosition
from . import kernel as K

if TYPE_CHECKING:
    from ..registry import Game

_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))  # (d_col, d_row)
_DIGITS = re.compile(r"[+-]?[0-9]+")
STONES = ("X", "O")


@cache
def fours(width: int, height: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every line of four cells, as ``(col, row)`` pairs (row 0 at the bottom)."""
    out = []
    for c in range(width):
        for r in range(height):
            for dc, dr in _DIRECTIONS:
                cells = tuple((c + i * dc, r + i * dr) for i in range(4))
                if all(0 <= cc < width and 0 <= rr < height for cc, rr in cells):
                    out.append(cells)
    return tuple(out)


def four_lines(grid: list[list[int]], value: int) -> list[tuple[tuple[int, int], ...]]:
    """The lines of four cells all holding ``value`` in ``grid[col][row]``."""
    width, height = len(grid), len(grid[0])
    return [f for f in fours(width, height) if all(grid[c][r] == value for c, r in f)]


def grid_of(state: np.ndarray) -> list[list[int]]:
    """``grid[col][row]`` (row 0 at the bottom): 0 empty, 1 player 0, 2 player 1."""
    w, h = int(state[K.W]), int(state[K.H])
    mover = int(state[K.POSITION])
    mask = int(state[K.MASK])
    p = int(state[K.NMOVES]) & 1
    grid = [[0] * h for _ in range(w)]
    for c in range(w):
        for r in range(h):
            bit = 1 << (c * (h + 1) + r)
            if mask & bit:
                grid[c][r] = (p if mover & bit else 1 - p) + 1
    return grid


def state_of(grid: list[list[int]]) -> np.ndarray:
    """The kernel state of ``grid[col][row]`` (assumed valid; WINNER from the lines)."""
    w, h = len(grid), len(grid[0])
    state = K.new_state(w, h)
    mine = [0, 0]
    n = 0
    for c in range(w):
        for r in range(h):
            v = grid[c][r]
            if v:
                mine[v - 1] |= 1 << (c * (h + 1) + r)
                n += 1
    p = n & 1
    state[K.POSITION] = mine[p]
    state[K.MASK] = mine[0] | mine[1]
    state[K.NMOVES] = n
    winners = [q for q in (0, 1) if four_lines(grid, q + 1)]
    state[K.WINNER] = winners[0] if len(winners) == 1 else -1
    return state


def drop_order(grid: list[list[int]]) -> list[int] | None:
    """Columns in an order that drops exactly the stones of ``grid`` in turn (player 0
    first, alternating, each column bottom up), or None if there is none.

    A depth-first search over the columns' fill heights, the columns whose next stone
    has the colour due tried longest stack first (the column with the most stones still
    to drop constrains the order most), with the dead ends remembered. Four in a row is
    not looked at here.
    """
    w = len(grid)
    stacks = [[v for v in col if v] for col in grid]
    total = sum(len(s) for s in stacks)
    dead: set[tuple[int, ...]] = set()
    heights = [0] * w
    order: list[int] = []

    def search(t: int) -> bool:
        if t == total:
            return True
        key = tuple(heights)
        if key in dead:
            return False
        colour = (t & 1) + 1
        ready = [c for c in range(w) if heights[c] < len(stacks[c])]
        ready = [c for c in ready if stacks[c][heights[c]] == colour]
        ready.sort(key=lambda c: heights[c] - len(stacks[c]))
        for c in ready:
            heights[c] += 1
            order.append(c)
            if search(t + 1):
                return True
            order.pop()
            heights[c] -= 1
        dead.add(key)
        return False

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * total + 100))
    try:
        return order if search(0) else None
    finally:
        sys.setrecursionlimit(limit)


class Connect4Position(KernelPosition):
    """A Connect Four position (see the module docstring for notation and JSON)."""

    __slots__ = ()
    GAME = "connect4"

    @staticmethod
    def dims(game: Game) -> tuple[int, int]:
        """(width, height) of ``game``."""
        return int(game.params["width"]), int(game.params["height"])

    # ---------------------------------------------------------------- reading
    @property
    def width(self) -> int:
        """Number of columns."""
        return int(self._state[K.W])

    @property
    def height(self) -> int:
        """Number of rows."""
        return int(self._state[K.H])

    def grid(self) -> list[list[int]]:
        """``grid[col][row]`` (row 0 at the bottom): 0 empty, 1 player 0, 2 player 1."""
        return grid_of(self._state)

    @property
    def winner(self) -> int | None:
        """The player with four in a row, or None."""
        w = int(self._state[K.WINNER])
        return None if w < 0 else w

    def winning_fours(self) -> list[list[str]]:
        """The winner's lines of four as ``"column:row"`` names (both from 1, row 1 at
        the bottom); ``[]`` if nobody won."""
        w = self.winner
        if w is None:
            return []
        return [[f"{c + 1}:{r + 1}" for c, r in f] for f in four_lines(self.grid(), w + 1)]

    # ------------------------------------------------------------- the hooks
    def move_text(self, code: int) -> str:
        """The column digit ``1``..``width`` of kernel move ``code`` (0 is column 1)."""
        return str(int(code) + 1)

    def move_code(self, text: str) -> int:
        """The column written ``text`` (``1``..``width``; spaces around ignored)."""
        w = self.width
        shape = f"a move is a column digit 1..{w} (1 is the leftmost column)"
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a move: {shape}")
        clean = text.strip()
        if clean.lower() == "pass":
            raise ValueError(f"{text!r}: there is no pass in Connect Four; {shape}")
        if not _DIGITS.fullmatch(clean):
            raise ValueError(f"{text!r} is not a move: {shape}")
        col = int(clean)
        if not 1 <= col <= w:
            raise ValueError(f"column {clean} is off the board: {shape}")
        code = col - 1
        top = 1 << (code * (self.height + 1) + self.height - 1)
        if int(self._state[K.MASK]) & top and not self.is_over:
            free = [str(m) for m in self.legal_moves]
            raise IllegalMoveError(f"column {col} is full; columns with room: {', '.join(free)}")
        return code

    def state_to_json(self) -> dict[str, Any]:
        """``{"board": rows from the top down}`` (see the module docstring)."""
        chars = (".", *STONES)
        grid = self.grid()
        rows = []
        for r in reversed(range(self.height)):
            rows.append("".join(chars[grid[c][r]] for c in range(self.width)))
        return {"board": rows}

    @classmethod
    def state_from_json(cls, game: Game, obj: Mapping[str, Any]) -> np.ndarray:
        """The state of a ``{"board": [...]}`` object (checked by :meth:`check_state`)."""
        w, h = cls.dims(game)
        shape = (
            f"board is a list of {h} strings of {w} characters each, from the top row "
            "down, '.' for an empty cell, 'X' and 'O' for the stones"
        )
        extra = sorted(set(obj) - {"game", "params", "board"})
        if extra:
            raise ValueError(f"unknown field(s) {', '.join(map(repr, extra))}; {shape}")
        if "board" not in obj:
            raise ValueError(f'a connect4 position needs "board": {shape}')
        board = obj["board"]
        if not isinstance(board, (list, tuple)) or not all(isinstance(r, str) for r in board):
            raise ValueError(f"board {board!r} is malformed: {shape}")
        if len(board) != h:
            raise ValueError(f"board has {len(board)} rows, the {w} x {h} board {h}: {shape}")
        values = {".": 0, "X": 1, "O": 2}
        grid = [[0] * h for _ in range(w)]
        for i, text in enumerate(board):
            row = h - 1 - i
            if len(text) != w:
                raise ValueError(
                    f"board row {i + 1} from the top {text!r} has {len(text)} characters, "
                    f"not {w}: {shape}"
                )
            for c, ch in enumerate(text):
                v = values.get(ch.upper())
                if v is None:
                    raise ValueError(
                        f"board row {i + 1} from the top has the unknown character {ch!r} "
                        f"in column {c + 1}: {shape}"
                    )
                grid[c][row] = v
        for c in range(w):
            for r in range(1, h):
                if grid[c][r] and not grid[c][r - 1]:
                    raise ValueError(
                        f"column {c + 1} has a floating stone in row {r + 1} from the bottom "
                        f"above an empty cell: stones fall to the lowest free cell"
                    )
        cls._check_grid(grid, game.info.player_names)
        return state_of(grid)

    @classmethod
    def _check_grid(cls, grid: list[list[int]], names: tuple[str, ...]) -> None:
        """``ValueError`` unless the stones of ``grid`` (gravity already checked) can be
        dropped in turn without the game ending early."""
        flat = [v for col in grid for v in col]
        n0, n1 = flat.count(1), flat.count(2)
        if n1 > n0:
            raise ValueError(
                f"{names[1]} (O) has more stones ({n1}) than {names[0]} (X, {n0}), but "
                f"{names[0]} moves first: the players alternate, so that cannot happen"
            )
        if n0 > n1 + 1:
            raise ValueError(
                f"{names[0]} (X) has {n0} stones and {names[1]} (O) only {n1}: the players "
                f"alternate, so {names[0]} is at most one stone ahead"
            )
        lines = [four_lines(grid, 1), four_lines(grid, 2)]
        if lines[0] and lines[1]:
            raise ValueError(
                f"both {names[0]} and {names[1]} have four in a row: the game ends at the first one"
            )
        winner = 0 if lines[0] else 1 if lines[1] else -1
        if winner < 0:
            if drop_order(grid) is None:
                raise ValueError(cls._no_order(n0, n1))
            return
        if (n0 - n1) != (1 if winner == 0 else 0):
            other = names[1 - winner]
            raise ValueError(
                f"{names[winner]} has four in a row but {other} has played since "
                f"({names[0]} {n0} stones, {names[1]} {n1}): the game went on after a win"
            )
        stone = winner + 1
        last_ok = False
        for col in grid:
            top = sum(1 for v in col if v) - 1
            if top < 0 or col[top] != stone:
                continue
            col[top] = 0
            try:
                if four_lines(grid, stone):
                    continue  # a four without this stone: it was not the last
                last_ok = True
                if drop_order(grid) is not None:
                    return
            finally:
                col[top] = stone
        if not last_ok:
            raise ValueError(
                f"{names[winner]}'s four(s) in a row cannot all have been completed by "
                "the last stone dropped (the top stone of a column): the game went on "
                "after a win"
            )
        raise ValueError(cls._no_order(n0, n1))

    @staticmethod
    def _no_order(n0: int, n1: int) -> str:
        return (
            f"the stones ({n0} X, {n1} O) cannot have been dropped in turn, X first, each "
            "column filled from the bottom: no game reaches this board"
        )

    @classmethod
    def check_state(cls, game: Game, state: np.ndarray) -> None:
        """``ValueError`` naming what is wrong when ``state`` cannot arise in ``game``."""
        w, h = cls.dims(game)
        if state.ndim != 1 or state.size != K.STATE_SIZE:
            raise ValueError(
                f"a connect4 state has {K.STATE_SIZE} entries, got shape {state.shape}"
            )
        header = (int(state[K.W]), int(state[K.H]))
        if header != (w, h):
            raise ValueError(f"the state is for width, height = {header}, the game has {(w, h)}")
        fixed = K.new_state(w, h)
        for field, name in ((K.BOTTOM, "bottom"), (K.BOARD, "board"), (K.SALT, "salt")):
            if state[field] != fixed[field]:
                raise ValueError(f"the state's {name} field does not match the {w} x {h} board")
        mask = int(state[K.MASK])
        mover = int(state[K.POSITION])
        if mask < 0 or mask & ~int(fixed[K.BOARD]):
            raise ValueError("the state's mask has bits outside the board")
        if mover & ~mask:
            raise ValueError("the state's position has stones outside its mask")
        # gravity: every column's stones are a run from the bottom
        for c in range(w):
            col = (mask >> (c * (h + 1))) & ((1 << (h + 1)) - 1)
            if col & (col + 1):
                raise ValueError(
                    f"column {c + 1} has a floating stone: stones fall to the lowest free cell"
                )
        n = bin(mask).count("1")
        if int(state[K.NMOVES]) != n:
            raise ValueError(f"the state counts {int(state[K.NMOVES])} stones, the mask {n}")
        grid = grid_of(state)
        cls._check_grid(grid, game.info.player_names)
        winners = [q for q in (0, 1) if four_lines(grid, q + 1)]
        winner = winners[0] if winners else -1
        if int(state[K.WINNER]) != winner:
            said = "nobody" if state[K.WINNER] < 0 else repr(int(state[K.WINNER]))
            won = "nobody" if winner < 0 else game.info.player_names[winner]
            raise ValueError(f"the state's winner field says {said}, the board says {won} won")

    # ---------------------------------------------------------------- picture
    def svg(self, size: int = 300) -> str:
        """An SVG picture: the blue board with round holes, red (player 0) and yellow
        (player 1) discs, the column numbers under it, the winning four(s) ringed."""
        w, h = self.width, self.height
        cell = 40.0
        margin = 12.0
        foot = 22.0
        vw = 2 * margin + w * cell
        vh = 2 * margin + h * cell + foot
        scale = size / max(vw, vh)
        names = self._game.info.player_names
        if self.winner is not None:
            title = f"connect4: {names[self.winner]} won"
        elif self.is_over:
            title = "connect4: draw"
        else:
            title = f"connect4: {names[self.to_move]} to move"

        def cx(col: int) -> float:
            return margin + (col + 0.5) * cell

        def cy(row: int) -> float:  # row 0 at the bottom
            return margin + (h - 1 - row + 0.5) * cell

        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{vw * scale:.0f}" '
            f'height="{vh * scale:.0f}" viewBox="0 0 {vw:g} {vh:g}" '
            'font-family="DejaVu Sans, Arial, sans-serif">',
            f"<title>{title}</title>",
            f'<rect x="0" y="0" width="{vw:g}" height="{vh:g}" fill="white"/>',
            f'<rect x="{margin - 6:g}" y="{margin - 6:g}" width="{w * cell + 12:g}" '
            f'height="{h * cell + 12:g}" rx="10" fill="#1d4fb8" stroke="#123a8c" '
            'stroke-width="2"/>',
        ]
        colours = {0: "#ffffff", 1: "#d7261e", 2: "#f5d000"}
        edges = {0: "#123a8c", 1: "#8e1510", 2: "#b39700"}
        grid = self.grid()
        for c in range(w):
            for r in range(h):
                v = grid[c][r]
                parts.append(
                    f'<circle cx="{cx(c):g}" cy="{cy(r):g}" r="{cell * 0.4:g}" '
                    f'fill="{colours[v]}" stroke="{edges[v]}" stroke-width="1.5"/>'
                )
        if self.winner is not None:
            for line in four_lines(grid, self.winner + 1):
                for c, r in line:
                    parts.append(
                        f'<circle cx="{cx(c):g}" cy="{cy(r):g}" r="{cell * 0.3:g}" '
                        'fill="none" stroke="white" stroke-width="3" class="win"/>'
                    )
                (c0, r0), (c1, r1) = line[0], line[-1]
                parts.append(
                    f'<line x1="{cx(c0):g}" y1="{cy(r0):g}" x2="{cx(c1):g}" y2="{cy(r1):g}" '
                    'stroke="white" stroke-width="4" stroke-linecap="round" opacity="0.8"/>'
                )
        font = 14.0
        for c in range(w):
            parts.append(
                f'<text x="{cx(c):g}" y="{margin + h * cell + 6 + font:g}" font-size="{font:g}" '
                f'text-anchor="middle" fill="#333">{c + 1}</text>'
            )
        parts.append("</svg>")
        return "\n".join(parts)
