"""The ``chameleon-lab`` command: thin sub-commands over the library.

The package holds the parser and entry point here (:func:`build_parser`, :func:`main`),
the shared argument types in ``options``, and one module per command group (``bench``;
``tournament``, ``games``, ``summary``, ``replay``; ``check``; ``learn``; ``notebooks``;
``reference`` and ``book``; ``demo``), each with its ``cmd_*`` functions and the
``add_parsers`` that registers its sub-commands.
"""

from __future__ import annotations

import argparse
import sys

from . import bench, check, demo, learn, notebooks, reference, tournament


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``chameleon-lab``."""
    parser = argparse.ArgumentParser(
        prog="chameleon-lab",
        description="Game-tree search workbench: Chameleon Chess and the games of its seeds.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    # in this order in --help
    for group in (bench, tournament, check, learn, notebooks, reference, demo):
        group.add_parsers(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``chameleon-lab``; bad input ends with a one-line error, status 2."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and getattr(args, "what", None) == "solve":
        args.rest = extra  # `bench solve --game G ...`: the rest is the game's benchmark's
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return int(args.func(args))
    except ValueError as exc:
        print(f"chameleon-lab {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"chameleon-lab {args.command}: interrupted", file=sys.stderr)
        return 130
