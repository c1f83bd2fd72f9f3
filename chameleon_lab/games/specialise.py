"""Compile one piece of code per game: a template whose free names are bound per game.

The searches and the generic perft are written once, as plain Python functions that
call the game's functions by fixed global names (``generate``, ``make``, ``unmake``,
``player_of``, ``evaluate``, ``key``, ...). :func:`specialise` makes a copy of such a
template whose globals bind those names to one game's compiled functions, and compiles
it with numba. numba treats a global compiled function as a constant, so the copy calls
the game's functions directly (inlined where numba inlines them), exactly as if they had
been written into it, and nothing passes them down the tree as arguments. A recursive
template calls itself by its own name, which the copy binds to itself.

The copies are kept per template and bindings, so each (game, heuristic) pair compiles
once per process. They are not cached on disk: numba cannot reload functions whose
globals are other compiled functions made at run time.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from typing import Any

from numba import njit

_COPIES: dict[tuple, Any] = {}


def _python_function(template: Callable) -> types.FunctionType:
    fn = getattr(template, "py_func", template)
    if not isinstance(fn, types.FunctionType):
        raise TypeError(f"a template is a Python function or a numba dispatcher, got {template!r}")
    return fn


def _identity(value: Any) -> Any:
    """What makes a bound value the same: a function by identity, a constant by value."""
    if callable(value):
        return ("function", id(value))
    return ("constant", type(value).__name__, value)


def specialise(
    template: Callable,
    bindings: Mapping[str, Any],
    *,
    siblings: Mapping[str, Callable] | None = None,
    **options: Any,
) -> Any:
    """The template compiled with ``bindings`` as its globals (see the module docstring).

    ``siblings`` are further templates the template calls by name (mutual recursion or
    helpers that use the same bindings): each is specialised with the same bindings and
    bound under its name in every copy. ``options`` go to :func:`numba.njit` (the
    template's own decorator options are not inherited).
    """
    siblings = dict(siblings or {})
    key = (
        _python_function(template),
        tuple(sorted((name, _identity(value)) for name, value in bindings.items())),
        tuple(sorted((name, _python_function(fn)) for name, fn in siblings.items())),
        tuple(sorted(options.items())),
    )
    if key in _COPIES:
        return _COPIES[key][0]
    names = {_python_function(template).__name__: template, **siblings}
    copies: dict[str, Any] = {}
    namespaces = []
    for name, fn in names.items():
        py = _python_function(fn)
        namespace = dict(py.__globals__)
        namespace.update(bindings)
        copy = types.FunctionType(py.__code__, namespace, py.__name__, py.__defaults__)
        copy.__qualname__ = py.__qualname__
        copy.__doc__ = py.__doc__
        copy.__module__ = py.__module__
        copies[name] = njit(**options)(copy)
        namespaces.append(namespace)
    for namespace in namespaces:  # every copy calls the others' (and its own) copies
        namespace.update(copies)
    result = copies[_python_function(template).__name__]
    # the bound values are kept alive with the copy, so their ids stay unique
    _COPIES[key] = (result, dict(bindings))
    return result
