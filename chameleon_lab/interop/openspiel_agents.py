"""OpenSpiel's bots as agents of our tournaments.

:class:`OpenSpielAgent` seats one of OpenSpiel's bots in a session of ours: its
parameters name the kind ``openspiel`` (registered with
:func:`chameleon_lab.agents.register_agent_kind` when this module is imported), so a
session's agents may hold ``{"kind": "openspiel", "bot": "mcts", "max_simulations":
200}`` beside our own, and records keep them like any agent's. ``bot="mcts"`` is
OpenSpiel's C++ ``MCTSBot`` with ``RandomRolloutEvaluator``, ``bot="random"`` its uniform
random bot. It plays through the game registered by :mod:`.openspiel_games`, from the
position it is asked about.

Seeds: an agent's ``seed`` (in a session, the seat's seed of each game) gives the MCTS
bot's and its rollout evaluator's seeds (drawn from ``SeedSequence([seed, 0])`` and
``[seed, 1]``) and the random bot's, so the same seed gives the same moves. A wall-clock
budget (``time_ms``) would not: it is offered for studies that want it.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..agents import DEFAULT_GAME, Decision, check_playable, register_agent_kind
from ..checks import whole_number
from ..games.registry import Game, get_game
from ._pyspiel import pyspiel
from .openspiel_games import PREFIX, LabGame, openspiel_params

#: The ``kind`` of OpenSpiel's bots among a session's agents.
KIND = "openspiel"
#: The bots an :class:`OpenSpielAgent` can be.
BOTS = ("mcts", "random")


def _draw(seed: int, stream: int) -> int:
    """A seed for OpenSpiel (which takes a signed 32-bit one) from ``seed`` and a stream."""
    drawn = np.random.SeedSequence([seed, stream]).generate_state(1, dtype=np.uint32)[0]
    return int(drawn >> 1)


@dataclass
class OpenSpielAgent:
    """One of OpenSpiel's bots as an agent of ours (see the module docstring).

    ``bot``: ``"mcts"`` (``pyspiel.MCTSBot``: ``uct_c``, ``max_simulations``,
    ``rollouts`` random rollouts per evaluation, ``solve`` with MCTS-Solver,
    ``max_memory_mb``, ``time_ms`` its wall-clock limit or None) or ``"random"``.
    ``move_limit``: for a game whose rules set no bound on its length (Chameleon
    Chess), the plies the bot's model of the game lasts from the position it is asked
    about (it does not see how many were played before; None: the bridge's default).
    """

    bot: str = "mcts"
    game: str = DEFAULT_GAME
    seed: int = 0
    max_simulations: int = 1000
    uct_c: float = 2.0
    rollouts: int = 1
    solve: bool = True
    max_memory_mb: int = 1000
    time_ms: float | None = None
    move_limit: int | None = None
    _games: dict[Any, LabGame] = field(init=False, repr=False, compare=False)
    _bots: dict[Any, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.game, Game):
            self.game = self.game.name
        get_game(self.game)  # a known game, or ValueError listing them
        if self.bot not in BOTS:
            raise ValueError(f"unknown OpenSpiel bot {self.bot!r}; valid bots: {', '.join(BOTS)}")
        for name, low in (
            ("seed", 0),
            ("max_simulations", 1),
            ("rollouts", 1),
            ("max_memory_mb", 1),
        ):
            setattr(self, name, whole_number(name, getattr(self, name), low))
        if not isinstance(self.uct_c, (int, float)) or not self.uct_c > 0:
            raise ValueError(f"uct_c must be a number > 0, got {self.uct_c!r}")
        if not isinstance(self.solve, bool):
            raise ValueError(f"solve must be true or false, got {self.solve!r}")
        if self.time_ms is not None and not (
            isinstance(self.time_ms, (int, float)) and self.time_ms > 0
        ):
            raise ValueError(f"time_ms must be a number > 0 or None, got {self.time_ms!r}")
        if self.move_limit is not None:
            self.move_limit = whole_number("move_limit", self.move_limit, none=True)
            # refused where the rules end games
            openspiel_params(get_game(self.game), self.move_limit)
        self._games = {}
        self._bots = {}

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> OpenSpielAgent:
        """The agent of :meth:`params` (``kind`` may be given; unknown keys refused)."""
        params = dict(params)
        kind = params.pop("kind", KIND)
        if kind != KIND:
            raise ValueError(f"an OpenSpielAgent is of kind {KIND!r}, not {kind!r}")
        valid = [f.name for f in dataclasses.fields(cls) if f.init]
        unknown = sorted(set(params) - set(valid))
        if unknown:
            raise ValueError(
                f"unknown OpenSpiel agent parameter(s) {', '.join(unknown)}; "
                f"valid: kind, {', '.join(valid)}"
            )
        return cls(**params)

    def params(self) -> dict[str, Any]:
        """Every parameter, ``kind`` first, JSON-friendly; :meth:`from_params` reads it."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.init}
        return {"kind": KIND, **out}

    @property
    def label(self) -> str:
        """A short readable name, e.g. ``openspiel/mcts/1000sim``."""
        if self.bot == "mcts":
            return f"{KIND}/mcts/{self.max_simulations}sim"
        return f"{KIND}/{self.bot}"

    # -------------------------------------------------------------------- playing
    def openspiel_game(self, game: Game) -> LabGame:
        """The registered OpenSpiel game of our ``game`` (made once per game)."""
        key = repr(game)
        if key not in self._games:
            params = openspiel_params(game, self.move_limit)
            self._games[key] = pyspiel.load_game(PREFIX + game.name, params)
        return self._games[key]

    def _bot(self, os_game: LabGame, player: int) -> Any:
        key = (id(os_game), player if self.bot == "random" else None)
        if key not in self._bots:
            if self.bot == "random":
                bot = pyspiel.make_uniform_random_bot(player, _draw(self.seed, 0))
                self._bots[key] = (bot,)
            else:
                evaluator = pyspiel.RandomRolloutEvaluator(self.rollouts, _draw(self.seed, 1))
                seconds = -1.0 if self.time_ms is None else self.time_ms / 1000.0
                bot = pyspiel.MCTSBot(
                    os_game,
                    evaluator,
                    float(self.uct_c),
                    self.max_simulations,
                    self.max_memory_mb,
                    self.solve,
                    _draw(self.seed, 0),
                    False,
                    max_wall_clock_time=seconds,
                )
                self._bots[key] = (bot, evaluator)  # the bot keeps no reference to it
        return self._bots[key][0]

    def choose(self, position: Any) -> Decision:
        """The bot's move in ``position`` (of the agent's game; not over)."""
        game = check_playable(position, self.game)
        os_game = self.openspiel_game(game)
        state = os_game.state_at(position)
        if state.clone().position != position:  # pragma: no cover - older OpenSpiel
            raise RuntimeError(
                "this OpenSpiel clones a Python state by replaying its actions from the start, "
                "so its bots cannot search from a position of ours; install a newer open_spiel "
                "(the bridge is tested with 2.0.2)"
            )
        bot = self._bot(os_game, state.current_player())
        legal = position.legal_moves
        by_action = os_game.space.legal(position)
        t0 = time.perf_counter()
        if self.bot == "random":
            action = bot.step(state)
            scores = np.full(len(legal), np.nan)
            simulations, exact = 0, False
        else:
            # MCTSBot.step is this search and its best child; called directly it keeps
            # the root's visits (and pyspiel's step crashes on Python games, 2.0.2)
            root = bot.mcts_search(state)
            best = root.best_child()
            action, simulations = best.action, root.explore_count
            means = {
                c.action: c.total_reward / c.explore_count for c in root.children if c.explore_count
            }
            scores = np.array([means.get(os_game.space.action(m), np.nan) for m in legal])
            exact = bool(best.outcome)
        seconds = time.perf_counter() - t0
        move = by_action[action]
        return Decision(
            move,
            0.0,
            0,
            simulations,
            seconds,
            tuple(legal),
            scores,
            None,
            (move,),
            exact=exact,
            counters={"simulations": simulations},
        )


register_agent_kind(KIND, OpenSpielAgent.from_params)
