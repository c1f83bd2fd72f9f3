"""The README's and the docs' tables of notebooks name every notebook once, in order, with
the same "Run All" time, and the prose counts the notebooks right (three pages had
drifted to "eleven" and "nine" when the twelfth came)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chameleon_lab.workbench import NOTEBOOKS

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NUMBERS = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
WORDS = {word: i + 1 for i, word in enumerate(NUMBERS.split())}


def _table(page: Path) -> dict[str, str]:
    """Notebook name -> its "Run All" cell, from the rows of ``page``'s notebook table."""
    rows = re.findall(r"^\| (?:`|\{doc\}`notebooks/)(\d\d_\w+)` \|.*\| ([^|]+) \|$",
                      page.read_text(), flags=re.M)  # fmt: skip
    names = [name for name, _ in rows]
    assert len(names) == len(set(names)), f"{page.name}: a notebook twice in {names}"
    return {name: time.strip() for name, time in rows}


@pytest.mark.parametrize("page", ["README.md", "docs/notebooks.md"])
def test_the_tables_name_every_notebook_once_in_order(page):
    assert list(_table(ROOT / page)) == list(NOTEBOOKS)


def test_the_readme_and_the_docs_give_each_notebook_the_same_time():
    readme, docs = _table(ROOT / "README.md"), _table(ROOT / "docs" / "notebooks.md")
    assert readme == docs
    for time in readme.values():
        assert re.fullmatch(r"(\d+ min )?\d+ s|\d+ min", time), time


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_prose_counts_the_notebooks_right(page):
    said = re.findall(r"\b(\w+) (?:parameterised )?notebooks\b", page.read_text(), flags=re.I)
    for word in said:
        if word.lower() in WORDS:
            assert WORDS[word.lower()] == len(NOTEBOOKS), f"{page.name}: {word} notebooks"
