"""Argument types and option helpers shared by the command groups."""

from __future__ import annotations

import argparse
import json
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
    from ..search.core import MAX_DEPTH

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
    from ..tournament.session import MAX_NODES

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


def _given(**options: Any) -> dict[str, Any]:
    """The options given on the command line (lists as tuples); those left out (None)
    take the benchmark function's own defaults, which the help texts quote."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in options.items() if v is not None}


def _runner_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--workers", type=_positive, help="processes on this machine (default: all cores)"
    )
    parser.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://host:8786")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
