"""A position class written once for the games whose moves are small numbers.

:class:`KernelPosition` implements the :class:`~.protocol.Position` protocol over a
game's compiled functions: legal moves, play, successors, a compiled perft, returns,
equality and hashing. A game subclasses it and supplies only what is its own: how a
move is written and read (:meth:`KernelPosition.move_text`,
:meth:`KernelPosition.move_code`), the JSON form of a position and its picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .specialise import ROOT_PLY, specialise, template

if TYPE_CHECKING:
    from .registry import Game


class IllegalMoveError(ValueError):
    """A move that is not legal in the position it was played in."""


class Move(NamedTuple):
    """A move: the kernel's number for it and its notation (``str(move)``)."""

    code: int
    name: str

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Move({self.name!r})"


@template("generate", "make", "unmake", "player_of")
def _perft_template(state, depth, moves, undo, count, index):  # pragma: no cover - compiled
    """Leaves ``depth`` plies deep; a finished game is a leaf at its own depth.

    Explicit stack, every move made and taken back; ``generate``, ``make``, ``unmake``
    and ``player_of`` are bound per game by :func:`.specialise.specialise`.
    """
    if depth <= 0 or player_of(state) < 0:  # noqa: F821
        return 1
    leaves = 0
    ply = np.int64(0)  # typed, not a literal (see specialise)
    count[0] = generate(state, moves, ROOT_PLY)  # noqa: F821
    index[0] = 0
    last = depth - 1
    while ply >= 0:
        i = index[ply]
        if i < count[ply]:
            index[ply] = i + 1
            make(state, moves[ply, i], undo, ply)  # noqa: F821
            if ply == last or player_of(state) < 0:  # noqa: F821
                leaves += 1
                unmake(state, undo, ply)  # noqa: F821
            else:
                ply += 1
                index[ply] = 0
                count[ply] = generate(state, moves, ply)  # noqa: F821
        else:
            ply -= 1
            if ply >= 0:
                unmake(state, undo, ply)  # noqa: F821
    return leaves


def compiled_perft(game: Game):
    """The compiled perft of ``game`` (see ``_perft_template``)."""
    ops = game.ops
    return specialise(
        _perft_template,
        {
            "generate": ops.generate,
            "make": ops.make,
            "unmake": ops.unmake,
            "player_of": ops.player_of,
        },
        cache=False,
    )


def perft(game: Game, state: np.ndarray, depth: int) -> int:
    """Perft of ``state`` (left unchanged) ``depth`` plies deep."""
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 0:
        raise ValueError(f"perft depth must be a whole number >= 0, got {depth!r}")
    ops = game.ops
    plies = max(int(depth), 1)
    moves = np.empty((plies, ops.max_moves), dtype=np.int64)
    undo = np.empty((plies, ops.undo_size), dtype=np.int64)
    count = np.empty(plies, dtype=np.int64)
    index = np.empty(plies, dtype=np.int64)
    return int(compiled_perft(game)(state.copy(), int(depth), moves, undo, count, index))


class KernelPosition:
    """An immutable position of a game over its compiled kernel (see the module doc).

    Subclasses set ``GAME`` (the registry name) and implement :meth:`move_text`,
    :meth:`move_code`, :meth:`state_to_json`, :meth:`state_from_json`,
    :meth:`check_state` and :meth:`svg`.
    """

    GAME: str = ""

    __slots__ = ("_game", "_moves", "_state")

    def __init__(self, game: Game, state: np.ndarray, *, _trusted: bool = False) -> None:
        state = np.array(state, dtype=np.int64)
        if not _trusted:
            type(self).check_state(game, state)
        state.flags.writeable = False
        self._game = game
        self._state = state
        self._moves: np.ndarray | None = None

    # ----------------------------------------------------------- for subclasses
    def move_text(self, code: int) -> str:
        """The notation of kernel move ``code`` in this position."""
        raise NotImplementedError

    def move_code(self, text: str) -> int:
        """The kernel move written ``text`` (``ValueError`` if malformed); whether it is
        legal here is checked by the caller."""
        raise NotImplementedError

    def state_to_json(self) -> dict[str, Any]:
        """The game-specific part of :meth:`to_json`."""
        raise NotImplementedError

    @classmethod
    def state_from_json(cls, game: Game, obj: Mapping[str, Any]) -> np.ndarray:
        """A state from :meth:`state_to_json` output (checked afterwards)."""
        raise NotImplementedError

    @classmethod
    def check_state(cls, game: Game, state: np.ndarray) -> None:
        """``ValueError`` saying what is wrong when ``state`` cannot arise in ``game``."""
        raise NotImplementedError

    def svg(self, size: int = 300) -> str:
        """An SVG picture of the position."""
        raise NotImplementedError

    # ------------------------------------------------------------- constructors
    @classmethod
    def from_state(cls, game: Game, state: np.ndarray) -> KernelPosition:
        """A position of ``game`` from a kernel state known to be valid (no checks)."""
        return cls(game, state, _trusted=True)

    @classmethod
    def start(cls, **params: Any) -> KernelPosition:
        """The start position of the game with ``params`` (its defaults otherwise)."""
        from .registry import get_game

        return get_game(cls.GAME, **params).start()

    @classmethod
    def from_moves(cls, moves: list[Any], **params: Any) -> KernelPosition:
        """The position after ``moves`` from the start of the game with ``params``."""
        from .registry import get_game

        return get_game(cls.GAME, **params).from_moves(moves)

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> KernelPosition:
        """A position from :meth:`to_json` output; ``ValueError`` on anything malformed."""
        from .registry import get_game

        if not isinstance(obj, Mapping) or obj.get("game") != cls.GAME:
            raise ValueError(f'a {cls.GAME} position is an object with "game": {cls.GAME!r}')
        params = obj.get("params", {})
        if not isinstance(params, Mapping):
            raise ValueError(f"params must be an object, got {params!r}")
        game = get_game(cls.GAME, **params)
        return cls(game, cls.state_from_json(game, obj), _trusted=False)

    # ----------------------------------------------------------------- reading
    @property
    def game(self) -> Game:
        """The game (with its parameters) this position belongs to."""
        return self._game

    @property
    def state(self) -> np.ndarray:
        """The read-only kernel state (copy it before changing)."""
        return self._state

    @property
    def to_move(self) -> int:
        """The player to move (-1 once the game is over)."""
        return int(self._game.ops.player_of(self._state))

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.to_move < 0

    @property
    def returns(self) -> tuple[float, ...] | None:
        """One exact value per player number; None while the game goes on."""
        if not self.is_over:
            return None
        out = np.zeros(4)
        self._game.ops.returns(self._state, out)
        return tuple(float(out[p]) for p in range(len(self._game.info.player_names)))

    def _kernel_moves(self) -> np.ndarray:
        if self._moves is None:
            ops = self._game.ops
            if self.is_over:
                self._moves = np.zeros(0, dtype=np.int64)
            else:
                buf = np.zeros((1, ops.max_moves), dtype=np.int64)
                n = ops.generate(self._state.copy(), buf, 0)
                self._moves = buf[0, :n].copy()
        return self._moves

    @property
    def legal_moves(self) -> list[Move]:
        """The legal moves in generation order (``[]`` once the game is over)."""
        return [Move(int(m), self.move_text(int(m))) for m in self._kernel_moves()]

    def parse_move(self, move: Move | str) -> Move:
        """The legal move meant by ``move``; :class:`IllegalMoveError` when illegal."""
        if isinstance(move, Move):
            code = move.code
        elif isinstance(move, str):
            code = self.move_code(move)
        else:
            raise TypeError(f"a move is a Move or its notation (a string), not {move!r}")
        legal = self._kernel_moves()
        if code not in legal:
            if self.is_over:
                raise IllegalMoveError(f"{move} cannot be played: the game is over")
            names = [self.move_text(int(m)) for m in legal]
            raise IllegalMoveError(
                f"{move} is not legal here; legal moves: {', '.join(names[:12])}"
                + (" ..." if len(names) > 12 else "")
            )
        return Move(int(code), self.move_text(int(code)))

    def decode_line(self, line: Any) -> list[Move]:
        """The moves of a line of kernel moves played from here (a search's PV)."""
        out, pos = [], self
        for code in line:
            move = pos.parse_move(Move(int(code), ""))
            out.append(move)
            pos = pos.play(move)
        return out

    def _child_state(self, code: int) -> np.ndarray:
        ops = self._game.ops
        state = self._state.copy()
        undo = np.zeros((1, ops.undo_size), dtype=np.int64)
        ops.make(state, code, undo, 0)
        return state

    def play(self, move: Move | str) -> KernelPosition:
        """The position after ``move`` (a :class:`Move` or its notation)."""
        code = self.parse_move(move).code
        return type(self)(self._game, self._child_state(code), _trusted=True)

    def successors(self) -> list[KernelPosition]:
        """The positions after each legal move, in :attr:`legal_moves` order."""
        return [
            type(self)(self._game, self._child_state(int(m)), _trusted=True)
            for m in self._kernel_moves()
        ]

    def perft(self, depth: int) -> int:
        """Leaves of the game tree ``depth`` plies deep (a finished game is a leaf)."""
        return perft(self._game, self._state, depth)

    @property
    def key(self) -> int:
        """The position's 64-bit key (equal positions, equal keys)."""
        return int(self._game.ops.key(self._state))

    def to_json(self) -> dict[str, Any]:
        """``{"game": name, "params": {...}, ...}``; :meth:`from_json` reads it back."""
        params = {k: (list(v) if isinstance(v, tuple) else v) for k, v in self._game.params.items()}
        return {"game": self.GAME, "params": params, **self.state_to_json()}

    # ------------------------------------------------------------ comparisons
    def __eq__(self, other: object) -> bool:
        if isinstance(other, KernelPosition):
            return self._game is other._game and bool(np.array_equal(self._state, other._state))
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.GAME, self._state.tobytes()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_json({self.to_json()!r})"

    def _repr_svg_(self) -> str:
        return self.svg()
