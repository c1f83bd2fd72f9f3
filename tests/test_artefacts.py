"""Committed figures and tables are made by the code as committed, and say so.

Every figure and CSV in ``figures/`` and ``data/`` under version control has an entry in
its folder's ``PROVENANCE.json`` (written by :mod:`chameleon_lab.analysis.output`):
the notebook, profile, parameters and commit that made it and the SHA-256 of every
source that did. A source changed since (the notebook or any module of the library it
loaded) makes the artefact stale: regenerate it with the batch.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from chameleon_lab.analysis.output import (
    PROVENANCE,
    RUN_ENV,
    artefact_problems,
    save_table,
    source_hash,
)

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("figures", "data")


def _committed(folder: str) -> list[Path]:
    try:
        listed = subprocess.run(
            ["git", "-C", str(ROOT), "ls-files", folder],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):  # not a checkout: what is on disk
        listed = [p.relative_to(ROOT).as_posix() for p in (ROOT / folder).glob("*.*")]
    return [
        ROOT / f
        for f in listed
        if Path(f).parent.as_posix() == folder and Path(f).name != PROVENANCE
    ]


def _book(folder: str) -> dict:
    path = ROOT / folder / PROVENANCE
    return json.loads(path.read_text()) if path.exists() else {}


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_committed_artefact_is_made_by_the_committed_code(folder):
    from chameleon_lab.batch import profile_problems

    committed = _committed(folder)
    problems = artefact_problems(ROOT / folder, committed)
    problems += profile_problems(ROOT / folder, committed)
    assert not problems, f"{folder}/:\n  " + "\n  ".join(problems)


def test_a_changed_profile_line_makes_stale_exactly_its_notebooks_artefacts(monkeypatch):
    """A profile is on no artefact's path: changing the research profile leaves every
    committed artefact fresh; changing the quick profile's line of one notebook makes
    stale the artefacts that notebook wrote (by its provenance entries) and no other."""
    import copy

    from chameleon_lab import batch

    profiles = copy.deepcopy(batch.PROFILES)
    profiles["research"]["05_time_budgets"]["repetitions"] = 99
    monkeypatch.setattr(batch, "PROFILES", profiles)
    for folder in FOLDERS:
        assert batch.profile_problems(ROOT / folder, _committed(folder)) == []
    profiles["quick"]["05_time_budgets"]["repetitions"] = 2
    for folder in FOLDERS:
        committed = _committed(folder)
        stale = {p.split(":")[0] for p in batch.profile_problems(ROOT / folder, committed)}
        wrote = {n for n, e in _book(folder).items() if e["notebook"] == "05_time_budgets"}
        assert stale == wrote & {p.name for p in committed} and stale, folder
    del profiles["quick"]["05_time_budgets"]["repetitions"]  # the notebook's default: 1
    for folder in FOLDERS:
        assert batch.profile_problems(ROOT / folder, _committed(folder)) == []


def test_provenance_is_written_and_staleness_found(tmp_path, monkeypatch):
    import pandas as pd

    monkeypatch.setenv(RUN_ENV, json.dumps({"notebook": "02_trees", "profile": "quick"}))
    table = save_table(pd.DataFrame({"a": [1]}), "t", tmp_path)
    entry = _book_at(tmp_path)["t.csv"]
    assert entry["notebook"] == "02_trees" and entry["profile"] == "quick"
    assert entry["sha256"] == source_hash(table)
    assert entry["sources"]["chameleon_lab/analysis/output.py"] == source_hash(
        ROOT / "chameleon_lab/analysis/output.py"
    )
    assert artefact_problems(tmp_path) == []
    book = _book_at(tmp_path)
    book["t.csv"]["sources"]["chameleon_lab/analysis/output.py"] = "0" * 16  # older code
    (tmp_path / PROVENANCE).write_text(json.dumps(book))
    (problem,) = artefact_problems(tmp_path)
    assert "t.csv: older than chameleon_lab/analysis/output.py" in problem
    assert "notebooks run --only 02_trees" in problem
    table.write_text("a\n2\n")  # edited by hand
    assert any("changed since its run wrote it" in p for p in artefact_problems(tmp_path))
    (tmp_path / "u.csv").write_text("a\n")
    assert any("u.csv: no provenance entry" in p for p in artefact_problems(tmp_path))


def test_a_source_is_stale_only_where_a_result_could_change(tmp_path):
    """Docstrings, comments, blank lines and a notebook's prose do not count; code does."""
    module = tmp_path / "m.py"
    module.write_text('"""Doc."""\n\nimport os  # why\n\n\ndef f(x):\n    """Doc\n    more."""\n'
                      "    return x + 1  # one\n")  # fmt: skip
    before = source_hash(module)
    module.write_text(
        '"""Other doc."""\nimport os\ndef f(x):\n    """New."""\n\n    return x + 1\n'
    )
    assert source_hash(module) == before
    module.write_text('"""Doc."""\nimport os\ndef f(x):\n    return x + 2\n')
    assert source_hash(module) != before
    module.write_text('"""Doc."""\nimport os\ndef f(x):\n    return "x + 1  # one"\n')
    assert source_hash(module) != before  # a '#' inside a string is code
    notebook = tmp_path / "n.ipynb"

    def cells(prose: str, code: str) -> str:
        text = {"cell_type": "markdown", "source": [prose]}
        return json.dumps({"cells": [text, {"cell_type": "code", "source": [code]}]})

    notebook.write_text(cells("# Title", "x = 1"))
    before = source_hash(notebook)
    notebook.write_text(cells("# Another title", "x = 1"))
    assert source_hash(notebook) == before
    notebook.write_text(cells("# Title", "x = 2"))
    assert source_hash(notebook) != before


def test_a_registry_entry_counts_only_for_the_runs_that_read_it(tmp_path):
    """An algorithm or a game added to its registry, or an entry a run did not read
    changed, leaves that run's artefacts fresh; a change to an entry it read does not."""
    source = (ROOT / "chameleon_lab" / "search" / "registry.py").read_text()
    module = tmp_path / "registry.py"
    module.write_text(source)
    read = ["paranoid"]
    before = source_hash(module, read)
    entry = '            Algorithm(\n                name="paranoid",\n'
    assert entry in source
    added = (
        '            Algorithm(\n                name="newsearch",\n                title="New",\n'
        '                reference="",\n                normalize=False,\n'
        '                scalar=True,\n                node="x:y",\n            ),\n'
    )
    module.write_text(source.replace(entry, added + entry))
    assert source_hash(module, read) == before  # one more entry, not read
    original = ROOT / "chameleon_lab" / "search" / "registry.py"
    assert source_hash(module) != source_hash(original)  # without the entries read: all
    module.write_text(source.replace('title="MaxN",', 'title="Max-N",'))
    assert source_hash(module, read) == before  # an entry not read changed
    assert source_hash(module, ["maxn", "paranoid"]) != source_hash(original, ["maxn", "paranoid"])
    module.write_text(source.replace('title="Paranoid",', 'title="Paranoid!",'))
    assert source_hash(module, read) != before  # the entry read changed
    module.write_text(
        source.replace("TT_BITS = 18", "TT_BITS = 19").replace("def load(", "def load2(")
    )
    assert source_hash(module, read) != before  # code outside the entries counts
    games = (ROOT / "chameleon_lab" / "games" / "registry.py").read_text()
    module.write_text(games)
    before = source_hash(module, ["chameleon"])
    line = '        "nim": "chameleon_lab.games.nim",\n'
    assert line in games
    module.write_text(games.replace(line, line + '        "rolit": "chameleon_lab.games.rolit",\n'))
    assert source_hash(module, ["chameleon"]) == before
    assert source_hash(module, ["chameleon", "rolit"]) != before


def test_a_registry_remembers_what_was_read():
    from chameleon_lab.registries import Registry, used_entries

    registry = Registry(__name__, {"a": 1, "b": 2, "c": 3})
    assert len(registry) == 3 and not registry.used
    assert registry["a"] == 1 and registry.get("b") == 2 and "z" not in registry
    assert registry.used == {"a", "b"}
    assert used_entries(__file__) == {"a", "b"}
    assert used_entries(str(ROOT / "README.md")) is None  # makes no registry
    assert list(registry) == ["a", "b", "c"] and registry.used == {"a", "b", "c"}


def test_a_run_reads_only_the_entries_it_uses():
    """A search of Chameleon Chess in a fresh process reads one algorithm and one game
    and loads no other game's package and no algorithm module it does not run; the
    code of an entry it reads counts as a source even where it ran elsewhere."""
    code = (
        "import sys\n"
        "from chameleon_lab.agents import Agent\n"
        "from chameleon_lab.analysis.output import provenance\n"
        "from chameleon_lab.games.registry import get_game\n"
        "Agent('paranoid', depth=1).choose(get_game('chameleon').start())\n"
        "import json; first = [provenance()['entries'], sorted(sys.modules)]\n"
        "from chameleon_lab.search.registry import get_algorithm\n"
        "get_algorithm('mcts')  # read (as a pool's parent does), never run here\n"
        "print(json.dumps([*first, sorted(provenance()['sources'])]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    entries, modules, sources = json.loads(out.splitlines()[-1])
    assert entries == {
        "chameleon_lab/games/registry.py": ["chameleon"],
        "chameleon_lab/search/registry.py": ["paranoid"],
    }
    for other in ("othello", "connect4", "mnk", "nim", "dice"):
        assert f"chameleon_lab.games.{other}" not in modules
    for other in ("mcts", "dfpn", "bestreply", "speculative"):
        assert f"chameleon_lab.search.{other}" not in modules
    # an entry read puts its code on the path, loaded here or not
    assert "chameleon_lab/search/mcts.py" in sources
    assert "chameleon_lab/search/dfpn.py" not in sources


def _book_at(folder: Path) -> dict:
    return json.loads((folder / PROVENANCE).read_text())


def test_every_entry_records_its_run():
    for folder in FOLDERS:
        for name, entry in _book(folder).items():
            assert entry["notebook"] and entry["profile"], f"{folder}/{name}"
            # the commit the run started from; -dirty: with the change committed beside
            # the artefact (the sources' hashes, checked above, name the code)
            assert re.fullmatch(r"[0-9a-f]{12}(-dirty)?", entry["commit"]), f"{folder}/{name}"
            assert entry["sources"], f"{folder}/{name}"


def test_the_readme_embeds_only_figures_with_provenance():
    text = (ROOT / "README.md").read_text()
    embedded = set(re.findall(r"\]\((figures/[^)\s]+)\)", text))
    book = _book("figures")
    committed = {p.relative_to(ROOT).as_posix() for p in _committed("figures")}
    for link in embedded:
        assert link in committed and Path(link).name in book, link


def test_the_cli_and_the_docs_are_on_no_artefacts_path():
    """Editing the command line, the documentation or the batch and its profiles
    regenerates nothing by itself: no committed artefact was made by them."""
    for folder in FOLDERS:
        for name, entry in _book(folder).items():
            outside = ("chameleon_lab/cli/", "docs/", "chameleon_lab/batch.py")
            off = [s for s in entry["sources"] if s.startswith(outside)]
            assert not off, f"{folder}/{name}: {off}"


def test_a_changed_heuristic_makes_exactly_the_artefacts_that_used_it_stale(tmp_path, monkeypatch):
    """In a copy of the sources: a docstring edit of the heuristics module leaves every
    artefact fresh; a change of its code makes stale those whose run loaded it, and only
    those."""
    from chameleon_lab.analysis import output

    module = "chameleon_lab/games/chameleon/heuristics.py"
    for folder in FOLDERS:
        (tmp_path / folder).mkdir()
        (tmp_path / folder / PROVENANCE).write_text((ROOT / folder / PROVENANCE).read_text())
        for path in _committed(folder):
            (tmp_path / folder / path.name).write_bytes(path.read_bytes())
    sources = {s for f in FOLDERS for e in _book(f).values() for s in e["sources"]}
    for src in sources:
        (tmp_path / src).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / src).write_bytes((ROOT / src).read_bytes())
    monkeypatch.setattr(output, "_project", lambda: tmp_path)

    def stale() -> set[tuple[str, str]]:
        return {
            (f, p.split(":")[0])
            for f in FOLDERS
            for p in artefact_problems(tmp_path / f)
            if "older than" in p
        }

    before = stale()  # empty when the committed artefacts are fresh (the first test)
    text = (tmp_path / module).read_text()
    (tmp_path / module).write_text(text.replace('"""', '"""Edited. ', 1))
    assert stale() == before
    (tmp_path / module).write_text(text + "\nSCALE = 2\n")
    copied = {(f, p.name) for f in FOLDERS for p in _committed(f)}
    users = {(f, n) for f in FOLDERS for n, e in _book(f).items() if module in e["sources"]}
    users &= copied
    assert users and stale() == before | users
