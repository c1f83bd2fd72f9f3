"""Positions of Focus.

Notation
--------
Squares are named as on the library's other 8 x 8 boards: the file ``a``..``h`` from
the left and the rank ``1``..``8`` from the *top*; the three squares of each corner
(``a1``, ``b1``, ``a2`` and their mirror images) are not on the board. A stack move is
``from-to``, such as ``c3-c5``: it moves the top ``k`` pieces of the stack on ``from``
the ``k`` squares to ``to`` (so the two squares share a file or a rank, at most five
apart). A reserve piece entered on a square is ``+square``, such as ``+e4``. Reading
ignores case and spaces.

JSON
----
``{"game": "focus", "params": {...}, "stacks": {"c3": "RGR", ...}, "reserve": [0, 1],
"captured": [[0, 2], [1, 0]], "to_move": p, "ply": k}``: ``stacks`` names each occupied
square's pieces from the bottom up (``R``, ``G``, ``Y``, ``B`` for players 0..3: red,
green, yellow, blue), ``reserve[p]`` is player ``p``'s pieces in hand and
``captured[p][q]`` the pieces of ``q`` that ``p`` has captured; ``ply`` is the moves
played (the game's move limit counts them).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import square_board as board
from ..othello.position import square_name
from ..position import IllegalMoveError, KernelPosition
from . import kernel as K

if TYPE_CHECKING:
    from ..registry import Game

_FILL = ("#d62728", "#2ca02c", "#f2c511", "#1f5fbf")
_SQUARE = re.compile(r"([a-z])([0-9]+)")
_MOVE = re.compile(r"([a-z][0-9]+)-([a-z][0-9]+)|\+([a-z][0-9]+)")
_SHAPE = (
    '"stacks" maps square names to their pieces from the bottom up (letters R, G, Y, B), '
    '"reserve" lists each player\'s pieces in hand, "captured" is a players x players '
    'list of the pieces each has captured of each, "to_move" the player to move and '
    '"ply" the moves played'
)


def stack_letters(v: int) -> str:
    """The pieces of the square code ``v`` from the bottom up, as letters."""
    height = int(v) & 7
    return "".join(K.LETTERS[(int(v) >> (3 + 2 * i)) & 3] for i in reversed(range(height)))


def stack_code(letters: str) -> int:
    """The square code of the pieces ``letters`` (bottom up)."""
    colours = 0
    for i, ch in enumerate(reversed(letters)):  # i from the top
        colours |= K.LETTERS.index(ch) << (2 * i)
    return len(letters) | (colours << 3)


def _square(text: str) -> int:
    """The square named ``text``; ``ValueError`` when it is not a square of the board."""
    match = _SQUARE.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r} is not a square name (a file a..h and a rank 1..8)")
    col, rank = ord(match.group(1)) - ord("a"), int(match.group(2))
    if col >= 8 or not 1 <= rank <= 8:
        raise ValueError(f"{text!r} is off the 8 x 8 board: files a..h, ranks 1..8")
    sq = (rank - 1) * 8 + col
    if not K.ON_BOARD[sq]:
        raise ValueError(
            f"{text!r} is one of the corner squares that are not on the Focus board (the "
            "three of each corner: a1, b1, a2, g1, h1, h2, a7, a8, b8, g8, h8, h7)"
        )
    return sq


def stack_move(f: int, t: int) -> int | None:
    """The code of the stack move from ``f`` to ``t``, None if they are not 1..5 apart
    along a rank or a file."""
    for d in range(4):
        for k in range(1, K.MAX_HEIGHT + 1):
            if K.DEST[f, d, k] == t:
                return f * 32 + d * 8 + k
    return None


class FocusPosition(KernelPosition):
    """A Focus position (see the module docstring for notation and JSON)."""

    __slots__ = ()
    GAME = "focus"

    # ---------------------------------------------------------------- reading
    @property
    def n_players(self) -> int:
        """How many play."""
        return int(self._state[K.PLAYERS])

    def stacks(self) -> dict[str, str]:
        """Each occupied square's pieces from the bottom up, by square name."""
        return {square_name(int(sq)): stack_letters(self._state[sq])
                for sq in K.SQUARES if self._state[sq]}  # fmt: skip

    def reserves(self) -> tuple[int, ...]:
        """Each player's pieces in hand."""
        return tuple(int(self._state[K.RESERVE + p]) for p in range(self.n_players))

    def captures(self) -> tuple[tuple[int, ...], ...]:
        """``captures()[p][q]``: the pieces of ``q`` that ``p`` has captured."""
        n = self.n_players
        return tuple(tuple(int(self._state[K.CAPT + 4 * p + q]) for q in range(n))
                     for p in range(n))  # fmt: skip

    def final_scores(self) -> tuple[float, ...] | None:
        """Once over, each player's captures, which rank the players below the winner
        (game records keep them); None before."""
        if not self.is_over:
            return None
        return tuple(float(sum(row)) for row in self.captures())

    # ------------------------------------------------------------- the hooks
    def move_text(self, code: int) -> str:
        """``from-to`` for a stack move, ``+square`` for a reserve piece entered."""
        code = int(code)
        if code >= K.RESERVE_MOVE:
            return "+" + square_name(code - K.RESERVE_MOVE)
        return f"{square_name(code >> 5)}-{square_name(int(K.target(code)))}"

    def move_code(self, text: str) -> int:
        """The move written ``text``; ``ValueError`` saying why when it is malformed,
        off the board or illegal here."""
        shape = (
            "a move is 'from-to' along a rank or file, such as 'c3-c5', or '+square', such as '+e4'"
        )
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a move: {shape}")
        clean = text.replace(" ", "").lower()
        match = _MOVE.fullmatch(clean)
        if match is None:
            raise ValueError(f"{text!r} is not a move: {shape}")
        if match.group(3):
            code = K.RESERVE_MOVE + _square(match.group(3))
        else:
            f, t = _square(match.group(1)), _square(match.group(2))
            found = stack_move(f, t)
            if found is None:
                raise ValueError(
                    f"{clean!r}: a stack moves along a rank or a file, 1 to 5 squares "
                    "(as many as the pieces it takes from the top)"
                )
            code = found
        if self.is_over or code in self._kernel_moves():
            return code
        raise IllegalMoveError(f"{clean} is not legal here; {self._why_not(code)}")

    def _why_not(self, code: int) -> str:
        legal = [self.move_text(int(m)) for m in self._kernel_moves()]
        listed = ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
        mover = self.to_move
        if code >= K.RESERVE_MOVE:
            return f"{K.COLOURS[mover]} has no pieces in reserve; legal moves: {listed}"
        f, k = code >> 5, code & 7
        v = int(self._state[f])
        if v == 0:
            return f"{square_name(f)} is empty; legal moves: {listed}"
        if (v >> 3) & 3 != mover:
            owner = K.COLOURS[(v >> 3) & 3]
            return f"{owner}, not {K.COLOURS[mover]}, tops {square_name(f)}; legal moves: {listed}"
        return (
            f"the stack on {square_name(f)} has {v & 7} piece(s), and moving {k} square(s) "
            f"takes {k}; legal moves: {listed}"
        )

    def state_to_json(self) -> dict[str, Any]:
        """``{"stacks", "reserve", "captured", "to_move", "ply"}`` (module doc)."""
        return {
            "stacks": self.stacks(),
            "reserve": list(self.reserves()),
            "captured": [list(row) for row in self.captures()],
            "to_move": int(self._state[K.SIDE]),
            "ply": int(self._state[K.PLY]),
        }

    @classmethod
    def state_from_json(cls, game: Game, obj: Mapping[str, Any]) -> np.ndarray:
        """The state of a JSON object (module doc; checked afterwards by
        :meth:`check_state`)."""
        n = game.params["players"]
        fields = {"stacks", "reserve", "captured", "to_move", "ply"}
        extra = sorted(set(obj) - fields - {"game", "params"})
        if extra:
            raise ValueError(f"unknown field(s) {', '.join(map(repr, extra))}; {_SHAPE}")
        for field in sorted(fields):
            if field not in obj:
                raise ValueError(f'a focus position needs "{field}": {_SHAPE}')
        state = K.new_state(n, _limit(game), game.params["goal"] == "short")
        state[:64] = 0
        stacks = obj["stacks"]
        if not isinstance(stacks, Mapping):
            raise ValueError(f"stacks {stacks!r} is not a mapping: {_SHAPE}")
        for name, letters in stacks.items():
            sq = _square(str(name).strip().lower())
            ok = isinstance(letters, str) and 1 <= len(letters) <= K.MAX_HEIGHT
            if not ok or set(letters.upper()) - set(K.LETTERS[:n]):
                raise ValueError(
                    f"stack {name}: {letters!r} is not 1 to 5 letters of {K.LETTERS[:n]} "
                    "(the pieces from the bottom up)"
                )
            state[sq] = stack_code(letters.upper())
        state[K.CONTROL : K.CONTROL + 4] = _control(state)
        _read_counts(state, obj, n)
        state[K.WINNER] = _winner(state)
        return state

    @classmethod
    def check_state(cls, game: Game, state: np.ndarray) -> None:
        """``ValueError`` naming what is wrong when ``state`` cannot arise in ``game``.

        Decided without search: the parameters are the game's; stacks only on the
        board's squares, 1 to 5 pieces of the players; every player's pieces are on the
        board, in its reserve or captured, as many as it started with; the control
        counts are the stacks' tops; the moves played are within the limit; the
        recorded winner is the one the rules give, and a game not over has its player
        to move able to move.
        """
        if state.shape != (K.STATE_SIZE,):
            raise ValueError(f"a focus state has {K.STATE_SIZE} entries, got shape {state.shape}")
        n = game.params["players"]
        expected = K.new_state(n, _limit(game), game.params["goal"] == "short")
        for name, i in (("players", K.PLAYERS), ("limit", K.LIMIT), ("goal", K.GOAL_EACH),
                        ("goal", K.GOAL_TOTAL)):  # fmt: skip
            if state[i] != expected[i]:
                raise ValueError(
                    f"the state's {name} entry {int(state[i])} is not the game's "
                    f"({int(expected[i])})"
                )
        _check_board(state, n)
        _check_counts(state, n)
        winner, side, ply = int(state[K.WINNER]), int(state[K.SIDE]), int(state[K.PLY])
        if not 0 <= ply <= int(state[K.LIMIT]):
            raise ValueError(f"ply {ply} is outside 0..{int(state[K.LIMIT])}, the game's limit")
        if not 0 <= side < n:
            raise ValueError(f"to_move {side} is not a player 0..{n - 1}")
        if winner != _winner(state):
            raise ValueError(f"the recorded winner {winner} is not the rules' ({_winner(state)})")
        if winner < 0 and ply < int(state[K.LIMIT]) and not K.can_move(state, side):
            raise ValueError(
                f"{K.COLOURS[side]} is to move but tops no stack and holds no reserve: a "
                "player who cannot move is skipped"
            )

    # ---------------------------------------------------------------- picture
    def svg(self, size: int = 300) -> str:
        """An SVG picture: each stack as rings from its bottom piece (outside) to its
        top (the centre disc) with its height, the corner squares off the board in the
        background's colour, the squares the mover's stacks may reach marked by a dot
        of its colour in their top right corner."""
        to_move = self.to_move
        held = ", ".join(f"{K.COLOURS[p]} {sum(r)} captured, {self.reserves()[p]} in hand"
                         for p, r in enumerate(self.captures()))  # fmt: skip
        title = f"focus: {K.COLOURS[to_move]} to move" if to_move >= 0 else "focus: over"
        parts = board.open_board(f"{title}; {held}", size, "#e8e2d0", "#555", "#999")
        for sq in range(64):
            x, y = board.centre(sq)
            half = board.CELL / 2
            if not K.ON_BOARD[sq]:
                parts.append(
                    f'<rect x="{x - half:g}" y="{y - half:g}" width="{board.CELL:g}" '
                    f'height="{board.CELL:g}" fill="#f4f1e8"/>'
                )
            elif self._state[sq]:
                letters = stack_letters(self._state[sq])
                for i, ch in enumerate(letters):
                    r = board.CELL * (0.44 - 0.07 * i)
                    parts.append(
                        f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" stroke="#333" '
                        f'stroke-width="1" fill="{_FILL[K.LETTERS.index(ch)]}"/>'
                    )
                ink = "#222" if letters[-1] == "Y" else "#fff"
                parts.append(
                    f'<text x="{x:g}" y="{y + 4.5:g}" font-size="12" text-anchor="middle" '
                    f'fill="{ink}">{len(letters)}</text>'
                )
        if to_move >= 0:
            codes = [int(m) for m in self._kernel_moves() if m < K.RESERVE_MOVE]
            targets = {int(K.target(m)) for m in codes}
            for t in sorted(targets):  # in the square's corner, clear of its stack
                x, y = board.centre(t)
                parts.append(
                    f'<circle cx="{x + 0.38 * board.CELL:g}" cy="{y - 0.38 * board.CELL:g}" '
                    f'r="{0.07 * board.CELL:g}" fill="{_FILL[to_move]}" class="legal"/>'
                )
        return board.close_board(parts)


def _limit(game: Game) -> int:
    return game.params["turns"] * game.params["players"]


def _winner(state: np.ndarray) -> int:
    """The winner the rules give: the player whose captures reach the goal (at most
    one: the game stops at the first), else the only player able to move, else -1."""
    n = int(state[K.PLAYERS])
    reached = [p for p in range(n) if K.reached_goal(state, p)]
    if reached:
        return reached[0]
    able = [p for p in range(n) if K.can_move(state, p)]
    return able[0] if len(able) == 1 else -1


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"{name} {value!r} is not a whole number >= 0: {_SHAPE}")
    return int(value)


def _read_counts(state: np.ndarray, obj: Mapping[str, Any], n: int) -> None:
    """The reserves, captures, player to move and moves played of a JSON object."""
    reserve, capt = obj["reserve"], obj["captured"]
    if not isinstance(reserve, (list, tuple)) or len(reserve) != n:
        raise ValueError(f"reserve {reserve!r} is not a list of {n} counts: {_SHAPE}")
    rows_ok = isinstance(capt, (list, tuple)) and len(capt) == n
    if not rows_ok or not all(isinstance(r, (list, tuple)) and len(r) == n for r in capt):
        raise ValueError(f"captured {capt!r} is not {n} lists of {n} counts: {_SHAPE}")
    for p in range(n):
        state[K.RESERVE + p] = _whole(reserve[p], f"reserve[{p}]")
        for q in range(n):
            state[K.CAPT + 4 * p + q] = _whole(capt[p][q], f"captured[{p}][{q}]")
    state[K.SIDE] = _whole(obj["to_move"], "to_move")
    state[K.PLY] = _whole(obj["ply"], "ply")


def _control(state: np.ndarray) -> list[int]:
    """The stacks each player tops, from the squares (what the kernel keeps counted)."""
    control = [0, 0, 0, 0]
    for v in state[:64]:
        if v:
            control[(int(v) >> 3) & 3] += 1
    return control


def _check_board(state: np.ndarray, n: int) -> None:
    """Stacks only on the board, 1..5 pieces of the players; control counts right."""
    for sq in range(64):
        v = int(state[sq])
        if v and not K.ON_BOARD[sq]:
            raise ValueError(f"{square_name(sq)} is a corner square off the board, not empty")
        height = v & 7
        if (v and not 1 <= height <= K.MAX_HEIGHT) or v >> (3 + 2 * height):
            raise ValueError(f"the code {v} of {square_name(sq)} is not a stack of 1 to 5 pieces")
        if v and set(stack_letters(v)) - set(K.LETTERS[:n]):
            raise ValueError(f"{square_name(sq)} holds pieces of a player not in this game of {n}")
    control = _control(state)
    if list(state[K.CONTROL : K.CONTROL + 4]) != control:
        raise ValueError(f"the control counts {list(state[K.CONTROL:K.CONTROL + 4])} are not "
                         f"the stacks' tops {control}")  # fmt: skip


def _check_counts(state: np.ndarray, n: int) -> None:
    """Each player's pieces on the board, in reserve or captured: as many as it had."""
    start = K.start_layout(n)
    letters = "".join(stack_letters(int(state[sq])) for sq in K.SQUARES)
    for p in range(4):
        if p >= n and (state[K.RESERVE + p] or any(state[K.CAPT + 4 * p : K.CAPT + 4 * p + 4])):
            raise ValueError(f"player {p} holds pieces in a game of {n} players")
        if p < n and state[K.CAPT + 5 * p]:
            raise ValueError(f"{K.COLOURS[p]} has captured its own pieces: they go to its reserve")
    for p in range(n):
        had = sum(1 for q in start.values() if q == p)
        on = letters.count(K.LETTERS[p])
        lost = sum(int(state[K.CAPT + 4 * q + p]) for q in range(n))
        total = on + int(state[K.RESERVE + p]) + lost
        if total != had:
            raise ValueError(
                f"{K.COLOURS[p]} has {on} pieces on the board, {int(state[K.RESERVE + p])} in "
                f"reserve and {lost} captured: {total}, not the {had} it started with"
            )
