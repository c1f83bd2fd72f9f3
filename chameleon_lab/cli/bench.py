"""``bench``: the speed figures (perft, searches, games, MCTS, solvers, depths)."""

from __future__ import annotations

import argparse

from .options import _given, _positive, _positive_real, _search_depth


def cmd_bench(args: argparse.Namespace) -> int:
    """``bench perft`` / ``search`` / ``games`` / ``tournament``: print speed figures."""
    from ..bench.chameleon import (
        print_depths,
        print_improved,
        print_perft,
        print_search,
        print_tournament,
    )

    if args.what == "solve":  # the solver benchmarks take their own options
        from importlib import import_module

        return int(import_module(f"..bench.solve_{args.game}", __package__).main(args.rest))
    if args.what == "perft":
        print_perft(depth=args.depth, repeat=args.repeat)
    elif args.what == "games":
        from ..bench.games import print_games

        print_games(count=args.positions)
    elif args.what == "papers":
        from ..bench.papers import print_papers

        print_papers(depth=args.depth, count=args.positions, games=tuple(args.games or ()))
    elif args.what == "heuristics":
        from ..bench.heuristics import print_heuristics

        print_heuristics(args.game, args.heuristics, depth=args.depth, time_ms=args.time_ms,
                         count=args.positions, algorithm=args.algorithm,
                         players=args.players)  # fmt: skip
    elif args.what == "mcts":
        from ..bench.mcts import print_mcts

        print_mcts(repeat=args.repeat, scale=args.scale)
    elif args.what == "depths":
        from ..bench.chameleon import print_depth_table, print_time_to_depth

        # each mode's options, refused in the other (ignored, they would go unnoticed)
        given = {"--budgets": args.budgets, "--algorithms": args.algorithms,
                 "--repeat": args.repeat, "--phases": args.phases}  # fmt: skip
        wrong = [n for n, v in given.items() if v is not None
                 and (n == "--budgets") == (args.at_depth is not None)]  # fmt: skip
        if wrong:
            raise ValueError(
                f"{', '.join(wrong)}: --budgets goes with the time budgets (without "
                "--at-depth); --algorithms, --repeat and --phases with --at-depth"
            )
        if args.at_depth is not None:
            from ..analysis.efficiency import PHASES
            from ..search.api import MULTIPLAYER

            for name in args.algorithms or ():
                if name not in MULTIPLAYER:
                    raise ValueError(
                        f"--algorithms: {name!r} is not a multi-player search; choose from "
                        f"{', '.join(MULTIPLAYER)}"
                    )
            phase_names = [name.split()[0] for name in PHASES]
            for name in args.phases or ():
                if name not in phase_names:
                    raise ValueError(
                        f"--phases: {name!r} is not a game phase; choose from "
                        f"{', '.join(phase_names)}"
                    )
            given = _given(algorithms=args.algorithms, repeat=args.repeat, phases=args.phases)
            print_time_to_depth(args.at_depth, per_phase=args.positions, **given)
        else:
            print_depth_table(per_phase=args.positions, **_given(budgets_ms=args.budgets))
    elif args.what == "tournament":
        print_tournament(games=args.games, depth=args.depth, workers=tuple(args.workers))
    else:
        if args.move_limit is not None and not args.budgets:
            raise ValueError(
                "--move-limit limits the self-play games of the time budgets; with "
                "--budgets empty there are none"
            )
        print_search(depth=args.depth, count=args.positions)
        print_improved(depth=args.depth, count=args.positions)
        if args.budgets:
            print_depths(tuple(args.budgets), **_given(move_limit=args.move_limit))
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register ``bench`` with its speed benchmarks (perft, search, tournament, games,
    papers) and the others (``_add_study_parsers``)."""
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
        help="thesis- and improved-flavour nodes/s of the four searches, then "
        "improved-flavour depths and time-budget overruns in self-play",
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
        "--move-limit", type=_positive, default=None,
        help="moves per self-play game (default 100)",
    )  # fmt: skip
    search.set_defaults(func=cmd_bench)
    tour = bench_sub.add_parser(
        "tournament", help="wall time of a fixed batch of games with 1 and 2 worker processes"
    )
    tour.add_argument("--games", type=_positive, default=24, help="games (default 24)")
    tour.add_argument("--depth", type=_positive, default=4, help="plies (default 4)")
    tour.add_argument(
        "--workers", type=_positive, nargs="+", default=[1, 2], help="worker counts (1 2)"
    )
    tour.set_defaults(func=cmd_bench)
    games = bench_sub.add_parser(
        "games",
        help="every game's perft and the two-player suite's nodes/s per setting, beside "
        "OpenSpiel's Python alpha-beta where installed (extra 'bench')",
    )
    games.add_argument(
        "--positions", type=_positive, default=6, help="fixed positions per game (default 6)"
    )
    games.set_defaults(func=cmd_bench)
    papers = bench_sub.add_parser(
        "papers",
        help="perft and the multi-player searches' nodes/s on the papers' games (Rolit, "
        "Chinese Checkers) beside Chameleon Chess, three and four players",
    )
    papers.add_argument("--depth", type=_positive, default=3, help="plies (default 3)")
    papers.add_argument(
        "--positions", type=_positive, default=4, help="fixed positions per game (default 4)"
    )
    papers.add_argument(
        "--games", nargs="+", metavar="GAME",
        help="only these games (chameleon, chinesecheckers, focus, rolit; default all)",
    )  # fmt: skip
    papers.set_defaults(func=cmd_bench)
    _add_study_parsers(bench_sub)


def _add_study_parsers(bench_sub: argparse._SubParsersAction) -> None:
    """Register the benchmarks of one part each: heuristics, MCTS, the exact solvers and
    the depths reached in time budgets."""
    heur = bench_sub.add_parser(
        "heuristics",
        help="a search's nodes/s at a depth and depth reached in a time budget per "
        "heuristic (a learned one's cost beside the hand-made)",
    )
    heur.add_argument("heuristics", nargs="+", metavar="HEURISTIC",
                      help="names, such as weighted_lines net:model.npz")  # fmt: skip
    heur.add_argument("--game", default="connect4", help="the game (connect4)")
    heur.add_argument(
        "--players",
        type=_positive,
        default=None,
        help="players seated, where the game seats a choice (chameleon: 2-4)",
    )
    heur.add_argument(
        "--algorithm",
        default="alphabeta",
        help="the search (alphabeta; paranoid, maxn, brs for more players)",
    )
    heur.add_argument("--depth", type=_positive, default=6, help="the fixed depth (6)")
    heur.add_argument("--time-ms", type=_positive_real, default=10.0,
                      help="the time budget a search (10)")  # fmt: skip
    heur.add_argument("--positions", type=_positive, default=20, help="positions (20)")
    heur.set_defaults(func=cmd_bench)
    mcts = bench_sub.add_parser(
        "mcts",
        help="MCTS simulations per second from the start positions, beside OpenSpiel's C++ "
        "MCTSBot where installed (extra 'bench')",
    )
    mcts.add_argument("--repeat", type=_positive, default=3, help="runs, the best counts (3)")
    mcts.add_argument(
        "--scale", type=_positive_real, default=1.0,
        help="simulations per search times this (default 1: 100k, 50k, 5k per game)",
    )  # fmt: skip
    mcts.set_defaults(func=cmd_bench)
    solve = bench_sub.add_parser(
        "solve",
        help="exact solvers: times, nodes and values per group of positions, beside a "
        "reference solver where given (Pons's c4solver, Edax); the game's options: "
        "python -m chameleon_lab.bench.solve_GAME --help",
    )
    solve.add_argument("--game", required=True, choices=["connect4", "othello"])
    solve.set_defaults(func=cmd_bench, rest=[])  # rest: the game benchmark's own options
    depths = bench_sub.add_parser(
        "depths",
        help="completed depth of each multi-player search within time budgets on the same "
        "fixed positions per game phase (median and quartiles)",
    )
    depths.add_argument(
        "--budgets", type=_positive, nargs="+", default=None, metavar="MS",
        help="time budgets in ms (default 10 100 1000)",
    )  # fmt: skip
    depths.add_argument(
        "--positions", type=_positive, default=4, help="positions per phase (default 4)"
    )
    depths.add_argument(
        "--at-depth", type=_search_depth, default=None, metavar="D",
        help="instead: nodes and seconds to complete depth D (1..64) on each position",
    )  # fmt: skip
    depths.add_argument(
        "--algorithms", nargs="+", default=None, metavar="NAME",
        help="with --at-depth: these multi-player searches only (default: all four)",
    )  # fmt: skip
    depths.add_argument(
        "--repeat", type=_positive, default=None,
        help="with --at-depth: best of this many runs (default 3)",
    )  # fmt: skip
    depths.add_argument(
        "--phases", nargs="+", default=None, metavar="PHASE",
        help="with --at-depth: these game phases only (opening, middle, late; default all)",
    )  # fmt: skip
    depths.set_defaults(func=cmd_bench)
