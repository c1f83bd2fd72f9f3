"""The OpenSpiel bridge: this library's games, agents and tournaments with OpenSpiel's.

Importing this module registers every game of the library with OpenSpiel, as
``chameleon_lab_`` plus its name (:mod:`.openspiel_games`)::

    import pyspiel
    import chameleon_lab.interop.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("chameleon_lab_chameleon(players=3)")
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)

Our agents play in OpenSpiel's evaluation code as ``pyspiel.Bot`` (:class:`AgentBot`,
:mod:`.openspiel_bots`), and sessions of ours seat OpenSpiel's bots: agents of the kind
``openspiel`` (``{"kind": "openspiel", "bot": "mcts", "max_simulations": 200}``,
:class:`OpenSpielAgent`, :mod:`.openspiel_agents`).

It needs the optional extra (``pip install -e '.[openspiel]'``); without it the import
raises an ``ImportError`` saying so. ``docs/interop_openspiel.md`` describes the
bridge, its choices and its limits.
"""

from __future__ import annotations

from ._pyspiel import INSTALL, pyspiel
from .openspiel_agents import BOTS, OpenSpielAgent
from .openspiel_bots import AgentBot
from .openspiel_games import (
    PREFIX,
    LabGame,
    LabState,
    Translation,
    openspiel_params,
    register_games,
    translation,
)

#: The OpenSpiel short names of the library's games, registered on import.
GAMES = register_games()

__all__ = [
    "BOTS",
    "GAMES",
    "INSTALL",
    "PREFIX",
    "AgentBot",
    "LabGame",
    "LabState",
    "OpenSpielAgent",
    "Translation",
    "openspiel_params",
    "pyspiel",
    "register_games",
    "translation",
]
