"""Positions of the m,n,k-games: TicTacToe and Five-in-a-row (gomoku).

Notation
--------
A move names the empty cell a stone (a mark) goes on: its file letter from the left
edge (``a``, ``b``, ...) and its rank number from the bottom edge (``1`` is the bottom
row), e.g. ``a1``, ``c3``, ``g7``. Reading ignores case and surrounding spaces
(``" C3 "`` is ``c3``).

JSON
----
``{"game": ..., "params": {...}, "board": [row, ...]}``: ``board`` lists the rows as
strings from the top rank down to rank 1, one character per file from ``a``: ``.``
an empty cell, and the first and second player's stones as ``X`` and ``O`` in
TicTacToe, ``B`` (black) and ``W`` (white) in gomoku (read in any case). Who is to
move follows from the stone counts (the first player when both have as many stones).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..position import IllegalMoveError, KernelPosition
from . import kernel as K

if TYPE_CHECKING:
    from ..registry import Game

_MOVE_RE = re.compile(r"([a-z])([0-9]+)")
_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))  # (d_col, d_row)


def file_letter(col: int) -> str:
    """The file letter of column ``col`` (0 is ``a``)."""
    return chr(ord("a") + col)


def cell_name(cell: int, width: int) -> str:
    """The notation of cell ``row * width + col`` (row 0 is rank 1)."""
    return f"{file_letter(cell % width)}{cell // width + 1}"


def rows_of(grid: list[list[int]], k: int, value: int) -> list[list[tuple[int, int]]]:
    """The maximal lines of ``k`` or more cells holding ``value`` in ``grid[row][col]``
    (row 0 is rank 1), each as its (row, col) cells in order."""
    height = len(grid)
    width = len(grid[0]) if height else 0
    found = []
    for dc, dr in _DIRECTIONS:
        for r in range(height):
            for c in range(width):
                if grid[r][c] != value:
                    continue
                pr, pc = r - dr, c - dc
                if 0 <= pr < height and 0 <= pc < width and grid[pr][pc] == value:
                    continue  # inside a line counted from its start
                cells = []
                rr, cc = r, c
                while 0 <= rr < height and 0 <= cc < width and grid[rr][cc] == value:
                    cells.append((rr, cc))
                    rr += dr
                    cc += dc
                if len(cells) >= k:
                    found.append(cells)
    return found


class MnkPosition(KernelPosition):
    """A position of an m,n,k-game (see the module docstring for notation and JSON)."""

    __slots__ = ()

    #: Board characters of the first and second player's stones.
    STONES: ClassVar[tuple[str, str]] = ("X", "O")

    @classmethod
    def dims(cls, game: Game) -> tuple[int, int, int]:
        """(width, height, k) of ``game``."""
        p = game.params
        return int(p["width"]), int(p["height"]), int(p["k"])

    # ---------------------------------------------------------------- reading
    @property
    def width(self) -> int:
        """Number of files."""
        return int(self._state[K.W])

    @property
    def height(self) -> int:
        """Number of ranks."""
        return int(self._state[K.H])

    @property
    def k(self) -> int:
        """Stones in a row that win (k or more)."""
        return int(self._state[K.K])

    def grid(self) -> list[list[int]]:
        """``grid[row][col]``: 0 empty, 1 first player, 2 second player; row 0 is rank 1."""
        w, h = self.width, self.height
        cells = self._state[K.CELLS :].tolist()
        return [cells[r * w : (r + 1) * w] for r in range(h)]

    def winning_rows(self) -> list[list[str]]:
        """The winner's lines of k or more (cell names in order); ``[]`` if nobody won."""
        winner = int(self._state[K.WINNER])
        if winner < 0:
            return []
        lines = rows_of(self.grid(), self.k, winner + 1)
        return [[f"{file_letter(c)}{r + 1}" for r, c in line] for line in lines]

    # ------------------------------------------------------------- the hooks
    def move_text(self, code: int) -> str:
        """``a1``-style name of cell ``code`` (file letter, rank from the bottom)."""
        return cell_name(int(code), self.width)

    def move_code(self, text: str) -> int:
        """The cell named ``text`` (any case, spaces around ignored)."""
        w, h = self.width, self.height
        shape = (
            f"a move names an empty cell by its file letter a..{file_letter(w - 1)} "
            f"(from the left) and rank 1..{h} (from the bottom), such as 'a1'"
        )
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a move: {shape}")
        match = _MOVE_RE.fullmatch(text.strip().lower())
        if match is None:
            raise ValueError(f"{text!r} is not a move: {shape}")
        col = ord(match.group(1)) - ord("a")
        rank = int(match.group(2))
        if col >= w or not 1 <= rank <= h:
            raise ValueError(
                f"{text.strip()!r} is off the {w} x {h} board: files a..{file_letter(w - 1)}, "
                f"ranks 1..{h}"
            )
        code = (rank - 1) * w + col
        stone = int(self._state[K.CELLS + code])
        if stone and not self.is_over:
            owner = self._game.info.player_names[stone - 1]
            raise IllegalMoveError(
                f"{cell_name(code, w)} is occupied (by {owner}); pick an empty cell"
            )
        return code

    def state_to_json(self) -> dict[str, Any]:
        """``{"board": rows from the top rank down}`` (see the module docstring)."""
        chars = (".", *self.STONES)
        return {"board": ["".join(chars[v] for v in row) for row in reversed(self.grid())]}

    @classmethod
    def state_from_json(cls, game: Game, obj: Mapping[str, Any]) -> np.ndarray:
        """The state of a ``{"board": [...]}`` object (checked by :meth:`check_state`)."""
        w, h, k = cls.dims(game)
        a, b = cls.STONES
        shape = (
            f"board is a list of {h} strings of {w} characters each, from the top rank "
            f"down, '.' for an empty cell, {a!r} and {b!r} for the stones"
        )
        extra = sorted(set(obj) - {"game", "params", "board"})
        if extra:
            raise ValueError(f"unknown field(s) {', '.join(map(repr, extra))}; {shape}")
        if "board" not in obj:
            raise ValueError(f'a {cls.GAME} position needs "board": {shape}')
        board = obj["board"]
        if not isinstance(board, (list, tuple)) or not all(isinstance(r, str) for r in board):
            raise ValueError(f"board {board!r} is malformed: {shape}")
        if len(board) != h:
            raise ValueError(f"board has {len(board)} rows, the {w} x {h} board {h}: {shape}")
        values = {".": 0, a: 1, b: 2}
        state = K.new_state(w, h, k)
        for i, text in enumerate(board):
            rank = h - i
            if len(text) != w:
                raise ValueError(
                    f"board row {i + 1} (rank {rank}) {text!r} has {len(text)} characters, "
                    f"not {w}: {shape}"
                )
            for col, ch in enumerate(text):
                v = values.get(ch.upper())
                if v is None:
                    raise ValueError(
                        f"board row {i + 1} (rank {rank}) has the unknown character {ch!r} "
                        f"at {file_letter(col)}{rank}: {shape}"
                    )
                state[K.CELLS + (rank - 1) * w + col] = v
        cells = state[K.CELLS :]
        state[K.NSTONES] = int(np.count_nonzero(cells))
        grid = [cells[r * w : (r + 1) * w].tolist() for r in range(h)]
        winners = [p for p in (0, 1) if rows_of(grid, k, p + 1)]
        state[K.WINNER] = winners[0] if len(winners) == 1 else -1
        state[K.KEY] = K.key_from_scratch(cells)
        state[K.BITS : K.BITS + 2] = K.bitboards_from_cells(w, h, cells)
        return state

    @classmethod
    def check_state(cls, game: Game, state: np.ndarray) -> None:
        """``ValueError`` naming what is wrong when ``state`` cannot arise in ``game``."""
        w, h, k = cls.dims(game)
        if state.ndim != 1 or state.size != K.CELLS + w * h:
            raise ValueError(
                f"a {cls.GAME} state of the {w} x {h} board has {K.CELLS + w * h} entries, "
                f"got shape {state.shape}"
            )
        header = (int(state[K.W]), int(state[K.H]), int(state[K.K]))
        if header != (w, h, k):
            raise ValueError(
                f"the state is for width, height, k = {header}, the game has {(w, h, k)}"
            )
        names = game.info.player_names
        cells = state[K.CELLS :]
        bad = np.flatnonzero((cells < 0) | (cells > 2))
        if bad.size:
            c = int(bad[0])
            raise ValueError(
                f"cell {cell_name(c, w)} holds {int(cells[c])}; a cell holds 0 (empty), "
                f"1 ({names[0]}) or 2 ({names[1]})"
            )
        n0 = int(np.count_nonzero(cells == 1))
        n1 = int(np.count_nonzero(cells == 2))
        if int(state[K.NSTONES]) != n0 + n1:
            raise ValueError(
                f"the state counts {int(state[K.NSTONES])} stones, the board holds {n0 + n1}"
            )
        if n1 > n0:
            raise ValueError(
                f"{names[1]} has more stones ({n1}) than {names[0]} ({n0}), but {names[0]} "
                "moves first: the players alternate, so that cannot happen"
            )
        if n0 > n1 + 1:
            raise ValueError(
                f"{names[0]} has {n0} stones and {names[1]} only {n1}: the players "
                f"alternate, so {names[0]} is at most one stone ahead"
            )
        grid = [cells[r * w : (r + 1) * w].tolist() for r in range(h)]
        lines = [rows_of(grid, k, 1), rows_of(grid, k, 2)]
        if lines[0] and lines[1]:
            raise ValueError(
                f"both {names[0]} and {names[1]} have {k} in a row: the game ends at the "
                "first such row"
            )
        winner = 0 if lines[0] else 1 if lines[1] else -1
        if winner >= 0:
            cls._check_win(grid, k, winner, lines[winner], n0, n1, names)
        if int(state[K.WINNER]) != winner:
            said = "nobody" if state[K.WINNER] < 0 else repr(int(state[K.WINNER]))
            won = "nobody" if winner < 0 else names[winner]
            raise ValueError(f"the state's winner field says {said}, the board says {won} won")
        if int(state[K.KEY]) != K.key_from_scratch(cells):
            raise ValueError("the state's key field does not match the board")
        expected = K.bitboards_from_cells(w, h, cells)
        if tuple(int(b) for b in state[K.BITS : K.BITS + 2]) != expected:
            raise ValueError(
                f"the state's bitboard fields (entries {K.BITS} and {K.BITS + 1}) do not "
                f"match the board: expected {expected[0]:#x} and {expected[1]:#x}"
            )

    @staticmethod
    def _check_win(grid, k, winner, lines, n0, n1, names) -> None:
        """A won board is reachable only if the winner moved last and one stone (the
        last one placed) completes every one of the winner's rows of k."""
        if (n0 - n1) != (1 if winner == 0 else 0):
            other = names[1 - winner]
            raise ValueError(
                f"{names[winner]} has {k} in a row but {other} has played since "
                f"({names[0]} {n0} stones, {names[1]} {n1}): the game was already over"
            )
        stone = winner + 1
        for r, c in lines[0]:
            grid[r][c] = 0
            left = rows_of(grid, k, stone)
            grid[r][c] = stone
            if not left:
                return
        rows = "; ".join(" ".join(f"{file_letter(c)}{r + 1}" for r, c in line) for line in lines)
        raise ValueError(
            f"{names[winner]}'s rows of {k} or more ({rows}) cannot all be completed by "
            "one last stone: the game would have ended before the last of them"
        )

    # ---------------------------------------------------------------- picture
    def svg(self, size: int = 300) -> str:
        """An SVG picture: the board with coordinates along the bottom and left edges,
        the winner's row(s) of k marked once the game is won."""
        w, h = self.width, self.height
        cell = 40.0
        margin = 26.0
        vw = 2 * margin + w * cell
        vh = 2 * margin + h * cell
        scale = size / max(vw, vh)
        names = self._game.info.player_names
        to_move = self.to_move
        if to_move >= 0:
            title = f"{self.GAME}: {names[to_move]} to move"
        elif self._state[K.WINNER] >= 0:
            title = f"{self.GAME}: {names[int(self._state[K.WINNER])]} won"
        else:
            title = f"{self.GAME}: draw"

        def cx(col: int) -> float:
            return margin + (col + 0.5) * cell

        def cy(row: int) -> float:  # row 0 (rank 1) at the bottom
            return margin + (h - 1 - row + 0.5) * cell

        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{vw * scale:.0f}" '
            f'height="{vh * scale:.0f}" viewBox="0 0 {vw:g} {vh:g}" '
            'font-family="DejaVu Sans, Arial, sans-serif">',
            f"<title>{title}</title>",
        ]
        parts += self._svg_board(w, h, cell, margin, cx, cy)
        grid = self.grid()
        for r in range(h):
            for c in range(w):
                if grid[r][c]:
                    parts += self._svg_stone(grid[r][c] - 1, cx(c), cy(r), cell)
        winner = int(self._state[K.WINNER])
        if winner >= 0:
            for line in rows_of(grid, self.k, winner + 1):
                (r0, c0), (r1, c1) = line[0], line[-1]
                parts.append(
                    f'<line x1="{cx(c0):g}" y1="{cy(r0):g}" x2="{cx(c1):g}" y2="{cy(r1):g}" '
                    f'stroke="#e0301e" stroke-width="{cell * 0.16:g}" stroke-linecap="round" '
                    'opacity="0.8"/>'
                )
        font = min(14.0, cell * 0.4)
        for c in range(w):
            parts.append(
                f'<text x="{cx(c):g}" y="{margin + h * cell + font + 4:g}" font-size="{font:g}" '
                f'text-anchor="middle" fill="#333">{file_letter(c)}</text>'
            )
        for r in range(h):
            parts.append(
                f'<text x="{margin - 6:g}" y="{cy(r) + font * 0.35:g}" font-size="{font:g}" '
                f'text-anchor="end" fill="#333">{r + 1}</text>'
            )
        parts.append("</svg>")
        return "\n".join(parts)

    def _svg_board(self, w, h, cell, margin, cx, cy) -> list[str]:
        """The empty board: a TicTacToe grid of lines between the cells."""
        x1, y1 = margin + w * cell, margin + h * cell
        out = [f'<rect x="0" y="0" width="{x1 + margin:g}" height="{y1 + margin:g}" fill="white"/>']
        for c in range(1, w):
            x = margin + c * cell
            out.append(
                f'<line x1="{x:g}" y1="{margin:g}" x2="{x:g}" y2="{y1:g}" '
                'stroke="#222" stroke-width="2.5" stroke-linecap="round"/>'
            )
        for r in range(1, h):
            y = margin + r * cell
            out.append(
                f'<line x1="{margin:g}" y1="{y:g}" x2="{x1:g}" y2="{y:g}" '
                'stroke="#222" stroke-width="2.5" stroke-linecap="round"/>'
            )
        return out

    def _svg_stone(self, player: int, x: float, y: float, cell: float) -> list[str]:
        """An X (player 0) or an O (player 1) centred on (x, y)."""
        d = cell * 0.28
        if player == 0:
            return [
                f'<path d="M{x - d:g},{y - d:g} L{x + d:g},{y + d:g} M{x - d:g},{y + d:g} '
                f'L{x + d:g},{y - d:g}" stroke="#1f5fbf" stroke-width="{cell * 0.1:g}" '
                'stroke-linecap="round" fill="none"/>'
            ]
        return [
            f'<circle cx="{x:g}" cy="{y:g}" r="{d * 1.1:g}" stroke="#c0392b" '
            f'stroke-width="{cell * 0.1:g}" fill="none"/>'
        ]


class TicTacToePosition(MnkPosition):
    """A TicTacToe position: 3 x 3, three in a row wins, X (player 0) moves first."""

    __slots__ = ()
    GAME = "tictactoe"
    STONES = ("X", "O")

    @classmethod
    def dims(cls, game: Game) -> tuple[int, int, int]:
        """TicTacToe is always 3 x 3 with k = 3."""
        return 3, 3, 3


class GomokuPosition(MnkPosition):
    """A Five-in-a-row position: ``width`` x ``height``, k or more in a row wins, black
    (player 0) moves first."""

    __slots__ = ()
    GAME = "gomoku"
    STONES = ("B", "W")

    def _svg_board(self, w, h, cell, margin, cx, cy) -> list[str]:
        """A wooden board with lines through the points the stones sit on."""
        vw, vh = 2 * margin + w * cell, 2 * margin + h * cell
        out = [
            f'<rect x="0" y="0" width="{vw:g}" height="{vh:g}" fill="#e3bd72"/>',
            f'<rect x="{margin:g}" y="{margin:g}" width="{w * cell:g}" height="{h * cell:g}" '
            'fill="#dcb060" stroke="#8a6a2a" stroke-width="1"/>',
        ]
        for c in range(w):
            out.append(
                f'<line x1="{cx(c):g}" y1="{cy(h - 1):g}" x2="{cx(c):g}" y2="{cy(0):g}" '
                'stroke="#3b2a10" stroke-width="1"/>'
            )
        for r in range(h):
            out.append(
                f'<line x1="{cx(0):g}" y1="{cy(r):g}" x2="{cx(w - 1):g}" y2="{cy(r):g}" '
                'stroke="#3b2a10" stroke-width="1"/>'
            )
        if w % 2 and h % 2 and min(w, h) >= 5:  # the centre point
            out.append(
                f'<circle cx="{cx(w // 2):g}" cy="{cy(h // 2):g}" r="{cell * 0.08:g}" '
                'fill="#3b2a10"/>'
            )
        return out

    def _svg_stone(self, player: int, x: float, y: float, cell: float) -> list[str]:
        """A black (player 0) or white (player 1) stone on the point (x, y)."""
        fill, edge = ("#111", "#000") if player == 0 else ("#f6f6f2", "#555")
        return [
            f'<circle cx="{x:g}" cy="{y:g}" r="{cell * 0.44:g}" fill="{fill}" '
            f'stroke="{edge}" stroke-width="1"/>'
        ]
