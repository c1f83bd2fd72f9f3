"""Registries that remember which of their entries a run read.

The library's registries (the search algorithms, the built-in games) are
:class:`Registry` mappings: an entry is read by its name (``registry[name]``,
``registry.get(name)``, ``name in registry``) or all of them by iterating. Each
remembers the names it gave out, so the provenance of a figure or table
(:mod:`chameleon_lab.analysis.output`) counts only the entries its run read: adding an
algorithm or a game to a registry leaves every artefact made without it fresh, while a
changed entry that a run used makes its artefacts stale. Iterating (listing every
algorithm, say) reads every entry, since its result depends on all of them.

A registry's entries are declared in the module that makes it, each either as a call
with a ``name="..."`` keyword or as a ``"name": value`` item of a dict display, so the
provenance can tell one entry's lines from another's
(:func:`chameleon_lab.analysis.output.source_hash`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Generic, TypeVar

T = TypeVar("T")

#: Every registry made, by the module that made it.
REGISTRIES: list[Registry] = []


class Registry(Mapping[str, T], Generic[T]):
    """Entries by name, declared in ``module``; remembers the names read."""

    def __init__(
        self,
        module: str,
        entries: Mapping[str, T],
        code: Callable[[T], Iterable[str]] | None = None,
    ) -> None:
        self.module = module
        self._entries = dict(entries)
        #: the modules an entry's code lives in (loaded when the entry is used, so a
        #: run whose games were played by worker processes, or read from records,
        #: may not have loaded them itself)
        self.code = code
        self.used: set[str] = set()
        REGISTRIES.append(self)

    def __getitem__(self, name: str) -> T:
        entry = self._entries[name]
        self.used.add(name)
        return entry

    def __iter__(self) -> Iterator[str]:
        self.used.update(self._entries)
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Registry({self.module!r}, {list(self._entries)!r})"


def used_entries(path: str) -> frozenset[str] | None:
    """The names of the entries this process has read from the registries the module
    at ``path`` makes (None where it makes none)."""
    found = None
    target = Path(path).resolve()
    for registry in REGISTRIES:
        file = getattr(sys.modules.get(registry.module), "__file__", None)
        if file is not None and Path(file).resolve() == target:
            found = (found or frozenset()) | registry.used
    return found


def modules_read() -> set[str]:
    """The modules whose code the entries read in this process use (each registry's
    ``code``), whether or not this process imported them."""
    out: set[str] = set()
    for registry in REGISTRIES:
        if registry.code is not None:
            for name in registry.used:
                out.update(registry.code(registry._entries[name]))
    return out
