"""The 8 x 8 board of Othello and Rolit drawn in SVG, written once.

Squares are numbered as both kernels number them, ``row * 8 + col`` with ``a1`` = 0 in
the top left corner; the picture puts files a-h along the top and ranks 1-8 down the
left side. A game's ``svg`` opens the board in its own colours (:func:`open_board`),
adds its pieces (:func:`piece`) and marks (:func:`mark`) and closes it
(:func:`close_board`).
"""

from __future__ import annotations

#: a square's side and the margin around the board, in the picture's own units
CELL = 40.0
MARGIN = 24.0
SIDE = 2 * MARGIN + 8 * CELL


def centre(square: int) -> tuple[float, float]:
    """The centre of ``square`` (``row * 8 + col``) in the picture."""
    r, c = divmod(square, 8)
    return MARGIN + (c + 0.5) * CELL, MARGIN + (r + 0.5) * CELL


def open_board(title: str, size: int, fill: str, edge: str, lines: str) -> list[str]:
    """The picture's opening parts: ``size`` pixels wide, titled ``title``, the board
    filled ``fill`` with an ``edge`` frame and grid ``lines`` between its squares."""
    end = MARGIN + 8 * CELL
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size:.0f}" height="{size:.0f}" '
        f'viewBox="0 0 {SIDE:g} {SIDE:g}" font-family="DejaVu Sans, Arial, sans-serif">',
        f"<title>{title}</title>",
        f'<rect x="0" y="0" width="{SIDE:g}" height="{SIDE:g}" fill="#f4f1e8"/>',
        f'<rect x="{MARGIN:g}" y="{MARGIN:g}" width="{8 * CELL:g}" height="{8 * CELL:g}" '
        f'fill="{fill}" stroke="{edge}" stroke-width="2"/>',
    ]
    for i in range(1, 8):
        p = MARGIN + i * CELL
        parts.append(
            f'<line x1="{p:g}" y1="{MARGIN:g}" x2="{p:g}" y2="{end:g}" '
            f'stroke="{lines}" stroke-width="1"/>'
        )
        parts.append(
            f'<line x1="{MARGIN:g}" y1="{p:g}" x2="{end:g}" y2="{p:g}" '
            f'stroke="{lines}" stroke-width="1"/>'
        )
    return parts


def piece(square: int, fill: str, edge: str) -> str:
    """A disc or ball on ``square``."""
    x, y = centre(square)
    return (
        f'<circle cx="{x:g}" cy="{y:g}" r="{CELL * 0.42:g}" fill="{fill}" stroke="{edge}" '
        'stroke-width="1"/>'
    )


def mark(square: int, radius: float, fill: str, opacity: float) -> str:
    """A legal move's dot on ``square``, ``radius`` a share of the square's side."""
    x, y = centre(square)
    return (
        f'<circle cx="{x:g}" cy="{y:g}" r="{CELL * radius:g}" fill="{fill}" '
        f'opacity="{opacity:g}" class="legal"/>'
    )


def close_board(parts: list[str]) -> str:
    """The picture: ``parts``, the files and ranks, and the end."""
    for i in range(8):
        mid = MARGIN + (i + 0.5) * CELL
        parts.append(
            f'<text x="{mid:g}" y="{MARGIN - 8:g}" font-size="13" text-anchor="middle" '
            f'fill="#333">{chr(ord("a") + i)}</text>'
        )
        parts.append(
            f'<text x="{MARGIN - 8:g}" y="{mid + 4.5:g}" font-size="13" '
            f'text-anchor="middle" fill="#333">{i + 1}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
