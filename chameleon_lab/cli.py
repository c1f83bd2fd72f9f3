"""The ``chameleon-lab`` command: thin sub-commands over the library."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return value


def cmd_bench(args: argparse.Namespace) -> int:
    """``bench perft`` / ``bench search``: print speed figures."""
    from .bench import print_depths, print_perft, print_search

    if args.what == "perft":
        print_perft(depth=args.depth, repeat=args.repeat)
    else:
        print_search(depth=args.depth, count=args.positions)
        if args.budgets:
            print_depths(tuple(args.budgets), move_limit=args.move_limit)
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """``demo``: draw the start positions of every seating and tabulate their perft."""
    from .demo import run_demo

    for path in run_demo(Path(args.figures), Path(args.data), depth=args.depth):
        print(f"wrote {path}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``chameleon-lab``."""
    parser = argparse.ArgumentParser(
        prog="chameleon-lab", description="Game-tree search workbench for Chameleon Chess."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    bench = sub.add_parser("bench", help="print speed figures")
    bench_sub = bench.add_subparsers(dest="what", required=True, metavar="WHAT")
    perft = bench_sub.add_parser("perft", help="perft on the 11 start seatings (positions/s)")
    perft.add_argument("--depth", type=_positive, default=5, help="plies (default 5)")
    perft.add_argument(
        "--repeat", type=_positive, default=3, help="runs per seating, the best counts (default 3)"
    )
    perft.set_defaults(func=cmd_bench)
    search = bench_sub.add_parser(
        "search",
        help="thesis-flavour nodes/s of the four searches, then improved-flavour depths "
        "and time-budget overruns in self-play",
    )
    search.add_argument("--depth", type=_positive, default=4, help="plies (default 4)")
    search.add_argument(
        "--positions", type=_positive, default=12, help="number of fixed positions (default 12)"
    )
    search.add_argument(
        "--budgets",
        type=_positive,
        nargs="*",
        default=[10, 100, 1000],
        metavar="MS",
        help="time budgets of the self-play games in ms (default 10 100 1000; none: skip)",
    )
    search.add_argument(
        "--move-limit", type=_positive, default=100, help="moves per self-play game (default 100)"
    )
    search.set_defaults(func=cmd_bench)

    demo = sub.add_parser(
        "demo",
        help="draw the start positions into figures/ (the main job "
        "until the notebook batch exists)",
    )
    demo.add_argument("--figures", default="figures", help="folder for pictures")
    demo.add_argument("--data", default="data", help="folder for tables")
    demo.add_argument("--depth", type=_positive, default=5, help="perft depth for the table")
    demo.set_defaults(func=cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``chameleon-lab``."""
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
