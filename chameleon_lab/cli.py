"""The ``chameleon-lab`` command: thin sub-commands over the library."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return value


def _positive_real(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (0 < value < float("inf")):
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text!r}")
    return value


def _search_depth(text: str) -> int:
    """A search depth: a whole number from 1 to the deepest iteration (64 plies)."""
    from .search.core import MAX_DEPTH

    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_DEPTH:
        raise argparse.ArgumentTypeError(
            f"expected a depth from 1 to {MAX_DEPTH} plies, got {text!r}"
        )
    return value


def _node_budget(text: str) -> int:
    """``--nodes``: a whole number from 1 to 2**63 - 1 (``1e6`` style accepted)."""
    from .tournament.session import MAX_NODES

    try:
        value = int(text)
    except ValueError:
        try:
            number = float(text)
            value = int(number) if number.is_integer() else 0
        except (ValueError, OverflowError):
            value = 0
    if not 1 <= value <= MAX_NODES:
        raise argparse.ArgumentTypeError(
            f"expected a whole number from 1 to {MAX_NODES} (the node budget must fit a "
            f"64-bit integer), got {text!r}"
        )
    return value


def cmd_reference(args: argparse.Namespace) -> int:
    """``reference unpack`` / ``check`` / ``bundle``: the bundled reference data."""
    from .thesis import bundle

    if args.what == "unpack":
        print(f"unpacked and checked: {bundle.unpack(args.dest, progress=True)}")
        return 0
    if args.what == "bundle":
        print(f"bundled into {bundle.build(args.shared)}")
        return 0
    if not (Path(args.shared) / "reference").is_dir():
        raise ValueError(f"{args.shared} is not a shared folder: it has no reference/ inside")
    stale = bundle.check(args.shared)
    if stale:
        print("the bundle differs from this folder in:\n  " + "\n  ".join(stale))
        print("rebuild it with: chameleon-lab reference bundle --shared " + args.shared)
        return 1
    print(f"the bundle is up to date with {args.shared}")
    return 0


def cmd_book(args: argparse.Namespace) -> int:
    """``book build`` / ``show``: Connect Four opening books."""
    from .games.connect4 import book as books

    if args.what == "build":
        out = Path(args.out or f"connect4_{args.width}x{args.height}.npz")
        if out.exists() and not args.force:
            raise ValueError(f"{out} exists: choose another --out, or --force to rebuild it")
        book = books.build_book(
            args.width,
            args.height,
            args.depth,
            out,
            tt_bits=args.tt_bits,
            progress=not args.quiet,
            workers=args.workers,
        )
        print(f"wrote {out}: {len(book)} positions of at most {book.depth} stones")
    else:
        book = books.OpeningBook.load(args.path)
    print(f"board {book.width} x {book.height}, every position of at most {book.depth} stones")
    for name, value in sorted(book.header.items()):
        if name not in ("width", "height", "depth", "format"):
            print(f"  {name}: {value}")
    scores = book.move_scores(0, 0)
    if scores:
        cols = " ".join(f"{chr(ord('a') + c)}:{v:+d}" for c, v in sorted(scores.items()))
        print(f"first moves (solver's score for the first player): {cols}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    """``bench perft`` / ``search`` / ``games`` / ``tournament``: print speed figures."""
    from .bench.chameleon import (
        print_depths,
        print_improved,
        print_perft,
        print_search,
        print_tournament,
    )

    if args.what == "solve":  # the solver benchmarks take their own options
        from importlib import import_module

        return int(import_module(f".bench.solve_{args.game}", __package__).main(args.rest))
    if args.what == "perft":
        print_perft(depth=args.depth, repeat=args.repeat)
    elif args.what == "games":
        from .bench.games import print_games

        print_games(count=args.positions)
    elif args.what == "mcts":
        from .bench.mcts import print_mcts

        print_mcts(repeat=args.repeat, scale=args.scale)
    elif args.what == "depths":
        from .bench.chameleon import print_depth_table, print_time_to_depth

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
            from .analysis.efficiency import PHASES
            from .search.api import MULTIPLAYER

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


def _given(**options: Any) -> dict[str, Any]:
    """The options given on the command line (lists as tuples); those left out (None)
    take the benchmark function's own defaults, which the help texts quote."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in options.items() if v is not None}


def cmd_demo(args: argparse.Namespace) -> int:
    """``demo``: draw the start positions of every seating and tabulate their perft."""
    from .demo import run_demo

    for path in run_demo(Path(args.figures), Path(args.data), depth=args.depth):
        print(f"wrote {path}")
    return 0


def _json_or_text(value: str) -> object:
    """A value read as JSON when it parses (numbers, true/false, lists), else the text."""
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        return value.strip()


def _agent_option(text: str) -> tuple[str, dict]:
    """``NAME:key=value,key=value`` -> (name, params); values read as JSON when they parse."""
    name, sep, rest = text.partition(":")
    if not sep or not name:
        raise argparse.ArgumentTypeError(
            f"an agent is NAME:key=value,... e.g. 'para:algorithm=paranoid,flavour=thesis', "
            f"got {text!r}"
        )
    params: dict = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq:
            raise argparse.ArgumentTypeError(f"agent {name!r}: {item!r} is not key=value")
        params[key.strip()] = _json_or_text(value)
    return name, params


def _param_option(text: str) -> tuple[str, object]:
    """``key=value`` of ``--param``; the value read as JSON when it parses."""
    key, eq, value = text.partition("=")
    if not eq or not key.strip():
        raise argparse.ArgumentTypeError(
            f"a game parameter is key=value, e.g. 'width=9' or 'heaps=[3,4,5]', got {text!r}"
        )
    return key.strip(), _json_or_text(value)


def _register_bridges() -> None:
    """Let sessions seat other libraries' players where their bridges are installed
    (the ``openspiel`` extra: agents of kind ``openspiel``, OpenSpiel's bots)."""
    import contextlib

    with contextlib.suppress(ImportError):
        import chameleon_lab.interop.openspiel  # noqa: F401


def _session_from_args(args: argparse.Namespace):
    from .agents import DEFAULT_GAME
    from .games.chameleon import ORIGINAL_MOVE_LIMIT
    from .tournament import Session, load_session

    _register_bridges()

    if args.session_file:
        options = args.session_options.items()
        given = [flag for dest, flag in options if getattr(args, dest) not in (None, [])]
        if given:
            raise ValueError(
                f"{', '.join(given)}: a session file holds the whole session; give its "
                "options in the file (or the options without a file), not both"
            )
        return load_session(args.session_file)
    if not args.agent:
        raise ValueError("a tournament needs a session file or at least one --agent NAME:...")
    budget = {
        k: v
        for k, v in (("depth", args.depth), ("time_ms", args.time_ms), ("nodes", args.nodes))
        if v is not None
    }
    names = [name for name, _ in args.agent]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"agent name(s) given twice: {', '.join(twice)}; give each agent once")
    game = args.game or DEFAULT_GAME
    chameleon = game == DEFAULT_GAME
    params = dict(args.param)
    if len(params) != len(args.param):
        raise ValueError("a --param is given twice; give each parameter once")
    design = args.design or ("original" if chameleon else "every")
    move_limit = args.move_limit or (ORIGINAL_MOVE_LIMIT if chameleon else None)
    return Session(
        args.name or "session",
        dict(args.agent),
        game=game,
        game_params=params,
        design=design,
        players=args.players,
        seatings=args.seating,
        budget=budget,
        move_limit=move_limit,
        **_given(repetitions=args.repetitions, seed=args.seed, opening_plies=args.opening_plies),
    )


def _print_summary(records: list, *, aggregate: bool = False, statistics: bool = False) -> None:
    import pandas as pd

    from .analysis import aggregate as aggregate_table
    from .analysis import session_summary
    from .analysis.claims import holm
    from .analysis.ranking import ratings
    from .analysis.stats import by_seat, compare, win_rates
    from .tournament import tables

    t = tables(records)
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(session_summary(t).to_string(index=False))
        if aggregate:
            print("\nover all sessions (W/D/L summed, per-session figures averaged):")
            print(aggregate_table(t).to_string(index=False))
        if statistics:
            print("\nwin rates with 95 % Wilson intervals:")
            print(win_rates(t).to_string(index=False, float_format="%.3f"))
            agents = list(dict.fromkeys(t.seats["agent"]))
            if len(agents) >= 2:
                pairs = [compare(t, a, b) for i, a in enumerate(agents) for b in agents[i + 1 :]]
                print("\nhead to head (exact sign test; Holm's correction over the pairs):")
                for pair, p in zip(pairs, holm([c.p_value for c in pairs]), strict=True):
                    print(f"  {pair}; Holm p = {p:.3g}")
                print("\nPlackett-Luce ratings from finishing orders (Elo scale, mean 0;")
                print("intervals by resampling repetitions, none from one):")
                try:
                    print(ratings(t).to_string(index=False, float_format="%.1f"))
                except ValueError as exc:  # no maximum-likelihood estimate: say why
                    print(f"  none: {exc}")
            seats, tests = by_seat(t)
            print("\nresults by seat:")
            print(seats.to_string(index=False, float_format="%.3f"))
            print(tests.to_string(index=False, float_format="%.4g"))


def cmd_tournament(args: argparse.Namespace) -> int:
    """``tournament``: run (or resume) a session, appending records to a file."""
    from .tournament import run_session, session_records

    session = _session_from_args(args)
    out = Path(args.out) if args.out else Path("data") / "tournaments" / f"{session.name}.jsonl"
    print(f"session {session.name!r} ({session.fingerprint}): {len(session)} games -> {out}")
    report = run_session(
        session, out, workers=args.workers, scheduler=args.scheduler, progress=not args.quiet
    )
    print(report)
    if report.interrupted:
        print("interrupted: run the same command again to play the missing games")
        # the shell's convention, 128 + the signal: 130 for Ctrl-C, 143 for SIGTERM
        return 143 if report.signal == "SIGTERM" else 130
    _print_summary(session_records(out, session))
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    """``games``: the registered games with their parameters and heuristics."""
    from .games.registry import game_entry, game_names, get_game
    from .search.registry import ALGORITHMS

    for name in game_names():
        entry = game_entry(name)
        game = get_game(name)
        print(f"{name}: {entry.long_name}")
        for p in entry.params:
            print(f"  --param {p.name}={json.dumps(p.default)}  {p.doc}")
        default = game.heuristics.default
        names = ", ".join(n + (" (default)" if n == default else "") for n in game.heuristics.names)
        print(f"  heuristics: {names}")
    print(f"algorithms: {', '.join(ALGORITHMS)}")
    return 0


def cmd_summary(args: argparse.Namespace) -> int:
    """``summary``: the thesis's tables (and statistics) of records or legacy files."""
    from .thesis.legacy import load_records
    from .tournament import tables

    records = [r for path in args.records for r in load_records(path)]
    if not records:
        raise ValueError("no finished games in " + ", ".join(args.records))
    _print_summary(records, aggregate=args.aggregate, statistics=args.stats)
    if args.parquet:
        for path in tables(records).to_parquet(args.parquet):
            print(f"wrote {path}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """``replay``: play depth-mode legacy sessions again and search every move of
    time-mode ones where the original stopped; with --check, compare."""
    from .thesis.legacy import load_legacy
    from .thesis.replay import replay, replay_time
    from .tournament import RecordWriter

    sessions = [load_legacy(path) for path in args.files]  # each file parsed once
    depth_sessions = [s for s in sessions if s.mode == "depth"]
    time_sessions = [s for s in sessions if s.mode == "time"]
    if args.out and time_sessions:
        names = ", ".join(str(s.path) for s in time_sessions)
        raise ValueError(
            "--out writes replayed games; time-mode files are replayed move by move, "
            f"not as games ({names}): leave them out or drop --out"
        )
    diverged = 0
    if depth_sessions:
        results, seconds = replay(
            depth_sessions, workers=args.workers, scheduler=args.scheduler, progress=not args.quiet
        )
        records = [r for res in results for r in res.records]
        _print_summary(records)
        if args.out:
            with RecordWriter(args.out) as writer:
                for record in records:
                    writer.write(record)
            print(f"wrote {len(records)} records to {args.out}")
        print(f"replayed {len(records)} games of {len(results)} file(s) in {seconds:.1f} s")
        if args.check:
            for res in results:
                print(res)
        diverged += sum(not r.identical for r in results)
    if time_sessions:
        start = time.perf_counter()
        timed = replay_time(time_sessions, progress=not args.quiet)
        moves = sum(r.compared for r in timed)
        print(
            f"searched {moves} time-mode moves of {len(timed)} file(s) where the original "
            f"stopped in {time.perf_counter() - start:.1f} s"
        )
        for res in timed:  # the comparison is the whole of a time-mode replay
            print(res)
        diverged += sum(not r.identical for r in timed)
    if not args.check:
        return 0
    print("all sessions identical" if not diverged else f"{diverged} session(s) diverge")
    return 1 if diverged else 0


def cmd_check(args: argparse.Namespace) -> int:
    """``check``: the differential checks (each pruned search against its unpruned
    twin); status 1 when any search disagrees."""
    from .search.differential import run_checks

    report = run_checks(
        args.profile, checks=args.checks, games=args.games, seed=args.seed, progress=not args.quiet
    )
    rows = report.rows()
    width = max(len(r["game"]) for r in rows)
    print(f"{'check':<9} {'game':<{width}} {'positions':>9} {'searches':>9} {'mismatches':>10}")
    for r in rows:
        print(
            f"{r['check']:<9} {r['game']:<{width}} {r['positions']:>9} {r['searches']:>9} "
            f"{r['mismatches']:>10}"
        )
    bad = report.mismatches
    if args.out:
        _write_mismatches(args.out, bad)
        print(f"wrote {len(bad)} mismatch(es) to {args.out}")
    for m in bad[:10]:
        print(m)
    total = sum(r["searches"] for r in rows)
    positions = sum(r["positions"] for r in rows)
    print(
        f"profile {args.profile}, seed {args.seed}: {positions} positions, {total} searches "
        f"compared, {len(bad)} mismatch(es)"
    )
    return 1 if bad else 0


def _write_mismatches(path: str, mismatches: list) -> None:
    """Write ``mismatches`` as JSON lines, atomically (a temporary file renamed)."""
    import dataclasses

    from .files import atomic_write_text

    atomic_write_text(path, "".join(json.dumps(dataclasses.asdict(m)) + "\n" for m in mismatches))


def cmd_notebooks(args: argparse.Namespace) -> int:
    """``notebooks run``: execute the notebooks with papermill (the main job)."""
    from .workbench import (
        FOLDERS,
        PROFILES,
        NotebookFailed,
        parse_settings,
        project_path,
        run_batch,
    )

    settings = None
    if args.set:
        if not args.only or len(args.only) != 1:
            raise ValueError("--set sets parameters of one notebook: name it with --only")
        settings = parse_settings(args.only[0], args.set)
    try:
        done = run_batch(
            args.profile,
            args.only,
            reports=args.reports,
            figures=args.figures,
            data=args.data,
            workers=args.workers,
            shared=args.shared,
            progress=not args.quiet,
            settings=settings,
        )
    except NotebookFailed as exc:
        print(f"chameleon-lab notebooks: {exc}", file=sys.stderr)
        return 1
    total = sum(s for _, s in done)
    folders = FOLDERS[args.profile] if args.profile in PROFILES else ("", "", "")
    reports, figures, data = (
        project_path(given or default)
        for given, default in zip((args.reports, args.figures, args.data), folders, strict=True)
    )
    print(
        f"ran {len(done)} notebook(s) in {total:.0f} s: reports in {reports}/, "
        f"figures in {figures}/, tables in {data}/"
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``chameleon-lab``."""
    parser = argparse.ArgumentParser(
        prog="chameleon-lab",
        description="Game-tree search workbench: Chameleon Chess and the games of its seeds.",
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

    tour = sub.add_parser(
        "tournament",
        help="run or resume a session of games between agents",
        description="Run a session (from a JSON/TOML file or options); records are appended "
        "to --out, and running the same command again resumes.",
    )
    tour.add_argument("session_file", nargs="?", help="session file (.json or .toml)")
    session = tour.add_argument_group(
        "session", "what makes a session (a session file holds all of it: refused beside one)"
    )
    made: list[argparse.Action] = []

    def session_option(*flags: str, **kwargs: Any) -> None:
        made.append(session.add_argument(*flags, **kwargs))

    session_option("--name", help="session name (default 'session')")
    session_option(
        "--agent",
        action="append",
        type=_agent_option,
        default=[],
        metavar="NAME:key=value,...",
        help="an agent, e.g. 'para:algorithm=paranoid,flavour=thesis' (repeat for more)",
    )
    session_option("--game", help="the game by name (default chameleon; see 'games')")
    session_option(
        "--param",
        action="append",
        type=_param_option,
        default=[],
        metavar="KEY=VALUE",
        help="a game parameter, e.g. width=9 (repeat for more)",
    )
    session_option(
        "--design",
        help="original (Chameleon's default), every (other games' default), fixed, or "
        "blocks (each repetition one distinct opening played with balanced seatings; "
        "needs --opening-plies)",
    )
    session_option("--players", type=_positive, help="seats a game for --design every or blocks")
    session_option(
        "--seating",
        action="append",
        help="a seating for --design fixed, e.g. 'para,maxn,_,_' (repeat for more)",
    )
    session_option("--depth", type=_positive, help="default budget: plies")
    session_option("--time-ms", type=float, help="default budget: ms a move")
    session_option(
        "--nodes", type=_node_budget, help="default budget: nodes a move (1 to 2**63 - 1)"
    )
    session_option(
        "--repetitions", type=_positive,
        help="plays of each seating (default 1); the same session again with more plays "
        "only the new ones",
    )  # fmt: skip
    session_option("--seed", type=int, help="session seed (default 0)")
    session_option(
        "--move-limit",
        type=_positive,
        help="moves a game (default: 100 for Chameleon Chess as the original, else none)",
    )
    session_option(
        "--opening-plies", type=int, metavar="N",
        help="each repetition starts after N random plies, the same for all its seatings: "
        "deterministic agents would otherwise replay the same games (default 0)",
    )  # fmt: skip
    # the session's options by their ``args`` names, refused beside a session file
    tour.set_defaults(session_options={a.dest: a.option_strings[0] for a in made})
    _runner_options(tour)
    tour.add_argument(
        "--out",
        help="records file (default data/tournaments/NAME.jsonl); one run at a time writes "
        "to it (a lock file NAME.jsonl.lock beside it holds the run's PID)",
    )
    tour.set_defaults(func=cmd_tournament)

    games = sub.add_parser("games", help="list the games, their parameters and heuristics")
    games.set_defaults(func=cmd_games)

    summ = sub.add_parser(
        "summary", help="the thesis's tables of records files or legacy session files"
    )
    summ.add_argument("records", nargs="+", help="records (.jsonl) or legacy session files")
    summ.add_argument("--aggregate", action="store_true", help="also the table over sessions")
    summ.add_argument(
        "--stats", action="store_true", help="also intervals, exact tests, seats, ratings"
    )
    summ.add_argument("--parquet", metavar="DIR", help="write games/seats/moves tables here")
    summ.set_defaults(func=cmd_summary)

    rep = sub.add_parser(
        "replay",
        help="replay legacy sessions (thesis flavour): depth-mode games again, "
        "time-mode moves where the original stopped",
    )
    rep.add_argument("files", nargs="+", help="legacy session files (depth or time mode)")
    rep.add_argument(
        "--check", action="store_true", help="compare every position; exit 1 on a divergence"
    )
    rep.add_argument("--out", help="also write the replayed games as records here")
    _runner_options(rep)
    rep.set_defaults(func=cmd_replay)

    from .search.differential import CHECKS, PROFILES

    chk = sub.add_parser(
        "check",
        help="differential checks: each pruned search against its unpruned twin",
        description="Every pruned or enhanced search against its unpruned twin on seeded "
        "random positions of every phase (alphabeta's switch combinations against negamax, "
        "improved Paranoid against Paranoid minimax, MaxN-IS and speculative MaxN against "
        "MaxN, the exact solvers against negamax to the end). Exit status 1 when a search "
        "disagrees.",
    )
    chk.add_argument(
        "--profile",
        choices=PROFILES,
        default="fast",
        help="fast (the test suite's, about a minute) or large (thousands of positions)",
    )
    chk.add_argument(
        "--checks", nargs="+", choices=list(CHECKS), metavar="CHECK",
        help=f"only these checks ({', '.join(CHECKS)}; default all)",
    )  # fmt: skip
    chk.add_argument("--games", nargs="+", metavar="GAME", help="only these games (by name)")
    chk.add_argument("--seed", type=int, default=0, help="draws the positions (default 0)")
    chk.add_argument("--out", help="write the mismatches found to this JSON-lines file")
    chk.add_argument("--quiet", action="store_true", help="no progress bar")
    chk.set_defaults(func=cmd_check)

    nbs = sub.add_parser("notebooks", help="run the notebook batch (papermill)")
    nbs_sub = nbs.add_subparsers(dest="what", required=True, metavar="WHAT")
    nrun = nbs_sub.add_parser("run", help="execute the notebooks into reports/")
    nrun.add_argument(
        "--profile",
        default="quick",
        help="quick (about 3 min on 2 cores once compiled, 9 from a fresh clone), full "
        "(hours) or research (the decided comparisons, into research/; days: use --only)",
    )
    nrun.add_argument("--only", action="append", metavar="NAME", help="only this notebook")
    nrun.add_argument(
        "--reports",
        help="executed notebooks (default: the profile's, reports/ or research/reports/)",
    )
    nrun.add_argument(
        "--figures", help="PNG and SVG figures (default: figures/ or research/figures/)"
    )
    nrun.add_argument("--data", help="CSV tables and records (default: data/ or research/data/)")
    nrun.add_argument("--workers", type=_positive, help="processes (default: all cores)")
    nrun.add_argument("--shared", help="the shared/ folder (default: beside the project)")
    nrun.add_argument("--quiet", action="store_true", help="no progress bar")
    nrun.add_argument(
        "--set", action="append", metavar="NAME=VALUE",
        help="a parameter of the one --only notebook, e.g. flavour=thesis or "
        "'budgets_ms=[10, 100]' (JSON unless the default is text; repeat for more)",
    )  # fmt: skip
    nrun.set_defaults(func=cmd_notebooks)

    ref = sub.add_parser(
        "reference", help="the reference data bundled with the package (thesis, sessions)"
    )
    ref_sub = ref.add_subparsers(dest="what", required=True, metavar="WHAT")
    unpack = ref_sub.add_parser("unpack", help="write the shared folder the bundle came from")
    unpack.add_argument("dest", help="a new folder")
    check = ref_sub.add_parser("check", help="is the bundle the same as a shared folder?")
    check.add_argument("shared", help="a shared folder (holding reference/ and conformance/)")
    bundle = ref_sub.add_parser("bundle", help="maintainers: bundle a shared folder's data")
    bundle.add_argument("--shared", required=True, help="the shared folder to bundle")
    ref.set_defaults(func=cmd_reference)

    book = sub.add_parser("book", help="Connect Four opening books (solved first plies)")
    book_sub = book.add_subparsers(dest="what", required=True, metavar="WHAT")
    bbuild = book_sub.add_parser(
        "build", help="solve every position of up to DEPTH stones (resumable; Ctrl-C stops)"
    )
    bbuild.add_argument("--width", type=_positive, default=7, help="columns (default 7)")
    bbuild.add_argument("--height", type=_positive, default=6, help="rows (default 6)")
    bbuild.add_argument("--depth", type=int, required=True, help="stones of the deepest positions")
    bbuild.add_argument("--out", help="the book file (default connect4_WxH.npz here)")
    bbuild.add_argument("--tt-bits", type=int, help="solver table size, 2**N entries (default 23)")
    bbuild.add_argument("--workers", type=_positive, default=1, help="processes (default 1)")
    bbuild.add_argument("--force", action="store_true", help="replace an existing book")
    bbuild.add_argument("--quiet", action="store_true", help="no progress bar")
    bshow = book_sub.add_parser("show", help="a book's board, depth, provenance and first moves")
    bshow.add_argument("path", help="a book file (.npz)")
    book.set_defaults(func=cmd_book)

    demo = sub.add_parser(
        "demo",
        help="smoke job: draw the start positions into figures/, perft table into data/",
    )
    demo.add_argument("--figures", default="figures", help="folder for pictures")
    demo.add_argument("--data", default="data", help="folder for tables")
    demo.add_argument("--depth", type=_positive, default=5, help="perft depth for the table")
    demo.set_defaults(func=cmd_demo)
    return parser


def _runner_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--workers", type=_positive, help="processes on this machine (default: all cores)"
    )
    parser.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://host:8786")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


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


if __name__ == "__main__":
    sys.exit(main())
