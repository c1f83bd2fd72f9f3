"""The levels of seed 004's Connect Four computer, as plain data (no agents imported).

"Auf Level 1 probiert er zwei Steinwürfe aus, einen für sich und einen für den
Gegner. Auf Level 2 probiert er 4 Steinwürfe aus, auf Level 3, 6 und ab Level 3 immer
einen mehr": levels 1, 2, 3 search 2, 4, 6 plies, every level above 3 one ply more
(level 4: 7, level 5: 8, ...). Alpha-beta, as the seed's program.

"Die Angriffslust (=Strategie) des Computers wird per Zufall für ein Spiel gewählt.
[...] Dabei wählt der Computer in einem Level eine Strategie, mit der er einmal
verloren hat, nicht noch einmal (wenn möglich)": :func:`choose_aggressiveness` draws
one of the five aggressiveness steps per game, avoiding those that have lost at the
level.

The seed's improvement ideas ("Verbesserungsmöglichkeiten": weighting a line by the
stones already in it, an opening book) are options of :func:`level_params`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...checks import whole_number

#: Plies searched by levels 1..5 (each further level one ply more, see level_depth).
LEVEL_DEPTHS = {1: 2, 2: 4, 3: 6, 4: 7, 5: 8}
#: The aggressiveness steps (heuristics ``aggressive1`` .. ``aggressive5``).
AGGRESSIVENESS = (1, 2, 3, 4, 5)


def level_depth(level: int) -> int:
    """Plies searched at ``level`` (1: 2, 2: 4, 3: 6, then one more per level)."""
    level = whole_number("level", level, 1)
    return 2 * level if level <= 3 else level + 3


def heuristic_for(aggressiveness: int, depth: int) -> str:
    """The heuristic that plays with ``aggressiveness`` at a search of ``depth`` plies.

    The searches score a leaf from the view of the player to move there: the root
    player at even depths, the opponent at odd ones, where ``aggressiveN`` amounts to
    ``aggressive(6 - N)`` for the root player (see :mod:`.heuristics`); so odd depths
    take the mirrored step and the computer evaluates with the aggressiveness drawn.
    """
    a = whole_number("aggressiveness", aggressiveness, 1, 5)
    d = whole_number("depth", depth, 1)
    return f"aggressive{a if d % 2 == 0 else 6 - a}"


def level_params(
    level: int, aggressiveness: int, *, weighted: bool = False, book: bool = False
) -> dict[str, Any]:
    """Agent parameters (``chameleon_lab.agents.Agent(**params)``) of the seed's
    computer at ``level`` with ``aggressiveness`` 1..5 (1: first of all spoil the
    opponent's chances, 5: almost only build one's own).

    The seed's two improvement ideas, as options: ``weighted`` evaluates with
    ``weighted_lines`` (lines weighted by the stones already in them; balanced, so
    the aggressiveness no longer applies), ``book`` plays from the opening book while
    it holds the position (``chameleon_lab.games.connect4.book``).
    """
    depth = level_depth(level)
    for name, value in (("weighted", weighted), ("book", book)):
        if not isinstance(value, bool):
            raise ValueError(f"{name} must be True or False, got {value!r}")
    heuristic = heuristic_for(aggressiveness, depth)
    params: dict[str, Any] = {
        "algorithm": "alphabeta",
        "game": "connect4",
        "depth": depth,
        "heuristic": "weighted_lines" if weighted else heuristic,
        "options": {"ordering": True},
    }
    if book:
        params["book"] = True
    return params


def choose_aggressiveness(rng: Any, lost_at_level: Iterable[int]) -> int:
    """The aggressiveness for one game, drawn uniformly by ``rng`` (a
    ``numpy.random.Generator`` or ``random.Random``) among the five steps that have not
    yet lost a game at this level (``lost_at_level``: the steps that have); once every
    step has lost, among all five ("wenn möglich": the seed avoids a losing strategy
    only where there is another).
    """
    lost = set(lost_at_level)
    bad = sorted(x for x in lost if x not in AGGRESSIVENESS)
    if bad:
        raise ValueError(f"aggressiveness steps are 1..5, got {bad[0]!r} in lost_at_level")
    choices = [a for a in AGGRESSIVENESS if a not in lost] or list(AGGRESSIVENESS)
    if hasattr(rng, "integers"):
        index = int(rng.integers(len(choices)))
    else:
        index = int(rng.randrange(len(choices)))
    return choices[index]
