"""Pictures of positions: one scene description, drawn as SVG text or on matplotlib axes.

The scene is a list of plain shapes in board units (one field is 1x1, row 0 at the top),
so the SVG shown in Jupyter and the PNG/SVG written for figures come from the same
drawing. Fields carry their colour, the area the board has shrunk away is greyed, each
pawn is a disc in its player's colour with the letter of its current role (N knight,
Q queen, B bishop, R rook); optionally the last move is framed and the targets of one
pawn are dotted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from .board import FIELD_COLOUR, FILES, Colour, Move, Role, parse_square

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from .position import Position

FIELD_FILL = {
    Colour.RED: "#ef9a9a",
    Colour.GREEN: "#a5d6a7",
    Colour.YELLOW: "#fff59d",
    Colour.BLUE: "#90caf9",
}
PAWN_FILL = {
    Colour.RED: "#c62828",
    Colour.GREEN: "#2e7d32",
    Colour.YELLOW: "#f9a825",
    Colour.BLUE: "#1565c0",
}
PAWN_TEXT = {
    Colour.RED: "#ffffff",
    Colour.GREEN: "#ffffff",
    Colour.YELLOW: "#000000",
    Colour.BLUE: "#ffffff",
}
ROLE_LETTER = {Role.KNIGHT: "N", Role.QUEEN: "Q", Role.BISHOP: "B", Role.ROOK: "R"}
MARGIN = 0.45  # room for the file and rank labels, in fields


@dataclass(frozen=True)
class Shape:
    """One element of a scene: ``kind`` is rect, circle, text or line."""

    kind: str
    geometry: tuple[float, ...]
    text: str = ""
    style: dict[str, Any] = field(default_factory=dict)


def scene(
    position: Position,
    *,
    last_move: Move | str | None = None,
    targets_of: int | str | None = None,
    labels: bool = True,
) -> list[Shape]:
    """The shapes that draw ``position``, in drawing order."""

    shapes: list[Shape] = []
    lim = position.limits
    for sq in range(64):
        r, c = divmod(sq, 8)
        shapes.append(
            Shape("rect", (c, r, 1, 1), style={"fill": FIELD_FILL[Colour(int(FIELD_COLOUR[sq]))]})
        )
    for sq in range(64):
        r, c = divmod(sq, 8)
        if not lim.contains(r, c):
            shapes.append(Shape("rect", (c, r, 1, 1), style={"fill": "#616161", "opacity": 0.72}))
    shapes.append(
        Shape(
            "rect",
            (
                lim.min_col,
                lim.min_row,
                lim.max_col - lim.min_col + 1,
                lim.max_row - lim.min_row + 1,
            ),
            style={"fill": "none", "stroke": "#212121", "stroke_width": 0.06},
        )
    )
    if last_move is not None:
        mv = Move.parse(last_move) if isinstance(last_move, str) else last_move
        for sq in (mv.origin, mv.target):
            r, c = divmod(sq, 8)
            shapes.append(
                Shape(
                    "rect",
                    (c + 0.05, r + 0.05, 0.9, 0.9),
                    style={"fill": "none", "stroke": "#000000", "stroke_width": 0.08},
                )
            )
        (r0, c0), (r1, c1) = divmod(mv.origin, 8), divmod(mv.target, 8)
        shapes.append(
            Shape(
                "line",
                (c0 + 0.5, r0 + 0.5, c1 + 0.5, r1 + 0.5),
                style={"stroke": "#000000", "stroke_width": 0.06, "opacity": 0.6},
            )
        )
    for pawn in position.pawns:
        cx, cy = pawn.col + 0.5, pawn.row + 0.5
        shapes.append(
            Shape(
                "circle",
                (cx, cy, 0.36),
                style={"fill": PAWN_FILL[pawn.player], "stroke": "#ffffff", "stroke_width": 0.05},
            )
        )
        shapes.append(
            Shape(
                "text",
                (cx, cy),
                ROLE_LETTER[pawn.role],
                style={"fill": PAWN_TEXT[pawn.player], "size": 0.42, "weight": "bold"},
            )
        )
    if targets_of is not None:
        origin = parse_square(targets_of) if isinstance(targets_of, str) else int(targets_of)
        for mv in position.legal_moves:
            if mv.origin == origin:
                r, c = divmod(mv.target, 8)
                if mv.capture:
                    shapes.append(
                        Shape(
                            "circle",
                            (c + 0.5, r + 0.5, 0.44),
                            style={
                                "fill": "none",
                                "stroke": "#000000",
                                "stroke_width": 0.06,
                                "opacity": 0.7,
                            },
                        )
                    )
                else:
                    shapes.append(
                        Shape(
                            "circle",
                            (c + 0.5, r + 0.5, 0.12),
                            style={"fill": "#000000", "opacity": 0.55},
                        )
                    )
    if labels:
        for i in range(8):
            shapes.append(
                Shape(
                    "text",
                    (i + 0.5, 8 + MARGIN / 2),
                    FILES[i],
                    style={"fill": "#424242", "size": 0.36},
                )
            )
            shapes.append(
                Shape(
                    "text",
                    (-MARGIN / 2, i + 0.5),
                    str(8 - i),
                    style={"fill": "#424242", "size": 0.36},
                )
            )
    return shapes


def _svg_style(style: dict[str, Any]) -> str:
    parts = [f'fill="{style.get("fill", "none")}"']
    if "stroke" in style:
        parts.append(f'stroke="{style["stroke"]}" stroke-width="{style.get("stroke_width", 0.05)}"')
    if "opacity" in style:
        parts.append(f'opacity="{style["opacity"]}"')
    return " ".join(parts)


def scene_svg(shapes: list[Shape], size: int = 360, labels: bool = True) -> str:
    """Render a scene as a standalone SVG document ``size`` pixels wide."""
    lo = -MARGIN if labels else 0.0
    extent = 8 - lo
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="{lo} 0 {extent} {extent}" font-family="DejaVu Sans, Arial, sans-serif">'
    ]
    for s in shapes:
        if s.kind == "rect":
            x, y, w, h = s.geometry
            out.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" {_svg_style(s.style)}/>')
        elif s.kind == "circle":
            cx, cy, r = s.geometry
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" {_svg_style(s.style)}/>')
        elif s.kind == "line":
            x1, y1, x2, y2 = s.geometry
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" {_svg_style(s.style)}/>')
        elif s.kind == "text":
            x, y = s.geometry
            weight = s.style.get("weight", "normal")
            out.append(
                f'<text x="{x}" y="{y}" font-size="{s.style.get("size", 0.3)}" '
                f'font-weight="{weight}" fill="{s.style.get("fill", "#000")}" '
                f'text-anchor="middle" dominant-baseline="central">'
                f"{escape(s.text)}</text>"
            )
    out.append("</svg>")
    return "\n".join(out)


def position_svg(
    position: Position,
    *,
    last_move: Move | str | None = None,
    targets_of: int | str | None = None,
    size: int = 360,
    labels: bool = True,
) -> str:
    """An SVG picture of a position (what Jupyter shows for a
    :class:`~chameleon_lab.games.chameleon.position.Position`)."""
    shapes = scene(position, last_move=last_move, targets_of=targets_of, labels=labels)
    return scene_svg(shapes, size=size, labels=labels)


def draw(
    position: Position,
    ax: Axes | None = None,
    *,
    last_move: Move | str | None = None,
    targets_of: int | str | None = None,
    labels: bool = True,
    title: str | None = None,
) -> Axes:
    """Draw a position on matplotlib axes (new ones if none given) and return them.

    Use it to compose figures of several positions with ``plt.subplots``.
    """
    import matplotlib.pyplot as plt
    from matplotlib import patches

    if ax is None:
        _, ax = plt.subplots(figsize=(4, 4))
    # Text and strokes are given in fields; convert with the axes' size in points.
    fig = ax.figure
    width_in = ax.get_position().width * fig.get_figwidth()
    height_in = ax.get_position().height * fig.get_figheight()
    pt = 0.9 * 72 * min(width_in, height_in) / (8 + (MARGIN if labels else 0.0))
    for s in scene(position, last_move=last_move, targets_of=targets_of, labels=labels):
        st = s.style
        common = {
            "facecolor": st.get("fill", "none"),
            "edgecolor": st.get("stroke", "none"),
            "alpha": st.get("opacity"),
            "linewidth": st.get("stroke_width", 0) * pt,
        }
        if s.kind == "rect":
            x, y, w, h = s.geometry
            ax.add_patch(patches.Rectangle((x, y), w, h, **common))
        elif s.kind == "circle":
            cx, cy, r = s.geometry
            ax.add_patch(patches.Circle((cx, cy), r, **common))
        elif s.kind == "line":
            x1, y1, x2, y2 = s.geometry
            ax.plot(
                [x1, x2],
                [y1, y2],
                color=st.get("stroke"),
                alpha=st.get("opacity"),
                linewidth=st.get("stroke_width", 0.05) * pt,
            )
        elif s.kind == "text":
            x, y = s.geometry
            ax.text(
                x,
                y,
                s.text,
                ha="center",
                va="center",
                color=st.get("fill"),
                fontsize=st.get("size", 0.3) * pt,
                fontweight=st.get("weight", "normal"),
            )
    lo = -MARGIN if labels else 0.0
    ax.set_xlim(lo, 8)
    ax.set_ylim(8 - lo, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.set_title(title)
    return ax


def save_picture(
    position: Position,
    path: str | Path,
    *,
    last_move: Move | str | None = None,
    targets_of: int | str | None = None,
    dpi: int = 150,
) -> Path:
    """Write a picture of a position to ``path``; the suffix (.svg or .png) picks the format.

    SVG is written from the same scene as the notebook picture; PNG through matplotlib.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise ValueError(f"cannot write a picture to {path}: use a .svg or .png file name")
    path.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".svg":
        path.write_text(
            position_svg(position, last_move=last_move, targets_of=targets_of), encoding="utf-8"
        )
        return path
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4, 4))
    draw(position, ax, last_move=last_move, targets_of=targets_of)
    fig.savefig(path, dpi=dpi, bbox_inches="tight")
    plt.close(fig)
    return path


def draw_grid(
    positions: list[Position], titles: list[str] | None = None, *, ncols: int = 4, size: float = 3.0
) -> Any:
    """A matplotlib figure with one board per position (``titles`` above them)."""
    import matplotlib.pyplot as plt

    if titles is not None and len(titles) != len(positions):
        raise ValueError(f"{len(titles)} titles for {len(positions)} positions")
    nrows = max(1, -(-len(positions) // ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(size * ncols, size * nrows), squeeze=False)
    for i, ax in enumerate(axes.flat):
        if i < len(positions):
            draw(positions[i], ax, title=None if titles is None else titles[i])
        else:
            ax.axis("off")
    fig.tight_layout()
    return fig
