"""``notebooks``: the notebook batch (papermill)."""

from __future__ import annotations

import argparse
import sys
import time

from .options import _positive


def cmd_notebooks(args: argparse.Namespace) -> int:
    """``notebooks run``: execute the notebooks with papermill (the main job)."""
    from ..batch import (
        FOLDERS,
        PROFILES,
        BadParameters,
        NotebookFailed,
        parse_settings,
        run_batch,
    )
    from ..workbench import project_path

    settings = None
    if args.set:
        if not args.only or len(args.only) != 1:
            raise ValueError("--set sets parameters of one notebook: name it with --only")
        settings = parse_settings(args.only[0], args.set)
    began = time.perf_counter()
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
            lanes=args.lanes,
        )
    except BadParameters as exc:
        print(f"chameleon-lab notebooks: {exc}", file=sys.stderr)
        return 2
    except NotebookFailed as exc:
        print(f"chameleon-lab notebooks: {exc}", file=sys.stderr)
        return 1
    total = sum(s for _, s in done)
    folders = FOLDERS[args.profile] if args.profile in PROFILES else ("", "", "")
    reports, figures, data = (
        project_path(given or default)
        for given, default in zip((args.reports, args.figures, args.data), folders, strict=True)
    )
    wall = time.perf_counter() - began
    at_once = f" ({total:.0f} s of notebooks run at once)" if total > wall * 1.05 else ""
    print(
        f"ran {len(done)} notebook(s) in {wall:.0f} s{at_once}: reports in {reports}/, "
        f"figures in {figures}/, tables in {data}/"
    )
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register ``notebooks`` and its sub-command ``run``."""
    nbs = sub.add_parser("notebooks", help="run the notebook batch (papermill)")
    nbs_sub = nbs.add_subparsers(dest="what", required=True, metavar="WHAT")
    nrun = nbs_sub.add_parser("run", help="execute the notebooks into reports/")
    nrun.add_argument(
        "--profile",
        default="quick",
        help="quick (about 4 min on 2 cores once compiled, 9 from a fresh clone), full "
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
        "--lanes", type=_positive, default=None,
        help="notebooks run at once, each in a process of its own (default 2 where there "
        "are two cores, 1 for the research profile)",
    )  # fmt: skip
    nrun.add_argument(
        "--set", action="append", metavar="NAME=VALUE",
        help="a parameter of the one --only notebook, e.g. flavour=thesis or "
        "'budgets_ms=[10, 100]' (JSON unless the default is text; repeat for more)",
    )  # fmt: skip
    nrun.set_defaults(func=cmd_notebooks)
