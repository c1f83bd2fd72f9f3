"""The reference data bundled with the package, so every copy has the thesis.

``../shared`` (the project's shared folder) holds what the original program and the
thesis left behind: the thesis's tables as numbers, the complexity runs, the 32
recorded session files (about 31 MB of JSON) and the conformance data. A copy of the
project without that folder still regenerates every table beside the thesis's own
numbers and runs every test, because this module carries the same data in the
package (``chameleon_lab/thesis/data``, about 0.9 MB):

* the session files in the project's own compact form: per game the seating, the
  moves as the notation writes them and the recorded per-move statistics, instead of
  every position (the positions follow from the moves by the rules, which the
  conformance data checks); compressed with xz;
* the tables, complexity runs and conformance data as they are (the larger ones xz
  compressed);
* ``MANIFEST.json``: for every file of the shared folder taken, its path there, size
  and SHA-256, and how it is stored here.

:func:`unpack` writes the shared folder back, byte for byte: each file is rebuilt and
its SHA-256 checked against the manifest before the folder appears (atomically, by a
rename), so the bundle is provably the data it came from. :func:`bundled_shared`
keeps one unpacked copy in the user's cache folder;
:func:`chameleon_lab.thesis.reference.find_shared` falls back to it.

``chameleon-lab reference bundle --shared ../shared`` builds the bundle (maintainers,
when the shared folder changes); ``chameleon-lab reference unpack DEST`` and
``... check`` are for users.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..games.chameleon import Colour, Position
from ..version import __version__

#: Where the bundle lives inside the package.
DATA = Path(__file__).resolve().parent / "data"
MANIFEST = "MANIFEST.json"
SESSIONS = "legacy-sessions.json.xz"
SESSION_DIR = "reference/legacy-sessions"
#: Files taken as they are: path in the shared folder -> name in the bundle.
PLAIN = {
    "reference/thesis-tables.csv": "thesis-tables.csv",
    "reference/branching-factor-and-depth.csv": "branching-factor-and-depth.csv",
    "reference/original-semantics.md": "original-semantics.md.xz",
    "conformance/CONTRACT.md": "CONTRACT.md.xz",
    "conformance/perft.json": "perft.json",
    "conformance/successors.jsonl": "successors.jsonl.xz",
    "conformance/choices.jsonl": "choices.jsonl.xz",
}
SOURCE = (
    "the project's shared folder (../shared beside the repository): the thesis's tables "
    "and complexity runs, the original Chameleon program's recorded sessions and the "
    "conformance data recorded from that program"
)


def sha256(data: bytes) -> str:
    """The hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


# -- session files <-> compact form ------------------------------------------------


def compact_session(raw: bytes, name: str) -> dict[str, Any]:
    """A session file in compact form: moves instead of positions.

    Raises ``ValueError`` when a step between two recorded positions is not a legal
    move, or when the file does not rebuild byte for byte from the compact form (the
    bundle must be lossless).
    """
    from .legacy import load_legacy_bytes

    data = json.loads(raw)
    legacy = load_legacy_bytes(raw, Path(name))
    games = []
    for game, record in zip(data["games"], legacy.records, strict=True):
        games.append(
            {
                "players": game["players"],
                "moves": [m["move"] for m in record["moves"]],
                "moveStats": game["moveStats"],
            }
        )
    compact = {k: data[k] for k in ("algorithms", "mode", "modeValue")} | {"games": games}
    if session_bytes(compact) != raw:
        raise ValueError(f"{name} does not rebuild byte for byte from its moves")
    return compact


def session_bytes(compact: dict[str, Any]) -> bytes:
    """The session file a compact session came from, byte for byte.

    The original program wrote compact JSON (no spaces, no final newline) with each
    game's first position as ``pawns, limits, player`` and later ones as ``limits,
    pawns, player``; positions come from replaying the moves from the seating's start.
    """
    games = []
    for g, game in enumerate(compact["games"]):
        seats = [Colour(int(s)) for s, name in game["players"].items() if name is not None]
        position = Position.start(seats)
        states = [_state(position.to_legacy(), first=True)]
        for k, move in enumerate(game["moves"]):
            try:
                position = position.play(move)
            except ValueError as exc:
                name = compact.get("file", "a session")
                raise ValueError(f"{name}: game {g} move {k}: {exc}") from None
            states.append(_state(position.to_legacy(), first=False))
        games.append(
            {"players": game["players"], "gameStates": states, "moveStats": game["moveStats"]}
        )
    data = {k: compact[k] for k in ("algorithms", "mode", "modeValue")} | {"games": games}
    return json.dumps(data, separators=(",", ":")).encode()


def _state(obj: dict[str, Any], *, first: bool) -> dict[str, Any]:
    order = ("pawns", "limits", "player") if first else ("limits", "pawns", "player")
    return {k: obj[k] for k in order}


# -- building the bundle -------------------------------------------------------------


def build(shared: str | Path, dest: str | Path = DATA, *, progress: bool = True) -> Path:
    """Bundle the reference data of ``shared`` into ``dest`` (see the module doc)."""
    from tqdm.auto import tqdm

    shared, dest = Path(shared), Path(dest)
    if not (shared / "reference").is_dir():
        raise ValueError(f"{shared} is not a shared folder: it has no reference/ inside")
    dest.mkdir(parents=True, exist_ok=True)
    files: dict[str, dict[str, Any]] = {}
    for rel, stored in PLAIN.items():
        raw = (shared / rel).read_bytes()
        body = lzma.compress(raw, preset=9) if stored.endswith(".xz") else raw
        (dest / stored).write_bytes(body)
        files[rel] = {"bytes": len(raw), "sha256": sha256(raw), "stored": stored}
    sessions = []
    paths = sorted((shared / SESSION_DIR).glob("*.json"))
    for path in tqdm(paths, desc="sessions", disable=not progress):
        raw = path.read_bytes()
        sessions.append({"file": path.name} | compact_session(raw, path.name))
        files[f"{SESSION_DIR}/{path.name}"] = {
            "bytes": len(raw),
            "sha256": sha256(raw),
            "stored": f"{SESSIONS}#{path.name}",
        }
    body = json.dumps(sessions, separators=(",", ":")).encode()
    (dest / SESSIONS).write_bytes(lzma.compress(body, preset=9))
    manifest = {
        "source": SOURCE,
        "built_by": f"chameleon-lab reference bundle (chameleon_lab {__version__})",
        "format": (
            f"{SESSIONS}: a JSON list, per session file its name, algorithms, mode, "
            "modeValue and per game players, moves (the notation's move strings, in order) "
            "and moveStats; every other file stored as it is, .xz where compressed"
        ),
        "files": files,
        "bundle": {
            name: sha256((dest / name).read_bytes()) for name in sorted([*PLAIN.values(), SESSIONS])
        },
    }
    (dest / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return dest


# -- unpacking ---------------------------------------------------------------------


def manifest(data: Path = DATA) -> dict[str, Any]:
    """The bundle's manifest."""
    return json.loads((data / MANIFEST).read_text())


def _contents(data: Path) -> dict[str, Callable[[], bytes]]:
    """Path in the shared folder -> a function producing its bytes."""
    out: dict[str, Callable[[], bytes]] = {}
    for rel, stored in PLAIN.items():
        out[rel] = lambda s=stored: _read(data / s)
    for session in json.loads(_read(data / SESSIONS)):
        out[f"{SESSION_DIR}/{session['file']}"] = lambda s=session: session_bytes(s)
    return out


def _read(path: Path) -> bytes:
    raw = path.read_bytes()
    return lzma.decompress(raw) if path.suffix == ".xz" else raw


def unpack(dest: str | Path, data: Path = DATA, *, progress: bool = False) -> Path:
    """Write the shared folder the bundle came from into ``dest`` (which must not exist),
    checking every file's SHA-256 against the manifest; atomic: ``dest`` appears only
    complete and checked."""
    from tqdm.auto import tqdm

    dest = Path(dest)
    if dest.exists():
        raise ValueError(f"{dest} exists already: unpack into a new folder")
    files = manifest(data)["files"]
    contents = _contents(data)
    if set(contents) != set(files):
        raise ValueError(f"the bundle in {data} does not match its manifest: rebuild it")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}-", dir=dest.parent))
    try:
        for rel in tqdm(sorted(files), desc="reference data", disable=not progress):
            raw = contents[rel]()
            if sha256(raw) != files[rel]["sha256"]:
                raise ValueError(f"{rel} rebuilt from the bundle differs from the original")
            target = tmp / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(raw)
        os.replace(tmp, dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return dest


def cache_dir() -> Path:
    """The user's cache folder for chameleon_lab (``CHAMELEON_CACHE`` overrides it)."""
    if os.environ.get("CHAMELEON_CACHE"):
        return Path(os.environ["CHAMELEON_CACHE"]).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("chameleon_lab"))


def bundled_shared() -> Path:
    """A shared folder unpacked from the bundle, made once per bundle in the cache."""
    tag = sha256((DATA / MANIFEST).read_bytes())[:12]
    dest = cache_dir() / f"shared-{tag}"
    if not (dest / "reference").is_dir():
        try:
            unpack(dest)
        except (ValueError, OSError):
            if not (dest / "reference").is_dir():  # not another process's finished copy
                raise
    return dest


def check(shared: str | Path) -> list[str]:
    """The files of the manifest that ``shared`` lacks or holds in another version
    (empty when the bundle is up to date with ``shared``)."""
    shared = Path(shared)
    stale = []
    for rel, entry in manifest()["files"].items():
        path = shared / rel
        if not path.is_file() or sha256(path.read_bytes()) != entry["sha256"]:
            stale.append(rel)
    extra = {f"{SESSION_DIR}/{p.name}" for p in (shared / SESSION_DIR).glob("*.json")} - set(
        manifest()["files"]
    )
    return stale + sorted(extra)
