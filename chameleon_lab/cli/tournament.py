"""``tournament``, ``games``, ``summary``, ``replay``: sessions of games and their records."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from .options import (
    _agent_option,
    _given,
    _node_budget,
    _param_option,
    _positive,
    _runner_options,
)


def _register_bridges() -> None:
    """Let sessions seat other libraries' players where their bridges are installed
    (the ``openspiel`` extra: agents of kind ``openspiel``, OpenSpiel's bots)."""
    import contextlib

    with contextlib.suppress(ImportError):
        import chameleon_lab.interop.openspiel  # noqa: F401


def _session_from_args(args: argparse.Namespace):
    from ..agents import DEFAULT_GAME
    from ..games.chameleon import ORIGINAL_MOVE_LIMIT
    from ..tournament import Session, load_session

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

    from ..analysis import aggregate as aggregate_table
    from ..analysis import session_summary
    from ..analysis.claims import holm
    from ..analysis.ranking import ratings
    from ..analysis.stats import by_seat, compare, win_rates
    from ..tournament import tables

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
    from ..tournament import run_session, session_records

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
    from ..games.registry import game_entry, game_names, get_game
    from ..search.registry import ALGORITHMS

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
    from ..thesis.legacy import load_records
    from ..tournament import tables

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
    from ..thesis.legacy import load_legacy
    from ..thesis.replay import replay, replay_time
    from ..tournament import RecordWriter

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


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register ``tournament``, ``games``, ``summary`` and ``replay``."""
    _add_tournament(sub)

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


def _add_tournament(sub: argparse._SubParsersAction) -> None:
    """Register ``tournament`` and its session options."""
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
