"""A tiny game on an explicit tree whose leaves carry given score vectors.

It lets every search run on the small worked examples of the thesis (figures 4.1-4.6)
and shows the algorithms in a teaching notebook: build a tree from nested lists, search
it, and read which nodes the search visited (the others were pruned).

Nested form: a leaf is a tuple of scores, one per player (up to four); an inner node
is a list of children. The player to move at depth ``d`` is ``players[d % len(players)]``,
so by default player 0 moves at the root, player 1 below it, and so on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from .protocol import GameOps

NODE = 0  # current node
PLAYER_BITS = 1  # bit q set when player q takes part
HEADER = 4
REC = 8  # fields per node
F_FIRST = 0  # first child's index
F_COUNT = 1  # number of children
F_PLAYER = 2  # player to move at the node
F_VALUES = 3  # four float64 scores (stored as their bits)
F_VISITED = 7  # 1 once a search reached the node


@njit(cache=True)
def tree_generate(state: np.ndarray, moves: np.ndarray, ply: int) -> int:
    """Children of the current node, in order (a move is the child's node index)."""
    rec = HEADER + state[NODE] * REC
    first = state[rec + F_FIRST]
    n = state[rec + F_COUNT]
    for i in range(n):
        moves[ply, i] = first + i
    return n


@njit(cache=True)
def tree_make(state: np.ndarray, move: int, undo: np.ndarray, ply: int) -> None:
    """Go down to child ``move`` and mark it visited."""
    undo[ply, 0] = state[NODE]
    state[NODE] = move
    state[HEADER + move * REC + F_VISITED] = 1


@njit(cache=True)
def tree_unmake(state: np.ndarray, undo: np.ndarray, ply: int) -> None:
    """Go back up to the parent."""
    state[NODE] = undo[ply, 0]


@njit(cache=True)
def tree_player_of(state: np.ndarray) -> int:
    """The player at the current node; -1 at a leaf (the game is over there)."""
    rec = HEADER + state[NODE] * REC
    if state[rec + F_COUNT] == 0:
        return -1
    return state[rec + F_PLAYER]


@njit(cache=True)
def tree_values(state: np.ndarray, out: np.ndarray) -> None:
    """The heuristic of a tree: the scores stored at the current node."""
    values = state.view(np.float64)
    rec = HEADER + state[NODE] * REC + F_VALUES
    for i in range(4):
        out[i] = values[rec + i]


@njit(cache=True)
def tree_key(state: np.ndarray) -> int:
    """A tree has no transpositions: the key is the current node's index."""
    return state[NODE]


def _tree_players(state: np.ndarray) -> np.ndarray:
    """The players of the tree (bit mask in the header), as a 0/1 vector."""
    return np.array([(int(state[PLAYER_BITS]) >> q) & 1 for q in range(4)], dtype=np.int64)


TREE_OPS = GameOps(
    "explicit tree",
    tree_generate,
    tree_make,
    tree_unmake,
    tree_player_of,
    max_moves=64,
    undo_size=1,
    players_alive=_tree_players,
    key=tree_key,
    heuristic_at_terminal=True,  # a leaf's stored scores are its value
)


@dataclass
class ExplicitTree:
    """A game tree given explicitly, as a state the compiled searches can walk.

    ``paths[i]`` is node ``i``'s path of child indices from the root (``()`` for the
    root), so results can be read back in the terms of the nested input.
    """

    state: np.ndarray
    paths: list[tuple[int, ...]]
    players: tuple[int, ...]

    @classmethod
    def from_nested(cls, nested: Any, players: Sequence[int] = (0, 1, 2)) -> ExplicitTree:
        """Build a tree from nested lists (inner nodes) and tuples (leaf score vectors)."""
        players = tuple(int(p) for p in players)
        if not players or any(not 0 <= p <= 3 for p in players):
            raise ValueError(f"players must be one to four numbers in 0..3, got {players!r}")
        nodes: list[tuple[Any, int, tuple[int, ...]]] = [(nested, 0, ())]
        order: list[tuple[Any, int, tuple[int, ...]]] = []
        # breadth-first numbering keeps every node's children consecutive
        while nodes:
            item = nodes.pop(0)
            order.append(item)
            node, depth, path = item
            if isinstance(node, list):
                if not node:
                    raise ValueError(f"inner node at path {path} has no children")
                nodes.extend((child, depth + 1, (*path, i)) for i, child in enumerate(node))
            elif not isinstance(node, tuple) or not 1 <= len(node) <= 4:
                raise ValueError(
                    f"node at path {path} is {node!r}; a leaf is a tuple of one to four "
                    "scores and an inner node a list of children"
                )
        state = np.zeros(HEADER + REC * len(order), dtype=np.int64)
        values = state.view(np.float64)
        next_index = 1
        for i, (node, depth, _path) in enumerate(order):
            rec = HEADER + i * REC
            if isinstance(node, list):
                state[rec + F_FIRST] = next_index
                state[rec + F_COUNT] = len(node)
                next_index += len(node)
            else:
                values[rec + F_VALUES : rec + F_VALUES + len(node)] = node
            state[rec + F_PLAYER] = players[depth % len(players)]
        state[HEADER + F_VISITED] = 1
        state[PLAYER_BITS] = sum(1 << p for p in set(players))
        return cls(state, [p for _, _, p in order], players)

    def visited(self) -> list[tuple[int, ...]]:
        """Paths of the nodes the last search reached (the rest were pruned)."""
        return [p for i, p in enumerate(self.paths) if self.state[HEADER + i * REC + F_VISITED]]

    def pruned(self) -> list[tuple[int, ...]]:
        """Paths of the nodes the last search did not reach, highest first."""
        seen = set(self.visited())
        return [p for p in self.paths if p not in seen and p[:-1] in seen]

    def reset(self) -> None:
        """Forget what a search visited and go back to the root."""
        for i in range(1, len(self.paths)):
            self.state[HEADER + i * REC + F_VISITED] = 0
        self.state[NODE] = 0
