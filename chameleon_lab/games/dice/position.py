"""Dice tipping positions for notebooks: moves, JSON, pictures and which states can arise.

Move notation
-------------
A move is the face that comes up, ``1`` to ``6`` (spaces around it are accepted). The
face on top and the one at the bottom (``7 - top``) cannot come up; nor can a face that
would take the sum past the target.

JSON
----
``{"game": "dice", "params": {"target": ..., "start": ...}, "sum": s, "top": t,
"to_move": p}``: the sum so far (it includes the start face and the face on top now),
the face on top (1..6) and the player whose turn it is (0 or 1; once the game is over,
the one who would move next).

Which positions can arise
-------------------------
Only those reached from the start by legal tips: the start itself (``sum == top ==
start``, player 0 to move; its sum may exceed the target, a draw at once), and positions
after tips, whose sum is at most the target and exceeds the top face by at least the
start face. The player to move and the faces must fit a sequence of tips:
:meth:`DicePosition.check_state` decides this exactly (by a small table of the
reachable (sum, top, player) triples, worked out once per target and start).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ..position import IllegalMoveError, KernelPosition
from . import kernel as K

if TYPE_CHECKING:
    from ..registry import Game

_MOVE_RE = re.compile(r"^\s*(\d+)\s*$")
_MOVE_HELP = "a dice move is the face that comes up, 1..6"

# pip positions on a unit die face, per face value
_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)],
}


def _whole(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def side_faces(top: int) -> list[int]:
    """The four faces a tip can bring up when ``top`` is on top."""
    return [f for f in range(1, 7) if f not in (top, 7 - top)]


@lru_cache(maxsize=64)
def reachable_after_tips(target: int, start: int) -> tuple[int, ...]:
    """Per sum ``s`` (index), a bit mask of the (top, player to move) pairs reachable from
    the start by one or more tips: bit ``(top - 1) * 2 + player``."""
    table = [0] * (target + 1)
    frontier = {start: {(start, 0)}}  # sum -> (top, player) reachable, the start included
    for s in range(start, target):
        here = frontier.pop(s, None)
        if not here:
            continue
        for top, player in here:
            for face in side_faces(top):
                s2 = s + face
                if s2 <= target:
                    table[s2] |= 1 << ((face - 1) * 2 + 1 - player)
                    frontier.setdefault(s2, set()).add((face, 1 - player))
    return tuple(table)


class DicePosition(KernelPosition):
    """A dice tipping position (see the module docstring)."""

    GAME = "dice"
    __slots__ = ()

    # ------------------------------------------------------------------ reading
    @property
    def sum(self) -> int:
        """The sum so far (the start face and every face tipped up since)."""
        return int(self._state[K.SUM])

    @property
    def top(self) -> int:
        """The face on top."""
        return int(self._state[K.TOP])

    @property
    def target(self) -> int:
        """The target sum."""
        return int(self._state[K.TARGET])

    @property
    def turn(self) -> int:
        """The player whose turn it is (kept once the game is over, unlike ``to_move``)."""
        return int(self._state[K.TURN])

    # ----------------------------------------------------------------- notation
    def move_text(self, code: int) -> str:
        """The face that comes up."""
        return str(int(code))

    def move_code(self, text: str) -> int:
        """The face written ``text``; ``ValueError`` unless it is 1..6, and
        ``IllegalMoveError`` saying why when that face cannot come up here."""
        match = _MOVE_RE.match(text)
        if match is None or not 1 <= int(match.group(1)) <= 6:
            raise ValueError(f"{text!r} is not a face; {_MOVE_HELP}")
        face = int(match.group(1))
        if self.is_over:
            return face  # the caller says that the game is over
        top = self.top
        sides = ", ".join(map(str, side_faces(top)))
        legal = ", ".join(str(m) for m in self.legal_moves)
        possible = f"the faces that can come up: {sides} (within the target: {legal})"
        if face == top:
            raise IllegalMoveError(f"face {face} is on top now; {possible}")
        if face == 7 - top:
            raise IllegalMoveError(
                f"face {face} is at the bottom now (opposite the top face {top}); {possible}"
            )
        if self.sum + face > self.target:
            raise IllegalMoveError(
                f"face {face} would bring the sum to {self.sum + face}, past the target "
                f"{self.target}; {possible}"
            )
        return face

    # --------------------------------------------------------------------- JSON
    def state_to_json(self) -> dict[str, Any]:
        """``{"sum": s, "top": t, "to_move": p}``."""
        return {"sum": self.sum, "top": self.top, "to_move": self.turn}

    @classmethod
    def state_from_json(cls, game: Game, obj: Mapping[str, Any]) -> np.ndarray:
        """The state of ``{"sum": s, "top": t, "to_move": p}`` (checked afterwards)."""
        values = {}
        for name in ("sum", "top", "to_move"):
            value = obj.get(name)
            if not _whole(value):
                raise ValueError(f"{name} must be a whole number, got {value!r}")
            values[name] = int(value)
        if values["to_move"] not in (0, 1):
            raise ValueError(f"to_move must be 0 or 1, got {values['to_move']!r}")
        return K.build_state(game.params["target"], values["sum"], values["top"], values["to_move"])

    @classmethod
    def check_state(cls, game: Game, state: np.ndarray) -> None:
        """``ValueError`` saying what is wrong when ``state`` cannot arise in ``game``
        (see "Which positions can arise" in the module docstring)."""
        target, start = game.params["target"], game.params["start"]
        if state.ndim != 1 or state.size != K.STATE_SIZE:
            raise ValueError(f"a dice state has {K.STATE_SIZE} entries, got shape {state.shape}")
        if state[K.TARGET] != target:
            raise ValueError(f"the state's target {state[K.TARGET]} is not the game's {target}")
        total, top, turn = int(state[K.SUM]), int(state[K.TOP]), int(state[K.TURN])
        if not 1 <= top <= 6:
            raise ValueError(f"the top face must be 1..6, got {top}")
        if turn not in (0, 1):
            raise ValueError(f"the player to move must be 0 or 1, got {turn}")
        if total < top:
            raise ValueError(
                f"the sum {total} is below the top face {top}: the sum always includes "
                "the face on top"
            )
        reached = int(total == target and total > top)
        if state[K.REACHED] != reached:
            raise ValueError(
                f"the target-reached flag is {state[K.REACHED]}, but sum {total} with {top} "
                f"on top and target {target} means {reached}"
            )
        if total == top:  # no tip yet: the start itself
            if top != start or turn != 0:
                raise ValueError(
                    f"a sum equal to the top face ({total}) arises only at the start, with "
                    f"the start face {start} on top and player 0 to move"
                )
            return
        if total > target:
            raise ValueError(f"the sum {total} is above the target {target}")
        if total - top < start:
            raise ValueError(
                f"the sum {total} with {top} on top cannot arise: after a tip the sum "
                f"includes the start face {start} and the top face, at least {start + top}"
            )
        if not reachable_after_tips(target, start)[total] >> ((top - 1) * 2 + turn) & 1:
            raise ValueError(
                f"sum {total} with {top} on top and player {turn} to move cannot arise "
                f"by tips from the start face {start}"
            )

    # ------------------------------------------------------------------ picture
    def svg(self, size: int = 300) -> str:
        """The die seen from above (the top face's pips), the sum and target beside it."""
        width = int(size)
        height = round(width * 0.5)
        names = self._game.info.player_names
        pad = width * 0.05
        die = height - 2 * pad
        if self.is_over:
            result = self.returns
            status = f"{names[int(np.argmax(result))]} wins" if max(result) > 0 else "draw"
        else:
            status = f"{names[self.turn]} to move"
        font = height * 0.12
        x_text = pad * 2 + die
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
            f'<rect width="{width}" height="{height}" fill="#f4f1ea"/>',
            f'<rect x="{pad:.1f}" y="{pad:.1f}" width="{die:.1f}" height="{die:.1f}" '
            f'rx="{die * 0.15:.1f}" fill="white" stroke="#333" stroke-width="{die * 0.03:.1f}"/>',
        ]
        for px, py in _PIPS[self.top]:
            parts.append(
                f'<circle cx="{pad + px * die:.1f}" cy="{pad + py * die:.1f}" '
                f'r="{die * 0.08:.1f}" fill="#222"/>'
            )
        lines = [f"sum {self.sum}", f"target {self.target}", status]
        for i, line in enumerate(lines):
            y = pad + font * 1.1 + i * font * 1.5
            parts.append(f'<text x="{x_text:.1f}" y="{y:.1f}" font-size="{font:.1f}">{line}</text>')
        parts.append("</svg>")
        return "\n".join(parts)
