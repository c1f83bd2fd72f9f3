"""Our agents as OpenSpiel bots.

:class:`AgentBot` is a ``pyspiel.Bot`` choosing with one of our agents, so OpenSpiel's
own evaluation code (``pyspiel.evaluate_bots``, ``open_spiel.python.algorithms.
evaluate_bots``) seats it in the games the bridge registers (:mod:`.openspiel_games`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..agents import Agent, Decision
from ._pyspiel import pyspiel
from .openspiel_games import PREFIX, LabState


class AgentBot(pyspiel.Bot):
    """One of our agents as an OpenSpiel bot in the games registered by the bridge.

    ``agent`` is an :class:`~chameleon_lab.agents.Agent` or its parameters; it must play
    the state's game. Our agents keep nothing from move to move but their random
    stream, so :meth:`restart_at` and :meth:`inform_action` have nothing to do.
    """

    def __init__(self, agent: Agent | Mapping[str, Any]) -> None:
        pyspiel.Bot.__init__(self)
        self.agent = agent if isinstance(agent, Agent) else Agent.from_params(agent)
        self.last: Decision | None = None  # the last decision, for a look at the search

    def step(self, state: Any) -> int:
        """The action of the agent's move in ``state``."""
        if not isinstance(state, LabState):
            name = state.get_game().get_type().short_name
            raise TypeError(
                f"an AgentBot plays the games chameleon_lab registers ({PREFIX}NAME); "
                f"this state is of {name}"
            )
        self.last = self.agent.choose(state.position)
        return state.get_game().space.action(self.last.move)

    def restart_at(self, state: Any) -> None:
        """Nothing to forget (see the class docstring)."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to follow (see the class docstring)."""

    def provides_policy(self) -> bool:
        """No policy: our agents choose one move."""
        return False
