"""The load average sampled while a run plays (what a research run logs of its machine)."""

from __future__ import annotations

import itertools
import time

import pytest

from chameleon_lab import machine_load
from chameleon_lab.machine_load import LoadWatch


def test_the_watch_samples_at_start_meanwhile_and_at_the_end(monkeypatch):
    loads = itertools.count(1.0)  # 1, 2, 3, ... one per sample
    monkeypatch.setattr(machine_load.os, "getloadavg", lambda: (next(loads), 0.0, 0.0))
    with LoadWatch(every=0.01) as watch:
        time.sleep(0.2)
    summary = watch.summary()
    n = summary["samples"]
    assert n >= 3  # the start, at least one in between, the end
    assert watch.samples == [float(i) for i in range(1, n + 1)]
    assert summary["max"] == n and summary["mean"] == pytest.approx((n + 1) / 2, abs=0.01)
    assert summary["every_s"] == 0.01
    assert watch._thread is not None and not watch._thread.is_alive()


def test_a_platform_without_a_load_average_logs_none(monkeypatch):
    def missing():
        raise OSError("no load average")

    monkeypatch.setattr(machine_load.os, "getloadavg", missing)
    with LoadWatch(every=0.01) as watch:
        time.sleep(0.03)
    assert watch.summary() is None


def test_an_interrupted_run_still_stops_the_watch(monkeypatch):
    monkeypatch.setattr(machine_load.os, "getloadavg", lambda: (2.5, 0.0, 0.0))
    watch = LoadWatch(every=0.01)
    with pytest.raises(KeyboardInterrupt), watch:
        raise KeyboardInterrupt
    assert not watch._thread.is_alive() and watch.summary()["max"] == 2.5


def test_a_bad_interval_is_refused_by_name():
    with pytest.raises(ValueError, match="every must be a positive number of seconds, got 0"):
        LoadWatch(every=0)
