"""Positions of Chinese Checkers.

Notation
--------
A hole is named by its row's letter from the top (``a`` the top tip) and its place in
the row from the left (``1`` ..), as :mod:`.board` numbers them: ``a1`` the top tip,
``e1`` .. ``e13`` the widest row of the standard board. A move names the hole a piece
leaves and the hole it ends on, ``d1-e2`` (a step or a chain of hops: the holes
between do not matter); a player without a move plays ``pass``. Reading ignores case
and spaces.

JSON
----
``{"game": "chinesecheckers", "params": {...}, "board": [...], "to_move": p, "ply":
k}``: ``board`` lists the rows from the top, one character a hole from the left, ``.``
empty and ``0`` .. ``3`` a piece of that player; ``ply`` the moves played, which decide
the player to move (checked).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ..position import IllegalMoveError, KernelPosition
from . import board as B
from . import kernel as K

if TYPE_CHECKING:
    from ..registry import Game

_FILL = ("#d62728", "#2ca02c", "#1f5fbf", "#f2c511")
_HOLE = re.compile(r"([a-q])(\d{1,2})")
_MOVE = re.compile(r"([a-q]\d{1,2})-([a-q]\d{1,2})")


def rows(n: int) -> list[list[int]]:
    """The holes of each row from the top, by hole number."""
    out: dict[int, list[int]] = {}
    for i, (_x, _y, z) in enumerate(B.holes(n)):
        out.setdefault(z, []).append(i)
    return [out[z] for z in sorted(out)]


def _shape(n: int) -> str:
    lengths = ", ".join(str(len(r)) for r in rows(n))
    return (
        f"board is a list of {4 * n + 1} strings, the rows from the top ({lengths} holes), "
        "'.' for an empty hole and a digit 0..3 for a piece of that player; \"to_move\" is "
        'the player to move and "ply" the moves played'
    )


class ChineseCheckersPosition(KernelPosition):
    """A Chinese Checkers position (see the module docstring for notation and JSON)."""

    __slots__ = ()
    GAME = "chinesecheckers"

    # ---------------------------------------------------------------- reading
    @property
    def size(self) -> int:
        """The board's triangle side (4: 121 holes)."""
        return int(self._state[K.SIZE])

    def pieces(self) -> dict[int, list[str]]:
        """Each player's pieces, by hole name in hole order."""
        n, names = self.size, B.names(self.size)
        out: dict[int, list[str]] = {p: [] for p in range(int(self._state[K.PLAYERS]))}
        for c in range(len(B.holes(n))):
            if self._state[c]:
                out[int(self._state[c]) - 1].append(names[c])
        return out

    def remaining(self) -> tuple[int, ...]:
        """The steps each player's pieces are from its home's tip, summed."""
        return tuple(int(K.remaining(self._state, p)) for p in range(int(self._state[K.PLAYERS])))

    def final_scores(self) -> tuple[float, ...] | None:
        """Once over, minus each player's steps left (:meth:`remaining`), which rank the
        players below the winner (game records keep them); None before."""
        return tuple(-float(r) for r in self.remaining()) if self.is_over else None

    # ------------------------------------------------------------- the hooks
    def move_text(self, code: int) -> str:
        """``from-to`` by hole names, or ``pass``."""
        if code == K.PASS:
            return "pass"
        names = B.names(self.size)
        return f"{names[code >> 7]}-{names[code & 127]}"

    def move_code(self, text: str) -> int:
        """The move written ``text``; ``ValueError`` saying why when it is malformed,
        off the board or illegal here."""
        shape = "a move is two holes joined by '-', such as 'd1-e2', or 'pass'"
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a move: {shape}")
        clean = text.replace(" ", "").lower()
        if clean == "pass":
            code = K.PASS
        else:
            match = _MOVE.fullmatch(clean)
            if match is None:
                raise ValueError(f"{text!r} is not a move: {shape}")
            index = {name: i for i, name in enumerate(B.names(self.size))}
            for hole in match.groups():
                if hole not in index:
                    raise ValueError(
                        f"{hole!r} is not a hole of the board of side {self.size}: "
                        f"{self._row_help()}"
                    )
            code = index[match.group(1)] * 128 + index[match.group(2)]
        legal = self._kernel_moves()
        if self.is_over or code in legal:
            return code
        raise IllegalMoveError(f"{text.strip()} is not legal here; {self._why_not(code)}")

    def _row_help(self) -> str:
        return "rows " + ", ".join(
            f"{chr(ord('a') + i)}1..{len(r)}" for i, r in enumerate(rows(self.size))
        )

    def _why_not(self, code: int) -> str:
        names = B.names(self.size)
        legal = [self.move_text(int(m)) for m in self._kernel_moves()]
        listed = ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
        if code == K.PASS:
            return f"the mover has moves: {listed}"
        f, t = code >> 7, code & 127
        mover = self.to_move
        if int(self._state[f]) != mover + 1:
            return f"{names[f]} holds no piece of player {mover}; legal moves: {listed}"
        if self._state[t]:
            return f"{names[t]} is occupied; legal moves: {listed}"
        return f"no step or chain of hops takes {names[f]} to {names[t]}; legal moves: {listed}"

    def state_to_json(self) -> dict[str, Any]:
        """``{"board": rows from the top, "to_move": p, "ply": k}``."""
        chars = ".0123"
        return {
            "board": ["".join(chars[int(self._state[c])] for c in r) for r in rows(self.size)],
            "to_move": int(self._state[K.SIDE]),
            "ply": int(self._state[K.PLY]),
        }

    @classmethod
    def state_from_json(cls, game: Game, obj: Mapping[str, Any]) -> np.ndarray:
        """The state of a ``{"board": [...], "to_move": p, "ply": k}`` object (checked
        afterwards by :meth:`check_state`)."""
        n = game.params["size"]
        extra = sorted(set(obj) - {"game", "params", "board", "to_move", "ply"})
        if extra:
            raise ValueError(f"unknown field(s) {', '.join(map(repr, extra))}; {_shape(n)}")
        for field in ("board", "to_move", "ply"):
            if field not in obj:
                raise ValueError(f'a chinesecheckers position needs "{field}": {_shape(n)}')
        board, to_move, ply = obj["board"], obj["to_move"], obj["ply"]
        if not isinstance(board, (list, tuple)) or not all(isinstance(r, str) for r in board):
            raise ValueError(f"board {board!r} is malformed: {_shape(n)}")
        layout = rows(n)
        if len(board) != len(layout):
            raise ValueError(f"board has {len(board)} rows, not {len(layout)}: {_shape(n)}")
        for name, value in (("to_move", to_move), ("ply", ply)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} {value!r} is not a whole number >= 0: {_shape(n)}")
        state = K.new_state(game.params["players"], n, _limit(game))
        state[: B.MAX_CELLS] = 0
        for r, (text, holes) in enumerate(zip(board, layout, strict=True)):
            if len(text) != len(holes):
                raise ValueError(
                    f"board row {r + 1} {text!r} has {len(text)} holes, not {len(holes)}: "
                    f"{_shape(n)}"
                )
            for ch, c in zip(text, holes, strict=True):
                if ch not in ".0123":
                    raise ValueError(
                        f"board row {r + 1} has the unknown character {ch!r} at "
                        f"{B.names(n)[c]}: {_shape(n)}"
                    )
                state[c] = 0 if ch == "." else int(ch) + 1
        state[K.SIDE], state[K.PLY] = to_move, ply
        state[K.WINNER] = _winner(state)
        return state

    @classmethod
    def check_state(cls, game: Game, state: np.ndarray) -> None:
        """``ValueError`` naming what is wrong when ``state`` cannot arise in ``game``.

        Decided without search: the parameters are the game's; every player has its
        pieces on the board, no more, no fewer; one move a turn (a pass included), so
        the moves played decide the player to move, and they are within the game's
        limit; the recorded winner is the player whose home is full with one of its
        pieces, if any (at most one: the game stops at the first).
        """
        if state.shape != (K.STATE_SIZE,):
            raise ValueError(
                f"a chinesecheckers state has {K.STATE_SIZE} entries, got shape {state.shape}"
            )
        players, n, limit = game.params["players"], game.params["size"], _limit(game)
        got = (int(state[K.PLAYERS]), int(state[K.SIZE]), int(state[K.LIMIT]))
        if got != (players, n, limit):
            raise ValueError(
                f"the state's players, size and limit {got} are not the game's "
                f"{(players, n, limit)}"
            )
        cells = len(B.holes(n))
        if (
            np.any(state[cells : B.MAX_CELLS])
            or np.any(state[:cells] < 0)
            or np.any(state[:cells] > players)
        ):
            raise ValueError(
                f"holes hold 0 (empty) or 1..{players} (a piece of player 0..{players - 1}), "
                f"and only the {cells} holes of the board of side {n}"
            )
        counts = np.bincount(state[:cells], minlength=players + 1)[1:]
        if np.any(counts != B.pieces(n)):
            raise ValueError(
                f"each player has {B.pieces(n)} pieces on the board of side {n}; the board "
                f"holds {', '.join(f'player {p}: {int(k)}' for p, k in enumerate(counts))}"
            )
        ply, side = int(state[K.PLY]), int(state[K.SIDE])
        if not 0 <= ply <= limit:
            raise ValueError(f"{ply} moves played: a game lasts at most {limit} moves")
        if side != ply % players:
            raise ValueError(
                f"player {side} to move after {ply} moves: one move a turn, so player "
                f"{ply % players} is"
            )
        if len(_winners(state)) > 1:
            raise ValueError(
                f"the homes of players {_winners(state)} are full, each with one of its "
                "pieces: the game ends at the first, so at most one can be"
            )
        if int(state[K.WINNER]) != _winner(state):
            raise ValueError(
                f"the state's winner {int(state[K.WINNER])} is not the board's "
                f"{_winner(state)} (-1: nobody's home is full with one of its pieces)"
            )

    # ---------------------------------------------------------------- picture
    def svg(self, size: int = 300) -> str:
        """An SVG picture: the star's holes, the players' pieces, the holes the mover's
        pieces can reach marked with small dots of its colour."""
        n = self.size
        step = 1.0
        coords = [((2 * x + z) * step, z * step * math.sqrt(3)) for x, _y, z in B.holes(n)]
        half = 4 * n * step + 1.5
        to_move = self.to_move
        title = (
            f"chinesecheckers: player {to_move} to move"
            if to_move >= 0
            else f"chinesecheckers: over, returns {self.returns}"
        )
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
            f'viewBox="{-half:g} {-half:g} {2 * half:g} {2 * half:g}">',
            f"<title>{title}</title>",
            f'<rect x="{-half:g}" y="{-half:g}" width="{2 * half:g}" height="{2 * half:g}" '
            'fill="#f4f1e8"/>',
        ]
        for c, (x, y) in enumerate(coords):
            v = int(self._state[c])
            fill = _FILL[v - 1] if v else "#d9d2bf"
            radius = 0.8 if v else 0.35
            parts.append(f'<circle cx="{x:.3f}" cy="{y:.3f}" r="{radius}" fill="{fill}"/>')
        if to_move >= 0:
            ends = {int(m) & 127 for m in self._kernel_moves() if int(m) != K.PASS}
            for c in sorted(ends):
                x, y = coords[c]
                parts.append(
                    f'<circle cx="{x:.3f}" cy="{y:.3f}" r="0.25" fill="{_FILL[to_move]}" '
                    'class="legal"/>'
                )
        parts.append("</svg>")
        return "\n".join(parts)


def _limit(game: Game) -> int:
    return game.params["turns"] * game.params["players"]


def _winners(state: np.ndarray) -> list[int]:
    """The players whose homes are full with at least one of their pieces."""
    players, s = int(state[K.PLAYERS]), int(state[K.SIZE]) - 2
    out = []
    for p in range(players):
        holes = [int(c) for c in K.MEMBERS[s, int(K.HOME[players, p])] if c >= 0]
        if all(state[c] for c in holes) and any(state[c] == p + 1 for c in holes):
            out.append(p)
    return out


def _winner(state: np.ndarray) -> int:
    """The player whose home is full with at least one of its pieces, -1 if none."""
    return (_winners(state) or [-1])[0]
