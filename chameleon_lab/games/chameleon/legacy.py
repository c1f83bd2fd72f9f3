"""The original program's position formats: its JSON schema and the compact string.

Legacy JSON (the session files and the conformance contract)::

    {"limits": {"minRow": r0, "maxRow": r1, "minCol": c0, "maxCol": c1},
     "pawns": [{"player": p, "position": {"row": r, "col": c},
                "roles": {"0": role, "1": role, "2": role, "3": role}}, ...],
     "player": p}

``roles`` maps a field colour to the pawn's role there; it must be one of the four
mappings the game has (identified by the colour on which the pawn is a knight).

Compact (the conformance data)::

    P|minRow,maxRow,minCol,maxCol|pawn pawn ...

with ``P`` the player to move and each pawn four digits: player, knight colour, row, col.

Both directions work on plain data (:class:`~.rules.PawnSpec` lists); the rule checks
happen once, in :func:`~.rules.build_state`.
"""

from __future__ import annotations

from typing import Any

from .board import role_on
from .rules import Limits, PawnSpec

_LIMIT_KEYS = ("minRow", "maxRow", "minCol", "maxCol")


def _require(obj: Any, key: str, where: str) -> Any:
    if not isinstance(obj, dict):
        raise ValueError(f"{where} must be a JSON object, got {type(obj).__name__}")
    if key not in obj:
        raise ValueError(f"{where} lacks the key {key!r}")
    return obj[key]


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where} must be a whole number, got {value!r}")
    return value


def knight_colour_of(roles: Any, where: str = "roles") -> int:
    """The knight colour of a legacy ``roles`` mapping, or ``ValueError`` if it has none.

    A valid mapping has keys "0".."3" and equals ``role_on(colour, k)`` for some ``k``.
    """
    if not isinstance(roles, dict) or sorted(roles) != ["0", "1", "2", "3"]:
        raise ValueError(f'{where} must map the field colours "0".."3" to roles, got {roles!r}')
    values = [roles[str(c)] for c in range(4)]
    for k in range(4):
        if values == [int(role_on(c, k)) for c in range(4)]:
            return k
    valid = [{str(c): int(role_on(c, k)) for c in range(4)} for k in range(4)]
    raise ValueError(
        f"{where} {roles!r} is not one of the four role mappings of the game; "
        f"valid mappings: {valid}"
    )


def from_legacy(obj: Any) -> tuple[int, Limits, list[PawnSpec]]:
    """Read a legacy JSON position (a parsed object) into plain data.

    Raises ``ValueError`` naming the part of the object that does not fit the schema.
    """
    limits_obj = _require(obj, "limits", "position")
    limits = Limits(*(_int(_require(limits_obj, k, "limits"), f"limits.{k}") for k in _LIMIT_KEYS))
    pawn_list = _require(obj, "pawns", "position")
    if not isinstance(pawn_list, list):
        raise ValueError(f"position.pawns must be a list, got {type(pawn_list).__name__}")
    pawns = []
    for i, pawn in enumerate(pawn_list):
        where = f"pawns[{i}]"
        player = _int(_require(pawn, "player", where), f"{where}.player")
        pos = _require(pawn, "position", where)
        row = _int(_require(pos, "row", f"{where}.position"), f"{where}.position.row")
        col = _int(_require(pos, "col", f"{where}.position.col"), f"{where}.position.col")
        kc = knight_colour_of(_require(pawn, "roles", where), f"{where}.roles")
        pawns.append(PawnSpec(player, row, col, kc))
    to_move = _int(_require(obj, "player", "position"), "position.player")
    return to_move, limits, pawns


def to_legacy(to_move: int, limits: Limits, pawns: list[PawnSpec]) -> dict[str, Any]:
    """Write plain position data as a legacy JSON object."""
    return {
        "limits": dict(zip(_LIMIT_KEYS, (int(v) for v in limits), strict=True)),
        "pawns": [
            {
                "player": p.player,
                "position": {"row": p.row, "col": p.col},
                "roles": {str(c): int(role_on(c, p.knight_colour)) for c in range(4)},
            }
            for p in pawns
        ],
        "player": int(to_move),
    }


def from_compact(text: str) -> tuple[int, Limits, list[PawnSpec]]:
    """Read a compact position string such as ``"3|3,5,4,6|1154 3035"``."""
    parts = text.strip().split("|") if isinstance(text, str) else []
    example = "'3|3,5,4,6|1154 3035' (to move|minRow,maxRow,minCol,maxCol|pawns)"
    if len(parts) != 3:
        raise ValueError(f"{text!r} is not a compact position; expected e.g. {example}")
    head, lims, pawn_text = parts
    try:
        to_move = int(head)
        limits = Limits(*(int(v) for v in lims.split(",")))
    except (TypeError, ValueError):
        raise ValueError(f"{text!r} is not a compact position; expected e.g. {example}") from None
    pawns = []
    for token in pawn_text.split():
        if len(token) != 4 or not token.isdigit():
            raise ValueError(
                f"pawn {token!r} in {text!r} is not four digits (player, knight colour, row, col)"
            )
        player, kc, row, col = (int(ch) for ch in token)
        pawns.append(PawnSpec(player, row, col, kc))
    return to_move, limits, pawns


def to_compact(to_move: int, limits: Limits, pawns: list[PawnSpec]) -> str:
    """Write plain position data as a compact string."""
    pawn_text = " ".join(
        f"{int(p.player)}{int(p.knight_colour)}{int(p.row)}{int(p.col)}" for p in pawns
    )
    return f"{int(to_move)}|{','.join(str(v) for v in limits)}|{pawn_text}"
