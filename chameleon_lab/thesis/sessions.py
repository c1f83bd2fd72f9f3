"""The thesis's sessions by name (``"4-all-t100"``), as sessions we can run afresh.

The names are those of the legacy files: a family (which agents) and ``-dN`` (depth
N) or ``-tN`` (N ms a move). :func:`thesis_session` builds the session with the
original's seatings and the agents of :func:`.legacy.legacy_agent`, in the thesis
flavour (a replay of the original) or the improved one (the same study with the
corrected searches). :data:`THESIS_TABLES` says which sessions each table of the
thesis's chapter 6 summarises.

A time-mode session runs on this machine's clock (``clock="machine"``), where our
searches go deeper than the original did in the same milliseconds (notebook 04 sets
the depths beside the recorded ones), or on the original's (``clock="original"``):
each agent's clock is then a node counter
at the original program's speed for its algorithm (:mod:`.calibration`), so the session
plays the same games on every machine and every run. The thesis flavour then reaches
the original's depths; the improved one searches as many positions as the original
did in the same time, with its better searches (the thesis's budgets at the original's
speed, so the improved flavour's answers stand beside the thesis's own).

``mended=True`` seats the mended Hypermax (improved flavour,
:class:`chameleon_lab.search.improved.HypermaxOptions`) wherever the session seats Hypermax,
under the same name, seed and clock (on the original's, at the plain Hypermax's node
rate), so its games stand beside the plain Hypermax's: what the thesis's open question
asks, whether Hypermax's departures from MaxN cost it its games.
The mend drops the shift of the scores by their mean, so the mended Hypermax scores as
the thesis's MaxN does (normalised) and chooses MaxN's moves at every depth it
completes, with fewer nodes.
"""

from __future__ import annotations

from ..tournament.session import Session
from .calibration import original_node_rate
from .legacy import legacy_agent

#: the clocks a time-mode session can run on
CLOCKS = ("machine", "original")

FAMILIES: dict[str, list[str]] = {
    "1-all": ["Pawns", "Pawns10Roles", "Pawns100Roles", "Pawns100Moves"],
    "1-10-vs-100": ["Pawns10Roles", "Pawns100Roles"],
    "2-paranoid": ["Paranoid", "ParaNorm"],
    "3-hypermax": ["Hypermax", "Hypernorm"],
    "4-all": ["MaxN", "MaxNIS", "Hypermax", "Paranoid"],
    "4-max-hyper": ["MaxNIS", "Hypermax"],
    "4-max-para": ["MaxNIS", "Paranoid"],
    "4-hyper-para": ["Hypermax", "Paranoid"],
}

_DEPTHS = ("d1", "d2", "d3", "d4")
_TIMES = ("t10", "t100", "t1000")

#: table -> (family, mode suffixes) of the thesis's chapter 6
THESIS_TABLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "6.1": ("1-all", _DEPTHS),
    "6.2": ("1-10-vs-100", _DEPTHS),
    "6.3": ("2-paranoid", _DEPTHS),
    "6.4": ("2-paranoid", _TIMES),
    "6.5": ("3-hypermax", _DEPTHS),
    "6.6": ("3-hypermax", _TIMES),
    "6.7": ("4-all", _DEPTHS),
    "6.8": ("4-all", _TIMES),
    "6.9": ("4-max-hyper", ("t1000",)),
    "6.10": ("4-max-para", ("t1000",)),
    "6.11": ("4-hyper-para", ("t1000",)),
}

#: the time-mode tables whose four-player sessions seat Hypermax: where the thesis's
#: question, whether its departures from MaxN cost it its games, is asked with the
#: mended Hypermax in its seat (table 6.6 seats two Hypermax and no MaxN; 6.10 none)
MENDED_TABLES = ("6.8", "6.9", "6.11")


def parse_name(name: str) -> tuple[str, str, int]:
    """``"4-all-t100"`` -> (``"4-all"``, ``"time"``, 100)."""
    family, _, suffix = name.rpartition("-")
    kinds = {"d": "depth", "t": "time"}
    if family not in FAMILIES or suffix[:1] not in kinds or not suffix[1:].isdigit():
        raise ValueError(
            f"{name!r} is not a thesis session name: FAMILY-dN or FAMILY-tN with FAMILY one "
            f"of {', '.join(FAMILIES)}"
        )
    return family, kinds[suffix[0]], int(suffix[1:])


def thesis_session(
    name: str,
    flavour: str = "thesis",
    *,
    seed: int = 0,
    repetitions: int = 1,
    clock: str = "machine",
    mended: bool = False,
    opening_plies: int = 0,
) -> Session:
    """The session ``name`` (e.g. ``"2-paranoid-d3"``) with agents of ``flavour``; a
    time-mode one on the ``clock`` of :data:`CLOCKS`; with ``mended`` its Hypermax
    mended (see the module doc). ``opening_plies`` starts every repetition's games
    after that many random plies drawn for the repetition (the same for every session
    of one seed: paired games); 0, the thesis's start position.

    On the original's clock, and in depth mode, the searches are deterministic: a game
    is fixed by its seating, and a second repetition from the start position would play
    the first one's games again, copies that a test would count as observations. So
    ``repetitions > 1`` needs ``opening_plies`` there (``ValueError`` otherwise)."""
    if clock not in CLOCKS:
        raise ValueError(f"unknown clock {clock!r}; valid: {', '.join(CLOCKS)}")
    if not isinstance(mended, bool):
        raise ValueError(f"mended must be True or False, got {mended!r}")
    if mended and flavour != "improved":
        raise ValueError(
            "the mended Hypermax is a search of the improved flavour; give "
            f'flavour="improved" (got {flavour!r})'
        )
    family, mode, value = parse_name(name)
    if repetitions > 1 and not opening_plies and (mode == "depth" or clock == "original"):
        why = "in depth mode" if mode == "depth" else "on the original's clock"
        raise ValueError(
            f"the games of {name} are deterministic {why}: {repetitions} repetitions "
            "from the start position repeat the first one's games; "
            "give opening_plies >= 1 (random plies before each repetition)"
        )
    names = FAMILIES[family]
    agents = {}
    for n in names:
        params = legacy_agent(n, names, mode, value)
        params["flavour"] = flavour
        if mode == "time" and clock == "original":
            params["node_rate"] = original_node_rate(params["algorithm"], params["normalize"])
        if mended and params["algorithm"] == "hypermax":
            params["options"] = {"mended": True}
            params["normalize"] = True  # the mend drops the mean shift: MaxN's scores
        agents[n] = params
    openings = "per_repetition" if opening_plies else "per_game"
    return Session(name, agents, seed=seed, repetitions=repetitions,
                   opening_plies=opening_plies, openings=openings)  # fmt: skip


def table_sessions(table: str, depths=None, budgets_ms=None) -> list[str]:
    """Session names of thesis ``table``, optionally with other depths or budgets."""
    if table not in THESIS_TABLES:
        raise ValueError(f"unknown thesis table {table!r}; valid: {', '.join(THESIS_TABLES)}")
    family, suffixes = THESIS_TABLES[table]
    if suffixes[0].startswith("d") and depths is not None:
        suffixes = tuple(f"d{d}" for d in depths)
    if suffixes[0].startswith("t") and budgets_ms is not None:
        suffixes = tuple(f"t{b}" for b in budgets_ms)
    return [f"{family}-{s}" for s in suffixes]


def budget_note(table: str, depths=None, budgets_ms=None) -> str | None:
    """A sentence when a run of ``table`` plays other depths or budgets than the thesis
    did (``None`` when it plays exactly the thesis's sessions), so a notebook never
    compares, or fails to compare, without saying so."""
    thesis = table_sessions(table)
    played = table_sessions(table, depths, budgets_ms)
    if played == thesis:
        return None
    mode = "budgets" if THESIS_TABLES[table][1][0].startswith("t") else "depths"

    def values(names: list[str]) -> str:
        unit = " ms" if mode == "budgets" else ""
        return ", ".join(f"{parse_name(n)[2]}{unit}" for n in names)

    common = [s for s in played if s in thesis]
    text = f"Table {table} runs at {mode} {values(played)}, the thesis at {values(thesis)}: "
    if not common:
        return text + (
            "nothing of this run sits beside the thesis's rows; give the thesis's "
            f"{mode} to compare."
        )
    missing = [s for s in thesis if s not in played]
    extra = [s for s in played if s not in thesis]
    parts = []
    if missing:
        parts.append(f"the thesis's {values(missing)} are not played")
    if extra:
        parts.append(f"{values(extra)} have no thesis row")
    return text + "; ".join(parts) + "."
