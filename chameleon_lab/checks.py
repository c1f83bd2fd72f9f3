"""Checks of arguments that every layer makes, written once so that one mistake is named
in one wording wherever it is made (``"depth must be a whole number >= 1, got 0"``).

A bool is no number here (``True`` as a depth is a mistake, not 1); numpy's integers
and floats are numbers, as Python's are.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def whole_number(
    name: str,
    value: Any,
    low: int = 1,
    high: int | None = None,
    *,
    none: bool = False,
    what: str = "",
) -> Any:
    """``value`` if it is a whole number from ``low`` to ``high`` (no upper bound when
    ``high`` is ``None``), or ``None`` where ``none`` allows it; else ``ValueError``:
    ``"{name} must be a whole number >= {low}{what}, got {value!r}"`` (``{low}..{high}``
    for a range, `` or None`` after the bound where ``None`` is allowed). ``what`` says
    more about the value (``" (all cores)"``, ``" for chameleon"``). The value comes
    back as Python's ``int``, so that a numpy integer stored from it writes as JSON."""
    if value is None and none:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int | np.integer)
        or value < low
        or (high is not None and value > high)
    ):
        span = f">= {low}" if high is None else f"{low}..{high}"
        raise ValueError(
            f"{name} must be a whole number {span}{' or None' if none else ''}{what}, got {value!r}"
        )
    return int(value)


def finite_real(value: object) -> bool:
    """Whether ``value`` is a finite real number (Python's or numpy's; a bool, a complex
    number or an int beyond every float is none)."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int beyond every float
        return False
