"""numba's disk cache never hands back code compiled from other sources.

numba checks a cached function against its own file only, so a function that inlines a
compiled function of another module keeps running the old one after that module
changed; :mod:`chameleon_lab.compiled_cache` keeps one cache folder per version of the
sources. Shown here on two small modules, each step in a fresh process as after an edit
or a ``git pull``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

import chameleon_lab
from chameleon_lab import compiled_cache
from chameleon_lab.games import get_game
from chameleon_lab.games.mnk import kernel

CALLEE = """
from numba import njit

@njit(cache=True)
def step(x):
    return x + {increment}
"""
CALLER = """
from numba import njit
from .callee import step

@njit(cache=True)
def twice_ten(x):
    return step(x) * 10
"""


def _run(tmp_path: Path, own_cache: bool) -> int:
    """``twice_ten(1)`` of the little package, in a new process."""
    script = textwrap.dedent(f"""
        from pathlib import Path
        if {own_cache}:
            from chameleon_lab.compiled_cache import use_cache_of_these_sources
            use_cache_of_these_sources(Path({str(tmp_path / "little")!r}))
        from little.caller import twice_ten
        print(twice_ten(1))
    """)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    return int(done.stdout)


def _edit(tmp_path: Path, increment: int) -> None:
    package = tmp_path / "little"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "caller.py").write_text(CALLER)
    callee = package / "callee.py"
    before = callee.stat().st_mtime_ns if callee.exists() else 0
    callee.write_text(CALLEE.format(increment=increment))
    os.utime(callee, ns=(before + 10**9, before + 10**9))  # a newer file, as after an edit


def test_numba_alone_runs_stale_code_after_another_module_changed(tmp_path):
    # the hazard the module guards against (should numba fix it, this fails and
    # compiled_cache can go)
    _edit(tmp_path, 1)
    assert _run(tmp_path, own_cache=False) == 20
    _edit(tmp_path, 2)
    assert _run(tmp_path, own_cache=False) == 20  # (1 + 2) * 10 expected: stale


def test_a_cache_folder_per_version_of_the_sources_runs_the_new_code(tmp_path):
    _edit(tmp_path, 1)
    assert _run(tmp_path, own_cache=True) == 20
    _edit(tmp_path, 2)
    assert _run(tmp_path, own_cache=True) == 30
    _edit(tmp_path, 1)  # back to the first version: its folder is still there
    assert _run(tmp_path, own_cache=True) == 20
    folders = {p.name for p in (tmp_path / "cache").iterdir()}
    # the two versions' folders beside the one of chameleon_lab itself (imported too)
    folders.remove(f"chameleon_lab-{compiled_cache.sources_fingerprint()}")
    assert len(folders) == 2 and all(f.startswith("chameleon_lab-") for f in folders)


def test_the_package_caches_into_the_folder_of_its_sources():
    fingerprint = compiled_cache.sources_fingerprint()
    assert compiled_cache.FOLDER.name == f"chameleon_lab-{fingerprint}"
    folder = str(compiled_cache.FOLDER)
    assert kernel.generate._cache._cache_path.startswith(folder)
    assert Path(chameleon_lab.__file__).parent == compiled_cache.PACKAGE


def test_older_folders_are_pruned_but_the_newest_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    import numba

    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)  # restored after
    for age in range(6):
        old = tmp_path / f"chameleon_lab-old{age}"
        old.mkdir()
        os.utime(old, (1_000_000 + age, 1_000_000 + age))
    (tmp_path / "someone-else").mkdir()
    folder = compiled_cache.use_cache_of_these_sources()
    left = sorted(p.name for p in tmp_path.iterdir())
    kept = [f"chameleon_lab-old{age}" for age in (3, 4, 5)]
    assert left == sorted([folder.name, *kept, "someone-else"])
    assert str(folder) == numba.config.CACHE_DIR


SOLVE_BOTH = """
import json, sys
from chameleon_lab.games import get_game
from chameleon_lab.search.solve import compiled_solver, solve
games = {"tictactoe": get_game("tictactoe"), "nim": get_game("nim", heaps=[3, 4, 5])}
out = {}
for name in sys.argv[1:]:
    value = solve(games[name].start(), method="generic").value
    out[name] = [value, compiled_solver(games[name].ops).stats.cache_hits.total()]
print(json.dumps(out))
"""


def _solve(tmp_path: Path, *names: str) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", SOLVE_BOTH, *names], env=env,
                          capture_output=True, text=True, check=True)  # fmt: skip
    return json.loads(done.stdout)


def test_copies_of_one_template_are_cached_apart_and_loaded_in_a_new_process(tmp_path):
    """The generic solver compiled for TicTacToe and for NIM: one template, the same
    argument types, other bindings. numba's own cache would hand either one's machine
    code to both; each copy has files of its own. Truths: TicTacToe is a draw, NIM
    3-4-5 a win for the first player (3 ^ 4 ^ 5 = 2, not 0)."""
    first = _solve(tmp_path, "tictactoe", "nim")
    assert first == {"tictactoe": [0.0, 0], "nim": [1.0, 0]}  # compiled, then saved
    again = _solve(tmp_path, "nim", "tictactoe")  # the other order, a new process
    assert again == {"nim": [1.0, 1], "tictactoe": [0.0, 1]}  # loaded from the disk


def test_only_what_a_tag_can_name_is_cached():
    from chameleon_lab.games.specialise import _stable_name, _tag
    from chameleon_lab.search.solve import solve_node

    def own_heuristic(state, out):  # a researcher's function: the tag cannot name it
        out[0] = 1.0

    assert _stable_name(kernel.generate) == "chameleon_lab.games.mnk.kernel.generate"
    assert _stable_name((1, 2.5)) == "(int:1,float:2.5)"
    assert _stable_name(own_heuristic) is None
    assert _tag(solve_node, {"generate": kernel.generate}, {}, {}) is not None
    assert _tag(solve_node, {"generate": kernel.generate, "h": own_heuristic}, {}, {}) is None
    a = _tag(solve_node, {"generate": kernel.generate, "SCALE": 1.0}, {}, {})
    b = _tag(solve_node, {"generate": kernel.generate, "SCALE": 2.0}, {}, {})
    assert a != b


def test_a_save_from_a_stale_index_never_hands_one_key_anothers_data(tmp_path, monkeypatch):
    """Two processes save other keys of one copy at once: the second one read the index
    before the first one wrote it. numba would give both the data file number 1, and
    the index left behind could name the other one's data; with a file per key the
    first entry is at worst lost (compiled again), never answered wrongly."""
    from chameleon_lab.games.specialise import _KeyedFiles

    first = _KeyedFiles(str(tmp_path), "copy-1.py311-abc", ("stamp", 1))
    first.save(("sig", "a"), b"code for a")
    second = _KeyedFiles(str(tmp_path), "copy-1.py311-abc", ("stamp", 1))
    monkeypatch.setattr(second, "_load_index", dict)  # its view from before the first save
    second.save(("sig", "b"), b"code for b")
    assert first.load(("sig", "a")) in (None, b"code for a")
    assert first.load(("sig", "b")) == b"code for b"
    assert len(list(tmp_path.glob("*.nbc"))) == 2


def test_an_entry_that_is_not_what_was_saved_is_compiled_again_never_run(tmp_path):
    """A data file cut short, changed on disk, or holding another key's entry (copied
    over it) loads as a miss: numba compiles again instead of running it."""
    from chameleon_lab.games.specialise import _KeyedFiles

    files = _KeyedFiles(str(tmp_path), "copy-1.py311-abc", ("stamp", 1))
    files.save(("sig", "a"), b"code for a")
    files.save(("sig", "b"), b"code for b")
    assert files.load(("sig", "a")) == b"code for a"
    path_a, path_b = (Path(files._data_path(files._load_index()[("sig", k)])) for k in "ab")
    good = path_a.read_bytes()
    path_a.write_bytes(good[:-3])  # cut short
    assert files.load(("sig", "a")) is None
    path_a.write_bytes(good[:-1] + bytes([good[-1] ^ 1]))  # one bit changed
    assert files.load(("sig", "a")) is None
    path_a.write_bytes(path_b.read_bytes())  # another key's entry
    assert files.load(("sig", "a")) is None
    path_a.write_bytes(good)
    assert files.load(("sig", "a")) == b"code for a"


def test_a_corrupted_cache_file_is_recompiled_in_a_new_process(tmp_path):
    """Every data file of the solver's cache damaged between two processes: the second
    compiles again (no cache hit) and still values TicTacToe a draw and NIM a win."""
    assert _solve(tmp_path, "tictactoe", "nim") == {"tictactoe": [0.0, 0], "nim": [1.0, 0]}
    damaged = 0
    for path in (tmp_path / "cache").rglob("*solve_node*.nbc"):
        raw = path.read_bytes()
        path.write_bytes(raw[:-100] + bytes(b ^ 0xFF for b in raw[-100:]))
        damaged += 1
    assert damaged >= 2
    assert _solve(tmp_path, "tictactoe", "nim") == {"tictactoe": [0.0, 0], "nim": [1.0, 0]}
    assert _solve(tmp_path, "nim") == {"nim": [1.0, 1]}  # saved again, loaded again


STRESS = """
import json, sys
from chameleon_lab.games import get_game
from chameleon_lab.search.api import search

def stress_rows(specs):
    out = []
    for spec in specs:
        name, size = spec.split(":")
        params = {"width": int(size), "height": int(size), "k": 4} if name == "gomoku" else {}
        pos = get_game(name, **params).from_moves([])
        r = search(pos, "alphabeta", depth=3, ordering=True, tt_bits=12)
        out.append([spec, r.index, float(r.scores[r.index]), r.nodes])
    return out

if __name__ == "__main__":
    print(json.dumps(stress_rows(sys.argv[1:])))
"""


def _by_spec(rows: list[list]) -> dict:
    """The stress script's rows (as its processes print them) by their spec."""
    return {row[0]: row[1:] for row in rows}


def _stress_rows(specs: list[str]) -> dict:
    """The stress script's rows, run in this process (on its own cache)."""
    namespace: dict = {"__name__": "stress"}
    exec(STRESS, namespace)
    return _by_spec(json.loads(json.dumps(namespace["stress_rows"](specs))))


def test_processes_compiling_and_loading_one_cache_at_once_count_as_without_it(tmp_path):
    """Issue 45 item 5: three processes compile (then load) the same and different
    specialisations into one cache at once; every search's move, value and node count
    equals a run on a cache of its own. (The report: alpha-beta on 5 x 5 returned 0
    nodes after a search on 7 x 7 from a cache written by several processes. The cause:
    a copy loaded from the cache bore the symbol names of the copy of the same template
    compiled in the loading process, numba naming them by the qualified name and a
    counter of the process, and was linked to that copy's code; each copy's qualified
    name now holds its tag.)"""
    orders = [["gomoku:5", "gomoku:7"], ["gomoku:7", "gomoku:5"], ["tictactoe:3", "gomoku:5"]]

    def launch(cache: Path, args: list[str]) -> subprocess.Popen:
        env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
        pipe = subprocess.PIPE
        command = [sys.executable, "-c", STRESS, *args]
        return subprocess.Popen(command, env=env, stdout=pipe, stderr=pipe, text=True)

    def rows(procs: list[subprocess.Popen]) -> dict:
        found = {}
        for p in procs:
            out, err = p.communicate(timeout=600)
            assert p.returncode == 0, err[-2000:]
            found.update(_by_spec(json.loads(out)))
        return found

    reference = _stress_rows(["gomoku:5", "gomoku:7", "tictactoe:3"])  # a cache of its own
    for _ in range(2):  # the first round compiles and saves at once, the second loads
        shared = rows([launch(tmp_path / "shared", order) for order in orders])
        assert shared == reference
    assert all(row[2] > 0 for row in reference.values())


def test_numbas_private_cache_api_is_there_or_the_copies_are_not_cached(monkeypatch):
    """The disk cache of the copies extends numba's private caching classes: with the
    numba pyproject.toml pins they have every attribute it uses; where one is missing
    the copies are compiled in each process, with a warning, and compute the same."""
    import warnings

    import numpy as np
    import pytest

    from chameleon_lab.games import specialise as S

    assert S._cache_api_problem() is None

    @S.template("OFFSET")
    def add(x):
        return x + OFFSET  # noqa: F821 - bound by specialise

    monkeypatch.setattr(S, "CACHE_PROBLEM", "")
    monkeypatch.setitem(S._PRIVATE_API, "FunctionCache", ("_index_key", "_gone_in_numba_2"))
    with pytest.warns(RuntimeWarning, match="FunctionCache has no _gone_in_numba_2"):
        copy = S.specialise(add, {"OFFSET": 3})
    assert copy(np.int64(4)) == 7
    assert not isinstance(copy._cache, S._BoundCache)  # numba's null cache: nothing on disk
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # warned once, not at every copy
        assert S.specialise(add, {"OFFSET": 5})(np.int64(4)) == 9


def _column_net(column: int):
    """A Connect Four network (one hidden unit) under which the player to move likes
    the board less where the other player has a stone in ``column`` (0-based): at depth
    1 from the empty board the best move is that column, the only such move."""
    from chameleon_lab.games.valuenet import ValueNet

    width, height = 7, 6
    w1 = np.zeros((2 * width * height, 1))
    w1[width * height + column * height : width * height + (column + 1) * height, 0] = -0.5
    return ValueNet("connect4", {"width": width, "height": height}, w1, np.array([0.5]),
                    np.array([1.0]), 0.0, "relu", {})  # fmt: skip


def test_searches_bound_to_heuristics_no_tag_names_never_share_compiled_code():
    """Two value networks (functions the tags cannot name, as a researcher's own) each
    bound into the same search: the leaf that binds a network is a copy without a tag,
    and the search binding that leaf must not be tagged by the leaf's module and name,
    which every such leaf shares. Found 2026-12-07: the second network's search was
    loaded from the disk entry of the first's and played the first network's moves.
    Truth: each network's depth-1 choice from the empty board is its own column."""
    from chameleon_lab.games.specialise import _stable_name
    from chameleon_lab.games.valuenet import net_heuristic
    from chameleon_lab.search.api import search
    from chameleon_lab.search.core import leaf_function

    start = get_game("connect4").start()
    for column in (0, 6, 3):
        name = net_heuristic(_column_net(column)).name
        result = search(start, "alphabeta", depth=1, heuristic=name)
        assert start.move_text(result.moves[result.index]) == str(column + 1), column
    ops = get_game("connect4").ops
    leaf = leaf_function(ops, net_heuristic(_column_net(2)).function, (0, 1), -1.0)
    assert leaf is not net_heuristic(_column_net(2)).function  # a copy binding the net
    assert _stable_name(leaf) is None
