"""The board pictures: well-formed SVG with the right content, real PNG files."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from chameleon_lab.games.chameleon import ChameleonMatch, Position, draw_grid, save_picture
from chameleon_lab.games.chameleon.render import FIELD_FILL, PAWN_FILL

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_svg_draws_64_fields_and_one_disc_per_pawn():
    pos = Position.start()
    root = parse(pos._repr_svg_())
    fills = [r.get("fill") for r in root.iter(f"{NS}rect")]
    assert sum(f in FIELD_FILL.values() for f in fills) == 64
    discs = [c for c in root.iter(f"{NS}circle") if c.get("fill") in PAWN_FILL.values()]
    assert len(discs) == 16
    letters = [t.text for t in root.iter(f"{NS}text") if t.text in "NQBR"]
    assert letters == ["N"] * 16  # every pawn starts as a knight


def test_svg_greys_exactly_the_shrunk_away_fields():
    pos = Position.start("RG")  # rows 4..7 in play: 32 fields shrunk away
    grey = [r for r in parse(pos.svg()).iter(f"{NS}rect") if r.get("opacity")]
    assert len(grey) == 32


def test_svg_marks_targets_and_last_move():
    pos = Position.start()
    plain = parse(pos.svg())
    marked = parse(pos.svg(targets_of="b1", last_move="a1-b3"))
    n_plain = len(list(plain.iter(f"{NS}circle")))
    n_marked = len(list(marked.iter(f"{NS}circle")))
    b1_moves = [m for m in pos.legal_moves if m.uci.startswith("b1")]
    assert n_marked - n_plain == len(b1_moves) == 3
    assert len(list(marked.iter(f"{NS}line"))) == 1


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_save_picture_writes_real_files(tmp_path, suffix):
    path = save_picture(Position.start(), tmp_path / f"board.{suffix}", last_move="a1-b3")
    data = path.read_bytes()
    if suffix == "png":
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
    else:
        parse(data.decode())


def test_save_picture_rejects_unknown_formats(tmp_path):
    with pytest.raises(ValueError, match=r"\.svg or \.png"):
        save_picture(Position.start(), tmp_path / "board.gif")


def test_grid_figure_has_one_axes_per_slot():
    import matplotlib

    matplotlib.use("Agg")
    fig = draw_grid(
        [Position.start(), Position.start("RG"), Position.start("YB")], ["a", "b", "c"], ncols=2
    )
    assert len(fig.axes) == 4
    assert [ax.get_title() for ax in fig.axes[:3]] == ["a", "b", "c"]


def test_game_picture_shows_the_last_move():
    game = ChameleonMatch().play("b1-c3")
    assert len(list(parse(game._repr_svg_()).iter(f"{NS}line"))) == 1
