"""Writing the workbench's outputs: figures (PNG and SVG) and tables (CSV), atomically,
each with its provenance.

One seaborn style for every figure (:func:`use_style`), so the thesis's figures and
ours look alike; :func:`save_figure` writes both formats with fixed SVG ids and no
date, so an unchanged figure is an unchanged file; :func:`save_table` writes a CSV
through a temporary file, so a killed run never leaves half a table.

Provenance: every file written is entered in ``PROVENANCE.json`` of its folder with
the notebook, batch profile and parameters that made it (from ``CHAMELEON_RUN``, which
the notebook runner sets), the git commit, the library's and its dependencies'
versions, and the SHA-256 of every source that made it (the notebook and each module
of the library loaded at the time), taken over what could change a result: a module's
code without its docstrings and comments, a notebook's code cells (:func:`source_hash`).
A test compares those hashes with the sources as committed, so a figure or table older
than the code that makes it fails the tests, and a docstring or a notebook's prose
edited does not make it stale.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pandas as pd

from ..files import atomic_write, atomic_write_text, exclusive
from ..registries import modules_read, used_entries
from ..source_code import commit, python_code

#: The provenance file of an output folder.
PROVENANCE = "PROVENANCE.json"
#: Environment variable with the run's notebook, profile and parameters (JSON).
RUN_ENV = "CHAMELEON_RUN"


def _project() -> Path:
    return Path(__file__).resolve().parents[2]


def source_hash(path: Path, entries: Collection[str] | None = None) -> str:
    """The first 16 hex digits of a file's SHA-256 (what provenance compares).

    A source is hashed by what could change a result it makes: a Python module by its
    syntax tree without docstrings (comments, formatting and documentation do not
    count), a notebook by its code cells (not its prose, outputs or metadata); any
    other file (a figure, a table) by its bytes. ``entries``: of a module that makes a
    :class:`~chameleon_lab.registries.Registry`, the entries a run read; the others'
    declarations do not count (an algorithm added leaves the artefacts without it
    fresh)."""
    path = Path(path)
    if path.suffix not in (".py", ".ipynb"):
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    stat = path.stat()
    keep = None if entries is None else frozenset(entries)
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size, keep)
    if key not in _SOURCE_HASHES:  # a batch hashes every loaded module at every save
        data = path.read_bytes()
        code = python_code(data, keep) if path.suffix == ".py" else _notebook_code(data)
        _SOURCE_HASHES[key] = hashlib.sha256(code).hexdigest()[:16]
    return _SOURCE_HASHES[key]


#: source_hash's results by (path, modification time, size, entries kept)
_SOURCE_HASHES: dict[tuple[str, int, int, frozenset[str] | None], str] = {}


def _notebook_code(data: bytes) -> bytes:
    """A notebook's code cells, in order, as bytes (its bytes if it is not JSON)."""
    try:
        cells = json.loads(data).get("cells", [])
    except (json.JSONDecodeError, AttributeError):
        return data
    code = ["".join(c.get("source", "")) for c in cells if c.get("cell_type") == "code"]
    return json.dumps(code).encode()


def _sources(notebook: str | None) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Project-relative path -> hash of the notebook and every loaded library module;
    and of each module that makes a registry, the names of the entries read."""
    root = _project()
    for name in sorted(modules_read()):  # the code of every entry read: on the path
        importlib.import_module(name)
    paths = set()
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if (name == "chameleon_lab" or name.startswith("chameleon_lab.")) and file:
            paths.add(Path(file).resolve())
    if notebook:
        paths.add((root / "notebooks" / f"{notebook}.ipynb").resolve())
    sources, entries = {}, {}
    for path in sorted(paths):
        if path.is_relative_to(root) and path.exists():
            name = path.relative_to(root).as_posix()
            read = used_entries(str(path))
            if read is not None:
                entries[name] = sorted(read)
            sources[name] = source_hash(path, read)
    return sources, entries


def provenance() -> dict[str, Any]:
    """What made an output written now: run (notebook, profile, parameters), commit,
    versions and source hashes."""
    from importlib.metadata import PackageNotFoundError, version

    run = json.loads(os.environ.get(RUN_ENV) or "{}")
    versions = {"python": sys.version.split()[0]}
    for package in ("chameleon_lab", "numpy", "numba", "pandas", "matplotlib", "seaborn"):
        try:
            versions[package] = version(package)
        except PackageNotFoundError:
            versions[package] = None
    sources, entries = _sources(run.get("notebook"))
    return {
        "notebook": run.get("notebook"),
        "profile": run.get("profile"),
        "parameters": run.get("parameters", {}),
        "commit": commit(),
        "versions": versions,
        "sources": sources,
        "entries": entries,
    }


def _record(folder: Path, paths: list[Path]) -> None:
    """Enter ``paths`` in ``folder/PROVENANCE.json`` (atomically)."""
    book = folder / PROVENANCE
    made = provenance()
    with exclusive(folder):  # notebooks run at once write one book
        try:
            entries = json.loads(book.read_text()) if book.exists() else {}
        except (OSError, json.JSONDecodeError):
            entries = {}  # a damaged book is rebuilt from what is written now
        for path in paths:
            entries[path.name] = {**made, "sha256": source_hash(path)}
        atomic_write_text(book, json.dumps(entries, indent=1, sort_keys=True) + "\n")


def use_style() -> None:
    """The workbench's plot style: seaborn's whitegrid, colour-blind palette, context
    ``notebook``; non-interactive backend when there is no display."""
    import matplotlib
    import seaborn as sns

    if not os.environ.get("DISPLAY") and "inline" not in matplotlib.get_backend():
        matplotlib.use("Agg")
    sns.set_theme(style="whitegrid", palette="colorblind", context="notebook")


def save_figure(fig: Any, name: str, folder: str | Path) -> list[Path]:
    """Write ``fig`` as ``folder/name.png`` and ``folder/name.svg``; returns the paths."""
    import matplotlib

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for suffix in ("png", "svg"):
        meta = {"Date": None} if suffix == "svg" else {}
        with matplotlib.rc_context({"svg.hashsalt": "chameleon_lab"}):
            paths.append(
                atomic_write(
                    folder / f"{name}.{suffix}",
                    lambda tmp, s=suffix, m=meta: fig.savefig(
                        tmp, dpi=130, bbox_inches="tight", metadata=m, format=s
                    ),
                )
            )
    _record(folder, paths)
    return paths


def save_table(df: pd.DataFrame, name: str, folder: str | Path) -> Path:
    """Write ``df`` as ``folder/name.csv`` (through a temporary file); returns the path."""
    folder = Path(folder)
    path = atomic_write(folder / f"{name}.csv", lambda tmp: df.to_csv(tmp, index=False))
    _record(folder, [path])
    return path


def artefact_problems(folder: str | Path, files: list[Path] | None = None) -> list[str]:
    """What is wrong with the provenance of ``files`` (default: every figure and table
    in ``folder``): a file without an entry, a file changed since its run wrote it, or
    one made by a source (notebook or library module) that has changed since. Empty
    when every file is made by the code as it is now."""
    folder = Path(folder)
    book_path = folder / PROVENANCE
    book = json.loads(book_path.read_text()) if book_path.exists() else {}
    if files is None:
        files = [p for p in folder.iterdir() if p.suffix in (".png", ".svg", ".csv")]
    root = _project()
    problems = []
    for path in sorted(files):
        entry = book.get(path.name)
        if entry is None:
            problems.append(f"{path.name}: no provenance entry in {book_path}")
            continue
        if entry.get("sha256") != source_hash(path):
            problems.append(f"{path.name}: changed since its run wrote it")
        read = entry.get("entries", {})
        changed = [
            src
            for src, digest in entry.get("sources", {}).items()
            if not (root / src).exists() or source_hash(root / src, read.get(src)) != digest
        ]
        if changed:
            more = ", ..." if len(changed) > 3 else ""
            problems.append(
                f"{path.name}: older than {', '.join(changed[:3])}{more}; regenerate it: "
                f"chameleon-lab notebooks run --only {entry.get('notebook')}"
            )
    return problems
