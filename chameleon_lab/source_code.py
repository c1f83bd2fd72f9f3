"""The package's code as what could change a result, and the names of the code that ran.

* :func:`python_code`: a module's text without docstrings, comments and blank lines:
  what provenance hashes (:mod:`chameleon_lab.analysis.output`), so a docstring or a
  comment edited makes no artefact stale;
* :func:`code_fingerprint`: one hash of the package's code so taken, the entry points
  (CLI, benchmarks, batch runner, bridges) left out: the stamp of a batch's working
  records (:func:`chameleon_lab.batch.records_of_these_sources`), which a docstring
  edit therefore keeps;
* :func:`code_version`: what every game record names as the code that played it (the
  checked-out commit and a hash of the code a game runs through), cached per process.

Layer 0: imports nothing of the package.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: The package's folder.
PACKAGE = Path(__file__).resolve().parent
#: Entry points: code that runs, checks or shows results but computes none a batch keeps.
ENTRY_POINTS = (
    "cli",
    "bench",
    "conformance",
    "interop",
    "batch.py",
    "lanes.py",
    "widgets.py",
    "demo.py",
)
#: Left out of the code that plays a game besides the entry points: the analysis of what
#: was played (its sessions' parameters are in the records themselves).
NOT_PLAYING = (*ENTRY_POINTS, "analysis", "workbench.py")


def declarations(tree: Any) -> Iterator[tuple[str, Any]]:
    """``(name, node)`` of every entry declared in a top-level ``X = Registry(...)``
    statement: a call with a ``name="..."`` keyword or a dict display's
    ``"name": value`` item (the node then spans key to value)."""
    for stmt in tree.body:
        value = getattr(stmt, "value", None)
        if not (
            isinstance(stmt, (ast.Assign, ast.AnnAssign))
            and isinstance(value, ast.Call)
            and getattr(value.func, "id", None) == "Registry"
        ):
            continue
        for node in ast.walk(value):
            if isinstance(node, ast.Call):
                for kw in node.keywords:
                    if kw.arg == "name" and isinstance(kw.value, ast.Constant):
                        yield str(kw.value.value), node
            elif isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values, strict=True):
                    if isinstance(k, ast.Constant) and isinstance(k.value, str):
                        yield (
                            k.value,
                            ast.Tuple(
                                elts=[],
                                lineno=k.lineno,
                                col_offset=k.col_offset,
                                end_lineno=v.end_lineno,
                                end_col_offset=v.end_col_offset,
                            ),
                        )


#: Attempts of :func:`parse` at a spurious ``SystemError`` before it gives up.
PARSE_ATTEMPTS = 5
_PARSING = threading.RLock()  # re-entrant: a finaliser may parse inside a parse


def parse(text: str) -> ast.Module:
    """``ast.parse(text)``, one thread of this process at a time, and tried again when
    CPython 3.11 raises "AST constructor recursion depth mismatch": its syntax-tree
    converter keeps one recursion counter for the whole interpreter, which another
    thread (or a finaliser run by the garbage collector) parsing at the same time
    upsets (CPython gh-106905; the counter came with gh-95185). The text is the same,
    so a second parse returns the same tree; a dask worker's first game, which hashes
    the package's code, failed so once in the suite. Other errors propagate at once."""
    for _ in range(PARSE_ATTEMPTS - 1):
        try:
            with _PARSING:
                return ast.parse(text)
        except SystemError as error:
            if "recursion depth mismatch" not in str(error):
                raise
    with _PARSING:
        return ast.parse(text)


def python_code(data: bytes, keep: frozenset[str] | None = None) -> bytes:
    """A module's text without docstrings, comments and blank lines, trailing spaces
    cut (its bytes if it does not parse: then any change counts), and with ``keep``
    without the registry entries declared whose names are not in it. Text, not the
    syntax tree: ``ast.dump`` differs between Python versions, the text does not."""
    import io
    import tokenize

    try:
        text = data.decode("utf-8")
        tree = parse(text)
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (SyntaxError, UnicodeDecodeError, tokenize.TokenError):
        return data
    lines = text.splitlines()
    for no, col in ((t.start[0], t.start[1]) for t in tokens if t.type == tokenize.COMMENT):
        lines[no - 1] = lines[no - 1][:col]
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            doc = body[0]
            first, last = doc.lineno - 1, (doc.end_lineno or doc.lineno) - 1
            before = lines[first].encode()[: doc.col_offset]
            after = lines[last].encode()[doc.end_col_offset or 0 :]
            alone = not before.strip() and not after.strip()
            if alone:  # the docstring fills its lines (as formatted code has it)
                for i in range(first, last + 1):
                    lines[i] = ""
    for name, node in declarations(tree) if keep is not None else ():
        if name not in keep:  # an entry the run did not read: its lines do not count
            for i in range(node.lineno - 1, node.end_lineno):
                lines[i] = ""
    kept = [line.rstrip() for line in lines if line.strip()]
    return "\n".join(kept).encode()


def commit() -> str | None:
    """The checked-out commit, ``-dirty`` when the library or the notebooks differ from it
    (the output folders themselves do not count: a batch rewrites them as it goes).

    A dirty run is how a change lands in one commit with the artefacts it makes (so that
    every commit passes the tests): the sources' hashes, not the commit, name the code
    that ran, and the tests hold them against the code committed beside the artefacts.
    """
    root = str(PACKAGE.parent)
    if not (PACKAGE.parent / ".git").exists():  # an installed copy: no commit of its own
        return None
    try:
        head = subprocess.run(
            ["git", "-C", root, "rev-parse", "--short=12", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
        )
        changed = subprocess.run(
            ["git", "-C", root, "status", "--porcelain", "--", "chameleon_lab", "notebooks"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if head.returncode != 0:
        return None
    return head.stdout.strip() + ("-dirty" if changed.stdout.strip() else "")


def code_fingerprint(exclude: tuple[str, ...] = ENTRY_POINTS, root: Path = PACKAGE) -> str:
    """A hash (16 hex digits) of the code of every module below ``root`` but those whose
    first path part is in ``exclude``: each module's path and :func:`python_code`, in
    path order. A docstring or comment edited leaves it as it was."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if relative.parts[0] in exclude:
            continue
        digest.update(relative.as_posix().encode() + b"\0")
        digest.update(python_code(path.read_bytes()) + b"\0")
    return digest.hexdigest()[:16]


@functools.cache
def code_version() -> dict[str, str | None]:
    """The code a game is played by, as its record names it: ``commit`` (the checked-out
    commit, ``-dirty`` where the package or the notebooks differ from it; None outside a
    git checkout) and ``code`` (:func:`code_fingerprint` of the code a game runs
    through: games, searches, agents, tournaments, the thesis wing). Once per process."""
    return {"commit": commit(), "code": code_fingerprint(NOT_PLAYING)}
