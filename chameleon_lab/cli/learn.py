"""``learn``: the weights of a weighted heuristic learned by TD-Leaf(lambda);
``learn-net``: a value network learned from self-play games."""

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
        players=args.players,
        algorithm=args.algorithm,
        move_limit=args.move_limit,
    )  # checks every value, naming what would be right
    table = train(spec, args.checkpoint, progress=not args.quiet)
    print(table.drop(columns="heuristic").to_string(index=False, float_format="{:.4g}".format))
    last = table.iloc[-1]
    print(weights_spec(spec.game, {f: float(last[f]) for f in spec.features}))
    return 0


def cmd_learn_net(args: argparse.Namespace) -> int:
    """``learn-net``: train (or resume) a value network on self-play games, print its
    learning curve and what it learned, and, last, the ``net:PATH`` name that plays it
    anywhere."""
    from ..analysis.valuenet import NetSpec, net_sentences, train_net

    spec = NetSpec(
        game=args.game, games=args.games, depth=args.depth, heuristic=args.heuristic,
        random_move=args.random_move, opening_plies=args.opening_plies, hidden=args.hidden,
        epochs=args.epochs, seed=args.seed, players=args.players, algorithm=args.algorithm,
        move_limit=args.move_limit,
    )  # fmt: skip
    net, curve = train_net(spec, args.folder, progress=not args.quiet)
    print(curve.to_string(index=False, float_format="{:.4g}".format))
    print(net_sentences(net, curve))
    print(f"net:{args.folder}/valuenet-{spec.fingerprint}.npz")
    return 0


def _add_self_play(parser: argparse.ArgumentParser) -> None:
    """The options of self-play both learners share: players, search, move limit."""
    parser.add_argument("--players", type=int, default=2,
                        help="players (2; chameleon seats 2 to 4)")  # fmt: skip
    parser.add_argument("--algorithm", default="alphabeta",
                        help="self-play's search (alphabeta; paranoid, maxn, brs)")  # fmt: skip
    parser.add_argument("--move-limit", type=_positive, default=100,
                        help="moves after which a game stops, as in a session (100)")  # fmt: skip


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register ``learn`` and ``learn-net``."""
    learn = sub.add_parser(
        "learn",
        help="learn a weighted heuristic's weights by TD-Leaf(lambda) from self-play",
        description="A search (alpha-beta for two players, a multi-player one such as "
        "paranoid for more) plays every seat with a weighted heuristic; each search's "
        "principal-variation leaf moves toward the value found a move later (Baxter, "
        "Tridgell & Weaver 2000; with more players once per seat, averaged). Prints the "
        "weights after every batch and, last, the heuristic's name "
        "(weights:feature=number,...), which agents and session files take like any "
        "heuristic's. With --checkpoint every batch is kept and a second call with the "
        "same parameters resumes after the last one.",
    )
    learn.add_argument("--game", default="connect4",
                       help="connect4 (default), othello or chameleon")  # fmt: skip
    _add_self_play(learn)
    learn.add_argument("--features", nargs="+", metavar="F", help="default: all the game's")
    learn.add_argument("--start", nargs="+", type=float, metavar="W",
                       help="start weights, one per feature (default: all 1)")  # fmt: skip
    learn.add_argument("--depth", type=_positive, default=2, help="the search's depth (2)")
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

    net = sub.add_parser(
        "learn-net",
        help="learn a value network (one hidden layer) from self-play games",
        description="A search (alpha-beta for two players, a multi-player one such as "
        "paranoid for more) plays every seat with a heuristic and a share of random "
        "moves; every position is labelled by the game's result (for two players the "
        "mover's, for more each player's share of it), and scikit-learn fits a "
        "perceptron with one hidden layer to them. Prints the error per epoch (training, "
        "held-out games, the best constant guess) and, last, the heuristic's name "
        "(net:PATH of the saved model), which agents and session files take like any "
        "heuristic's. The folder keeps the positions and every epoch: a second call with "
        "the same parameters resumes. Connect Four and Chameleon Chess (every seating of "
        "the player count in turn).",
    )
    net.add_argument("--game", default="connect4", help="connect4 (default) or chameleon")
    _add_self_play(net)
    net.add_argument("--folder", required=True, help="where the positions, epochs and model go")
    net.add_argument("--games", type=_positive, default=200, help="self-play games (200)")
    net.add_argument("--depth", type=_positive, default=2, help="the search's depth (2)")
    net.add_argument("--heuristic", help="the self-play games' heuristic (the game's default)")
    net.add_argument("--random-move", type=float, default=0.1,
                     help="the share of random moves, 0 to 1 (0.1)")  # fmt: skip
    net.add_argument("--hidden", type=_positive, default=32, help="hidden units (32)")
    net.add_argument("--epochs", type=_positive, default=30, help="training epochs (30)")
    net.add_argument("--opening-plies", type=int, default=4, help="random plies first (4)")
    net.add_argument("--seed", type=int, default=0, help="of the games and the training (0)")
    net.add_argument("--quiet", action="store_true", help="no progress bar")
    net.set_defaults(func=cmd_learn_net)
