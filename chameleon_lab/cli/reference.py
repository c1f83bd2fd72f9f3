"""``reference`` and ``book``: the bundled reference data and Connect Four opening books."""

from __future__ import annotations

import argparse
from pathlib import Path

from .options import _positive


def cmd_reference(args: argparse.Namespace) -> int:
    """``reference unpack`` / ``check`` / ``bundle``: the bundled reference data."""
    from ..thesis import bundle

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
    from ..games.connect4 import book as books

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


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register ``reference`` and ``book`` and their sub-commands."""
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
