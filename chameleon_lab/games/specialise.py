"""Compile one piece of code per game: a template whose free names are bound per game.

The searches and the generic perft are written once, as plain Python functions that
call the game's functions by fixed global names (``generate``, ``make``, ``unmake``,
``player_of``, ``evaluate``, ``key``, ...). :func:`specialise` makes a copy of such a
template whose globals bind those names to one game's compiled functions, and compiles
it with numba. numba treats a global compiled function as a constant, so the copy calls
the game's functions directly (inlined where numba inlines them), exactly as if they had
been written into it, and nothing passes them down the tree as arguments. A recursive
template calls itself by its own name, which the copy binds to itself. A template says
so in its source: ``@template("generate", "make", ...)`` names what it binds (checked
against its code, and against the bindings when it is compiled), and called without
being compiled it raises an error naming itself (:func:`unbound`).

The copies are kept per template and bindings, so each (game, heuristic) pair compiles
once per process, and on disk in numba's cache, so a new process (a notebook's kernel, a
worker of the pool, the CLI) loads them instead of compiling them again (seconds against
a fraction of one; ``docs/benchmarks.md``, "Compiled code"). numba's own cache keys a
function by its source file and name, which every copy of a template shares: one copy's
machine code would be loaded for another's bindings. So a copy is cached under a *tag*
of its own, a hash of the template and of what is bound (a function of this package by
its module and name, a copy by its tag, a constant by its value), in index and data
files of its own (``_BoundCache``). The cache folder is kept per version of the
package's sources (:mod:`chameleon_lab.compiled_cache`), so a tag never outlives the
code it names. A copy that binds anything else (a researcher's heuristic written in a
notebook, a value network, whose code the tag cannot name) is compiled in each process,
as before, and so is every copy that binds such a copy (a search binding the leaf that
binds the network): naming that leaf by its module and name, as a function of the
package, gave every network's search one tag, and a second network's search ran the
first's machine code from the disk (found 2026-12-07, ``tests/test_compiled_cache.py``).

Inlining: the games' functions and the searches' small helpers are compiled with
``forceinline=True`` (LLVM's ``alwaysinline``): LLVM copies them into their callers in
the pass numba runs before it prunes reference counts, so an array handed to them costs
no atomic count (see "Speed" in :mod:`chameleon_lab.games.chameleon.kernel`). numba's
``inline="always"``, used before, copies a function's IR into each caller before typing
it: the same machine code, node counts and speed, at about three times the compile time
(``docs/benchmarks.md``, "Compiled code").

Literal arguments: numba types a constant ``0`` or ``True`` as a literal
(``Literal[int](0)``), and a compiled function called with one is compiled for it
apart from the ``int64`` it is compiled for anyway; a variable started with ``0``
and passed on in a loop is typed literal in type inference's first pass, so the
function it is passed to is compiled twice too. Compiled code therefore passes
:data:`ROOT_PLY`, :data:`YES`, :data:`NO` (typed constants: a global numpy scalar is
not a literal) and starts such variables with ``np.int64(0)`` or ``np.bool_(False)``,
except where a literal is meant to fold a branch away (a parameter documented so).
The second compiles were a fifth of a search's compile time (``docs/benchmarks.md``,
"Compiled code")."""

from __future__ import annotations

import hashlib
import pickle
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any

import numba
import numpy as np
from numba import njit

try:  # numba's private caching classes, which the disk cache of the copies extends
    from numba.core.caching import CompileResultCacheImpl, FunctionCache, IndexDataCacheFile
except ImportError:  # pragma: no cover - a numba outside pyproject's range
    CompileResultCacheImpl = FunctionCache = IndexDataCacheFile = object  # type: ignore[misc,assignment]

#: The root's ply as a typed constant for compiled calls (see "Literal arguments" above).
ROOT_PLY = np.int64(0)
#: True as a typed constant for compiled calls.
YES = np.bool_(True)
#: False as a typed constant for compiled calls.
NO = np.bool_(False)

_COPIES: dict[tuple, Any] = {}
#: The tag of each cached copy, by the identity of its dispatcher (kept in _COPIES).
_TAGS: dict[int, str] = {}
#: Only functions of this package are named in a tag: its sources version the cache.
_PACKAGE = __name__.split(".")[0] + "."


def template(*binds: str) -> Callable[[types.FunctionType], types.FunctionType]:
    """Declare a function a template that calls ``binds`` by name (``generate``,
    ``make``, ``evaluate``, ...), bound per game by :func:`specialise`, which compiles
    templates only and refuses bindings that lack one of them; a name declared that the
    code never calls is refused here, so the list a reader sees is the list the code
    uses. The function stays a plain function (a reader and an IDE follow it); its
    unbound names are stubs that raise an error naming the template
    (:func:`unbound`)."""

    def mark(function: types.FunctionType) -> types.FunctionType:
        unused = [name for name in binds if name not in function.__code__.co_names]
        if unused:
            raise ValueError(
                f"{function.__qualname__} declares it binds {', '.join(unused)}, which its "
                "code does not call"
            )
        function.__chameleon_binds__ = tuple(binds)
        return function

    return mark


def binds_of(fn: Any) -> tuple[str, ...] | None:
    """The names template ``fn`` binds (:func:`template`), or None if it is none."""
    return getattr(_python_function(fn), "__chameleon_binds__", None)


def unbound(*args: Any) -> Any:
    """What a template's bound names are before :func:`specialise` binds them: called
    (a template run as plain Python), it raises an error naming the template."""
    caller = sys._getframe(1).f_code
    binds = ", ".join(name for name in caller.co_names if name in _STUBBED)
    raise TypeError(
        f"{caller.co_qualname} is a template: it calls {binds or 'names'} bound per game; "
        "compile it with chameleon_lab.games.specialise.specialise (a search's with "
        "chameleon_lab.search.core.bind) and call the copy"
    )


#: The names the searches' templates bind, stubbed by :func:`unbound` until bound.
_STUBBED = frozenset(
    ("generate", "make", "unmake", "player_of", "key", "evaluate", "returns", "heuristic",
     "noisy", "evaluate_after", "pass_to")
)  # fmt: skip


def inlined(template: Callable) -> Callable:
    """Mark a sibling template to be compiled into its callers (``forceinline``, see
    "Inlining" above) instead of called: a part of a node function written apart so a
    reader can hold it, which costs no call per node. Leave unmarked what is better
    called than copied (see :func:`chameleon_lab.search.twoplayer.static_key`): an
    unmarked copy is compiled with ``forceinline=False``, since numba hands the flag on
    to the functions an inlined one calls."""
    _python_function(template).__chameleon_inline__ = True
    return template


def _is_inlined(template: Callable) -> bool:
    return getattr(_python_function(template), "__chameleon_inline__", False)


def _python_function(template: Callable) -> types.FunctionType:
    fn = getattr(template, "py_func", template)
    if not isinstance(fn, types.FunctionType):
        raise TypeError(f"a template is a Python function or a numba dispatcher, got {template!r}")
    return fn


def _check_template(fn: Any, bindings: Mapping[str, Any]) -> None:
    """``TypeError`` unless ``fn`` is a template (:func:`template`); ``ValueError``
    naming the names it binds that ``bindings`` lack."""
    binds = binds_of(fn)
    if binds is None:
        raise TypeError(
            "specialise compiles templates, functions marked @template(...) with the names "
            f"they bind; {_python_function(fn).__qualname__} is not marked"
        )
    lacking = [name for name in binds if name not in bindings]
    if lacking:
        raise ValueError(
            f"{_python_function(fn).__qualname__} binds {', '.join(lacking)}, which the "
            f"bindings lack (given: {', '.join(sorted(bindings)) or 'none'})"
        )


def _identity(value: Any) -> Any:
    """What makes a bound value the same: a function by identity, a constant by value."""
    if callable(value):
        return ("function", id(value))
    return ("constant", type(value).__name__, value)


def _stable_name(value: Any) -> str | None:
    """What a bound value is, as text that means the same in every process: a copy by
    its tag, a function of this package by its module and qualified name (with the
    values it closes over), a number, text or tuple of them by its value; ``None``
    for anything else, a copy without a tag among them (its globals are its
    bindings, which the name does not say)."""
    if isinstance(value, (bool, int, float, str)):
        return f"{type(value).__name__}:{value!r}"
    if isinstance(value, tuple):
        parts = [_stable_name(v) for v in value]
        return None if None in parts else "(" + ",".join(parts) + ")"  # type: ignore[arg-type]
    if not callable(value):
        return None
    tag = _TAGS.get(id(value))
    if tag is not None:
        return f"copy:{tag}"
    fn = getattr(value, "py_func", value)
    module = getattr(fn, "__module__", None) or ""
    if not isinstance(fn, types.FunctionType) or not module.startswith(_PACKAGE):
        return None
    if fn.__globals__ is not getattr(sys.modules.get(module), "__dict__", None):
        # a copy whose bindings could not be named (no tag): its module and name are
        # every copy's of its template, so naming it so would give copies bound to
        # other heuristics one tag, and the disk would hand one's code to the other
        return None
    cells = ""
    if fn.__closure__:
        names = [_stable_name(c.cell_contents) for c in fn.__closure__]
        if None in names:
            return None
        cells = "[" + ",".join(names) + "]"  # type: ignore[arg-type]
    return f"{module}.{fn.__qualname__}{cells}"


def _tag(template: Callable, bindings: Mapping[str, Any], siblings: Mapping[str, Callable],
         options: Mapping[str, Any]) -> str | None:  # fmt: skip
    """The tag of a copy (see the module doc), or ``None`` when something bound cannot
    be named."""
    names = {"": _stable_name(template)}
    names.update((f"{n}=", _stable_name(v)) for n, v in sorted(bindings.items()))
    names.update(
        (f"{n}~{'inlined' if _is_inlined(f) else ''}", _stable_name(f))
        for n, f in sorted(siblings.items())
    )
    if None in names.values():
        return None
    parts = [repr(sorted(options.items())), *(k + str(v) for k, v in names.items())]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


class _BoundCacheImpl(CompileResultCacheImpl):
    """numba's cache of compile results, with the copy's tag in its file names."""

    def __init__(self, py_func: types.FunctionType) -> None:
        super().__init__(py_func)
        self._filename_base = f"{self._filename_base}-{py_func.__chameleon_tag__}"


#: The first bytes of a data file this package wrote: then the SHA-256 of the rest, the
#: pickled pair of the entry's key and the pickled entry.
_MAGIC = b"chameleon_lab compiled code 1\n"


class _KeyedFiles(IndexDataCacheFile):
    """numba's index and data files, each data file named by a hash of its key and
    checked when loaded.

    numba numbers a function's data files in the order they are saved: two processes
    saving other signatures of one function at once (pool workers, parallel tests) may
    both take number 1, and the index one leaves can then name the data the other
    wrote. A name per key cannot be taken by another key; the data is written before
    the index names it, and an index entry lost to a concurrent save only means a
    compile. Each data file holds its key beside the entry and a SHA-256 of both: an
    entry written for another key, cut short or changed on disk is compiled again,
    never run.
    """

    def save(self, key: Any, data: Any) -> None:
        digest = hashlib.sha256(self._dump(key)).hexdigest()[:16]
        name = self._data_name_pattern.replace("{number:d}", digest)
        body = self._dump((key, self._dump(data)))
        with self._open_for_write(self._data_path(name)) as f:
            f.write(_MAGIC + hashlib.sha256(body).digest() + body)
        overloads = self._load_index()
        overloads[key] = name
        self._save_index(overloads)

    def load(self, key: Any) -> Any:
        """The entry saved for ``key``, or ``None`` (compile) when there is none or the
        file does not hold what was saved for it."""
        name = self._load_index().get(key)
        if name is None:
            return None
        try:
            with open(self._data_path(name), "rb") as f:
                raw = f.read()
        except OSError:  # removed while the index still names it
            return None
        head = len(_MAGIC) + 32
        body = raw[head:]
        if raw[: len(_MAGIC)] != _MAGIC or raw[len(_MAGIC) : head] != hashlib.sha256(body).digest():
            return None
        saved_key, payload = pickle.loads(body)
        return pickle.loads(payload) if saved_key == key else None


class _BoundCache(FunctionCache):
    """numba's function cache for one copy of a template: files of its own (so
    processes saving other copies of the template at the same time never write into
    its index), data files named by their keys (:class:`_KeyedFiles`), and its tag in
    every key."""

    _impl_class = _BoundCacheImpl

    def __init__(self, py_func: types.FunctionType) -> None:
        super().__init__(py_func)
        self._cache_file = _KeyedFiles(
            cache_path=self._cache_path,
            filename_base=self._impl.filename_base,
            source_stamp=self._impl.locator.get_source_stamp(),
        )

    def _index_key(self, sig: Any, codegen: Any) -> tuple:
        return (*super()._index_key(sig, codegen), self._py_func.__chameleon_tag__)


#: What of numba's private caching classes :class:`_BoundCache` uses: class, attributes.
_PRIVATE_API = {
    "CompileResultCacheImpl": ("_filename_base", "filename_base", "locator"),
    "FunctionCache": ("_impl_class", "_index_key", "_cache_path", "_impl", "_py_func"),
    "IndexDataCacheFile": (
        "_data_name_pattern",
        "_dump",
        "_open_for_write",
        "_data_path",
        "_load_index",
        "_save_index",
    ),
}


def _cache_api_problem() -> str | None:
    """What is missing of numba's private caching API that the disk cache of the copies
    relies on (None: all there). Checked once, when the first copy is made: a numba
    outside the range pyproject.toml pins then compiles the copies in every process
    instead of caching them wrongly."""
    classes = {
        "CompileResultCacheImpl": CompileResultCacheImpl,
        "FunctionCache": FunctionCache,
        "IndexDataCacheFile": IndexDataCacheFile,
    }
    for name, attributes in _PRIVATE_API.items():
        cls = classes[name]
        if cls is object:
            return f"numba.core.caching.{name} is gone"
        probe = _probe_instance(cls)
        missing = [a for a in attributes if not hasattr(cls, a) and not hasattr(probe, a)]
        if missing:
            return f"numba.core.caching.{name} has no {', '.join(missing)}"
    return None


def _probe_instance(cls: type) -> Any:
    """An instance of one of numba's cache classes for a tiny function (its instance
    attributes are set in ``__init__``), or None where it cannot be made."""

    def probe(x):  # pragma: no cover - never run, only located
        return x

    probe.__chameleon_tag__ = "probe"
    try:
        if cls is IndexDataCacheFile:
            impl = CompileResultCacheImpl(probe)
            return cls(impl.locator.get_cache_path(), impl.filename_base, None)
        return cls(probe)
    except Exception:
        return None


#: Why the copies are not cached on disk with this numba ("" until first checked).
CACHE_PROBLEM: str | None = ""


def _disk_cache_usable() -> bool:
    """Whether the copies may use the disk cache; warns once where they may not."""
    global CACHE_PROBLEM
    if CACHE_PROBLEM == "":
        CACHE_PROBLEM = _cache_api_problem()
        if CACHE_PROBLEM is not None:
            import warnings

            warnings.warn(
                f"numba {numba.__version__}: {CACHE_PROBLEM}; the compiled searches are not "
                "cached on disk (each process compiles them); install the numba version "
                "pyproject.toml names",
                RuntimeWarning,
                stacklevel=3,
            )
    return CACHE_PROBLEM is None


def specialise(
    template: Callable,
    bindings: Mapping[str, Any],
    *,
    siblings: Mapping[str, Callable] | None = None,
    **options: Any,
) -> Any:
    """The template (see :func:`template`) compiled with
    ``bindings`` as its globals (see the module docstring); ``ValueError`` naming a name
    it binds that ``bindings`` lack.

    ``siblings`` are further templates the template calls by name (mutual recursion or
    helpers that use the same bindings): each is specialised with the same bindings and
    bound under its name in every copy, and compiled into its callers where
    :func:`inlined` marks it. ``options`` go to ``numba.njit`` (the
    template's own decorator options are not inherited); ``cache=False`` keeps the
    copies off the disk cache, which they use by default where their tag can be made.
    """
    siblings = dict(siblings or {})
    for fn in (template, *siblings.values()):
        _check_template(fn, bindings)
    key = (
        _python_function(template),
        tuple(sorted((name, _identity(value)) for name, value in bindings.items())),
        tuple(sorted((name, _python_function(fn)) for name, fn in siblings.items())),
        tuple(sorted(options.items())),
    )
    if key in _COPIES:
        return _COPIES[key][0]
    names = {_python_function(template).__name__: template, **siblings}
    options = dict(options)
    cached = options.pop("cache", True) and _disk_cache_usable()
    tag = _tag(template, bindings, siblings, options) if cached else None
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
        if tag is not None:
            copy.__chameleon_tag__ = hashlib.sha256(f"{tag}:{name}".encode()).hexdigest()[:16]
            # the machine code's symbols are named by the qualified name and a counter
            # of this process: a copy loaded from another process's cache could bear
            # the name of a copy compiled here and be linked to it
            copy.__qualname__ = f"{py.__qualname__}__{copy.__chameleon_tag__}"
        # explicitly False unless marked: numba's forceinline is inherited by the
        # functions an inlined one calls, which would inline what is kept a call
        dispatcher = njit(**{"forceinline": _is_inlined(fn), **options})(copy)
        if tag is not None:
            dispatcher._cache = _BoundCache(copy)  # what numba's enable_caching() sets
            _TAGS[id(dispatcher)] = copy.__chameleon_tag__
        copies[name] = dispatcher
        namespaces.append(namespace)
    for namespace in namespaces:  # every copy calls the others' (and its own) copies
        namespace.update(copies)
    result = copies[_python_function(template).__name__]
    # the bound values are kept alive with the copy, so their ids stay unique
    _COPIES[key] = (result, dict(bindings))
    return result
