"""numba's on-disk cache, kept apart for each version of the package's sources.

numba checks a cached function against its own source file only. A function that calls
(and inlines) a compiled function of another module keeps its cached machine code when
only that other module changes: after an edit or a ``git pull`` that touches a game's
kernel, its heuristics and solvers would go on running the old kernel, silently (numba
documents this; ``tests/test_compiled_cache.py`` shows it on two small modules).

So the package points numba's cache (``numba.config.CACHE_DIR``) at a folder named for
a fingerprint of all its sources, before any of its modules compiles: code compiled
from other sources is never loaded, whatever changed. Where that folder lies:

* below ``NUMBA_CACHE_DIR`` when it is set;
* else in the package's own ``__pycache__`` (numba's usual place), when writable;
* else in the user's cache folder (``platformdirs``).

The folders of older sources are removed, the newest few kept (switching between two
checkouts does not compile everything again). numba's cache setting is global: other
code in the same process that asks numba to cache also caches into this folder.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import numba

#: The package's folder, whose ``*.py`` files make the fingerprint.
PACKAGE = Path(__file__).resolve().parent
#: Cache folders of other fingerprints kept beside the current one.
KEEP = 3
_PREFIX = "chameleon_lab-"


def sources_fingerprint(root: Path = PACKAGE) -> str:
    """A hash of every ``*.py`` file below ``root``: names and contents, in name order."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


def cache_base() -> Path:
    """The folder that holds one cache folder per fingerprint (see the module doc)."""
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        return Path(user)
    own = PACKAGE / "__pycache__" / "numba"
    if _writable(own):
        return own
    import platformdirs

    return Path(platformdirs.user_cache_dir("chameleon_lab")) / "numba"


def _prune(base: Path, current: Path) -> None:
    """Remove the cache folders of older sources but the ``KEEP`` newest."""
    try:
        others = [p for p in base.iterdir() if p.name.startswith(_PREFIX) and p != current]
        others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    for old in others[KEEP:]:
        shutil.rmtree(old, ignore_errors=True)  # another process may be removing it too


def use_cache_of_these_sources(root: Path = PACKAGE) -> Path:
    """Point numba's cache at the folder of the current sources below ``root`` (the
    package's); returns the folder."""
    base = cache_base()
    folder = base / f"{_PREFIX}{sources_fingerprint(root)}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)  # the newest in use, for _prune
    except OSError:
        pass  # numba reports an unwritable cache itself when it saves
    numba.config.CACHE_DIR = str(folder)
    _prune(base, folder)
    return folder


#: The cache folder of this process, chosen when the package is imported (its
#: ``__init__`` imports this module before any other).
FOLDER = use_cache_of_these_sources()
