"""The argument checks every layer shares (:mod:`chameleon_lab.checks`): what passes,
what comes back, and the one wording of each refusal."""

from __future__ import annotations

import math

import numpy as np
import pytest

from chameleon_lab.checks import finite_real, whole_number
from chameleon_lab.tournament import Session


@pytest.mark.parametrize(
    ("args", "kwargs", "expected"),
    [
        (("depth", 3), {}, 3),
        (("seed", 0, 0), {}, 0),
        (("players", 4, 2, 4), {}, 4),
        (("workers", None), {"none": True}, None),
        (("seed", np.int64(7), 0), {}, 7),
        (("size", np.uint8(200)), {}, 200),
    ],
)
def test_whole_numbers_pass_and_come_back_as_python_ints(args, kwargs, expected):
    value = whole_number(*args, **kwargs)
    assert value == expected and (value is None or type(value) is int)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (("depth", 0), {}, "depth must be a whole number >= 1, got 0"),
        (("depth", True), {}, "depth must be a whole number >= 1, got True"),
        (("depth", 2.0), {}, "depth must be a whole number >= 1, got 2.0"),
        (("depth", "3"), {}, "depth must be a whole number >= 1, got '3'"),
        (("depth", None), {}, "depth must be a whole number >= 1, got None"),
        (("seed", -1, 0), {}, "seed must be a whole number >= 0, got -1"),
        (("players", 5, 2, 4), {"what": " for chameleon"},
         "players must be a whole number 2..4 for chameleon, got 5"),
        (("workers", 0), {"none": True, "what": " (all cores)"},
         "workers must be a whole number >= 1 or None (all cores), got 0"),
        (("n", np.bool_(True)), {}, "n must be a whole number >= 1, got "),
    ],
)  # fmt: skip
def test_every_refusal_says_what_is_wrong_in_one_wording(args, kwargs, message):
    with pytest.raises(ValueError) as err:
        whole_number(*args, **kwargs)
    assert str(err.value).startswith(message)


def test_finite_reals_are_numbers_that_are_finite():
    good = [0, 1.5, -3, np.float32(2.5), np.int64(9), 10**300]
    bad = [True, np.bool_(False), math.inf, -math.inf, math.nan, 1j, "1", None, 10**400]
    assert all(finite_real(v) for v in good)
    assert not any(finite_real(v) for v in bad)


def test_a_session_stores_numpy_integers_as_python_ints_and_writes_as_json():
    agents = {"a": {"algorithm": "maxn", "depth": 1}, "b": {"algorithm": "paranoid", "depth": 1}}
    session = Session("s", agents, repetitions=np.int64(2), seed=np.int32(5))
    assert type(session.seed) is int and type(session.repetitions) is int
    assert session == Session("s", agents, repetitions=2, seed=5)
    assert session.record_ids == Session("s", agents, repetitions=2, seed=5).record_ids
