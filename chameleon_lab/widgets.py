"""Interactive widgets for JupyterLab (ipywidgets): step through a game, play an agent.

* :class:`GameViewer`: a recorded game (a records line, or a list of positions) with
  a slider and previous/next buttons; the board shows the last move.
* :class:`PlayAgainst`: you play one seat, an :class:`~chameleon_lab.agents.Agent`
  the others; after each of its moves the widget lists its root scores, so you see
  what the search thought of every move. With ``ponder=True`` the agent searches its
  replies to your possible moves while you think (:mod:`.pondering`, seed 004).

Both are plain objects with a ``widget`` attribute (an ``ipywidgets.VBox``); the
notebook displays ``viewer.widget``. The methods the buttons call are public, so
tests drive them without a browser.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from .agents import Agent, Decision
from .games.chameleon import ChameleonMatch, Position
from .games.match import Match
from .games.registry import get_game
from .pondering import Ponderer
from .tournament.play import record_positions


def _picture(position: Any, last_move: str | None) -> str:
    """The position's SVG, with the last move marked where the game's picture can."""
    if isinstance(position, Position):
        return position.svg(last_move=last_move)
    return position.svg()


def _player(position: Any, player: int) -> str:
    return position.game.info.player_name(int(player))


def _move_between(before: Any, after: Any) -> str:
    """The notation of the legal move leading from ``before`` to ``after``."""
    if isinstance(before, Position):
        return str(before.move_to(after))
    for move, child in zip(before.legal_moves, before.successors(), strict=True):
        if child == after:
            return str(move)
    raise ValueError(f"no legal move leads from {before!r} to {after!r}")


class GameViewer:
    """Step through a game: ``GameViewer(record)`` or ``GameViewer(positions=[...])``."""

    def __init__(
        self, record: dict[str, Any] | None = None, *, positions: Sequence[Any] = ()
    ) -> None:
        import ipywidgets as w

        if record is not None:
            self.positions = record_positions(record)
            self.moves = [m["move"] for m in record["moves"]]
        else:
            self.positions = list(positions)
            self.moves = [_move_between(a, b) for a, b in pairwise(self.positions)]
        if not self.positions:
            raise ValueError("a game viewer needs a record or at least one position")
        self.slider = w.IntSlider(0, 0, len(self.positions) - 1, description="move")
        self.prev = w.Button(description="previous", icon="step-backward")
        self.next = w.Button(description="next", icon="step-forward")
        self.board = w.HTML()
        self.caption = w.HTML()
        self.prev.on_click(lambda _: self.step(-1))
        self.next.on_click(lambda _: self.step(1))
        self.slider.observe(lambda _: self.show(), names="value")
        self.widget = w.VBox(
            [w.HBox([self.prev, self.slider, self.next]), self.board, self.caption]
        )
        self.widget.add_class("chameleon-game-viewer")
        self.show()

    def step(self, delta: int) -> None:
        """Move the slider by ``delta`` plies (clamped to the game)."""
        self.slider.value = max(0, min(self.slider.max, self.slider.value + delta))

    def show(self) -> None:
        """Draw the position at the slider."""
        k = self.slider.value
        last = self.moves[k - 1] if k > 0 else None
        pos = self.positions[k]
        self.board.value = _picture(pos, last)
        state = "game over" if pos.is_over else f"{_player(pos, pos.to_move)} to move"
        self.caption.value = f"<b>position {k}</b> of {len(self.positions) - 1}: " + (
            f"after {html.escape(last)}, {state}" if last else f"start, {state}"
        )


class PlayAgainst:
    """Play ``seat`` against ``agent`` on the other seats, in the agent's game.

    Chameleon Chess seats ``players`` (default all four) under ``move_limit``; another
    game starts from its start position with its default parameters, or from ``start``
    (a position of the agent's game). ``seat`` is a player's name (``"RED"``, ``"X"``)
    or number; by default the first player.
    """

    def __init__(
        self,
        agent: Agent,
        *,
        seat: int | str | None = None,
        players: str = "RGYB",
        move_limit: int | None = 100,
        start: Any = None,
        ponder: bool = False,
    ) -> None:
        import ipywidgets as w

        self.agent = agent
        self.ponderer = Ponderer(agent) if ponder else None
        if start is None and agent.game == "chameleon":
            self.game: Match = ChameleonMatch(players=players, move_limit=move_limit)
        else:
            start = get_game(agent.game).start() if start is None else start
            self.game = Match(start, move_limit=move_limit)
        info = self.game.position.game.info
        self.seat = _seat_number(info, seat)
        if self.seat not in [int(p) for p in info.players]:
            raise ValueError(
                f"seat {info.player_name(self.seat)} does not play here; the players: "
                + ", ".join(info.player_name(p) for p in info.players)
            )
        self.moves = w.Dropdown(description="your move")
        self.play_button = w.Button(description="play", button_style="primary")
        self.board = w.HTML()
        self.scores = w.HTML()
        self.status = w.HTML()
        self.play_button.on_click(lambda _: self.play())
        self.widget = w.VBox(
            [w.HBox([self.moves, self.play_button]), self.status, self.board, self.scores]
        )
        self.widget.add_class("chameleon-play-against")
        self.last: str | None = None
        self.decisions: list[Decision] = []
        self._agent_moves()
        self.show()

    def _agent_moves(self) -> None:
        first = True
        while not self.game.is_over and int(self.game.position.to_move) != self.seat:
            pos = self.game.position
            decision = self.ponderer.reply(pos) if self.ponderer and first else None
            decision = decision or self.agent.choose(pos)
            first = False
            self.decisions.append(decision)
            self.game.play(decision.move)
            self.last = str(decision.move)
        if self.ponderer is not None and not self.game.is_over:
            self.ponderer.start(self.game.position)  # search on your time

    def play(self, move: str | None = None) -> None:
        """Play ``move`` (default: the dropdown's) for you, then let the agent answer."""
        if self.game.is_over:
            return
        move = move or self.moves.value
        self.game.play(move)
        self.last = str(move)
        self._agent_moves()
        self.show()

    def show(self) -> None:
        """Redraw the board, the move list and the agent's last root scores."""
        pos = self.game.position
        self.board.value = _picture(pos, self.last)
        if self.game.is_over:
            result = self.game.result
            self.status.value = f"<b>game over</b>: {result.reason}, survivors " + ", ".join(
                _player(pos, c) for c in result.survivors
            )
            self.moves.options = []
            self.play_button.disabled = True
        else:
            you = _player(pos, self.seat)
            self.status.value = f"you play <b>{you}</b>; {len(self.game)} moves so far"
            options = [str(m) for m in pos.legal_moves]
            self.moves.options = options
            self.moves.value = options[0]
        if self.decisions:
            d = self.decisions[-1]
            rows = "".join(
                f"<tr><td>{html.escape(str(m))}</td><td>{s:.4f}</td></tr>"
                for m, s in zip(d.moves, d.scores, strict=True)
                if s == s  # NaN: not searched
            )
            self.scores.value = (
                f"<b>agent's last move {html.escape(str(d.move))}</b> (depth {d.depth:g}, "
                f"{d.nodes:,} nodes)<table><tr><th>move</th><th>root score</th></tr>"
                f"{rows}</table>"
            )


def _seat_number(info: Any, seat: int | str | None) -> int:
    """A seat given by player name (any case) or number; ``None``: the first player."""
    if seat is None:
        return int(info.players[0])
    if isinstance(seat, str):
        names = [n.upper() for n in info.player_names]
        if seat.strip().upper() not in names:
            raise ValueError(f"unknown seat {seat!r}; the seats: {', '.join(info.player_names)}")
        return names.index(seat.strip().upper())
    return int(seat)
