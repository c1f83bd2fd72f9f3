"""Pondering: the agent searches on the opponent's time.

Seed 004's Connect Four program computed its replies to all seven possible moves of
the human while the human was still thinking, so that it answered at once. A
:class:`Ponderer` does the same for any agent and game: :meth:`Ponderer.start` takes
the position where the opponent is to move and, in a background thread, searches the
agent's reply to each of the opponent's legal moves; :meth:`Ponderer.reply` stops the
thread (after the search under way) and returns the pondered decision for the position
the game has reached, or ``None`` when it was not reached in time.

The thread searches with a copy of the agent (its own tables), so the agent itself is
never used from two threads. Only deterministic agents ponder: a pondered reply must be
the move the agent would have chosen then (with a depth or node budget it is the very
same; with a time budget it is a search of the same length, done earlier). An agent
that plays random moves would draw them in another order, so it is refused.
"""

from __future__ import annotations

import copy
import threading
from typing import Any

from .agents import Agent, Decision


class Ponderer:
    """Replies of ``agent`` searched in advance (see the module docstring)."""

    def __init__(self, agent: Agent) -> None:
        if agent.random_move_probability > 0:
            raise ValueError(
                "pondering needs an agent without random moves (random_move_probability "
                f"is {agent.random_move_probability}): a pondered reply must be the one "
                "it would choose"
            )
        self.agent = copy.copy(agent)
        self.agent._workspace = None  # its own tables, never shared with the agent's
        self._replies: dict[tuple[int, int], Decision] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.hits = 0  # replies answered from pondering
        self.searched = 0  # replies searched in advance

    def start(self, position: Any) -> None:
        """Search, in the background, the reply to every move of the side to move."""
        self.stop()
        self._replies = {}
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, args=(position,), daemon=True)
        self._thread.start()

    def _run(self, position: Any) -> None:
        for move in position.legal_moves:
            if self._stop.is_set():
                return
            child = position.play(move)
            if child.is_over:
                continue
            self._replies[_key(child)] = self.agent.choose(child)
            self.searched += 1

    def stop(self) -> None:
        """Stop pondering (waits for the search under way)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def wait(self) -> None:
        """Wait until every reply is searched (tests, demonstrations)."""
        if self._thread is not None:
            self._thread.join()

    def reply(self, position: Any) -> Decision | None:
        """The pondered decision for ``position``, or ``None``."""
        self.stop()
        decision = self._replies.get(_key(position))
        if decision is not None:
            self.hits += 1
        return decision


def _key(position: Any) -> tuple[int, int]:
    return int(position.key), int(position.to_move)
