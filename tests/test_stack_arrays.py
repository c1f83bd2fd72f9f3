"""Arrays on a compiled function's stack: usable where nothing may allocate."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from chameleon_lab.stack_arrays import stack_floats

SIZE = 5


@njit(_nrt=False)
def _window_sums(x, out):  # pragma: no cover - compiled
    """out[i] = x[i] + ... + x[i + SIZE - 1], through a stack array per call."""
    for i in range(out.shape[0]):
        out[i] = _sum_of(x, i)


@njit(_nrt=False)
def _sum_of(x, start):  # pragma: no cover - compiled
    z = stack_floats(SIZE)
    for j in range(SIZE):
        z[j] = x[start + j]
    total = 0.0
    for j in range(SIZE):
        total += z[j]
    return total


@njit(_nrt=False)
def _nested(d):  # pragma: no cover - compiled
    """Each frame's array survives the deeper calls: sum of 2 * d over the frames."""
    z = stack_floats(4)
    for j in range(4):
        z[j] = d
    below = _nested(d - 1) if d > 0 else 0.0
    return z[0] + z[3] + below


def test_a_stack_array_works_without_the_nrt_in_every_call():
    x = np.random.default_rng(0).normal(size=1000)
    out = np.zeros(len(x) - SIZE + 1)
    _window_sums(x, out)
    expected = np.convolve(x, np.ones(SIZE), mode="valid")
    assert np.allclose(out, expected)


def test_each_recursive_frame_has_its_own_array():
    assert _nested(50) == sum(2.0 * d for d in range(51))


def test_a_size_not_known_when_compiling_is_refused_by_name():
    @njit(_nrt=False)
    def bad(n):
        z = stack_floats(n)
        z[0] = 1.0
        return z[0]

    with pytest.raises(TypingError, match="stack_floats needs a positive compile-time"):
        bad(3)
