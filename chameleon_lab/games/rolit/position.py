"""Positions of Rolit.

Notation
--------
A move names the square the ball goes on as in Othello: the file letter ``a``..``h``
from the left and the rank ``1``..``8`` from the *top*, e.g. ``f4``; red's first
moves from the start (all four colours) are d6, f4 and f6, its three captures.
Reading ignores case and surrounding spaces. Nobody ever passes.

JSON
----
``{"game": "rolit", "params": {"players": "RYGB"}, "board": [...], "to_move": p}``:
``board`` lists 8 strings from rank 1 (the top) down to rank 8, one character per
file from ``a``: ``.`` empty, ``R``, ``Y``, ``G``, ``B`` a red, yellow, green or blue
ball (read in any case); ``to_move`` is the colour to move, 0..3 (red, yellow,
green, blue), which the number of balls decides (one placement a turn, no passes):
it is checked against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import square_board as board
from ..othello.kernel import CENTRE, board_bits
from ..othello.position import MOVE_RE, connected, square_name, squares_of
from ..position import IllegalMoveError, KernelPosition
from . import kernel as K

if TYPE_CHECKING:
    from ..registry import Game

_FILL = ("#d62728", "#f2c511", "#2ca02c", "#1f5fbf")
_SHAPE = (
    "board is a list of 8 strings of 8 characters each, from rank 1 (the top) down to "
    "rank 8, '.' for an empty square and R, Y, G, B for a red, yellow, green or blue "
    'ball, and "to_move" is the colour to move, 0..3 (red, yellow, green, blue)'
)


def seated_order(seated: str) -> list[int]:
    """The seated colours' numbers in the order of play."""
    return sorted(K.LETTERS.index(ch) for ch in seated)


def side_after(seated: str, placed: int) -> int:
    """The colour to move after ``placed`` placements from the start."""
    order = seated_order(seated)
    return order[placed % len(order)]


class RolitPosition(KernelPosition):
    """A Rolit position (see the module docstring for notation and JSON)."""

    __slots__ = ()
    GAME = "rolit"

    # ---------------------------------------------------------------- reading
    def boards(self) -> tuple[int, int, int, int]:
        """Each colour's balls as a 64-bit board (bit ``row * 8 + col``), red first."""
        return tuple(board_bits(self._state[c]) for c in range(4))  # type: ignore[return-value]

    def ball_counts(self) -> tuple[int, int, int, int]:
        """The balls of each colour, red, yellow, green, blue."""
        return tuple(bin(b).count("1") for b in self.boards())  # type: ignore[return-value]

    def final_scores(self) -> tuple[float, ...] | None:
        """Once over, the balls of each colour (red first), which rank the colours
        below the winner too (game records keep them); None before."""
        return tuple(float(n) for n in self.ball_counts()) if self.is_over else None

    def grid(self) -> list[list[int]]:
        """``grid[row][col]``: 0 empty, 1..4 red, yellow, green, blue; row 0 is the top."""
        boards = self.boards()
        return [
            [next((c + 1 for c in range(4) if boards[c] >> (r * 8 + col) & 1), 0)
             for col in range(8)]
            for r in range(8)
        ]  # fmt: skip

    def captures(self) -> dict[str, int]:
        """The balls each legal move turns, by its notation (all 0 when the mover
        cannot capture and places next to a ball)."""
        if self.is_over:
            return {}
        side = self.to_move
        before = self.ball_counts()[side]
        out = {}
        for code in self._kernel_moves():
            after = bin(board_bits(self._child_state(int(code))[side])).count("1")
            out[square_name(int(code))] = after - before - 1
        return out

    # ------------------------------------------------------------- the hooks
    def move_text(self, code: int) -> str:
        """The square's name (file a-h, rank 1-8 from the top)."""
        return square_name(int(code))

    def _legal_names(self) -> str:
        return ", ".join(self.move_text(int(m)) for m in self._kernel_moves())

    def move_code(self, text: str) -> int:
        """The move written ``text``; ``ValueError`` saying why when it is malformed,
        off the board or illegal here."""
        shape = (
            "a move names a square by its file a..h and rank 1..8 (rank 1 at the top), such as 'f4'"
        )
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a move: {shape}")
        match = MOVE_RE.fullmatch(text.strip().lower())
        if match is None:
            raise ValueError(f"{text!r} is not a move: {shape}")
        col, rank = ord(match.group(1)) - ord("a"), int(match.group(2))
        if col >= 8 or not 1 <= rank <= 8:
            raise ValueError(f"{text.strip()!r} is off the 8 x 8 board: files a..h, ranks 1..8")
        code = (rank - 1) * 8 + col
        legal = self._kernel_moves()
        if self.is_over or code in legal:
            return code
        name = square_name(code)
        colour = next((c for c, b in enumerate(self.boards()) if b >> code & 1), None)
        if colour is not None:
            reason = f"{name} is occupied (by {K.COLOURS[colour]})"
        elif any(self.captures().values()):
            reason = (
                f"{name} captures nothing, and {K.COLOURS[self.to_move]} can capture, so it must"
            )
        else:
            reason = f"{name} is not next to a ball"
        raise IllegalMoveError(f"{reason}; legal moves: {self._legal_names()}")

    def state_to_json(self) -> dict[str, Any]:
        """``{"board": rows from rank 1 (top) to rank 8, "to_move": colour}``."""
        chars = "." + K.LETTERS
        return {
            "board": ["".join(chars[v] for v in row) for row in self.grid()],
            "to_move": int(self._state[K.SIDE]),
        }

    @classmethod
    def state_from_json(cls, game: Game, obj: Mapping[str, Any]) -> np.ndarray:
        """The state of a ``{"board": [...], "to_move": p}`` object (checked afterwards
        by :meth:`check_state`)."""
        extra = sorted(set(obj) - {"game", "params", "board", "to_move"})
        if extra:
            raise ValueError(f"unknown field(s) {', '.join(map(repr, extra))}; {_SHAPE}")
        for field in ("board", "to_move"):
            if field not in obj:
                raise ValueError(f'a rolit position needs "{field}": {_SHAPE}')
        board, to_move = obj["board"], obj["to_move"]
        if not isinstance(board, (list, tuple)) or not all(isinstance(r, str) for r in board):
            raise ValueError(f"board {board!r} is malformed: {_SHAPE}")
        if len(board) != 8:
            raise ValueError(f"board has {len(board)} rows, not 8: {_SHAPE}")
        if isinstance(to_move, bool) or to_move not in (0, 1, 2, 3):
            raise ValueError(f"to_move {to_move!r} is not a colour 0..3 (red, yellow, green, blue)")
        boards = [0, 0, 0, 0]
        for r, text in enumerate(board):
            if len(text) != 8:
                raise ValueError(
                    f"board row {r + 1} {text!r} has {len(text)} characters, not 8: {_SHAPE}"
                )
            for c, ch in enumerate(text):
                if ch.upper() in K.LETTERS:
                    boards[K.LETTERS.index(ch.upper())] |= 1 << (r * 8 + c)
                elif ch != ".":
                    raise ValueError(
                        f"board rank {r + 1} has the unknown character {ch!r} at "
                        f"{square_name(r * 8 + c)}: {_SHAPE}"
                    )
        state = K.new_state(game.params["players"])
        for c in range(4):
            state[c] = np.int64(boards[c] - (1 << 64) if boards[c] >> 63 else boards[c])
        state[K.SIDE] = int(to_move)
        return state

    @classmethod
    def check_state(cls, game: Game, state: np.ndarray) -> None:
        """``ValueError`` naming what is wrong when ``state`` cannot arise in ``game``.

        Decided without search: no two balls share a square; the centre four are
        occupied from the start and every later ball is placed next to one already
        there, so the occupied squares are one connected group holding the centre;
        one ball a turn and no passes, so the number of balls decides who is to move.
        """
        if state.shape != (K.STATE_SIZE,):
            raise ValueError(
                f"a rolit state has {K.STATE_SIZE} entries (four boards, side, seated), got "
                f"shape {state.shape}"
            )
        seated = game.params["players"]
        mask = sum(1 << K.LETTERS.index(ch) for ch in seated)
        if int(state[K.SEATED]) != mask:
            raise ValueError(
                f"the state's seated field {int(state[K.SEATED])} does not match the game's "
                f"players {seated!r} ({mask})"
            )
        boards = [board_bits(state[c]) for c in range(4)]
        for a in range(4):
            for b in range(a + 1, 4):
                if boards[a] & boards[b]:
                    names = ", ".join(square_name(sq) for sq in squares_of(boards[a] & boards[b]))
                    raise ValueError(
                        f"{K.COLOURS[a]} and {K.COLOURS[b]} balls share the square(s) {names}"
                    )
        occupied = boards[0] | boards[1] | boards[2] | boards[3]
        n = bin(occupied).count("1")
        if occupied & CENTRE != CENTRE or not connected(occupied):
            raise ValueError(
                f"{n} balls that cannot arise: the centre squares d4, e4, d5, e5 are always "
                "occupied and every later ball is placed next to one already on the board "
                "(the occupied squares must be one connected group)"
            )
        side, expected = int(state[K.SIDE]), side_after(seated, n - 4)
        if side != expected:
            raise ValueError(
                f"{K.COLOURS[side] if 0 <= side < 4 else side} to move with {n} balls: one "
                f"ball a turn and no passes, so after {n - 4} placements by {seated} "
                f"{K.COLOURS[expected]} is to move"
            )

    # ---------------------------------------------------------------- picture
    def svg(self, size: int = 300) -> str:
        """An SVG picture: the board with its balls, files a-h along the top and ranks
        1-8 down the left, the legal moves marked with small dots of the mover's
        colour."""
        counts = ", ".join(
            f"{K.COLOURS[c]} {k}"
            for c, k in enumerate(self.ball_counts())
            if c in seated_order(self._game.params["players"])
        )
        to_move = self.to_move
        title = f"rolit: {K.COLOURS[to_move]} to move" if to_move >= 0 else f"rolit: over, {counts}"
        parts = board.open_board(title, size, fill="#e8e2d0", edge="#555", lines="#999")
        for r, row in enumerate(self.grid()):
            parts += [board.piece(r * 8 + c, _FILL[v - 1], "#333") for c, v in enumerate(row) if v]
        if to_move >= 0:
            parts += [board.mark(int(m), 0.1, _FILL[to_move], 0.8) for m in self._kernel_moves()]
        return board.close_board(parts)
