"""``demo``: the smoke job (start positions drawn, perft tabulated)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .options import _positive


def cmd_demo(args: argparse.Namespace) -> int:
    """``demo``: draw the start positions of every seating and tabulate their perft."""
    from ..demo import run_demo

    for path in run_demo(Path(args.figures), Path(args.data), depth=args.depth):
        print(f"wrote {path}")
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register ``demo``."""
    demo = sub.add_parser(
        "demo",
        help="smoke job: draw the start positions into figures/, perft table into data/",
    )
    demo.add_argument("--figures", default="figures", help="folder for pictures")
    demo.add_argument("--data", default="data", help="folder for tables")
    demo.add_argument("--depth", type=_positive, default=5, help="perft depth for the table")
    demo.set_defaults(func=cmd_demo)
