"""Opening books for Connect Four: every position of the first plies, solved once.

Seed 004 names an opening book ("Eröffnungsbibliothek") among the improvements of its
Connect Four program, and Pascal Pons's solver keeps one of solved positions: near the
empty board the solver's search is at its longest (7 x 6 from empty: about 13 minutes
here), while the positions there are few. An :class:`OpeningBook` holds the exact score
(:mod:`.solver`'s: positive, the side to move wins; larger, sooner) of *every*
position of at most ``depth`` stones that nobody has won yet, on one board size, so the
solver answers those without searching and an agent can play its first moves from it.

Built by :func:`build_book`: the positions of exactly ``depth`` stones (one of each
mirror pair, as the score of a position is the score of its mirror image) are solved one
by one, each line appended to a checkpoint beside the output, so an interrupted build
resumes where it stopped; the shallower positions then follow by negamax over their
children (a winning stone scores as the solver does). The finished book is written
atomically as a compressed ``.npz``: sorted canonical keys (``pos + mask`` of the
kernel's bitboards, the smaller of a position's and its mirror's), their scores, and a
JSON header (board, depth, the solver's total nodes and seconds, the package version).

Books for the boards the notebooks use ship with the package (``books/``, listed by
:func:`bundled_books`); :func:`bundled_book` returns the one for a board, if any.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...files import atomic_write
from ...version import __version__
from ..solution import check_solver_tt_bits
from . import kernel as K

#: The folder of the books shipped with the package.
BOOK_DIR = Path(__file__).with_name("books")
#: Book format version (the header's ``format``).
FORMAT = 1


def _check_board(width: int, height: int) -> None:
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{name} must be a whole number, got {value!r}")
    sides = all(K.MIN_SIDE <= v <= K.MAX_SIDE for v in (width, height))
    if not sides or not K.size_ok(int(width), int(height)):
        raise ValueError(
            f"no Connect Four board {width} x {height}: sides 4..9 with width * (height + 1) <= 63"
        )


def _column_bits(width: int, height: int) -> list[int]:
    return [((1 << height) - 1) << (c * (height + 1)) for c in range(width)]


def mirror(bits: int, width: int, height: int) -> int:
    """The bitboard ``bits`` with its columns in reverse order."""
    out = 0
    column = (1 << (height + 1)) - 1
    for c in range(width):
        out |= ((bits >> (c * (height + 1))) & column) << ((width - 1 - c) * (height + 1))
    return out


def canonical_key(pos: int, mask: int, width: int, height: int) -> int:
    """The book key of a position: ``pos + mask``, or its mirror image's if smaller."""
    return min(pos + mask, mirror(pos, width, height) + mirror(mask, width, height))


def _moves(pos: int, mask: int, width: int, height: int) -> Iterator[tuple[int, int]]:
    """``(column, stone)`` of every playable column, left to right."""
    for c, col in enumerate(_column_bits(width, height)):
        stone = (mask + (1 << (c * (height + 1)))) & col
        if stone:
            yield c, stone


def _levels(width: int, height: int, depth: int) -> list[list[tuple[int, int]]]:
    """:func:`positions_at` for 0, 1, ..., ``depth`` stones, each level made once from
    the one before."""
    levels = [[(0, 0)]]
    for _ in range(depth):
        nxt: dict[int, tuple[int, int]] = {}
        for pos, mask in levels[-1]:
            for _c, stone in _moves(pos, mask, width, height):
                if K.alignment(pos | stone, height):
                    continue  # the game is over: not a position to look up
                child, cmask = pos ^ mask, mask | stone
                key = canonical_key(child, cmask, width, height)
                if key != child + cmask:
                    child, cmask = mirror(child, width, height), mirror(cmask, width, height)
                nxt[key] = (child, cmask)
        levels.append([nxt[key] for key in sorted(nxt)])
    return levels


def positions_at(width: int, height: int, depth: int) -> list[tuple[int, int]]:
    """One ``(pos, mask)`` of each mirror pair of positions with ``depth`` stones that
    nobody has won, ``pos`` the stones of the player to move, sorted by key."""
    return _levels(width, height, depth)[depth]


@dataclass(frozen=True)
class OpeningBook:
    """Exact scores of every position of at most ``depth`` stones on one board (see
    the module docstring). ``keys`` are sorted canonical keys, ``values`` their scores
    for the player to move, ``header`` how the book was built."""

    width: int
    height: int
    depth: int
    keys: np.ndarray
    values: np.ndarray
    header: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def covers(self, mask: int) -> bool:
        """Whether positions with the stones ``mask`` are in the book (by their count)."""
        return bin(mask).count("1") <= self.depth

    def value(self, pos: int, mask: int) -> int | None:
        """The score of the position for the player to move, ``None`` if it is not in
        the book (too many stones, or already won)."""
        if not self.covers(mask):
            return None
        key = canonical_key(pos, mask, self.width, self.height)
        i = int(np.searchsorted(self.keys, key))
        if i < len(self.keys) and int(self.keys[i]) == key:
            return int(self.values[i])
        return None

    def move_scores(self, pos: int, mask: int) -> dict[int, int] | None:
        """The score of each playable column for the player to move (a winning stone
        scores as the solver does), ``None`` if the book cannot tell: the position has
        ``depth`` or more stones or is not in it."""
        m = bin(mask).count("1")
        if m >= self.depth or self.value(pos, mask) is None:
            return None
        cells = self.width * self.height
        out = {}
        for c, stone in _moves(pos, mask, self.width, self.height):
            if K.alignment(pos | stone, self.height):
                out[c] = (cells + 1 - m) // 2
            else:
                child = self.value(pos ^ mask, mask | stone)
                if child is None:  # pragma: no cover - a complete book has every child
                    raise ValueError("the opening book lacks a child position: it is damaged")
                out[c] = -child
        return out

    def best_move(self, pos: int, mask: int) -> tuple[int, int] | None:
        """``(column, score)`` of a best move (the most central among equals, as the
        solver prefers), ``None`` where :meth:`move_scores` cannot tell."""
        scores = self.move_scores(pos, mask)
        if not scores:
            return None
        centre = (self.width - 1) / 2
        col = max(scores, key=lambda c: (scores[c], -abs(c - centre), -c))
        return col, scores[col]

    def save(self, path: str | os.PathLike) -> Path:
        """Write the book to ``path`` (``.npz``) atomically."""
        header = dict(self.header, width=self.width, height=self.height, depth=self.depth)
        header["format"] = FORMAT

        def write(tmp: Path) -> None:
            with open(tmp, "wb") as fh:
                np.savez_compressed(
                    fh,
                    keys=self.keys.astype(np.int64),
                    values=self.values.astype(np.int8),
                    header=np.array(json.dumps(header, sort_keys=True)),
                )

        return atomic_write(path, write)

    @classmethod
    def load(cls, path: str | os.PathLike) -> OpeningBook:
        """Read a book written by :meth:`save`; ``ValueError`` naming the file if it is
        not one."""
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                header = json.loads(str(data["header"]))
                keys = np.asarray(data["keys"], dtype=np.int64)
                values = np.asarray(data["values"], dtype=np.int8)
        except FileNotFoundError:
            raise ValueError(f"no opening book at {path}") from None
        except (OSError, KeyError, ValueError, EOFError, json.JSONDecodeError):
            raise ValueError(
                f"{path} is not an opening book (a .npz written by build_book or "
                "`chameleon-lab book build`)"
            ) from None
        if header.get("format") != FORMAT:
            raise ValueError(
                f"{path}: book format {header.get('format')!r}, this version reads {FORMAT}"
            )
        if keys.shape != values.shape or np.any(np.diff(keys) <= 0):
            raise ValueError(f"{path}: keys and values do not match or keys are not sorted")
        return cls(
            int(header["width"]),
            int(header["height"]),
            int(header["depth"]),
            keys,
            values,
            header,
        )


def bundled_books() -> list[Path]:
    """The books shipped with the package."""
    return sorted(BOOK_DIR.glob("connect4_*x*.npz"))


_cache: dict[tuple[int, int], OpeningBook | None] = {}


def bundled_book(width: int, height: int) -> OpeningBook | None:
    """The shipped book of the ``width`` x ``height`` board, ``None`` if there is none."""
    if (width, height) not in _cache:
        path = BOOK_DIR / f"connect4_{width}x{height}.npz"
        _cache[width, height] = OpeningBook.load(path) if path.exists() else None
    return _cache[width, height]


def _checkpoint(out: Path) -> Path:
    return out.with_name(out.name + ".partial")


def _read_checkpoint(path: Path, board: str) -> dict[int, tuple[int, int, float]]:
    """``{key: (score, nodes, seconds)}`` from a checkpoint (``key score nodes seconds``
    per line after a ``board WxH depth D`` header); a torn last line (an interrupted
    write) is dropped."""
    done: dict[int, tuple[int, int, float]] = {}
    lines = path.read_text().split("\n")
    if lines[0] != board:
        raise ValueError(
            f"{path} is the checkpoint of another build ({lines[0]!r}, this one is "
            f"{board!r}): delete it or choose another output"
        )
    for line in lines[1:]:
        parts = line.split()
        if len(parts) == 4:
            done[int(parts[0])] = (int(parts[1]), int(parts[2]), float(parts[3]))
    return done


def build_book(
    width: int,
    height: int,
    depth: int,
    out: str | os.PathLike,
    *,
    tt_bits: int | None = None,
    progress: bool = True,
    workers: int = 1,
    on_solved: Callable[[int], None] | None = None,
) -> OpeningBook:
    """Solve every position of ``depth`` stones on the board, derive the shallower ones,
    and write the book to ``out`` (see the module docstring). Resumes from the
    checkpoint ``out.partial`` a previous, interrupted call left; removes it when done.
    ``workers`` processes solve positions side by side (each with its own table,
    ``2**tt_bits`` entries of 16 bytes); this process writes the checkpoint.
    ``on_solved(i)`` is called after the ``i``-th new position (tests interrupt with it).
    """
    from . import solver as C4

    _check_board(width, height)
    cells = width * height
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)):
        raise ValueError(f"depth must be a whole number, got {depth!r}")
    if not 0 <= depth < cells - 1:
        raise ValueError(
            f"depth must be in 0..{cells - 2} on a {width} x {height} board, got {depth}"
        )
    bits = check_solver_tt_bits(C4.TT_BITS if tt_bits is None else tt_bits)
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1, got {workers!r}")
    out = Path(out)
    board = f"board {width}x{height} depth {depth}"
    levels = _levels(width, height, depth)
    frontier = levels[depth]
    check = _checkpoint(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = _read_checkpoint(check, board) if check.exists() else {}
    if not check.exists():
        check.write_text(board + "\n")
    todo = [(p, m) for p, m in frontier if p + m not in done]
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(frontier), initial=len(frontier) - len(todo), unit="position")
    try:
        with open(check, "a") as fh:
            for i, (key, value, nodes, seconds) in enumerate(
                _solve_all(width, height, todo, bits, workers), 1
            ):
                fh.write(f"{key} {value} {nodes} {seconds:.3f}\n")
                fh.flush()
                os.fsync(fh.fileno())
                done[key] = (value, nodes, seconds)
                if bar is not None:
                    bar.update()
                if on_solved is not None:
                    on_solved(i)
    finally:
        if bar is not None:
            bar.close()
    nodes = sum(row[1] for row in done.values())
    seconds_total = sum(row[2] for row in done.values())
    scores = _derive(width, height, levels, {key: row[0] for key, row in done.items()})
    keys = np.array(sorted(scores), dtype=np.int64)
    values = np.array([scores[k] for k in keys.tolist()], dtype=np.int8)
    header = {
        "built_by": f"chameleon_lab {__version__} build_book",
        "positions_solved": len(frontier),
        "solver_nodes": int(nodes),
        "solver_seconds": round(seconds_total, 1),
        "tt_bits": bits,
    }
    book = OpeningBook(width, height, depth, keys, values, header)
    book.save(out)
    check.unlink()
    return book


def _solve_one(task: tuple[int, int, int, int, int]) -> tuple[int, int, int, float]:
    """``(key, score, nodes, seconds)`` of one position (in a worker process)."""
    from . import solver as C4  # the book's positions are solved by the solver

    width, height, pos, mask, bits = task
    C4.warm_up()
    value, _, stats, seconds = C4.solve_bitboards(
        width, height, pos, mask, tt_bits=bits, best_move=False
    )
    return pos + mask, value, int(stats[0]), seconds


def _solve_all(
    width: int, height: int, todo: list[tuple[int, int]], bits: int, workers: int
) -> Iterator[tuple[int, int, int, float]]:
    """The results of :func:`_solve_one` for every position, as they come in."""
    tasks = [(width, height, pos, mask, bits) for pos, mask in todo]
    if workers == 1 or len(tasks) <= 1:
        yield from map(_solve_one, tasks)
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_solve_one, t) for t in tasks]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


def _derive(
    width: int, height: int, levels: list[list[tuple[int, int]]], frontier: dict[int, int]
) -> dict[int, int]:
    """Scores of every position of :func:`_levels`, from those of the last level by
    negamax (the mover takes the best of a winning stone's score and the negated
    scores of the children)."""
    cells = width * height
    scores = dict(frontier)
    for m in range(len(levels) - 2, -1, -1):
        for pos, mask in levels[m]:
            best = -cells
            for _c, stone in _moves(pos, mask, width, height):
                if K.alignment(pos | stone, height):
                    best = max(best, (cells + 1 - m) // 2)
                    continue
                child = canonical_key(pos ^ mask, mask | stone, width, height)
                best = max(best, -scores[child])
            scores[pos + mask] = best
    return scores


def book_choice(game: Any, state: np.ndarray) -> tuple[int, dict[int, int]] | None:
    """``(column, {column: score})`` of the best move and every move's score from the
    shipped book of the state's board, ``None`` where it has no book or the book
    cannot tell (see :meth:`OpeningBook.move_scores`)."""
    state = np.asarray(state, dtype=np.int64)
    book = bundled_book(int(state[K.W]), int(state[K.H]))
    if book is None or int(K.player_of(state)) < 0:
        return None
    pos, mask = int(state[K.POSITION]), int(state[K.MASK])
    best = book.best_move(pos, mask)
    if best is None:
        return None
    return best[0], book.move_scores(pos, mask) or {}


def solve_state(
    game: Any, state: np.ndarray, *, tt_bits: int | None = None, book: Any = True
) -> Any:
    """The solver's :func:`.solver.solve_state` with an opening book: ``True`` looks
    positions up in the book shipped for the board (:func:`bundled_book`, if there is
    one), an :class:`OpeningBook` in that book, ``False`` always searches."""
    from . import solver as C4

    if book is True:
        state = np.asarray(state, dtype=np.int64)
        book = bundled_book(int(state[K.W]), int(state[K.H]))
    elif book is False or book is None:
        book = None
    elif not isinstance(book, OpeningBook):
        raise ValueError(f"book must be True, False or an OpeningBook, got {book!r}")
    bits = C4.TT_BITS if tt_bits is None else tt_bits
    return C4.solve_state(game, state, tt_bits=bits, book=book)
