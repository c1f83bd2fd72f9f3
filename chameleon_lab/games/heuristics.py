"""Heuristics by name, one registry per game, and a researcher's own as a peer.

A heuristic is a numba-compiled function ``evaluate(state, out)`` writing one score per
player (indexed by player number) into ``out[4]``, for the game's kernel state, which it
must not change. It returns raw scores; a search normalises them where its algorithm
asks for it (:func:`normalize`).

Each game keeps a :class:`HeuristicRegistry` in its ``heuristics`` module. A function
written in a notebook cell is registered the same way (:meth:`HeuristicRegistry.register`)
or passed directly wherever a heuristic is accepted; either way it carries a
*fingerprint* of its source code, which records keep, so that a resumed run notices an
edited heuristic instead of silently reusing games played with the old one.

A built-in heuristic may also declare an *incremental form* that scores the position
after a move without making it (:func:`after_move_of`); searches use it at their last
ply, where it saves a make and take-back per leaf.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

#: Names a registry builds on first use, by their prefix, and the function that builds
#: them (``module:function``, taking the game's name and the name): ``weights:`` names a
#: weighted heuristic by its weights. Named by reference, as the search registry names
#: its entries' code, since the module that builds them imports this one.
BUILT_ON_USE = {
    "weights:": "chameleon_lab.games.weighted:spec_heuristic",
    "net:": "chameleon_lab.games.valuenet:file_heuristic",
}


@njit(cache=True, forceinline=True)  # inlined into the searches' leaves: no reference counts
def normalize(v: np.ndarray) -> None:
    """Divide every entry by ``v0 + v1 + v2 + v3`` (summed in that order), in place."""
    total = v[0] + v[1] + v[2] + v[3]
    for i in range(4):
        v[i] = v[i] / total


@njit(cache=True)
def uniform_two(state: np.ndarray, out: np.ndarray) -> None:
    """No knowledge: 1 for both players of a two-player game (the search decides by
    search alone); registered as ``uniform`` by the games that offer it."""
    out[0] = 1.0
    out[1] = 1.0
    out[2] = 0.0
    out[3] = 0.0


@functools.lru_cache(maxsize=1024)
def fingerprint(function: Callable) -> str:
    """A short hash of a heuristic's source (its byte code where there is no source),
    and of the numbers it closes over.

    Equal code gives equal fingerprints in every process, so a record can say which
    version of a heuristic played its game. A heuristic made by a factory (such as the
    weighted heuristics of :mod:`chameleon_lab.games.weighted`, whose weights numba
    compiles in as constants) shares its source with every other one the factory made:
    the numbers and arrays it closes over are hashed too, so other weights give another
    fingerprint. Functions that close over no numbers keep the fingerprint of their
    source alone.
    """
    py = getattr(function, "py_func", function)
    try:
        text = inspect.getsource(py).encode()
    except (OSError, TypeError):
        code = py.__code__
        text = code.co_code + repr(code.co_consts).encode() + repr(code.co_names).encode()
    numbers = _closed_numbers(py)
    if numbers:
        text += b"\0closure:" + repr(numbers).encode()
    return hashlib.sha256(text).hexdigest()[:12]


def _closed_numbers(py: Callable) -> tuple[tuple[str, object], ...]:
    """The numbers (and tuples of numbers) a function closes over, by variable name,
    and the arrays (a value network's weights), each as its dtype, shape and a hash of
    its bytes."""
    cells = getattr(py, "__closure__", None) or ()
    names = getattr(getattr(py, "__code__", None), "co_freevars", ())
    out = []
    for name, cell in zip(names, cells, strict=False):
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if _is_number(value) or (
            isinstance(value, tuple) and value and all(_is_number(v) for v in value)
        ):
            out.append((name, value))
        elif isinstance(value, np.ndarray):
            data = hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest()[:16]
            out.append((name, f"array {value.dtype} {value.shape} {data}"))
    return tuple(out)


def _is_number(value: object) -> bool:
    return isinstance(value, (bool, int, float, np.integer, np.floating))


@dataclass(frozen=True)
class Heuristic:
    """A heuristic with its name, its documentation and its code's fingerprint."""

    name: str
    function: Callable
    doc: str
    builtin: bool
    fingerprint: str
    #: ``fits(game)`` raises ``ValueError`` for a game (with its parameters) the
    #: heuristic knows nothing of: a trained model meets a board of another size.
    fits: Callable[[Any], None] | None = field(default=None, compare=False, repr=False)

    def check_fits(self, game: Any) -> None:
        """``ValueError`` (what the heuristic is for) unless it can score ``game``."""
        if self.fits is not None:
            self.fits(game)

    @property
    def after_move(self) -> Callable | None:
        """The heuristic's incremental form, if it has one (see :func:`after_move_of`)."""
        return after_move_of(self.function)


#: Incremental forms by the identity of their heuristic (which the entry keeps alive).
_AFTER_MOVE: dict[int, tuple[Callable, Callable]] = {}


def after_move_of(function: Callable) -> Callable | None:
    """The incremental form of a registered heuristic, ``None`` if it has none.

    ``after_move(state, move, out) -> bool`` writes into ``out`` the scores the
    heuristic would give the position after ``move`` and returns ``True``, without
    making the move; or returns ``False`` (leaving ``out`` undefined) where it cannot
    tell cheaply, and the search then makes the move and calls the heuristic. It may
    answer ``True`` only for moves after which the game is not over. A search one ply
    above its depth limit asks it first, which saves the move and its take-back at
    most leaves (the thesis's Chameleon heuristics: see their module).
    """
    found = _AFTER_MOVE.get(id(function))
    return found[1] if found is not None and found[0] is function else None


def _is_compiled(function: object) -> bool:
    return callable(function) and hasattr(function, "py_func")


class HeuristicRegistry:
    """The heuristics of one game, by name (names are case-insensitive).

    Built-in heuristics are registered by the game's own module; a researcher's own is
    registered with :meth:`register` or passed as a function to :meth:`get`.
    """

    def __init__(self, game: str, default: str | None = None) -> None:
        self.game = game
        self.default = default
        self._items: dict[str, Heuristic] = {}
        self._aliases: dict[str, str] = {}

    def builtin(
        self, name: str, *aliases: str, after_move: Callable | None = None
    ) -> Callable[[Callable], Callable]:
        """Decorator registering a compiled function as a built-in heuristic, with its
        incremental form if it has one (see :func:`after_move_of`)."""

        def register(function: Callable) -> Callable:
            self._add(name, function, builtin=True, replace=False, after_move=after_move)
            for alias in aliases:
                self._aliases[alias.lower()] = name
            return function

        return register

    def register(
        self,
        name: str,
        function: Callable,
        *,
        replace: bool = False,
        fits: Callable[[Any], None] | None = None,
    ) -> Heuristic:
        """Register a researcher's own heuristic under ``name``.

        ``replace=True`` lets a notebook re-run its cell with an edited function; a
        built-in heuristic cannot be replaced. ``fits(game)``, if given, raises
        ``ValueError`` for a game (with its parameters) the heuristic cannot score;
        agents and sessions call it before they play (:attr:`Heuristic.fits`).
        """
        return self._add(name, function, builtin=False, replace=replace, fits=fits)

    def _add(
        self,
        name: str,
        function: Callable,
        *,
        builtin: bool,
        replace: bool,
        after_move: Callable | None = None,
        fits: Callable[[Any], None] | None = None,
    ) -> Heuristic:
        if not isinstance(name, str) or not name.strip() or name != name.strip():
            raise ValueError(f"a heuristic name is a non-empty word, got {name!r}")
        if not _is_compiled(function):
            raise ValueError(
                f"heuristic {name!r} must be a numba-compiled function (@njit) "
                f"evaluate(state, out), got {function!r}"
            )
        key = name.lower()
        old = self._items.get(key)
        if old is not None and (old.builtin or not replace):
            what = "a built-in" if old.builtin else "already a"
            raise ValueError(
                f"{name!r} is {what} heuristic of {self.game}"
                + ("" if old.builtin else "; pass replace=True to replace it")
            )
        doc = inspect.getdoc(getattr(function, "py_func", function)) or ""
        item = Heuristic(name, function, doc, builtin, fingerprint(function), fits)
        self._items[key] = item
        if after_move is not None:
            _AFTER_MOVE[id(function)] = (function, after_move)
        return item

    @property
    def names(self) -> list[str]:
        """The registered names, built-in ones first."""
        items = sorted(self._items.values(), key=lambda h: not h.builtin)
        return [h.name for h in items]

    def get(self, name_or_function: str | Callable | Heuristic | None = None) -> Heuristic:
        """The heuristic of a name (``None``: the game's default) or a compiled function.

        An unregistered function is accepted as it is, named by its function name. A
        name ``weights:feature=number,...`` is a weighted heuristic of the game's
        features, built and registered on first use
        (:func:`~chameleon_lab.games.weighted.spec_heuristic`). An unknown name raises
        ``ValueError`` listing the valid ones.
        """
        if name_or_function is None:
            name_or_function = self.default
        if isinstance(name_or_function, Heuristic):
            return name_or_function
        if not isinstance(name_or_function, str):
            if not _is_compiled(name_or_function):
                raise ValueError(
                    f"a heuristic is a name or a numba-compiled function (@njit), got "
                    f"{name_or_function!r}; the heuristics of {self.game}: "
                    f"{', '.join(self.names)}"
                )
            for item in self._items.values():
                if item.function is name_or_function:
                    return item
            fn = name_or_function
            name = getattr(getattr(fn, "py_func", fn), "__name__", "own")
            return Heuristic(name, fn, inspect.getdoc(fn.py_func) or "", False, fingerprint(fn))
        key = name_or_function.strip().lower()
        key = self._aliases.get(key, key).lower()
        for prefix, reference in BUILT_ON_USE.items():
            if key not in self._items and key.startswith(prefix):
                module, _, function = reference.partition(":")
                build = getattr(importlib.import_module(module), function)
                return build(self.game, name_or_function)
        if key not in self._items:
            raise ValueError(
                f"unknown heuristic {name_or_function!r} for {self.game}; "
                f"valid names: {', '.join(self.names)}"
            )
        return self._items[key]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.strip().lower() in self._items

    def __iter__(self):
        return iter(self.names)
