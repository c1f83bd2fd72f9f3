"""Functions a reader can hold (issue 45): no function of the package, compiled kernel or
not, over 120 lines or 12 named parameters. ``self``/``cls`` and the catch-alls
``*args``/``**options`` are not counted: ``search(..., **options)`` hands the
algorithm's own options on as one mapping."""

from __future__ import annotations

import ast
from pathlib import Path

import chameleon_lab

PACKAGE = Path(chameleon_lab.__file__).resolve().parent
MAX_LINES = 120
MAX_PARAMETERS = 12


def _too_big(source: str, name: str) -> list[str]:
    """``file:line function lines=.. parameters=..`` for each function of ``source`` over
    either bound."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        a = node.args
        named = [*a.posonlyargs, *a.args, *a.kwonlyargs]
        if named and named[0].arg in ("self", "cls"):
            named = named[1:]
        lines = node.end_lineno - node.lineno + 1
        if lines > MAX_LINES or len(named) > MAX_PARAMETERS:
            found.append(f"{name}:{node.lineno} {node.name} lines={lines} parameters={len(named)}")
    return found


def test_no_function_is_over_120_lines_or_12_parameters():
    found = [
        line
        for path in sorted(PACKAGE.rglob("*.py"))
        for line in _too_big(path.read_text(), str(path.relative_to(PACKAGE)))
    ]
    assert not found, "split these functions or group their parameters:\n" + "\n".join(found)


def test_the_check_finds_a_long_function_and_one_with_many_parameters():
    thirteen = ", ".join(f"a{i}" for i in range(13))
    long_body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    source = (
        f"def wide({thirteen}):\n    pass\n\n"
        f"def long():\n{long_body}\n\n"
        f"class C:\n    def method(self, {', '.join(f'a{i}' for i in range(12))}, **kw):\n"
        "        pass\n"
    )
    found = _too_big(source, "x.py")
    assert [f.split()[1] for f in found] == ["wide", "long"]
    assert "parameters=13" in found[0] and f"lines={MAX_LINES + 1}" in found[1]
