"""Templates compiled per game (:mod:`chameleon_lab.games.specialise`): siblings called,
or compiled into their callers where :func:`~chameleon_lab.games.specialise.inlined`
marks them."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import chameleon_lab
from chameleon_lab.games.specialise import inlined, specialise, template
from chameleon_lab.search.core import generate

OFFSET = 0  # bound per copy


@template("OFFSET")
def _called_part(x):
    return x + OFFSET


@template("OFFSET")
def _inlined_part(x):
    return x + OFFSET


@template()
def _outer_called(x):
    return _called_part(x) * 2


@template()
def _outer_inlined(x):
    return _inlined_part(x) * 2


def test_an_inlined_sibling_is_compiled_into_its_caller_with_the_callers_bindings():
    called = specialise(_outer_called, {"OFFSET": 3}, siblings={"_called_part": _called_part},
                        cache=False)  # fmt: skip
    marked = inlined(_inlined_part)
    copy = specialise(_outer_inlined, {"OFFSET": 3}, siblings={"_inlined_part": marked},
                      cache=False)  # fmt: skip
    for x in (0, 4, -7):
        assert called(np.int64(x)) == copy(np.int64(x)) == (x + 3) * 2
    assert specialise(_outer_inlined, {"OFFSET": 5}, siblings={"_inlined_part": marked},
                      cache=False)(np.int64(1)) == 12  # fmt: skip
    sibling = copy.py_func.__globals__["_inlined_part"]
    # LLVM's alwaysinline; a sibling kept a call says so, since numba hands forceinline on
    # to the functions an inlined one calls
    assert sibling.targetoptions.get("forceinline") is True
    assert called.py_func.__globals__["_called_part"].targetoptions["forceinline"] is False


def test_nothing_is_inlined_by_numbas_ir_inliner():
    # inline="always" copies a function's IR into each caller before typing: the same
    # machine code as LLVM's alwaysinline (forceinline=True) at about three times the
    # compile time (docs/benchmarks.md, "Compiled code")
    found = []
    for path in Path(chameleon_lab.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and any(k.arg == "inline" for k in node.keywords):
                found.append(f"{path.name}:{node.lineno}")
    assert not found, found


@template("generate")
def count_moves(state):
    return generate(state, None, 0)


def test_a_template_says_what_it_binds_and_refuses_to_run_or_compile_without_it():
    with pytest.raises(TypeError, match=r"count_moves is a template: it calls generate bound"):
        count_moves(np.zeros(4))  # run as plain Python, nothing bound
    with pytest.raises(ValueError, match=r"_called_part binds OFFSET, which the bindings lack"):
        specialise(_called_part, {"OTHER": 1})
    with pytest.raises(ValueError, match=r"declares it binds missing, which its code does not"):
        template("OFFSET", "missing")(lambda x: x + OFFSET)
    with pytest.raises(TypeError, match=r"specialise compiles templates, functions marked"):
        specialise(lambda x: x + OFFSET, {"OFFSET": 1})
