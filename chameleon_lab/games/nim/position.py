"""NIM positions for notebooks: moves written ``h:k``, JSON and pictures.

Move notation
-------------
``h:k`` takes ``k >= 1`` objects from heap ``h``, heaps numbered from 1 (``2:3`` takes
three objects from the second heap). Spaces around the numbers are accepted.

JSON
----
``{"game": "nim", "params": {"heaps": [...], "misere": ...}, "heaps": [...],
"to_move": 0 | 1}``: ``params.heaps`` are the heaps at the start, ``heaps`` the heaps
now. ``to_move`` is the player whose turn it is (once the game is over, the one who would
move next: the one who did not take the last object).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ..position import IllegalMoveError, KernelPosition
from . import kernel as K

if TYPE_CHECKING:
    from ..registry import Game

_MOVE_RE = re.compile(r"^\s*(\d+)\s*:\s*(\d+)\s*$")
_MOVE_HELP = "a NIM move is h:k, take k >= 1 objects from heap h (heaps numbered from 1), e.g. 2:3"


def _whole(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


class NimPosition(KernelPosition):
    """A NIM position (see the module docstring for notation and JSON)."""

    GAME = "nim"
    __slots__ = ()

    # ------------------------------------------------------------------ reading
    @property
    def heaps(self) -> tuple[int, ...]:
        """The objects on each heap now (heap 1 first)."""
        n = int(self._state[K.NHEAPS])
        return tuple(int(x) for x in self._state[K.HEAPS : K.HEAPS + n])

    @property
    def misere(self) -> bool:
        """Whether whoever takes the last object loses."""
        return bool(self._state[K.MISERE])

    @property
    def turn(self) -> int:
        """The player whose turn it is (kept once the game is over, unlike ``to_move``)."""
        return int(self._state[K.TURN])

    # ----------------------------------------------------------------- notation
    def move_text(self, code: int) -> str:
        """``h:k`` for kernel move ``code`` (see the module docstring)."""
        return f"{code // K.MOVE_BASE + 1}:{code % K.MOVE_BASE}"

    def move_code(self, text: str) -> int:
        """The kernel move written ``h:k``; ``ValueError`` when malformed, and
        ``IllegalMoveError`` naming the heap when it cannot be taken from here."""
        match = _MOVE_RE.match(text)
        if match is None:
            raise ValueError(f"{text!r} is not a move; {_MOVE_HELP}")
        heap, take = int(match.group(1)), int(match.group(2))
        if take < 1:
            raise ValueError(f"{text!r} takes no object; {_MOVE_HELP}")
        if heap < 1:
            raise ValueError(f"{text!r} names heap 0; {_MOVE_HELP}")
        heaps = self.heaps
        if self.is_over:
            raise IllegalMoveError(f"{text.strip()} cannot be played: the game is over")
        if heap > len(heaps):
            raise IllegalMoveError(
                f"{text.strip()} is not legal here: there is no heap {heap}, "
                f"the heaps are numbered 1..{len(heaps)}"
            )
        if take > heaps[heap - 1]:
            raise IllegalMoveError(
                f"{text.strip()} is not legal here: heap {heap} holds {heaps[heap - 1]} "
                f"object{'s' if heaps[heap - 1] != 1 else ''}"
            )
        return (heap - 1) * K.MOVE_BASE + take

    # --------------------------------------------------------------------- JSON
    def state_to_json(self) -> dict[str, Any]:
        """``{"heaps": [...], "to_move": 0 | 1}``."""
        return {"heaps": list(self.heaps), "to_move": self.turn}

    @classmethod
    def state_from_json(cls, game: Game, obj: Mapping[str, Any]) -> np.ndarray:
        """The state of ``{"heaps": [...], "to_move": 0 | 1}`` (checked afterwards)."""
        heaps = obj.get("heaps")
        if not isinstance(heaps, (list, tuple)) or not all(_whole(h) for h in heaps):
            raise ValueError(f"heaps must be a list of whole numbers, got {heaps!r}")
        to_move = obj.get("to_move")
        if not _whole(to_move) or to_move not in (0, 1):
            raise ValueError(f"to_move must be 0 or 1, got {to_move!r}")
        start = game.params["heaps"]
        if len(heaps) != len(start):
            raise ValueError(
                f"heaps {list(heaps)!r} has {len(heaps)} heaps; this game has {len(start)} "
                f"(start heaps {list(start)!r})"
            )
        return K.new_state(heaps, game.params["misere"], int(to_move))

    @classmethod
    def check_state(cls, game: Game, state: np.ndarray) -> None:
        """``ValueError`` saying what is wrong when ``state`` cannot arise in ``game``.

        A position can arise iff it has the game's heap count and variant, every heap
        holds 0..its start size, and the player to move fits some number of moves: ``r``
        objects taken from ``j`` heaps take between ``j`` and ``r`` moves (any number in
        between), so only when every heap lost at most one object (``j == r``) is the
        player to move fixed, as ``r % 2``.
        """
        start = tuple(game.params["heaps"])
        n = len(start)
        if state.ndim != 1 or state.size != K.HEADER + n:
            raise ValueError(
                f"a NIM state of {n} heaps has {K.HEADER + n} entries, got shape {state.shape}"
            )
        if state[K.NHEAPS] != n:
            raise ValueError(f"the state says {state[K.NHEAPS]} heaps; this game has {n}")
        if state[K.MISERE] != int(game.params["misere"]):
            raise ValueError(
                f"the state's misère flag {state[K.MISERE]} does not match "
                f"misere={game.params['misere']}"
            )
        turn = int(state[K.TURN])
        if turn not in (0, 1):
            raise ValueError(f"the player to move must be 0 or 1, got {turn}")
        heaps = [int(x) for x in state[K.HEAPS : K.HEAPS + n]]
        for i, (now, first) in enumerate(zip(heaps, start, strict=True)):
            if now < 0:
                raise ValueError(f"heap {i + 1} holds {now} objects; a heap holds 0 or more")
            if now > first:
                raise ValueError(
                    f"heap {i + 1} holds {now} objects, more than the {first} it started with"
                )
        if state[K.LEFT] != sum(heaps):
            raise ValueError(
                f"the state's count of objects left, {state[K.LEFT]}, is not the heaps' "
                f"sum {sum(heaps)}"
            )
        taken = sum(start) - sum(heaps)
        heaps_taken_from = sum(1 for now, first in zip(heaps, start, strict=True) if now < first)
        if heaps_taken_from == taken and turn != taken % 2:
            raise ValueError(
                f"heaps {heaps} with player {turn} to move cannot arise from {list(start)}: "
                f"{taken} single objects were taken in {taken} moves, so player {taken % 2} "
                "is to move"
            )

    # ------------------------------------------------------------------ picture
    def svg(self, size: int = 300) -> str:
        """Each heap as a row of tokens, labelled with its number and size; the objects
        taken since the start are drawn as pale outlines."""
        start = tuple(self._game.params["heaps"])
        heaps = self.heaps
        names = self._game.info.player_names
        width = int(size)
        pad = max(4.0, width * 0.03)
        title_h = max(14.0, width * 0.07)
        row_h = max(10.0, min(width * 0.12, 40.0))
        height = pad * 2 + title_h + row_h * len(heaps)
        font = row_h * 0.42
        longest = max(len(f"heap {i + 1}: {h}") for i, h in enumerate(start))
        label_w = 0.62 * font * longest + pad  # about 0.6 em per character
        if self.is_over:
            winner = int(np.argmax(self.returns))
            title = f"{names[winner]} wins"
        else:
            title = f"{names[self.turn]} to move"
        title += " (misère)" if self.misere else ""
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height:.0f}" '
            f'viewBox="0 0 {width} {height:.1f}" font-family="sans-serif">',
            f'<rect width="{width}" height="{height:.1f}" fill="#fbf8f0"/>',
            f'<text x="{pad:.1f}" y="{pad + title_h * 0.75:.1f}" '
            f'font-size="{title_h * 0.7:.1f}">NIM: {title}</text>',
        ]
        x0 = pad + label_w
        avail = width - pad - x0
        most = max(max(start), 1)
        step = min(row_h, avail / most)
        for i, (now, first) in enumerate(zip(heaps, start, strict=True)):
            top = pad + title_h + i * row_h
            cy = top + row_h / 2
            parts.append(
                f'<text x="{pad:.1f}" y="{cy + font * 0.35:.1f}" font-size="{font:.1f}">'
                f"heap {i + 1}: {now}</text>"
            )
            if step >= 4:
                r = step * 0.4
                for j in range(first):
                    cx = x0 + step * (j + 0.5)
                    style = (
                        'fill="#b5651d" stroke="#5a3210"'
                        if j < now
                        else 'fill="none" stroke="#d8cbb5" stroke-dasharray="2,2"'
                    )
                    parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" {style}/>')
            else:  # too many objects to draw one by one: a bar per heap
                bar_h = row_h * 0.5
                parts.append(
                    f'<rect x="{x0:.1f}" y="{cy - bar_h / 2:.1f}" width="{step * first:.1f}" '
                    f'height="{bar_h:.1f}" fill="none" stroke="#d8cbb5"/>'
                )
                parts.append(
                    f'<rect x="{x0:.1f}" y="{cy - bar_h / 2:.1f}" width="{step * now:.1f}" '
                    f'height="{bar_h:.1f}" fill="#b5651d"/>'
                )
        parts.append("</svg>")
        return "\n".join(parts)
