"""The house's shape: code in a lower layer never imports a higher one.

Layers, lowest first: the version, atomic file writing, argument checks and the registry
class, games, search, agents, tournaments, analysis, the thesis wing, and the entry points
(CLI, benchmarks, widgets, workbench, batch, conformance, the bridges to other libraries).
Every import of the package's own modules is read from the source (function-level ones
included) and must go to its own layer or a lower one.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import chameleon_lab

LAYERS = {
    "version": 0,
    "source_code": 0,
    "files": 0,
    "checks": 0,
    "runlog": 0,
    "registries": 0,
    "stack_arrays": 0,
    "machine_load": 0,
    "games": 1,
    "search": 2,
    "agents": 3,
    "tournament": 4,
    "analysis": 5,
    "thesis": 6,
}
TOP = 7  # __init__, cli, bench, demo, widgets, workbench, batch, conformance, interop
#: Packages of the top layer (the entry points; interop: the optional bridges, which
#: only tests, the CLI and notebooks import).
TOP_PACKAGES = {"bench", "cli", "conformance", "interop"}


def _layer(module: str) -> int:
    parts = module.split(".")
    return LAYERS.get(parts[1], TOP) if len(parts) > 1 else TOP


def _typing_only(tree: ast.AST) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:`` (annotations only; they never run)."""
    return {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for stmt in node.body
        for n in ast.walk(stmt)
    }


def _imports(path: Path, module: str, package: str, *, runtime_only: bool = False):
    """``(line, module)`` of every import of the package's own modules in ``path``
    (function-level ones included); ``runtime_only`` leaves out the typing-only ones."""
    tree = ast.parse(path.read_text())
    skip = _typing_only(tree) if runtime_only else set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
                names = [target] if node.module else [f"{target}.{a.name}" for a in node.names]
            else:
                names = [node.module or ""]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            if name.startswith("chameleon_lab"):
                yield node.lineno, name


def test_no_module_imports_a_higher_layer():
    root = Path(chameleon_lab.__file__).parent
    wrong = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        package = module if parts[-1] == "__init__" else module.rsplit(".", 1)[0]
        for line, target in _imports(path, module, package):
            if _layer(target) > _layer(module):
                wrong.append(f"{path.relative_to(root.parent)}:{line} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_the_layer_table_names_every_package():
    root = Path(chameleon_lab.__file__).parent
    packages = {p.name for p in root.iterdir() if (p / "__init__.py").exists()}
    assert packages - TOP_PACKAGES <= set(LAYERS)


def test_no_two_modules_import_each_other():
    root = Path(chameleon_lab.__file__).parent
    imports: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        package = module if parts[-1] == "__init__" else module.rsplit(".", 1)[0]
        imports[module] = {t for _, t in _imports(path, module, package, runtime_only=True)}
    pairs = sorted(
        f"{a} <-> {b}"
        for a, targets in imports.items()
        for b in targets
        if a < b and a in imports.get(b, set())
    )
    assert not pairs, "\n".join(pairs)


def test_no_module_but_the_cli_imports_a_bridge():
    """The bridges (``interop``) need optional extras: the package works without them,
    so only the CLI (and tests and notebooks, outside the package) may import one."""
    root = Path(chameleon_lab.__file__).parent
    wrong = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if parts[1] in ("interop", "cli"):
            continue
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        package = module if parts[-1] == "__init__" else module.rsplit(".", 1)[0]
        for line, target in _imports(path, module, package):
            if target.startswith("chameleon_lab.interop"):
                wrong.append(f"{path.relative_to(root.parent)}:{line} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_the_architecture_page_names_every_module_and_package():
    """docs/architecture.md's tree of the package names each module file and each
    package folder, so a module added without a word there fails here (tuning.py,
    hypermax.py and the bridge's modules had been left out)."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "architecture.md").read_text()
    tree = page[page.index("```text\nchameleon_lab/") : page.index("tests/ ")]
    words = set(re.findall(r"[\w.]+/?", tree))
    root = Path(chameleon_lab.__file__).parent
    missing = [
        str(path.relative_to(root.parent))
        for path in sorted(root.rglob("*.py"))
        if path.name not in ("__init__.py", "__main__.py") and path.name not in words
    ]
    missing += [
        str(folder.relative_to(root.parent))
        for folder in sorted(p.parent for p in root.rglob("__init__.py"))
        if folder != root and f"{folder.name}/" not in words
    ]
    assert not missing, "not named in docs/architecture.md: " + ", ".join(missing)
