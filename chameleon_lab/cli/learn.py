"""``learn``: the weights of a weighted heuristic learned by TD-Leaf(lambda)."""

from __future__ import annotations

import argparse

from .options import _positive, _positive_real


def cmd_learn(args: argparse.Namespace) -> int:
    """``learn``: train (or resume) a TD-Leaf run and print its weights after each batch
    and the ``weights:`` name that plays the learned heuristic anywhere (agents, session
    files, other processes)."""
    from ..analysis.tdleaf import TDLeafSpec, train
    from ..games.weighted import weights_spec

    spec = TDLeafSpec(
        game=args.game,
        features=tuple(args.features or ()),
        start=tuple(args.start or ()),
        depth=args.depth,
        games=args.games,
        batch=args.batch,
        alpha=args.alpha,
        lam=args.lam,
        beta=args.beta,
        opening_plies=args.opening_plies,
        seed=args.seed,
    )  # checks every value, naming what would be right
    table = train(spec, args.checkpoint, progress=not args.quiet)
    print(table.drop(columns="heuristic").to_string(index=False, float_format="{:.4g}".format))
    last = table.iloc[-1]
    print(weights_spec(spec.game, {f: float(last[f]) for f in spec.features}))
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register ``learn``."""
    learn = sub.add_parser(
        "learn",
        help="learn a weighted heuristic's weights by TD-Leaf(lambda) from self-play",
        description="Alpha-beta plays both sides of a two-player game with a weighted "
        "heuristic; each search's principal-variation leaf moves toward the value found a "
        "move later (Baxter, Tridgell & Weaver 2000). Prints the weights after every batch "
        "and, last, the heuristic's name (weights:feature=number,...), which agents and "
        "session files take like any heuristic's. With --checkpoint every batch is kept "
        "and a second call with the same parameters resumes after the last one.",
    )
    learn.add_argument("--game", default="connect4", help="connect4 (default) or othello")
    learn.add_argument("--features", nargs="+", metavar="F", help="default: all the game's")
    learn.add_argument("--start", nargs="+", type=float, metavar="W",
                       help="start weights, one per feature (default: all 1)")  # fmt: skip
    learn.add_argument("--depth", type=_positive, default=2, help="alpha-beta's depth (2)")
    learn.add_argument("--games", type=_positive, default=40, help="self-play games (40)")
    learn.add_argument("--batch", type=_positive, default=10,
                       help="games played with the same weights (10)")  # fmt: skip
    learn.add_argument("--alpha", type=_positive_real, default=0.05, help="step size (0.05)")
    learn.add_argument("--lam", type=float, default=0.7, help="lambda, 0 to 1 (0.7)")
    learn.add_argument("--beta", type=_positive_real, default=0.1,
                       help="values are tanh(beta * score difference) (0.1)")  # fmt: skip
    learn.add_argument("--opening-plies", type=int, default=4, help="random plies first (4)")
    learn.add_argument("--seed", type=int, default=0, help="draws the openings (0)")
    learn.add_argument("--checkpoint", help="JSON file keeping every batch; resumed from")
    learn.add_argument("--quiet", action="store_true", help="no progress bar")
    learn.set_defaults(func=cmd_learn)
