"""Chinese Checkers written from its rules in plain Python, independent of the library
(it imports nothing of it), so a test comparing the kernel with it compares two
implementations.

The board is laid out here as the picture shows it, not in the kernel's cube
coordinates: rows from the top, a hole at ``(row, col)`` with ``col`` a doubled
horizontal coordinate (neighbours in a row two apart, in the next row one to either
side). A star of triangle side ``n`` has rows ``0 .. 4n``: the top triangle's rows
hold ``1 .. n`` holes, then ``3n + 1`` down to ``2n + 1`` and back up to ``3n + 1``,
then the bottom triangle's ``n .. 1``, every row centred on column 0. Holes more than
``n`` steps from the centre hole ``(2n, 0)`` are the six triangles: north (rows above
``n``), south (below ``3n``), and in the rows between, north-east, south-east,
south-west and north-west by the side of the centre they lie on. A hole's name is its
row's letter (``a`` the top) and its place in the row from the left.

The rules: players sit at north and south (two), north, south-east and south-west
(three), or north, north-east, south and south-west (four), move in that order
(clockwise), start with a piece on every hole of their triangle and race for the
opposite one, their home. A move takes a piece one step to an empty neighbour, or
along a chain of hops, each over an occupied neighbour to the empty hole straight
beyond, stopping after any hop; it must end elsewhere than it began, and a piece at
home may end only at home. With no move a player passes. Whoever's home is full, with
at least one of its own pieces among those filling it, wins at once (+1, the others
-1). After ``turns`` moves each without a winner the game ends: the fewest steps left
from the pieces to their home's far tip wins (+1), several sharing it draw (0), the
others lose (-1).
"""

from __future__ import annotations

from collections import deque

ORDER = ("north", "north-east", "south-east", "south", "south-west", "north-west")
SEATS = {2: ("north", "south"), 3: ("north", "south-east", "south-west"),
         4: ("north", "north-east", "south", "south-west")}  # fmt: skip
STEPS = ((0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1))


def row_lengths(n: int) -> list[int]:
    top = list(range(1, n + 1))
    middle = [3 * n + 1 - k for k in range(n + 1)]
    return top + middle + middle[-2::-1] + top[::-1]


def holes(n: int) -> list[tuple[int, int]]:
    """Every hole, row by row from the top, left to right."""
    return [(r, -(length - 1) + 2 * j) for r, length in enumerate(row_lengths(n))
            for j in range(length)]  # fmt: skip


def name(hole: tuple[int, int], n: int) -> str:
    r, col = hole
    length = row_lengths(n)[r]
    return f"{chr(ord('a') + r)}{(col + length - 1) // 2 + 1}"


def steps_between(a: tuple[int, int], b: tuple[int, int]) -> int:
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dr + max(0, (dc - dr) // 2)


def triangle(hole: tuple[int, int], n: int) -> str | None:
    r, col = hole
    if steps_between(hole, (2 * n, 0)) <= n:
        return None
    if r < n:
        return "north"
    if r > 3 * n:
        return "south"
    upper = r < 2 * n
    if col > 0:
        return "north-east" if upper else "south-east"
    return "north-west" if upper else "south-west"


def far_tip(corner: str, n: int) -> tuple[int, int]:
    return {"north": (0, 0), "south": (4 * n, 0), "north-east": (n, 3 * n),
            "north-west": (n, -3 * n), "south-east": (3 * n, 3 * n),
            "south-west": (3 * n, -3 * n)}[corner]  # fmt: skip


def home_of(corner: str) -> str:
    return ORDER[(ORDER.index(corner) + 3) % 6]


class Game:
    """A game in progress: ``board`` maps every hole to a player number or None."""

    def __init__(self, players: int, n: int, turns: int) -> None:
        self.players, self.n, self.limit = players, n, turns * players
        self.holes = holes(n)
        self.board: dict[tuple[int, int], int | None] = {h: None for h in self.holes}
        for p, corner in enumerate(SEATS[players]):
            for h in self.holes:
                if triangle(h, n) == corner:
                    self.board[h] = p
        self.to_move, self.ply, self.winner = 0, 0, None

    def home(self, p: int) -> str:
        return home_of(SEATS[self.players][p])

    def over(self) -> bool:
        return self.winner is not None or self.ply >= self.limit

    def _reach(self, start: tuple[int, int]) -> set[tuple[int, int]]:
        board = dict(self.board)
        board[start] = None  # the piece is lifted while it moves
        ends = {(start[0] + dr, start[1] + dc) for dr, dc in STEPS}
        ends = {h for h in ends if h in board and board[h] is None}
        seen, todo = {start}, deque([start])
        while todo:
            r, c = todo.popleft()
            for dr, dc in STEPS:
                over, land = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
                free = land in board and board[land] is None and land not in seen
                if board.get(over) is not None and free:
                    seen.add(land)
                    todo.append(land)
        return (ends | seen) - {start}

    def legal(self) -> set[str]:
        """The legal moves as ``from-to`` names (``{"pass"}`` with none)."""
        if self.over():
            return set()
        p, home, out = self.to_move, self.home(self.to_move), set()
        for h in self.holes:
            if self.board[h] != p:
                continue
            for end in self._reach(h):
                if triangle(h, self.n) != home or triangle(end, self.n) == home:
                    out.add(f"{name(h, self.n)}-{name(end, self.n)}")
        return out or {"pass"}

    def play(self, move: str) -> None:
        assert move in self.legal(), move
        if move != "pass":
            by_name = {name(h, self.n): h for h in self.holes}
            a, b = (by_name[x] for x in move.split("-"))
            self.board[b], self.board[a] = self.board[a], None
            for p in range(self.players):
                home = [h for h in self.holes if triangle(h, self.n) == self.home(p)]
                if all(self.board[h] is not None for h in home) and any(
                    self.board[h] == p for h in home
                ):
                    self.winner = p
        self.ply += 1
        self.to_move = (self.to_move + 1) % self.players

    def left(self, p: int) -> int:
        tip = far_tip(self.home(p), self.n)
        return sum(steps_between(h, tip) for h in self.holes if self.board[h] == p)

    def returns(self) -> tuple[float, ...]:
        if self.winner is not None:
            return tuple(1.0 if p == self.winner else -1.0 for p in range(self.players))
        left = [self.left(p) for p in range(self.players)]
        best = min(left)
        shared = left.count(best) > 1
        return tuple((0.0 if shared else 1.0) if x == best else -1.0 for x in left)

    def rows(self) -> list[str]:
        """The board as the JSON form's rows: ``.`` empty, the player's digit."""
        out: dict[int, str] = {}
        for h in self.holes:
            v = self.board[h]
            out[h[0]] = out.get(h[0], "") + ("." if v is None else str(v))
        return [out[r] for r in sorted(out)]


def perft(game: Game, depth: int) -> int:
    if depth == 0 or game.over():
        return 1
    total = 0
    for move in sorted(game.legal()):
        child = Game.__new__(Game)
        child.__dict__.update(game.__dict__)
        child.board = dict(game.board)
        child.play(move)
        total += perft(child, depth - 1)
    return total
