"""Seatings: which agent sits at which seat of a game.

A game's seats are its players (Chameleon Chess: RED, GREEN, YELLOW, BLUE; a
two-player game: its two players, in player order). A seating is a tuple of one entry
per seat, each an agent name or ``None`` for an empty seat (only Chameleon Chess
plays with empty seats: it seats two to four of its colours). Designs:

* :func:`original_seatings`: the original program's sessions (24 games for four
  agents, 54 for three, 38 for two, 3 for one), in its order, so that a legacy
  session file lines up game by game;
* :func:`every_seating`: every way to seat the agents at ``players`` seats, each agent
  at least once, over every choice of seat colours (or RED always occupied);
* :func:`parse_seating` / :func:`check_seatings`: a fixed list a study chooses.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, permutations, product

from ..games.chameleon import Colour

Seating = tuple[str | None, ...]

SEATS = tuple(c.name for c in Colour)
_EMPTY = "_"
_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


def _templates(names: Sequence[str]) -> list[tuple[str | None, ...]]:
    e = None
    if len(names) == 4:
        a, b, c, d = names
        return [(a, b, c, d)]
    if len(names) == 3:
        a, b, c = names
        return [(a, b, c, e), (a, b, c, a), (a, b, c, b), (a, b, c, c)]
    if len(names) == 2:
        a, b = names
        return [(a, b, e, e), (a, a, b, e), (a, b, b, e), (a, a, a, b), (a, a, b, b), (a, b, b, b)]
    (a,) = names
    return [(a, a, e, e), (a, a, a, e), (a, a, a, a)]


def original_seatings(names: Sequence[str]) -> list[Seating]:
    """The seatings of an original session of one to four distinct agents, in its order.

    For each template of the original (for two agents a, b: ``(a,b,_,_)``,
    ``(a,a,b,_)``, ``(a,b,b,_)``, ``(a,a,a,b)``, ``(a,a,b,b)``, ``(a,b,b,b)``) every
    ordering in ``itertools.permutations`` order, keeping seatings with RED occupied
    and each seating once. One agent plays just the three templates
    ``(a,a,_,_)``, ``(a,a,a,_)``, ``(a,a,a,a)``.
    """
    names = _check_names(names, 1, 4)
    if len(names) == 1:
        return _templates(names)
    out: list[Seating] = []
    seen: set[Seating] = set()
    for template in _templates(names):
        for seating in permutations(template):
            if seating[0] is not None and seating not in seen:
                seen.add(seating)
                out.append(seating)
    return out


def every_seating(
    names: Sequence[str], players: int, *, red_occupied: bool = False, seats: int = 4
) -> list[Seating]:
    """Every seating of ``players`` of the ``seats`` seats in which each agent of
    ``names`` sits at least once.

    All choices of ``players`` seats (with ``red_occupied``: only those including the
    first seat, RED, as the original did) times all assignments of the agents to them.
    """
    names = _check_names(names, 1, seats)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= seats:
        counts = [str(n) for n in range(2, seats + 1)]
        choices = counts[0] if len(counts) == 1 else f"{', '.join(counts[:-1])} or {counts[-1]}"
        raise ValueError(f"players must be {choices} (seats taken per game), got {players!r}")
    if len(names) > players:
        raise ValueError(
            f"cannot seat {len(names)} agents ({', '.join(names)}) at {players} seats: "
            f"give players >= {len(names)} or fewer agents"
        )
    out: list[Seating] = []
    for taken in combinations(range(seats), players):
        if red_occupied and 0 not in taken:
            continue
        for chosen in product(names, repeat=players):
            if set(chosen) != set(names):
                continue
            seating: list[str | None] = [None] * seats
            for seat, name in zip(taken, chosen, strict=True):
                seating[seat] = name
            out.append(tuple(seating))
    return out


def parse_seating(text: str | Sequence[str | None], seats: Sequence[str] = SEATS) -> Seating:
    """A seating from ``"A,B,_,_"`` (``_`` or empty: an empty seat) or a sequence, one
    entry per seat of ``seats`` (the game's seat names)."""
    if isinstance(text, str):
        parts = [p.strip() for p in text.split(",")]
        entries: list[str | None] = [None if p in ("", _EMPTY) else p for p in parts]
    else:
        entries = [None if p in (None, _EMPTY) else p for p in text]
    if len(entries) != len(seats):
        example = ",".join(["maxn", "paranoid", *[_EMPTY] * (len(seats) - 2)])
        raise ValueError(
            f"a seating has {_WORDS.get(len(seats), len(seats))} seats ({', '.join(seats)}), "
            f"got {len(entries)} in "
            f"{text!r}; write e.g. {example!r}"
            + (" with _ for an empty seat" if len(seats) > 2 else "")
        )
    for entry in entries:
        if entry is not None and not isinstance(entry, str):
            raise ValueError(f"a seat holds an agent name or None, got {entry!r} in {text!r}")
    return tuple(entries)


def check_seatings(
    seatings: Iterable[Seating],
    agents: Iterable[str],
    seats: Sequence[str] = SEATS,
    *,
    every_seat: bool = False,
) -> list[Seating]:
    """The seatings, checked: one entry per seat, at least two occupied (every one with
    ``every_seat``: a game that needs all its players), only known agents."""
    known = list(agents)
    out = []
    for i, raw in enumerate(seatings):
        seating = parse_seating(raw, seats)
        unknown = sorted({s for s in seating if s is not None and s not in known})
        if unknown:
            raise ValueError(
                f"seating {i} {format_seating(seating)} names unknown agent(s) "
                f"{', '.join(unknown)}; defined agents: {', '.join(known)}"
            )
        if every_seat and None in seating:
            raise ValueError(
                f"seating {i} {format_seating(seating)} leaves a seat empty; this game needs "
                f"all of its {len(seats)} players ({', '.join(seats)})"
            )
        if sum(s is not None for s in seating) < 2:
            raise ValueError(
                f"seating {i} {format_seating(seating)} seats fewer than two players; "
                "a game needs two to four"
            )
        out.append(seating)
    if not out:
        raise ValueError("the list of seatings is empty; give at least one")
    return out


def format_seating(seating: Seating) -> str:
    """``"maxn,paranoid,_,_"``: the inverse of :func:`parse_seating`."""
    return ",".join(_EMPTY if s is None else s for s in seating)


def _check_names(names: Sequence[str], low: int, high: int) -> list[str]:
    names = list(names)
    if not low <= len(names) <= high:
        raise ValueError(f"a session seats {low} to {high} distinct agents here, got {len(names)}")
    if len(set(names)) != len(names):
        raise ValueError(f"agent names must be distinct, got {names}")
    for name in names:
        if not isinstance(name, str) or not name or name == _EMPTY or "," in name:
            raise ValueError(
                f"agent names are non-empty strings without commas and not {_EMPTY!r}, got {name!r}"
            )
    return names
