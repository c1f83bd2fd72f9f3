"""The machine-readable conformance entry point (``python -m chameleon_lab.conformance``).

Implements ``../shared/conformance/CONTRACT.md``: JSON Lines in on stdin, one output line
per input line on stdout. A line with ``"game"`` names a game of the library, its
parameters and the moves from its start ("Other games"); any other line is a
Chameleon Chess position in the original program's schema. Bad input is never guessed
at: one line on stderr naming the input line number and the problem, and exit status 2.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections.abc import Callable, Iterable
from typing import IO, Any

import numpy as np

from ..games.chameleon import Position

EXIT_BAD_INPUT = 2


class BadInput(ValueError):
    """An input line that cannot be answered; carries its 1-based line number."""

    def __init__(self, line_no: int, message: str) -> None:
        super().__init__(f"line {line_no}: {message}")
        self.line_no = line_no


#: The keys of an "Other games" line, and those a ``search`` line adds to any position.
GAME_KEYS = ("game", "params", "moves")
SEARCH_KEYS = ("algorithm", "depth", "heuristic", "options", "iterations", "seed")
#: The keys of a ``choose`` query.
CHOOSE_KEYS = ("state", "algorithm", "eval", "normalize", "depth")


def refuse_misspelt_keys(obj: dict[str, Any], known: tuple[str, ...], what: str) -> None:
    """Refuse a key of ``obj`` that reads like a misspelling of one of ``known`` (e.g.
    ``heurstic``, ``normalise``, ``move``): ignored, it would silently leave the default
    in place of what the line asked for. Keys unlike every known one are left alone,
    so a line may carry annotations (an expected value, a comment)."""
    for key in obj:
        if not isinstance(key, str) or key in known:
            continue
        close = difflib.get_close_matches(key.lower(), known, n=1, cutoff=0.8)
        if close:
            raise ValueError(
                f"unknown key {key!r} in {what} (did you mean {close[0]!r}?); "
                f"its keys: {', '.join(known)}"
            )


def _position(obj: Any) -> Position:
    return Position.from_legacy(obj)


def game_position(obj: Any) -> Any:
    """The position of an "Other games" line: ``{"game", "params", "moves"}``."""
    from ..games.registry import get_game

    if not isinstance(obj, dict):
        raise ValueError(f"an input line is a JSON object, got {type(obj).__name__}")
    refuse_misspelt_keys(obj, GAME_KEYS + SEARCH_KEYS, "a game line")
    params = obj.get("params", {})
    if not isinstance(params, dict):
        raise ValueError(f"params must be a JSON object, got {params!r}")
    moves = obj.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise ValueError(f"moves must be a list of moves in notation (strings), got {moves!r}")
    return get_game(obj["game"], **params).from_moves(moves)


def _any_position(obj: Any) -> Any:
    """A game line's position, or a Chameleon Chess legacy position."""
    if isinstance(obj, dict) and "game" in obj:
        return game_position(obj)
    if isinstance(obj, dict):  # a Chameleon position, unless "game" is misspelt
        refuse_misspelt_keys(obj, GAME_KEYS, "a line")
    return _position(obj)


def answer_legal(obj: Any) -> list[str]:
    """The legal moves of a position in notation (``[]`` once the game is over)."""
    return [str(m) for m in _any_position(obj).legal_moves]


#: What a search line's ``options`` may hold besides the algorithm's own switches: the
#: table size, and for the multi-player searches their normalisation and MaxN-IS's bound.
SEARCH_PARAMETERS = ("tt_bits",)
MULTIPLAYER_PARAMETERS = ("normalize",)


def _check_search_options(algorithm: Any, options: dict[str, Any]) -> None:
    """Refuse options that are not the algorithm's: the search function's other
    keywords (budgets, workspace, game, flavour) would change what a line asks for, or
    fail deep inside it."""
    from ..search.registry import get_algorithm, taken_options

    spec = get_algorithm(algorithm)
    valid = (*taken_options(spec, options), *SEARCH_PARAMETERS)
    if not spec.two_player:
        valid += MULTIPLAYER_PARAMETERS
    for name in options:
        if name in valid:
            continue
        if name in SEARCH_KEYS:
            raise ValueError(f"{name!r} goes at the top of a search line, not in its options")
        raise ValueError(
            f"{algorithm} takes no option {name!r} in a search line (the budget is the "
            f"line's own); its options: {', '.join(valid)}"
        )


def _line_budget(obj: dict[str, Any], spec: Any) -> dict[str, int]:
    """The budget a search line gives, as the algorithm declares it
    (``spec.line_budget``: ``"depth"``, MCTS's ``"iterations"``, or ``None`` for an
    optional ``"nodes"``), checked; the other budgets are refused by name."""
    name = spec.line_budget or "nodes"
    if spec.line_budget is not None and name not in obj:
        raise ValueError(f"a search line of {spec.name!r} lacks {name!r}")
    foreign = {"depth", "iterations", "nodes"} - {name} | ({"seed"} - set(spec.options))
    if spec.line_budget is not None:
        foreign -= {"nodes"}  # an annotation on these lines, not a budget
    given = sorted(k for k in foreign if k in obj)
    if given:
        said = f"{name!r}" if spec.line_budget else "no depth and an optional 'nodes'"
        given_text = ", ".join(map(repr, given))
        raise ValueError(f"{given_text}: a search line of {spec.name!r} gives {said}")
    if name not in obj:
        return {}
    count = obj[name]
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"{name} must be a whole number >= 1, got {count!r}")
    return {name: count}


def answer_search(obj: Any) -> dict[str, Any]:
    """The move a search chooses, its value for the mover, its effort.

    The line holds, besides the position, ``"algorithm"`` and the budget the algorithm
    declares for these lines (``"depth"``; ``mcts``: ``"iterations"`` and an optional
    ``"seed"``; ``dfpn``: an optional ``"nodes"``), optionally ``"heuristic"`` (the
    game's default when absent) and ``"options"`` (the algorithm's own, e.g. the
    two-player suite's switches ``{"ordering": true, "tt_bits": 16}`` or MCTS's
    ``{"solver": true}``). An algorithm that proves results answers with its
    ``"proved"`` too (``null`` unproved; a value it could not prove is ``null``), MCTS
    with its ``"iterations"``.
    """
    from ..search.api import search
    from ..search.registry import get_algorithm

    position = _any_position(obj)
    refuse_misspelt_keys(obj, (*SEARCH_KEYS, "nodes"), "a search line")
    if "algorithm" not in obj:
        raise ValueError("a search line lacks 'algorithm'")
    spec = get_algorithm(obj["algorithm"])  # an unknown one is refused, naming the valid
    budget = _line_budget(obj, spec)
    options = obj.get("options", {})
    if not isinstance(options, dict):
        raise ValueError(f"options must be a JSON object, got {options!r}")
    _check_search_options(obj["algorithm"], options)
    if "seed" in obj:
        options = {**options, "seed": obj["seed"]}
    result = search(position, spec.name, heuristic=obj.get("heuristic"), **budget, **options)
    value = result.scores[result.index]
    if getattr(value, "ndim", 0):  # a vector: the mover's entry
        value = value[int(position.to_move)]
    answer = {
        "move": str(position.legal_moves[result.index]),
        "value": None if np.isnan(value) else float(value),
        "nodes": result.nodes,
        "seconds": result.seconds,
    }
    for name in spec.reported:  # MCTS's iterations
        answer[name] = result.counters[name]
    if spec.proves:
        answer["proved"] = result.proved
    return answer


def answer_solve(obj: Any) -> dict[str, Any]:
    """The exact value for the side to move, with the solver's nodes and seconds."""
    from ..search.solve import solve

    position = _any_position(obj)
    solution = solve(position)
    value = solution.value
    return {
        "value": int(value) if float(value).is_integer() else value,
        "nodes": solution.nodes,
        "seconds": solution.seconds,
    }


def answer_successors(obj: Any) -> list[dict[str, Any]]:
    """The successors of a legacy position, as legacy positions, in generation order."""
    return [s.to_legacy() for s in _position(obj).generated_successors()]


def answer_perft(obj: Any, depth: int) -> int:
    """Perft ``depth`` of a position (a game line or a legacy Chameleon position)."""
    return _any_position(obj).perft(depth)


def answer_choose(obj: Any) -> dict[str, Any]:
    """The successor the thesis-compatible algorithm picks in depth mode, and its index."""
    from ..search.registry import get_algorithm
    from ..thesis.driver import thesis_search

    if not isinstance(obj, dict):
        raise ValueError(f"a choose query is a JSON object, got {type(obj).__name__}")
    refuse_misspelt_keys(obj, CHOOSE_KEYS, "the choose query")
    missing = [k for k in ("state", "algorithm", "eval", "depth") if k not in obj]
    if missing:
        raise ValueError(f"the choose query lacks {', '.join(map(repr, missing))}")
    position = _position(obj["state"])
    normalize = obj.get("normalize", False)
    if not isinstance(normalize, bool):
        raise ValueError(f"normalize must be true or false, got {normalize!r}")
    algorithm = obj["algorithm"]
    if not isinstance(algorithm, str):
        raise ValueError(f"algorithm must be a name such as 'maxn', got {algorithm!r}")
    # the original had no switch for some (MaxN and MaxN-IS always normalise): the
    # registry says which
    norm = True if get_algorithm(algorithm).normalize_always else normalize
    result = thesis_search(
        position, algorithm, depth=obj["depth"], heuristic=obj["eval"], normalize=norm
    )
    return {"index": result.index, "state": position.successors()[result.index].to_legacy()}


def run(handler: Callable[[Any], Any], lines: Iterable[str], out: IO[str]) -> None:
    """Answer each non-blank input line with ``handler``; raise :class:`BadInput` on error."""
    for line_no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BadInput(line_no, f"not JSON ({exc.msg} at column {exc.colno})") from None
        try:
            result = handler(obj)
        except (ValueError, TypeError) as exc:
            raise BadInput(line_no, str(exc)) from None
        out.write(json.dumps(result, separators=(",", ":")) + "\n")
        out.flush()


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"depth must be a whole number >= 0, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface of the contract."""
    parser = argparse.ArgumentParser(
        prog="python -m chameleon_lab.conformance",
        description="Answer conformance queries (JSON Lines on stdin, one answer a line).",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("successors", help="successor positions in the original order")
    perft = sub.add_parser("perft", help="leaves of the game tree D plies deep")
    perft.add_argument("depth", type=_depth, metavar="D")
    sub.add_parser("choose", help="the thesis-compatible algorithm's choice in depth mode")
    sub.add_parser("legal", help="the legal moves in notation")
    sub.add_parser("solve", help="the exact value for the side to move (two-player games)")
    sub.add_parser("search", help="a search's move, value, nodes and seconds at a fixed depth")
    return parser


def main(
    argv: list[str] | None = None,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
) -> int:
    """Run the entry point; returns the exit status."""
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    args = build_parser().parse_args(argv)
    handlers: dict[str, Callable[[Any], Any]] = {
        "successors": answer_successors,
        "perft": lambda obj: answer_perft(obj, args.depth),
        "choose": answer_choose,
        "legal": answer_legal,
        "solve": answer_solve,
        "search": answer_search,
    }
    try:
        run(handlers[args.command], stdin, stdout)
    except BadInput as exc:
        stderr.write(f"{exc}\n")
        return EXIT_BAD_INPUT
    return 0
