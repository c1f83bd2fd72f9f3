"""Templates compiled per game (:mod:`chameleon_lab.games.specialise`): siblings called,
or compiled into their callers where :func:`~chameleon_lab.games.specialise.inlined`
marks them."""

from __future__ import annotations

import numpy as np

from chameleon_lab.games.specialise import inlined, specialise

OFFSET = 0  # bound per copy


def _called_part(x):
    return x + OFFSET


def _inlined_part(x):
    return x + OFFSET


def _outer_called(x):
    return _called_part(x) * 2


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
    assert sibling.targetoptions.get("inline") == "always"
    assert "inline" not in called.py_func.__globals__["_called_part"].targetoptions
