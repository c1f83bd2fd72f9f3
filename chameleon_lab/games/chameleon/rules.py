"""Building a valid kernel state from plain data, with the rule checks of a position.

This is the one gate between the outside world (legacy JSON, compact strings, start
seatings, a researcher's own setup) and the compiled kernel: every state the kernel
sees has passed :func:`build_state`, so the kernel itself never has to check.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np

from . import kernel as K
from .board import START_PAWNS, TURN_ORDER, Colour, square_name


class Limits(NamedTuple):
    """The rows and columns still in play (inclusive bounds, row 0 at the top)."""

    min_row: int
    max_row: int
    min_col: int
    max_col: int

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns) inside the limits."""
        return self.max_row - self.min_row + 1, self.max_col - self.min_col + 1

    def contains(self, row: int, col: int) -> bool:
        """Whether a field lies inside the limits."""
        return self.min_row <= row <= self.max_row and self.min_col <= col <= self.max_col


FULL_LIMITS = Limits(0, 7, 0, 7)


class PawnSpec(NamedTuple):
    """A pawn as plain data: owner, field and knight colour (its colour-to-role mapping)."""

    player: int
    row: int
    col: int
    knight_colour: int


def _describe(limits: Limits) -> str:
    return f"rows {limits.min_row}..{limits.max_row}, cols {limits.min_col}..{limits.max_col}"


def check_limits(limits: Limits) -> None:
    """Raise ``ValueError`` unless the limits lie on the board and span at least 3x3."""
    for name, value in zip(Limits._fields, limits, strict=True):
        if not isinstance(value, (int, np.integer)) or not 0 <= value <= 7:
            raise ValueError(
                f"limit {name}={value!r} is off the board; limits are whole numbers in 0..7"
            )
    rows, cols = limits.shape
    if rows < 3 or cols < 3:
        raise ValueError(
            f"limits {_describe(limits)} span {rows}x{cols} fields; the board never "
            "shrinks below 3x3 (and min must not exceed max)"
        )


def build_state(to_move: int, limits: Limits, pawns: Sequence[PawnSpec]) -> np.ndarray:
    """A kernel state for the given position, after checking it against the rules.

    Raises ``ValueError`` naming what is wrong: limits off the board or smaller than
    3x3, a player or colour that is not 0..3, more than four pawns of a player, two
    pawns on one field, a pawn outside the limits, or a player to move without pawns.
    """
    limits = Limits(*limits)
    check_limits(limits)
    if len(pawns) > K.MAX_PAWNS:
        raise ValueError(f"{len(pawns)} pawns given; a position holds at most 16")
    state = K.new_state()
    seen: dict[tuple[int, int], int] = {}
    per_player = [0, 0, 0, 0]
    for i, pawn in enumerate(pawns):
        player, row, col, kc = (pawn.player, pawn.row, pawn.col, pawn.knight_colour)
        if player not in (0, 1, 2, 3):
            raise ValueError(f"pawn {i}: player {player!r} is not one of 0..3 (RED..BLUE)")
        if kc not in (0, 1, 2, 3):
            raise ValueError(f"pawn {i}: knight colour {kc!r} is not one of 0..3 (RED..BLUE)")
        if not (
            isinstance(row, (int, np.integer))
            and isinstance(col, (int, np.integer))
            and 0 <= row <= 7
            and 0 <= col <= 7
        ):
            raise ValueError(f"pawn {i}: field (row {row!r}, col {col!r}) is off the board")
        where = f"row {row}, col {col} ({square_name(row * 8 + col)})"
        if (row, col) in seen:
            raise ValueError(f"pawns {seen[row, col]} and {i} both stand on {where}")
        seen[row, col] = i
        if not limits.contains(row, col):
            raise ValueError(
                f"pawn {i} ({Colour(player).name}) on {where} lies outside the limits "
                f"{_describe(limits)}"
            )
        per_player[player] += 1
        if per_player[player] > 4:
            raise ValueError(f"player {Colour(player).name} has more than 4 pawns")
        state[K.SQ + i] = row * 8 + col
        state[K.KC + i] = kc
        state[K.PL + i] = player
        state[K.ALIVE + i] = 1
    if to_move not in (0, 1, 2, 3):
        raise ValueError(f"player to move {to_move!r} is not one of 0..3 (RED..BLUE)")
    if per_player[to_move] == 0:
        raise ValueError(
            f"the player to move, {Colour(to_move).name}, has no pawns; players with pawns: "
            + ", ".join(c.name for c in Colour if per_player[c])
            if any(per_player)
            else "the position has no pawns"
        )
    state[K.NSLOTS] = len(pawns)
    state[K.MINR], state[K.MAXR], state[K.MINC], state[K.MAXC] = limits
    state[K.TOMOVE] = to_move
    K.recount(state)
    return state


def parse_players(players: Iterable[int | str | Colour]) -> tuple[Colour, ...]:
    """Normalise a seating given as colours, numbers 0..3 or names ('red', 'R', ...)."""
    names = {c.name: c for c in Colour} | {c.name[0]: c for c in Colour}
    seated: set[Colour] = set()
    for item in players:
        if isinstance(item, str):
            key = item.strip().upper()
            if key not in names:
                raise ValueError(
                    f"unknown player {item!r}; use RED, GREEN, YELLOW, BLUE (or R, G, Y, B)"
                )
            colour = names[key]
        elif isinstance(item, (int, np.integer)) and 0 <= int(item) <= 3:
            colour = Colour(int(item))
        else:
            raise ValueError(f"unknown player {item!r}; use a Colour, 0..3 or a colour name")
        if colour in seated:
            raise ValueError(f"player {colour.name} is seated twice")
        seated.add(colour)
    if len(seated) < 2:
        raise ValueError(f"a game seats two to four players, not {len(seated)}")
    return tuple(sorted(seated))


def start_state(players: Iterable[int | str | Colour] = tuple(Colour)) -> np.ndarray:
    """The start position of a seating: the seated players' pawns, RED first.

    Limits come from one limits update starting at the full board, so a RED and GREEN
    game starts on rows 4..7; the first player is the first seated in the turn order.
    """
    seated = parse_players(players)
    pawns = [PawnSpec(p, r, c, kc) for p in seated for (r, c, kc) in START_PAWNS[p]]
    first = next(p for p in TURN_ORDER if p in seated)
    state = build_state(first, FULL_LIMITS, pawns)
    K.update_limits(state)
    return state


def all_seatings() -> list[tuple[Colour, ...]]:
    """The 11 seatings of two to four players: pairs, then triples, then all four.

    Within a size, seatings are in lexicographic colour order (RED, GREEN, YELLOW, BLUE),
    the order of the conformance file ``perft.json``.
    """
    from itertools import combinations

    return [tuple(c) for n in (2, 3, 4) for c in combinations(Colour, n)]


def state_limits(state: np.ndarray) -> Limits:
    """The limits of a kernel state."""
    return Limits(int(state[K.MINR]), int(state[K.MAXR]), int(state[K.MINC]), int(state[K.MAXC]))


def state_pawns(state: np.ndarray) -> list[PawnSpec]:
    """The living pawns of a kernel state, in list order."""
    out = []
    for s in range(int(state[K.NSLOTS])):
        if state[K.ALIVE + s]:
            sq = int(state[K.SQ + s])
            out.append(PawnSpec(int(state[K.PL + s]), sq // 8, sq % 8, int(state[K.KC + s])))
    return out
