"""Positions of Othello (and its Reversi variant).

Notation
--------
A move names the square the disc goes on, in Othello's own orientation: the file
letter ``a``..``h`` from the left and the rank ``1``..``8`` from the *top* (rank 1 is
the top row), e.g. ``d3``; black's first moves from the standard start are d3, c4,
f5 and e6. A player without a placement must play ``pass`` (then the only legal
move). Reading ignores case and surrounding spaces.

JSON
----
``{"game": "othello", "params": {"variant": ...}, "board": [...], "to_move": p}``:
``board`` lists 8 strings from rank 1 (the top) down to rank 8, one character per
file from ``a``: ``.`` empty, ``B`` black, ``W`` white (read in any case);
``to_move`` is 0 (black) or 1 (white) and must be given, since passes make it
undecidable from the board.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import square_board as board
from ..position import IllegalMoveError, KernelPosition
from . import kernel as K

if TYPE_CHECKING:
    from ..registry import Game

MOVE_RE = re.compile(r"([a-z])([0-9]+)")
_CENTRE_NAMES = "d4, d5, e4, e5"


def square_name(sq: int) -> str:
    """The notation of square ``row * 8 + col`` (row 0 is rank 1, the top)."""
    return f"{chr(ord('a') + sq % 8)}{sq // 8 + 1}"


def squares_of(value: int) -> list[int]:
    """The squares of the 64-bit board ``value``, in order."""
    return [sq for sq in range(64) if value >> sq & 1]


def connected(occupied: int) -> bool:
    """Whether the occupied squares form one 8-connected group holding the centre."""
    if occupied & K.CENTRE != K.CENTRE:
        return False
    seen = {27}
    todo = [27]
    while todo:
        sq = todo.pop()
        r, c = divmod(sq, 8)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                nb = rr * 8 + cc
                if 0 <= rr < 8 and 0 <= cc < 8 and occupied >> nb & 1 and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
    return len(seen) == bin(occupied).count("1")


class OthelloPosition(KernelPosition):
    """An Othello position (see the module docstring for notation and JSON)."""

    __slots__ = ()
    GAME = "othello"

    # ---------------------------------------------------------------- reading
    @property
    def variant(self) -> str:
        """``"othello"`` or ``"reversi"``."""
        return K.VARIANTS[int(self._state[K.VARIANT])]

    @property
    def black(self) -> int:
        """Black's discs as a 64-bit board (bit ``row * 8 + col``)."""
        return K.board_bits(self._state[K.BLACK])

    @property
    def white(self) -> int:
        """White's discs as a 64-bit board."""
        return K.board_bits(self._state[K.WHITE])

    @property
    def side(self) -> int:
        """The player whose turn it is (also once the game is over)."""
        return int(self._state[K.SIDE])

    def grid(self) -> list[list[int]]:
        """``grid[row][col]``: 0 empty, 1 black, 2 white; row 0 is rank 1 (the top)."""
        b, w = self.black, self.white
        return [
            [1 if b >> (r * 8 + c) & 1 else 2 if w >> (r * 8 + c) & 1 else 0 for c in range(8)]
            for r in range(8)
        ]

    def disc_counts(self) -> tuple[int, int]:
        """(black discs, white discs)."""
        return bin(self.black).count("1"), bin(self.white).count("1")

    def in_opening(self) -> bool:
        """Whether the Reversi opening (discs placed on the centre) is still going on."""
        return self.variant == "reversi" and sum(self.disc_counts()) < 4

    def flip_counts(self) -> dict[str, int]:
        """The number of discs each legal placement flips, by its notation."""
        out = {}
        side = self.side
        for code in self._kernel_moves():
            if code == K.PASS:
                continue
            child = self._child_state(int(code))
            before = self.disc_counts()[side]
            after = bin(K.board_bits(child[K.BLACK + side])).count("1")
            out[square_name(int(code))] = after - before - 1
        return out

    # ------------------------------------------------------------- the hooks
    def move_text(self, code: int) -> str:
        """``pass`` or the square's name (file a-h, rank 1-8 from the top)."""
        return "pass" if code == K.PASS else square_name(int(code))

    def _legal_names(self) -> str:
        return ", ".join(self.move_text(int(m)) for m in self._kernel_moves())

    def move_code(self, text: str) -> int:
        """The move written ``text``; ``ValueError`` saying why when it is malformed,
        off the board or illegal here."""
        shape = (
            "a move names a square by its file a..h and rank 1..8 (rank 1 at the top), "
            "such as 'd3', or is 'pass'"
        )
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a move: {shape}")
        clean = text.strip().lower()
        names = self._game.info.player_names
        over = self.is_over
        if clean == "pass":
            legal = self._kernel_moves()
            if not over and K.PASS not in legal:
                raise IllegalMoveError(
                    f"pass is legal only when {names[self.side]} has no move; "
                    f"legal moves: {self._legal_names()}"
                )
            return K.PASS
        match = MOVE_RE.fullmatch(clean)
        if match is None:
            raise ValueError(f"{text!r} is not a move: {shape}")
        col = ord(match.group(1)) - ord("a")
        rank = int(match.group(2))
        if col >= 8 or not 1 <= rank <= 8:
            raise ValueError(f"{text.strip()!r} is off the 8 x 8 board: files a..h, ranks 1..8")
        code = (rank - 1) * 8 + col
        if over or code in self._kernel_moves():
            return code
        name = square_name(code)
        if (self.black | self.white) >> code & 1:
            owner = names[0] if self.black >> code & 1 else names[1]
            raise IllegalMoveError(
                f"{name} is occupied (by {owner}); legal moves: {self._legal_names()}"
            )
        if self.in_opening():
            raise IllegalMoveError(
                f"{name} is not a free centre square: the first four discs of reversi go on "
                f"the centre squares {_CENTRE_NAMES}; legal moves: {self._legal_names()}"
            )
        if K.PASS in self._kernel_moves():
            raise IllegalMoveError(
                f"{name} flips no disc: {names[self.side]} has no move and must play pass"
            )
        raise IllegalMoveError(
            f"{name} flips no disc (a move must enclose opponent discs between the new disc "
            f"and another own disc); legal moves: {self._legal_names()}"
        )

    def state_to_json(self) -> dict[str, Any]:
        """``{"board": rows from rank 1 (top) to rank 8, "to_move": side}``."""
        chars = ".BW"
        return {
            "board": ["".join(chars[v] for v in row) for row in self.grid()],
            "to_move": self.side,
        }

    @classmethod
    def state_from_json(cls, game: Game, obj: Mapping[str, Any]) -> np.ndarray:
        """The state of a ``{"board": [...], "to_move": p}`` object (checked afterwards
        by :meth:`check_state`)."""
        shape = (
            "board is a list of 8 strings of 8 characters each, from rank 1 (the top) "
            "down to rank 8, '.' for an empty square, 'B' and 'W' for black and white "
            'discs, and "to_move" is 0 (black) or 1 (white)'
        )
        extra = sorted(set(obj) - {"game", "params", "board", "to_move"})
        if extra:
            raise ValueError(f"unknown field(s) {', '.join(map(repr, extra))}; {shape}")
        for field in ("board", "to_move"):
            if field not in obj:
                raise ValueError(f'an othello position needs "{field}": {shape}')
        board = obj["board"]
        if not isinstance(board, (list, tuple)) or not all(isinstance(r, str) for r in board):
            raise ValueError(f"board {board!r} is malformed: {shape}")
        if len(board) != 8:
            raise ValueError(f"board has {len(board)} rows, not 8: {shape}")
        to_move = obj["to_move"]
        if isinstance(to_move, bool) or to_move not in (0, 1):
            raise ValueError(f"to_move {to_move!r} is not 0 (black) or 1 (white)")
        black = white = 0
        for r, text in enumerate(board):
            if len(text) != 8:
                raise ValueError(
                    f"board row {r + 1} (rank {r + 1}) {text!r} has {len(text)} characters, "
                    f"not 8: {shape}"
                )
            for c, ch in enumerate(text):
                v = ch.upper()
                if v == "B":
                    black |= 1 << (r * 8 + c)
                elif v == "W":
                    white |= 1 << (r * 8 + c)
                elif v != ".":
                    raise ValueError(
                        f"board rank {r + 1} has the unknown character {ch!r} at "
                        f"{square_name(r * 8 + c)}: {shape}"
                    )
        state = K.new_state(game.params["variant"])
        state[K.BLACK] = K.as_int64(black)
        state[K.WHITE] = K.as_int64(white)
        state[K.SIDE] = int(to_move)
        return state

    @classmethod
    def check_state(cls, game: Game, state: np.ndarray) -> None:
        """``ValueError`` naming what is wrong when ``state`` cannot arise in ``game``.

        Decided without search: the discs of both colours never share a square; every
        disc after the first is placed next to one already there and the centre four
        are the first discs, so the occupied squares are one connected group holding the
        centre (once four discs lie); Othello starts with 4 discs and black to move;
        the Reversi opening places black, white, black, white on the centre with
        black first, so fewer than 4 discs fix the counts and the side to move.
        """
        if state.shape != (K.STATE_SIZE,):
            raise ValueError(
                f"an othello state has {K.STATE_SIZE} entries (variant, black, white, "
                f"side), got shape {state.shape}"
            )
        variant = game.params["variant"]
        if int(state[K.VARIANT]) != K.VARIANTS.index(variant):
            raise ValueError(
                f"the state's variant field {int(state[K.VARIANT])} does not match the game's "
                f"variant {variant!r} ({K.VARIANTS.index(variant)})"
            )
        side = int(state[K.SIDE])
        if side not in (0, 1):
            raise ValueError(f"the side to move is {side}, not 0 (black) or 1 (white)")
        black, white = K.board_bits(state[K.BLACK]), K.board_bits(state[K.WHITE])
        both = black & white
        if both:
            names = ", ".join(square_name(sq) for sq in squares_of(both))
            raise ValueError(f"black and white discs share the square(s) {names}")
        nb, nw = bin(black).count("1"), bin(white).count("1")
        n = nb + nw
        counts = f"{n} discs (black {nb}, white {nw})"
        if n < 4:
            if variant == "othello":
                raise ValueError(
                    f"{counts}: othello starts with 4 discs and never loses one, so a "
                    "position has at least 4"
                )
            off = (black | white) & ~K.CENTRE
            if off:
                raise ValueError(
                    f"{counts} on {', '.join(square_name(sq) for sq in squares_of(off))}: the "
                    f"first four discs of reversi go on the centre squares {_CENTRE_NAMES}"
                )
            if nb != (n + 1) // 2 or side != n % 2:
                raise ValueError(
                    f"{counts} with {'white' if side else 'black'} to move: in the reversi "
                    f"opening black places first and the players alternate, so after {n} "
                    f"discs black has {(n + 1) // 2} and {'white' if n % 2 else 'black'} "
                    "is to move"
                )
            return
        if not connected(black | white):
            raise ValueError(
                f"{counts}: the discs cannot arise, since the centre squares {_CENTRE_NAMES} "
                "are always occupied and every later disc is placed next to one already "
                "on the board (the occupied squares must be one connected group)"
            )
        if n == 4:
            if variant == "othello" and (black != K.START_BLACK or white != K.START_WHITE):
                raise ValueError(
                    f"{counts}: with 4 discs an othello position is the start (white d4 "
                    "e5, black d5 e4)"
                )
            if variant == "reversi" and nb != 2:
                raise ValueError(
                    f"{counts}: the reversi opening gives each player two centre discs"
                )
            if side != 0:
                raise ValueError(
                    f"{counts} with white to move: after the four starting discs black moves first"
                )

    # ---------------------------------------------------------------- picture
    def svg(self, size: int = 300, flips: bool = False) -> str:
        """An SVG picture: the green board with its discs, files a-h along the top and
        ranks 1-8 down the left side, the legal placements marked with small dots;
        ``flips=True`` writes in each dot the number of discs the move flips."""
        names = self._game.info.player_names
        nb, nw = self.disc_counts()
        to_move = self.to_move
        if to_move >= 0:
            must_pass = K.PASS in self._kernel_moves()
            title = f"othello: {names[to_move]} to move" + (" (must pass)" if must_pass else "")
        else:
            title = f"othello: over, black {nb}, white {nw}"
        parts = board.open_board(title, size, fill="#1f8a4c", edge="#0d3d21", lines="#0d3d21")
        for r, c in ((2, 2), (2, 6), (6, 2), (6, 6)):  # the usual four marker dots
            x, y = board.MARGIN + c * board.CELL, board.MARGIN + r * board.CELL
            parts.append(f'<circle cx="{x:g}" cy="{y:g}" r="3" fill="#0d3d21"/>')
        for r, row in enumerate(self.grid()):
            for c, v in enumerate(row):
                if v:
                    fill, edge = ("#111", "#000") if v == 1 else ("#f6f6f2", "#555")
                    parts.append(board.piece(r * 8 + c, fill, edge))
        counts = self.flip_counts() if flips else {}
        dot = "#111" if self.side == 0 else "#f6f6f2"
        ink = "#f6f6f2" if self.side == 0 else "#111"
        for code in self._kernel_moves():
            if code == K.PASS:
                continue
            parts.append(board.mark(int(code), 0.2 if flips else 0.1, dot, 0.6))
            if flips:
                x, y = board.centre(int(code))
                parts.append(
                    f'<text x="{x:g}" y="{y + 4:g}" font-size="11" text-anchor="middle" '
                    f'fill="{ink}">{counts[square_name(int(code))]}</text>'
                )
        return board.close_board(parts)
