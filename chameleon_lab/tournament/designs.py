"""Balanced designs: distinct openings, each played as a block of balanced seatings.

Deterministic searches play the very same game every time they meet from the same
position, so a comparison of agents is only as good as its openings and its seats.
The engine-testing frameworks (Fishtest, OpenBench, cutechess-cli) settle both: a book
of distinct openings, each played with the seats exchanged. This module gives the
workbench the same for any number of players:

* :func:`opening_suite`: ``size`` distinct openings of ``plies`` uniformly random plies
  (legal, the game not over, no two reaching the same position), drawn from a seed;
  the suite of ``n + m`` openings begins with the suite of ``n``, so a study that plays
  more blocks keeps the ones it has;
* :func:`balanced_groups`: which agents share a game when more agents than seats take
  part: a balanced incomplete block design (every agent in equally many groups, every
  pair of agents together equally often), found by a small exact search;
* :func:`block_seatings`: the seatings of one block: every group of agents in every
  seat order (``orders="all"``) or in the rows of a Williams square (``"williams"``:
  every agent at every seat equally often and every agent followed by every other
  equally often, in ``k`` games for an even ``k`` and ``2k`` for an odd one);
* :func:`balance`: seats per agent and meetings per pair of a list of seatings, the
  counts the tests and the notebooks show.

A block is the unit of resampling and of sequential tests
(:mod:`chameleon_lab.analysis.sequential`): its games share one opening and give every
agent in it every seat equally often, so a block's score of one agent against another
is free of the seats' and the opening's advantages.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import combinations, permutations, product
from typing import Any

import numpy as np
import pandas as pd

from ..checks import whole_number
from ..games.registry import Game, game_entry, get_game

#: Draws of an opening before giving up when every one ends the game.
OPENING_ATTEMPTS = 1000
#: The seat orders a block can play its groups in.
ORDERS = ("all", "williams")
#: Positions an exact count of a game's distinct openings may visit before giving up.
COUNT_LIMIT = 2_000_000

Seating = tuple[str | None, ...]


def opening(start: Any, plies: int, seed: int) -> tuple[list[Any], Any]:
    """``plies`` uniformly random moves from ``start`` (drawn by a generator seeded
    with ``seed``) after which the game goes on, and the position they lead to; an
    opening that ends the game is drawn again. ``ValueError`` when
    :data:`OPENING_ATTEMPTS` draws all end it."""
    rng = np.random.default_rng(seed)
    for _ in range(OPENING_ATTEMPTS):
        position, moves = start, []
        while len(moves) < plies and not position.is_over:
            legal = position.legal_moves
            moves.append(legal[int(rng.integers(len(legal)))])
            position = position.play(moves[-1])
        if not position.is_over:
            return moves, position
    raise ValueError(
        f"every random opening of {plies} plies tried ended the game; use fewer opening_plies"
    )


def seating_game(name: str, params: Mapping[str, Any], seating: Seating) -> Game:
    """The game a seating plays: ``name`` with ``params``, its seats parameter (where
    it has one, :attr:`~chameleon_lab.games.registry.GameEntry.seats`: Chameleon Chess
    and Rolit seat two to four of their four colours) the seating's occupied seats."""
    seats = game_entry(name).seats
    if seats is not None:
        occupied = [seat for seat, agent in enumerate(seating) if agent is not None]
        return get_game(name, **{**params, seats: occupied})
    return get_game(name, **params)


def count_openings(start: Any, plies: int, limit: int = COUNT_LIMIT) -> int | None:
    """The number of distinct positions ``plies`` plies after ``start`` in which the
    game goes on (what :func:`opening` can reach), or ``None`` when counting them would
    visit more than ``limit`` positions."""
    level = {start}
    visited = 0
    for _ in range(plies):
        nxt = set()
        for position in level:
            for move in position.legal_moves:
                child = position.play(move)
                visited += 1
                if visited > limit:
                    return None
                if not child.is_over:
                    nxt.add(child)
        level = nxt
    return len(level)


def draw_seed(entropy: Sequence[int]) -> int:
    """A 32-bit seed drawn from ``SeedSequence(entropy)``: the seeds of a session's
    games, agents and openings, so each depends only on where it sits in the session."""
    return int(np.random.SeedSequence(list(entropy)).generate_state(1, np.uint32)[0])


def opening_suite(
    start: Any, plies: int, size: int, seed: int = 0, *, stream: int = 0x6F70656E
) -> list[tuple[str, ...]]:
    """``size`` distinct openings of ``plies`` random plies from ``start``, as moves in
    notation, in the order drawn.

    Candidate ``i`` is :func:`opening` seeded from ``SeedSequence([seed, i, stream])``;
    a candidate reaching a position an earlier one reached is passed over. So the suite
    is a function of ``(start, plies, seed)`` whose first ``n`` openings do not depend
    on ``size``. ``ValueError`` when the game has fewer than ``size`` distinct openings
    of that length (counted exactly where that is cheap), naming how many it has.
    """
    whole_number("an opening suite's plies", plies)
    whole_number("an opening suite's size", size)
    seen: set[Any] = set()
    out: list[tuple[str, ...]] = []
    attempts = 20 * size + 200
    for i in range(MAX_DRAWS * attempts + 1):
        if len(out) == size:
            return out
        if i == MAX_DRAWS * attempts:  # not countable, and still short: stop, saying so
            raise ValueError(
                f"found {len(out)} distinct openings of {plies} plies in {i} random draws, "
                f"fewer than the {size} asked for: ask for fewer openings (blocks) or more "
                "opening plies"
            )
        if i == attempts:  # many repeats: is the suite possible at all?
            available = count_openings(start, plies)
            if available is not None and available < size:
                raise ValueError(
                    f"the game has {available} distinct openings of {plies} plies, fewer "
                    f"than the {size} asked for: ask for at most {available} openings "
                    "(blocks) or more opening plies"
                )
        moves, position = opening(start, plies, draw_seed([seed, i, stream]))
        if position not in seen:
            seen.add(position)
            out.append(tuple(str(m) for m in moves))
    raise AssertionError("unreachable")  # pragma: no cover


#: :func:`opening_suite` gives up after this many times its first ``20 * size + 200``
#: draws where the openings cannot be counted cheaply.
MAX_DRAWS = 50


def _lambda(v: int, k: int) -> int:
    """The smallest pair multiplicity a design of ``k``-sets on ``v`` points can have."""
    for lam in range(1, math.comb(v - 2, k - 2) + 1):
        r, b = lam * (v - 1), lam * v * (v - 1)
        if r % (k - 1) == 0 and b % (k * (k - 1)) == 0:
            return lam
    return math.comb(v - 2, k - 2)


@lru_cache(maxsize=64)
def balanced_groups(v: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Groups of ``k`` of the agents ``0..v-1`` such that every agent is in equally many
    groups and every pair of agents in equally many (a 2-(v, k, lambda) design with the
    smallest lambda for which one is found).

    ``k == v``: the one group of all; ``k == 2``: every pair; otherwise an exact search
    (depth first, groups in lexicographic order, pruned by the pairs each agent still
    needs) for the smallest admissible lambda, then the next ones, and at last every
    ``k``-subset (always balanced). For example nine agents in threes: the 12 lines of
    the affine plane of order 3 (lambda 1); nine in fours: 18 groups, lambda 3.
    """
    if not 2 <= k <= v:
        raise ValueError(f"groups of {k} of {v} agents: need 2 <= k <= v")
    if k == v:
        return (tuple(range(v)),)
    if k == 2:
        return tuple(combinations(range(v), 2))
    everything = tuple(combinations(range(v), k))
    lam = _lambda(v, k)
    while lam < math.comb(v - 2, k - 2):
        found = _cyclic_design(v, k, lam) or _search_design(v, k, lam, everything)
        if found is not None:
            return found
        lam += 1
    return everything


def _cyclic_design(v: int, k: int, lam: int, most: int = 3) -> tuple[tuple[int, ...], ...] | None:
    """A 2-(v, k, lam) design developed from at most ``most`` base groups over the
    integers modulo ``v`` (cyclic), or modulo ``v - 1`` with agent ``v - 1`` fixed
    (1-rotational), found by trying the base groups that hold 0; None if there is none.
    Nine agents in fours, for example: two base groups developed mod 9, 18 groups."""
    for m, infinite in ((v, 0), (v - 1, 1)):
        rest = range(1, m)
        bases = [(0, *c) for c in combinations(rest, k - 1)]
        with_inf = [(0, *c, m) for c in combinations(rest, k - 2)] if infinite else []
        for t in range(1, most + 1):
            for s in range(infinite, min(t, 1 + infinite * lam) + 1):
                if t * m * k * (k - 1) != lam * v * (v - 1) or s * (k - 1) != lam * infinite:
                    continue
                for inf_part in combinations(with_inf, s):
                    for fin_part in combinations(bases, t - s):
                        if _differences_even(m, lam, (*inf_part, *fin_part)):
                            return _develop(m, (*inf_part, *fin_part))
    return None


def _differences_even(m: int, lam: int, bases: tuple[tuple[int, ...], ...]) -> bool:
    """Whether the base groups' differences (mod m, point m the fixed one) cover every
    nonzero residue ``lam`` times."""
    counts = [0] * m
    for base in bases:
        for a, b in permutations([x for x in base if x != m], 2):
            counts[(a - b) % m] += 1
    return all(c == lam for c in counts[1:])


def _develop(m: int, bases: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """Every translate of every base group mod ``m`` (the fixed point ``m`` stays)."""
    return tuple(
        tuple(sorted(x if x == m else (x + i) % m for x in base))
        for base in bases
        for i in range(m)
    )


def _search_design(
    v: int, k: int, lam: int, candidates: tuple[tuple[int, ...], ...], budget: int = 50_000
) -> tuple[tuple[int, ...], ...] | None:
    """A 2-(v, k, lam) design of distinct ``candidates``, or None when none exists or
    ``budget`` tries did not find one. Depth first: the first pair still short of
    ``lam`` meetings is covered by each group that contains it and fits in turn."""
    need = np.full((v, v), lam, dtype=np.int64)
    np.fill_diagonal(need, 0)
    having = {pair: [g for g in candidates if pair[0] in g and pair[1] in g]
              for pair in combinations(range(v), 2)}  # fmt: skip
    chosen: list[tuple[int, ...]] = []
    used: set[tuple[int, ...]] = set()
    steps = 0

    def place(group: tuple[int, ...], sign: int) -> None:
        for a, b in combinations(group, 2):
            need[a, b] -= sign
            need[b, a] -= sign

    def extend() -> bool:
        nonlocal steps
        short = np.argwhere(np.triu(need) > 0)
        if len(short) == 0:
            return True
        pair = (int(short[0][0]), int(short[0][1]))
        for group in having[pair]:
            steps += 1
            if steps > budget:
                return False
            if group in used or any(need[a, b] <= 0 for a, b in combinations(group, 2)):
                continue
            place(group, 1)
            chosen.append(group)
            used.add(group)
            if extend():
                return True
            used.discard(chosen.pop())
            place(group, -1)
        return False

    return tuple(sorted(chosen)) if extend() else None


def williams_orders(k: int) -> list[tuple[int, ...]]:
    """The rows of a Williams square on ``k`` symbols: every symbol in every column
    equally often and every ordered pair of different symbols adjacent (one right after
    the other, cyclically not counted) equally often; ``k`` rows for an even ``k``,
    ``2k`` (the square and its mirror image) for an odd one."""
    base = [0]
    low, high = 1, k - 1
    while len(base) < k:
        base.append(low)
        low += 1
        if len(base) < k:
            base.append(high)
            high -= 1
    rows = [tuple((x + i) % k for x in base) for i in range(k)]
    if k % 2:
        rows += [tuple(reversed(r)) for r in rows]
    return rows


def block_seatings(
    names: Sequence[str],
    players: int,
    seats: int | None = None,
    *,
    orders: str = "all",
) -> list[Seating]:
    """The seatings of one block: agents of ``names`` at the first ``players`` of
    ``seats`` seats (the rest empty).

    At least as many agents as seats: distinct agents a game, sharing games by
    :func:`balanced_groups`; each group plays in every seat order (``orders="all"``,
    ``players!`` games a group) or in the orders of a Williams square
    (``"williams"``); for two agents at two seats, the game pair of the engine testers.
    Fewer agents than seats: every way to seat them with each agent at least once
    (two agents at three seats: the 2**3 - 2 = 6 configurations of Schadd & Winands
    2011; at four, 14). Either way every agent sits at every used seat equally often
    and every pair of agents meets equally often.
    """
    names = list(names)
    seats = players if seats is None else seats
    if len(names) < 2 or len(set(names)) != len(names):
        raise ValueError(
            f"a block design compares at least two distinct agents, got {names}: name two or more"
        )
    whole_number("players", players, 2, seats)
    if orders not in ORDERS:
        raise ValueError(f"unknown seat orders {orders!r}; valid: {', '.join(ORDERS)}")
    if len(names) < players:  # every way to seat them all, as Schadd & Winands (2011) did
        return [
            (*chosen, *[None] * (seats - players))
            for chosen in product(names, repeat=players)
            if set(chosen) == set(names)
        ]
    rows = list(permutations(range(players))) if orders == "all" else williams_orders(players)
    out: list[Seating] = []
    for group in balanced_groups(len(names), players):
        for row in rows:
            seating: list[str | None] = [names[group[i]] for i in row]
            out.append(tuple(seating + [None] * (seats - players)))
    return out


def balance(seatings: Sequence[Seating]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Seats per agent (rows agents, columns seat indices) and meetings per pair
    (rows and columns agents) of ``seatings``: a design is balanced when each agent's
    row of the first is constant and the second is constant off the diagonal."""
    seat_counts: Counter[tuple[str, int]] = Counter()
    meetings: Counter[tuple[str, str]] = Counter()
    agents: dict[str, None] = {}
    for seating in seatings:
        present = [s for s in seating if s is not None]
        for seat, name in enumerate(seating):
            if name is not None:
                seat_counts[name, seat] += 1
                agents[name] = None
        for a, b in combinations(sorted(set(present)), 2):
            meetings[a, b] += 1
            meetings[b, a] += 1
    names = list(agents)
    used = sorted({seat for _, seat in seat_counts})
    by_seat = pd.DataFrame(
        [[seat_counts[a, s] for s in used] for a in names], index=names, columns=used
    )
    pairs = pd.DataFrame([[meetings[a, b] for b in names] for a in names], index=names,
                         columns=names)  # fmt: skip
    return by_seat, pairs
