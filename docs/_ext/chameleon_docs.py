"""Sphinx extension of chameleon_lab's docs: tables read from the registries, and the
notebooks staged for rendering.

Directives (each writes a table at build time, so a page cannot fall behind the code):

``algorithm-table``
    every algorithm of :data:`chameleon_lab.search.registry.ALGORITHMS`: name, title,
    players, flavours, budgets, options with their defaults, reference.
``algorithm-options``
    one algorithm's own options with their defaults (argument: the algorithm's name).
``game-table``
    every game of :mod:`chameleon_lab.games.registry`: name, long name, parameters with
    their defaults, heuristics (the default first).
``game-params``
    one game's parameters, defaults and meaning, and its heuristics (argument: its name).

Two repairs of what the docstrings say, at build time, without editing them (an edit
of a module makes every committed figure that loaded it stale, see
``tests/test_artefacts.py``):

* a reference written as Python writes a relative import (``:mod:`.kernel``` in a module
  of ``chameleon_lab.games.connect4``) goes to that sibling, where Sphinx alone would
  take any object whose name ends so (six modules are called ``kernel``);
* a simple table that docutils refuses (a cell wider than its column) is shown as
  written, in a literal block, instead of failing the build.

The notebook pages: at ``builder-inited`` each notebook is copied into
``docs/notebooks/`` (git-ignored), from ``reports/NAME.ipynb`` when ``make run`` has
written it (executed, with outputs), otherwise from the committed
``notebooks/NAME.ipynb`` (no outputs); a note below the title says which. Files are
rewritten only when their content changes, so an unchanged notebook is not read again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst.tableparser import SimpleTableParser, TableMarkupError
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[2]
STAGED = ROOT / "docs" / "notebooks"


# --------------------------------------------------------------------------- tables
def _cell(content: Any) -> nodes.entry:
    """A table cell: a string is text, with `backticks` as literals; a list is joined by
    commas."""
    para = nodes.paragraph()
    parts = content if isinstance(content, list) else [content]
    for i, part in enumerate(parts):
        if i:
            para += nodes.Text(", ")
        text = str(part)
        for j, piece in enumerate(text.split("`")):
            if piece:
                para += nodes.literal(piece, piece) if j % 2 else nodes.Text(piece)
    return nodes.entry("", para)


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]], widths=None) -> nodes.table:
    rows = list(rows)
    table = nodes.table(classes=["chameleon-registry"])
    group = nodes.tgroup(cols=len(header))
    table += group
    for w in widths or [1] * len(header):
        group += nodes.colspec(colwidth=w)
    head = nodes.thead()
    group += head
    head += nodes.row("", *(_cell(h) for h in header))
    body = nodes.tbody()
    group += body
    for row in rows:
        body += nodes.row("", *(_cell(c) for c in row))
    return table


def _value(value: Any) -> str:
    """A default as Python writes it (floats to six digits)."""
    return f"{value:.6g}" if isinstance(value, float) else repr(value)


class AlgorithmTable(SphinxDirective):
    """Every registered algorithm (see the module docstring)."""

    def run(self) -> list[nodes.Node]:
        from chameleon_lab.search.registry import ALGORITHMS

        rows = [
            (
                f"`{a.name}`",
                a.title,
                "2" if a.two_player else "2-4",
                ", ".join(a.flavours),
                ", ".join(a.budgets),
                [f"`{k}={_value(v)}`" for k, v in a.options.items()] or "none",
                a.reference,
            )
            for a in ALGORITHMS.values()
        ]
        header = ("algorithm", "what", "players", "flavours", "budgets", "options", "reference")
        return [_table(header, rows, widths=[10, 22, 6, 10, 12, 22, 18])]


class AlgorithmOptions(SphinxDirective):
    """One algorithm's own options and defaults (argument: its registered name)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        from chameleon_lab.search.registry import ALGORITHMS

        name = self.arguments[0]
        if name not in ALGORITHMS:
            raise self.error(f"unknown algorithm {name!r}; registered: {', '.join(ALGORITHMS)}")
        a = ALGORITHMS[name]
        facts = nodes.paragraph()
        facts += nodes.Text(
            f"{a.title}: {'two' if a.two_player else 'two to four'} players; flavours "
            f"{', '.join(a.flavours)}; budgets {', '.join(a.budgets)}; normalisation by "
            f"default {'on' if a.normalize else 'off'}; {a.reference}."
        )
        if not a.options:
            none = nodes.paragraph(text=f"{name} takes no options of its own.")
            return [facts, none]
        rows = [(f"`{k}`", f"`{_value(v)}`") for k, v in a.options.items()]
        if not any(k in a.notes for k in a.options):
            return [facts, _table(("option", "default"), rows, widths=[1, 1])]
        rows = [(*row, a.notes.get(k, "")) for row, k in zip(rows, a.options, strict=True)]
        return [facts, _table(("option", "default", "what"), rows, widths=[1, 1, 3])]


def _games() -> list[tuple[Any, Any]]:
    from chameleon_lab.games.registry import game_entry, game_names, get_game

    return [(game_entry(name), get_game(name)) for name in game_names()]


def _heuristics(game: Any) -> list[str]:
    default = game.heuristics.default
    names = [default, *(n for n in game.heuristics.names if n != default)]
    return [f"`{n}`" + (" (default)" if n == default else "") for n in names]


class GameTable(SphinxDirective):
    """Every registered game (see the module docstring)."""

    def run(self) -> list[nodes.Node]:
        rows = [
            (
                f"`{entry.name}`",
                entry.long_name,
                [f"`{p.name}={_value(p.default)}`" for p in entry.params] or "none",
                _heuristics(game),
            )
            for entry, game in _games()
        ]
        header = ("game", "name", "parameters (defaults)", "heuristics")
        return [_table(header, rows, widths=[10, 20, 25, 30])]


class GameParams(SphinxDirective):
    """One game's parameters and heuristics (argument: its registered name)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        games = {entry.name: (entry, game) for entry, game in _games()}
        name = self.arguments[0]
        if name not in games:
            raise self.error(f"unknown game {name!r}; registered: {', '.join(games)}")
        entry, game = games[name]
        out: list[nodes.Node] = []
        if entry.params:
            rows = [(f"`{p.name}`", f"`{_value(p.default)}`", p.doc) for p in entry.params]
            out.append(_table(("parameter", "default", "meaning"), rows, widths=[8, 8, 30]))
        else:
            out.append(nodes.paragraph(text=f"{name} takes no parameters."))
        para = nodes.paragraph()
        para += nodes.Text("Heuristics: ")
        para += _cell(_heuristics(game)).children[0].children
        para += nodes.Text(".")
        out.append(para)
        return out


# ---------------------------------------------------------------- docstring repairs
class RelativeReferences(SphinxPostTransform):
    """``.name`` from module ``a.b.c`` means ``a.b.name`` (Python's relative import),
    where that object exists; runs before Sphinx resolves references."""

    default_priority = 5  # the references resolver is 10

    def run(self, **kwargs: Any) -> None:
        domain = self.env.get_domain("py")
        known = set(domain.objects) | set(domain.modules)
        for ref in self.document.findall(addnodes.pending_xref):
            # Sphinx keeps ``.kernel`` as target ``kernel`` with refspecific set
            target, module = ref.get("reftarget", ""), ref.get("py:module")
            if ref.get("refdomain") != "py" or not ref.get("refspecific") or not module:
                continue
            klass = ref.get("py:class")
            inside = [f"{module}.{klass}.{target}" if klass else None, f"{module}.{target}"]
            if any(name in known for name in inside) or target in known:
                continue  # Sphinx finds it as written
            sibling = f"{module.rpartition('.')[0]}.{target}"
            if sibling in known:
                ref["reftarget"] = sibling
                ref["refspecific"] = False


_BORDER = re.compile(r"^(\s*)=+( +=+)+\s*$")


def literal_bad_tables(app, what, name, obj, options, lines: list[str]) -> None:
    """Show a simple table docutils would refuse as a literal block, as written."""
    i = 0
    while i < len(lines):
        start = _BORDER.match(lines[i])
        if not start:
            i += 1
            continue
        indent = start.group(1)
        end = i + 1  # the table ends at a border followed by a blank line or the end
        while end < len(lines) and not (
            _BORDER.match(lines[end]) and (end + 1 == len(lines) or not lines[end + 1].strip())
        ):
            end += 1
        block = lines[i : end + 1]
        try:
            SimpleTableParser().parse(StringList([ln[len(indent) :] for ln in block]))
        except TableMarkupError:
            lines[i : end + 1] = [f"{indent}::", "", *(f"{indent}    {ln}" for ln in block)]
            end += 2
        i = end + 1


# ------------------------------------------------------------------------ notebooks
def _note(executed: bool, source: Path, notebook: dict) -> dict:
    if executed:
        run = notebook.get("metadata", {}).get("papermill", {})
        when = (run.get("end_time") or "")[:10]
        text = (
            "The outputs below are those of `make run` (the notebook batch, quick profile)"
            + (f", run on {when}" if when else "")
            + f", read from `reports/{source.name}`. This site never executes a notebook."
        )
    else:
        text = (
            f"This page shows `notebooks/{source.name}` as committed, without outputs. "
            "Run `make run` (the notebook batch, quick profile, writes executed copies "
            "into `reports/`) and then `make docs`: the pages then show the outputs."
        )
    return {
        "cell_type": "markdown",
        "id": "docs-note",
        "metadata": {},
        "source": f":::{{note}}\n{text}\n:::\n",
    }


def stage_notebooks(app: Sphinx) -> None:
    """Copy each notebook into docs/notebooks/, executed where ``make run`` left it."""
    STAGED.mkdir(exist_ok=True)
    wanted = set()
    for committed in sorted((ROOT / "notebooks").glob("*.ipynb")):
        executed = ROOT / "reports" / committed.name
        source = executed if executed.is_file() else committed
        notebook = json.loads(source.read_text())
        notebook["cells"].insert(1, _note(source is executed, source, notebook))
        target = STAGED / committed.name
        text = json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
        if not target.is_file() or target.read_text() != text:
            target.write_text(text)
        wanted.add(target.name)
    for old in STAGED.glob("*.ipynb"):
        if old.name not in wanted:
            old.unlink()


def skip_aliases(app, what, name, obj, skip, options) -> bool | None:
    """Leave out a module's second names for one function (``make = _unbound`` in
    :mod:`chameleon_lab.search.core`): the function is documented under its own name."""
    short = name.rsplit(".", 1)[-1]
    alias = callable(obj) and getattr(obj, "__name__", short) not in (short, "<lambda>")
    if alias and getattr(obj, "__module__", "").startswith("chameleon_lab"):
        return True
    return None


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("algorithm-table", AlgorithmTable)
    app.add_directive("algorithm-options", AlgorithmOptions)
    app.add_directive("game-table", GameTable)
    app.add_directive("game-params", GameParams)
    app.add_post_transform(RelativeReferences)
    app.connect("autodoc-process-docstring", literal_bad_tables)
    app.connect("autodoc-skip-member", skip_aliases)
    app.connect("builder-inited", stage_notebooks)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
