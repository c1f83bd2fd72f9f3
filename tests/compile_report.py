"""``--compile-report``: what numba compiled while the tests ran, and for which tests.

A search is compiled once per game and heuristic (1 to 10 s each), so from a fresh clone
a good part of the suite's time is numba's, not the tests'; ``--durations`` shows the tests
that paid for it, this shows what was compiled. Each test process records numba's
``numba:compile`` events (the outermost ones: a search's helpers compile inside it and
are counted in its time) with the test that triggered them; pytest-xdist's workers send
theirs to the controller, which prints the totals by test file and by function.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from typing import Any

import pytest
from numba.core import event

#: Rows of each table in the summary.
TOP = 12


class CompileRecorder(event.Listener):
    """Records the outermost numba compiles of this process: (test, function, seconds)."""

    def __init__(self) -> None:
        self.test = "<collection>"
        self.records: list[tuple[str, str, float]] = []
        self._starts: list[float] = []

    def on_start(self, ev: event.Event) -> None:
        self._starts.append(time.perf_counter())

    def on_end(self, ev: event.Event) -> None:
        seconds = time.perf_counter() - self._starts.pop()
        if self._starts:  # a compile inside another: counted in the outer one's time
            return
        fn = getattr((ev.data or {}).get("dispatcher"), "py_func", None)
        name = f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', '?')}"
        self.records.append((self.test, name, seconds))


class CompileReport:
    """The plugin: records in every test process, reports in the one that prints."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.recorder = CompileRecorder()
        self.records: list[tuple[str, str, float]] = []  # every process's, at the end
        event.register("numba:compile", self.recorder)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: Any) -> Any:
        self.recorder.test = item.nodeid
        yield
        self.recorder.test = "<between tests>"

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        workeroutput = getattr(self.config, "workeroutput", None)
        if workeroutput is not None:  # an xdist worker: hand the records over
            workeroutput["numba_compiles"] = self.recorder.records
        else:
            self.records.extend(self.recorder.records)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        output = getattr(node, "workeroutput", None) or {}
        self.records.extend(tuple(r) for r in output.get("numba_compiles", []))

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        event.unregister("numba:compile", self.recorder)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        for line in summary(self.records):
            terminalreporter.write_line(line)


def summary(records: list[tuple[str, str, float]], top: int = TOP) -> list[str]:
    """The report's lines: totals, then the test files and functions that cost most."""
    total = sum(s for _, _, s in records)
    n = len(records)
    lines = [f"numba: {n} compile{'s' * (n != 1)}, {total:.1f} s (in the test processes)"]
    if not records:
        return lines
    by_file: dict[str, list[float]] = defaultdict(list)
    by_function: dict[str, list[float]] = defaultdict(list)
    for test, function, seconds in records:
        by_file[test.split("::")[0]].append(seconds)
        by_function[function].append(seconds)
    for title, table in (("test file", by_file), ("function", by_function)):
        lines.append(f"  by {title}: seconds, compiles")
        ranked = Counter({k: sum(v) for k, v in table.items()}).most_common(top)
        lines += [f"    {s:7.1f} {len(table[k]):4d}  {k}" for k, s in ranked]
    return lines


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--compile-report",
        action="store_true",
        help="list what numba compiled during the run, by test file and by function",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--compile-report"):
        config.pluginmanager.register(CompileReport(config), "compile-report")
