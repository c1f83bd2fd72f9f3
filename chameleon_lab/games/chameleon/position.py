"""The notebook-friendly face of the rules: immutable positions and readable moves.

A :class:`Position` wraps one kernel state. It never changes: :meth:`Position.play`
returns the next position, so positions can be kept in lists, compared and hashed.

Move notation
-------------
Squares are named the chess way: files ``a``-``h`` from the left (column 0 is ``a``),
ranks ``1``-``8`` from the bottom (row 7 is rank 1, row 0 is rank 8). RED starts on
a1-d1, GREEN on h1-h4, YELLOW on e8-h8 and BLUE on a8-a5.

A move is written ``<from>-<to>`` (``b1-c3``), or ``<from>x<to>`` when it captures
(``c3xd5``). Since a field holds at most one pawn, origin and target identify a move;
``Move.parse`` and :meth:`Position.play` also accept ``b1c3`` and ignore case.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np

from . import kernel as K
from . import legacy
from .board import FIELD_COLOUR, Colour, Move, Role, parse_square, role_on, square_name
from .rules import Limits, PawnSpec, build_state, start_state, state_limits, state_pawns


class IllegalMoveError(ValueError):
    """A move that is not legal in the position it was played in."""


def _move_of(state: np.ndarray, m: int) -> Move:
    """The :class:`~chameleon_lab.games.chameleon.board.Move` of kernel move ``m`` in kernel
    state ``state``."""
    slot, target = K.move_slot(m), K.move_target(m)
    return Move(int(state[K.SQ + slot]), target, bool(state[K.BOARD + target]))


class Pawn(NamedTuple):
    """A pawn on the board: owner, field, knight colour and its role on that field."""

    player: Colour
    row: int
    col: int
    knight_colour: Colour

    @property
    def square(self) -> int:
        """Square number ``row * 8 + col``."""
        return self.row * 8 + self.col

    @property
    def name(self) -> str:
        """Chess-style square name, e.g. ``'a1'``."""
        return square_name(self.square)

    @property
    def role(self) -> Role:
        """The role the pawn has on its current field."""
        return role_on(FIELD_COLOUR[self.square], self.knight_colour)

    def role_on(self, field_colour: Colour | int) -> Role:
        """The role this pawn would have on a field of the given colour."""
        return role_on(field_colour, self.knight_colour)


class Position:
    """An immutable Chameleon Chess position: pawns in list order, limits, player to move.

    Create one with :meth:`start`, :meth:`from_legacy`, :meth:`from_compact` or
    :meth:`from_pawns`; every constructor checks the rules and raises ``ValueError``
    saying what is wrong. In Jupyter a position draws itself (``_repr_svg_``).
    """

    __slots__ = ("_moves", "_state")

    def __init__(self, state: np.ndarray, *, _trusted: bool = False) -> None:
        if not _trusted:
            state = np.asarray(state, dtype=np.int64)
            if state.shape != (K.STATE_SIZE,):
                raise ValueError(
                    f"a kernel state has shape ({K.STATE_SIZE},), got {state.shape}; "
                    "use Position.start/from_legacy/from_compact/from_pawns"
                )
            state = build_state(int(state[K.TOMOVE]), state_limits(state), state_pawns(state))
        self._state = K.canonical(state)
        self._state.flags.writeable = False
        self._moves: np.ndarray | None = None

    # ----------------------------------------------------------------- constructors
    @classmethod
    def start(cls, players: Iterable[int | str | Colour] = tuple(Colour)) -> Position:
        """The start position of a seating of two to four players (default: all four).

        ``players`` may hold colours, numbers 0..3 or names (``"red"``, ``"R"``, ...).
        """
        return cls(start_state(players), _trusted=True)

    @classmethod
    def from_pawns(
        cls,
        pawns: Iterable[PawnSpec | tuple[int, int, int, int]],
        to_move: int,
        limits: Iterable[int] | None = None,
    ) -> Position:
        """A position from ``(player, row, col, knight_colour)`` tuples in list order.

        Without ``limits`` the limits are computed from the full board as the game does.
        """
        specs = [PawnSpec(*p) for p in pawns]
        if limits is None:
            state = build_state(to_move, Limits(0, 7, 0, 7), specs)
            K.update_limits(state)
        else:
            state = build_state(to_move, Limits(*limits), specs)
        return cls(state, _trusted=True)

    @classmethod
    def from_state(cls, game: Any, state: np.ndarray) -> Position:
        """A position from a kernel state known to be valid (the registry's hook)."""
        return cls(state, _trusted=True)

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Position:
        """A position from :meth:`to_json` output: ``{"game": "chameleon", "compact": ...}``."""
        if not isinstance(obj, dict) or obj.get("game") != "chameleon" or "compact" not in obj:
            raise ValueError(
                'a chameleon position is an object {"game": "chameleon", "compact": "P|...|..."}'
            )
        return cls.from_compact(obj["compact"])

    @classmethod
    def from_legacy(cls, obj: dict[str, Any]) -> Position:
        """A position from the original program's JSON schema (parsed)."""
        return cls(build_state(*legacy.from_legacy(obj)), _trusted=True)

    @classmethod
    def from_compact(cls, text: str) -> Position:
        """A position from the compact string of the conformance data."""
        return cls(build_state(*legacy.from_compact(text)), _trusted=True)

    # ------------------------------------------------------------------ conversion
    def to_legacy(self) -> dict[str, Any]:
        """The position in the original program's JSON schema."""
        return legacy.to_legacy(self.to_move, self.limits, self._specs())

    def to_compact(self) -> str:
        """The position as a compact string (``P|limits|pawns``)."""
        return legacy.to_compact(self.to_move, self.limits, self._specs())

    def to_json(self) -> dict[str, Any]:
        """``{"game": "chameleon", "compact": ...}`` (the compact form holds everything)."""
        return {"game": "chameleon", "compact": self.to_compact()}

    @property
    def state(self) -> np.ndarray:
        """The read-only kernel state (for compiled code; copy it before changing)."""
        return self._state

    @property
    def game(self) -> Any:
        """Chameleon Chess seating the players that still have pawns (a position does
        not record who was seated and has gone; once one is left, all four)."""
        from ..registry import get_game

        alive = [int(c) for c in self.players_alive]
        return get_game("chameleon", players=alive if len(alive) >= 2 else [0, 1, 2, 3])

    @property
    def key(self) -> int:
        """The position's 64-bit Zobrist key."""
        from .zobrist import zobrist_key

        return int(zobrist_key(self._state))

    def _specs(self) -> list[PawnSpec]:
        return state_pawns(self._state)

    # ------------------------------------------------------------------ properties
    @property
    def to_move(self) -> Colour:
        """The player to move (after the game ended: the winner)."""
        return Colour(int(self._state[K.TOMOVE]))

    @property
    def limits(self) -> Limits:
        """The limits of the shrinking board."""
        return state_limits(self._state)

    @property
    def pawns(self) -> tuple[Pawn, ...]:
        """The pawns in list order (the order that decides move generation)."""
        return tuple(
            Pawn(Colour(p.player), p.row, p.col, Colour(p.knight_colour)) for p in self._specs()
        )

    def pawn_at(self, sq: int | str) -> Pawn | None:
        """The pawn on a square (number or name such as ``'b1'``), or ``None``."""
        sq = parse_square(sq) if isinstance(sq, str) else int(sq)
        return next((p for p in self.pawns if p.square == sq), None)

    def role_at(self, sq: int | str) -> Role | None:
        """The role of the pawn on a square, or ``None`` for an empty field."""
        pawn = self.pawn_at(sq)
        return None if pawn is None else pawn.role

    @property
    def players_alive(self) -> tuple[Colour, ...]:
        """The players that still have pawns, in colour order."""
        return tuple(c for c in Colour if self._state[K.PCOUNT + c] > 0)

    @property
    def is_over(self) -> bool:
        """Whether all remaining pawns belong to one player (the rules' only end)."""
        return len(self.players_alive) <= 1

    @property
    def returns(self) -> tuple[float, ...] | None:
        """Once over: +1 for the winner and -1 for every other colour, in colour order."""
        if not self.is_over:
            return None
        return tuple(1.0 if c == self.winner else -1.0 for c in Colour)

    @property
    def winner(self) -> Colour | None:
        """The winner once the game is over, else ``None``."""
        alive = self.players_alive
        return alive[0] if len(alive) == 1 else None

    # ----------------------------------------------------------------------- moves
    def _kernel_moves(self) -> np.ndarray:
        if self._moves is None:
            # once over, nothing is legal (the kernel would still list the winner's moves)
            over = self.is_over
            self._moves = np.zeros(0, dtype=np.int64) if over else K.legal_moves(self._state)
        return self._moves

    def _to_move_obj(self, m: int) -> Move:
        return _move_of(self._state, m)

    def decode_line(self, line: Iterable[int]) -> list[Move]:
        """Moves of a line of kernel move numbers played from here (a search's PV).

        Kernel moves name pawn slots, which :class:`Position` renumbers after captures,
        so the line is followed on the kernel state rather than position by position.
        """
        state = self._state.copy()
        out = []
        for m in line:
            m = int(m)
            if m not in K.legal_moves(state):
                raise ValueError(f"kernel move {m} of the line is not legal where it is played")
            out.append(_move_of(state, m))
            state = K.played(state, m)
        return out

    @property
    def legal_moves(self) -> list[Move]:
        """The legal moves in the original generation order (successor order)."""
        return [self._to_move_obj(m) for m in self._kernel_moves()]

    def _find(self, move: Move | str) -> int:
        wanted = Move.parse(move) if isinstance(move, str) else move
        if not isinstance(wanted, Move):
            raise TypeError(f"a move is a Move or a string such as 'b1-c3', not {move!r}")
        for m in self._kernel_moves():
            if (int(self._state[K.SQ + K.move_slot(m)]), K.move_target(m)) == (
                wanted.origin,
                wanted.target,
            ):
                return int(m)
        if self.is_over:
            raise IllegalMoveError(
                f"{wanted} cannot be played: the game is over ({self.winner.name} won)"
            )
        raise IllegalMoveError(
            f"{wanted} is not legal here ({self.to_move.name} to move); "
            "position.legal_moves lists the legal moves, e.g. "
            + ", ".join(str(m) for m in self.legal_moves[:6])
            + (" ..." if len(self._kernel_moves()) > 6 else "")
        )

    def parse_move(self, move: Move | str) -> Move:
        """The legal move meant by ``move`` (notation or
        :class:`~chameleon_lab.games.chameleon.board.Move`), capture flag set.

        Raises :class:`~chameleon_lab.games.chameleon.position.IllegalMoveError` naming the move
        when it is not legal.
        """
        return self._to_move_obj(self._find(move))

    def play(self, move: Move | str) -> Position:
        """The position after ``move`` (a :class:`~chameleon_lab.games.chameleon.board.Move`
        or notation such as ``'b1-c3'``).

        Raises :class:`~chameleon_lab.games.chameleon.position.IllegalMoveError` naming the move
        when it is not legal.
        """
        return Position(K.played(self._state, self._find(move)), _trusted=True)

    def successors(self) -> list[Position]:
        """The positions after each legal move, in the original generation order
        (none once the game is over; :meth:`generated_successors` has the original's)."""
        return [] if self.is_over else self.generated_successors()

    def generated_successors(self) -> list[Position]:
        """What the original program's generator yields here, also once the game is
        over (the winner's moves); the conformance ``successors`` command answers this."""
        return [Position(s, _trusted=True) for s in K.successor_states(self._state)]

    def move_to(self, successor: Position) -> Move:
        """The legal move that leads from this position to ``successor``.

        Recovers moves from recorded consecutive positions (legacy session files);
        raises ``ValueError`` when no legal move leads there.
        """
        moves = self._kernel_moves()
        for m, state in zip(moves, K.successor_states(self._state)[: len(moves)], strict=True):
            if np.array_equal(K.canonical(state), successor._state):
                return self._to_move_obj(int(m))
        raise ValueError(
            f"no legal move leads from {self.to_compact()!r} to {successor.to_compact()!r}"
        )

    def perft(self, depth: int) -> int:
        """Leaves of the game tree ``depth`` plies deep (a finished game is a leaf)."""
        if not isinstance(depth, (int, np.integer)) or depth < 0:
            raise ValueError(f"perft depth must be a whole number >= 0, got {depth!r}")
        return int(K.perft(self._state.copy(), int(depth))[0])

    # ---------------------------------------------------------------- comparisons
    def __eq__(self, other: object) -> bool:
        if isinstance(other, Position):
            return bool(np.array_equal(self._state, other._state))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._state.tobytes())

    def __repr__(self) -> str:
        return f"Position.from_compact({self.to_compact()!r})"

    # -------------------------------------------------------------------- pictures
    def svg(
        self,
        *,
        last_move: Move | str | None = None,
        targets_of: int | str | None = None,
        size: int = 360,
    ) -> str:
        """An SVG picture of the board (see :func:`.render.position_svg`)."""
        from .render import position_svg

        return position_svg(self, last_move=last_move, targets_of=targets_of, size=size)

    def _repr_svg_(self) -> str:
        return self.svg()
