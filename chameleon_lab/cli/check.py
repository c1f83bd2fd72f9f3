"""``check``: the differential checks of the searches."""

from __future__ import annotations

import argparse
import json


def cmd_check(args: argparse.Namespace) -> int:
    """``check``: the differential checks (each pruned search against its unpruned
    twin); status 1 when any search disagrees."""
    from ..search.differential import run_checks

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

    from ..files import atomic_write_text

    atomic_write_text(path, "".join(json.dumps(dataclasses.asdict(m)) + "\n" for m in mismatches))


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register ``check``."""
    from ..search.differential import CHECKS, PROFILES

    chk = sub.add_parser(
        "check",
        help="differential checks: each pruned search against its unpruned twin",
        description="Every pruned or enhanced search against its unpruned twin on seeded "
        "random positions of every phase (alphabeta's switch combinations against negamax, "
        "improved Paranoid against Paranoid minimax, MaxN-IS and speculative MaxN against "
        "MaxN, the exact solvers against negamax to the end, MCTS-Solver against negamax, "
        "df-pn against the exact solvers). Exit status 1 when a search disagrees.",
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
