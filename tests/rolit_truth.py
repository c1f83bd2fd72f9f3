"""Rolit written from its rules in plain Python, independent of the library (it imports
nothing of it), so a test comparing the kernel with it compares two implementations.

The rules, as Goliath's Rolit states them and as the multi-player search papers play
it: an 8 x 8 board, rows from the top; the start has one ball of each colour on the
centre, red d4, yellow e4, green e5, blue d5 (rows 4 and 5, files d and e); the seated
colours move in the order red, yellow, green, blue. A placement captures when, in
some direction from the new ball, a run of one or more balls not of the mover's colour
ends at a ball of the mover's colour; every such run turns to the mover's colour.
Capturing is compulsory: with a capture available only captures are legal; otherwise
every empty square touching a ball (eight directions) is. The game ends when the board
is full; the most balls win.

A board here is a tuple of 64 characters, ``.`` or one of ``RYGB``, index ``row * 8 +
col``.
"""

from __future__ import annotations

LETTERS = "RYGB"
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def start() -> tuple[str, ...]:
    board = ["."] * 64
    board[3 * 8 + 3], board[3 * 8 + 4] = "R", "Y"  # d4, e4
    board[4 * 8 + 4], board[4 * 8 + 3] = "G", "B"  # e5, d5
    return tuple(board)


def _runs(board: tuple[str, ...], colour: str, sq: int) -> list[int]:
    """The squares a ball of ``colour`` on the empty ``sq`` turns."""
    r0, c0 = divmod(sq, 8)
    turned = []
    for dr, dc in DIRECTIONS:
        run = []
        r, c = r0 + dr, c0 + dc
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] not in (".", colour):
            run.append(r * 8 + c)
            r, c = r + dr, c + dc
        if run and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == colour:
            turned += run
    return turned


def legal(board: tuple[str, ...], colour: str) -> list[int]:
    """The squares ``colour`` may place on, in square order."""
    empty = [sq for sq in range(64) if board[sq] == "."]
    capturing = [sq for sq in empty if _runs(board, colour, sq)]
    if capturing:
        return capturing
    return [
        sq
        for sq in empty
        if any(
            0 <= sq // 8 + dr < 8
            and 0 <= sq % 8 + dc < 8
            and board[(sq // 8 + dr) * 8 + sq % 8 + dc] != "."
            for dr, dc in DIRECTIONS
        )
    ]


def play(board: tuple[str, ...], colour: str, sq: int) -> tuple[str, ...]:
    """The board after ``colour`` places on ``sq``."""
    out = list(board)
    for t in [sq, *_runs(board, colour, sq)]:
        out[t] = colour
    return tuple(out)


def next_colour(colour: str, seated: str) -> str:
    """The seated colour after ``colour`` in the order red, yellow, green, blue."""
    order = [ch for ch in LETTERS if ch in seated]
    return order[(order.index(colour) + 1) % len(order)]


def perft(board: tuple[str, ...], colour: str, seated: str, depth: int) -> int:
    """Leaves ``depth`` plies deep (a full board is a leaf)."""
    if depth == 0 or "." not in board:
        return 1
    return sum(
        perft(play(board, colour, sq), next_colour(colour, seated), seated, depth - 1)
        for sq in legal(board, colour)
    )


def winners(board: tuple[str, ...], seated: str) -> list[str]:
    """The seated colours with the most balls."""
    counts = {ch: board.count(ch) for ch in seated}
    best = max(counts.values())
    return [ch for ch in seated if counts[ch] == best]
