"""What counts as the package's code (:mod:`chameleon_lab.source_code`): a docstring or
a comment is not code, an entry point is not on a result's path, a changed line is; on a
copy of the package whose files the test edits, against the hashes before the edit."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

import chameleon_lab
from chameleon_lab import source_code
from chameleon_lab.source_code import NOT_PLAYING, code_fingerprint, python_code

PACKAGE = Path(chameleon_lab.__file__).resolve().parent


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The package's Python files, copied (no caches)."""
    root = tmp_path / "chameleon_lab"
    shutil.copytree(PACKAGE, root, ignore=shutil.ignore_patterns("__pycache__", "data"))
    return root


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def test_a_docstring_or_comment_edit_keeps_the_fingerprint_a_code_edit_does_not(copy):
    before = code_fingerprint(root=copy)
    heuristics = copy / "games" / "heuristics.py"
    _edit(heuristics, '"""', '"""A sentence added to the docstring. ')
    text = heuristics.read_text()
    heuristics.write_text(text + "\n# a comment at the end\n")
    assert code_fingerprint(root=copy) == before
    _edit(copy / "games" / "heuristics.py", "\ndef ", "\nCHANGED = 1\n\n\ndef ")
    assert code_fingerprint(root=copy) != before


def test_the_entry_points_and_the_analysis_are_not_the_code_that_plays(copy):
    """The CLI is on no result's path; the analysis is on the batch's (it caches
    trained models) but not on a game's."""
    results, playing = code_fingerprint(root=copy), code_fingerprint(NOT_PLAYING, root=copy)
    _edit(copy / "cli" / "notebooks.py", "return 2", "return 2  # same\n    pass")
    assert code_fingerprint(root=copy) == results
    _edit(copy / "analysis" / "stats.py", "\ndef ", "\nCHANGED = 1\n\n\ndef ")
    assert code_fingerprint(root=copy) != results
    assert code_fingerprint(NOT_PLAYING, root=copy) == playing
    _edit(copy / "search" / "core.py", "\ndef ", "\nCHANGED = 1\n\n\ndef ")
    assert code_fingerprint(NOT_PLAYING, root=copy) != playing


def test_python_code_drops_docstrings_comments_and_blank_lines_only():
    source = b'''"""Module."""

def f(x):  # why
    """What f does."""

    return x + 1  # the step
'''
    assert python_code(source) == b"def f(x):\n    return x + 1"
    assert python_code(b"def (:") == b"def (:"  # not Python: every byte counts


def test_a_spurious_recursion_mismatch_is_parsed_again_other_errors_are_not(monkeypatch):
    # CPython 3.11's "AST constructor recursion depth mismatch" (gh-106905) is raised by
    # a parse another thread upset; the same text parses to the same tree the next time
    real, calls = ast.parse, []
    mismatch = SystemError("AST constructor recursion depth mismatch (before=57, after=68)")

    def flaky(text, failures):
        calls.append(text)
        if len(calls) <= failures:
            raise mismatch
        return real(text)

    monkeypatch.setattr(ast, "parse", lambda text: flaky(text, 2))
    assert ast.dump(source_code.parse("x = 1")) == ast.dump(real("x = 1"))
    assert len(calls) == 3
    calls.clear()  # a mismatch every time: raised after the last attempt
    monkeypatch.setattr(ast, "parse", lambda text: flaky(text, 99))
    with pytest.raises(SystemError, match="recursion depth mismatch"):
        source_code.parse("x = 1")
    assert len(calls) == source_code.PARSE_ATTEMPTS
    calls.clear()  # any other SystemError at once

    def broken(text):
        calls.append(text)
        raise SystemError("something else")

    monkeypatch.setattr(ast, "parse", broken)
    with pytest.raises(SystemError, match="something else"):
        source_code.parse("x = 1")
    assert len(calls) == 1
