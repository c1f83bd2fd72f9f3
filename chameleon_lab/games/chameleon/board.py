"""The fixed facts of Chameleon Chess: colours, roles, the board and the start pawns.

Everything here is data, read by the compiled kernel (as constant arrays) and by the
Python layer (as enums and helpers, and :class:`Move`, a move between two squares).
Indices follow the original program: rows and columns 0..7 with row 0 at the top,
squares numbered ``row * 8 + col``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

import numpy as np


class Colour(IntEnum):
    """A colour: of a field, and of a player (a player is identified by its colour)."""

    RED = 0
    GREEN = 1
    YELLOW = 2
    BLUE = 3

    def __str__(self) -> str:
        return self.name


#: Players are identified by their colour; the alias reads better in game code.
Player = Colour


class Role(IntEnum):
    """A pawn's current chess role; the numbering is the original program's."""

    KNIGHT = 0
    QUEEN = 1
    BISHOP = 2
    ROOK = 3

    def __str__(self) -> str:
        return self.name


#: Field colours, row by row, from the top row (row 0) to the bottom row (row 7).
_BOARD_ROWS = (
    "BRBYGRBY",
    "RGRBYGRB",
    "GYRGRBBY",
    "YBGYGRYG",
    "BRYBRBGR",
    "RGGYBYRB",
    "GYBRGYBY",
    "RGYBRGYG",
)
_LETTER = {"R": Colour.RED, "G": Colour.GREEN, "Y": Colour.YELLOW, "B": Colour.BLUE}

#: ``FIELD_COLOUR[row * 8 + col]`` is the colour of that field.
FIELD_COLOUR = np.array([_LETTER[ch] for row in _BOARD_ROWS for ch in row], dtype=np.int64)

#: Turn order: RED -> BLUE -> YELLOW -> GREEN -> RED; ``NEXT_PLAYER[p]`` follows ``p``.
NEXT_PLAYER = np.array([Colour.BLUE, Colour.RED, Colour.GREEN, Colour.YELLOW], dtype=np.int64)

#: The order in which the first player of a seating is chosen (and turns go round).
TURN_ORDER = (Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN)

#: Start pawns per player, in list order: (row, col, knight colour).
START_PAWNS: dict[Colour, tuple[tuple[int, int, Colour], ...]] = {
    Colour.RED: (
        (7, 0, Colour.RED),
        (7, 1, Colour.GREEN),
        (7, 2, Colour.YELLOW),
        (7, 3, Colour.BLUE),
    ),
    Colour.GREEN: (
        (7, 7, Colour.GREEN),
        (6, 7, Colour.YELLOW),
        (5, 7, Colour.BLUE),
        (4, 7, Colour.RED),
    ),
    Colour.YELLOW: (
        (0, 7, Colour.YELLOW),
        (0, 6, Colour.BLUE),
        (0, 5, Colour.RED),
        (0, 4, Colour.GREEN),
    ),
    Colour.BLUE: (
        (0, 0, Colour.BLUE),
        (1, 0, Colour.RED),
        (2, 0, Colour.GREEN),
        (3, 0, Colour.YELLOW),
    ),
}

#: Points of each role in the evaluation functions (KNIGHT 1, QUEEN 5, BISHOP 2, ROOK 3).
ROLE_POINTS = np.array([1, 5, 2, 3], dtype=np.int64)

FILES = "abcdefgh"


def role_on(field_colour: int, knight_colour: int) -> Role:
    """The role of a pawn with the given knight colour standing on a field of a colour."""
    return Role((int(field_colour) - int(knight_colour)) % 4)


def role_mapping(knight_colour: int) -> dict[Colour, Role]:
    """A pawn's whole colour-to-role mapping, identified by its knight colour."""
    return {c: role_on(c, knight_colour) for c in Colour}


def square(row: int, col: int) -> int:
    """The square number of a field (``row * 8 + col``)."""
    return row * 8 + col


def square_name(sq: int) -> str:
    """Chess-style name of a square: files a-h from the left, ranks 1-8 from the bottom.

    Row 0 (the top row, where YELLOW and BLUE start) is rank 8; row 7 is rank 1.
    """
    if not 0 <= sq < 64:
        raise ValueError(f"square {sq} is off the board; squares are numbered 0..63")
    return f"{FILES[sq % 8]}{8 - sq // 8}"


def parse_square(name: str) -> int:
    """The square number of a name such as ``"b1"`` (file a-h, rank 1-8)."""
    text = name.strip().lower()
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise ValueError(
            f"{name!r} is not a square name; write a file a-h and a rank 1-8, e.g. 'b1'"
        )
    col = FILES.index(text[0])
    row = 8 - int(text[1])
    return square(row, col)


_MOVE_RE = re.compile(r"^\s*([a-h][1-8])\s*[-x:]?\s*([a-h][1-8])\s*$", re.IGNORECASE)


@dataclass(frozen=True, order=True)
class Move:
    """A move from one square to another (squares numbered ``row * 8 + col``).

    ``capture`` is informative (shown as ``x``) and ignored by equality, so a parsed
    ``"c3d5"`` equals the capturing move ``c3xd5`` of the position.
    """

    origin: int
    target: int
    capture: bool = False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return (self.origin, self.target) == (other.origin, other.target)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.origin, self.target))

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``"b1-c3"``, ``"b1c3"`` or ``"c3xd5"`` (see :mod:`.position`)."""
        match = _MOVE_RE.match(text) if isinstance(text, str) else None
        if match is None:
            raise ValueError(
                f"{text!r} is not a move; write origin and target squares such as 'b1-c3' "
                "(files a-h from the left, ranks 1-8 from the bottom)"
            )
        return cls(parse_square(match.group(1)), parse_square(match.group(2)))

    @property
    def uci(self) -> str:
        """The move as origin and target names without separator, e.g. ``b1c3``."""
        return square_name(self.origin) + square_name(self.target)

    def __str__(self) -> str:
        return square_name(self.origin) + ("x" if self.capture else "-") + square_name(self.target)

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"
