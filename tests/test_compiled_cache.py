"""numba's disk cache never hands back code compiled from other sources.

numba checks a cached function against its own file only, so a function that inlines a
compiled function of another module keeps running the old one after that module
changed; :mod:`chameleon_lab.compiled_cache` keeps one cache folder per version of the
sources. Shown here on two small modules, each step in a fresh process as after an edit
or a ``git pull``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import chameleon_lab
from chameleon_lab import compiled_cache
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
