"""The shape of the compiled hot code that the speed depends on.

Numba takes a reference to each array argument (an atomic ``NRT_incref`` call) and keeps
it wherever its pruning pass cannot follow the control flow; in the move or at every
leaf that halves the speed (see "Speed" in :mod:`chameleon_lab.games.chameleon.kernel`).
These tests fail when a change brings such calls back; the results would not show it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from numba import njit, types

from chameleon_lab.games.chameleon import CHAMELEON_OPS, ChameleonMatch
from chameleon_lab.games.chameleon import kernel as K
from chameleon_lab.games.chameleon.heuristics import count_pawns_100_roles
from chameleon_lab.games.registry import get_game
from chameleon_lab.search import improved as I
from chameleon_lab.search import twoplayer as TP
from chameleon_lab.search.api import search
from chameleon_lab.search.core import bind, leaf_evaluator, ops_of
from chameleon_lab.search.registry import get_algorithm
from chameleon_lab.thesis import nodes as T
from chameleon_lab.thesis.driver import thesis_search


def _increfs(dispatcher) -> int:
    """``NRT_incref`` calls in the compiled function itself (not in its wrappers)."""
    llvm = dispatcher.inspect_llvm(dispatcher.signatures[0])
    return llvm.split("\ndefine")[1].count("@NRT_incref(")


def _fresh(template, ops, evaluate, **options):
    """The copy of ``template`` a search ran (``bind``), compiled afresh for the
    signature it ran with: numba shows no code of copies loaded from its disk cache,
    and a search may have loaded it (see :mod:`chameleon_lab.games.specialise`)."""
    used = bind(template, ops, evaluate, **options)
    fresh = bind(template, ops, evaluate, cache=False, **options)
    fresh.compile(used.signatures[0])
    return fresh


def test_make_move_takes_no_references():
    # compiled afresh: numba does not show the code of functions loaded from its cache
    make = njit(K.make_move.py_func)
    state = np.array(ChameleonMatch(move_limit=None).position.state)
    make(state, int(K.legal_moves(state)[0]), np.zeros((1, K.UNDO_SIZE), dtype=np.int64), 0)
    assert _increfs(make) == 0


@pytest.mark.parametrize("algorithm", ["maxn", "maxnis", "paranoid", "hypermax"])
def test_thesis_node_functions_take_references_only_on_entry(algorithm):
    thesis_search(ChameleonMatch(move_limit=None).position, algorithm, depth=2)
    node = _fresh(getattr(T, f"{algorithm}_node"), CHAMELEON_OPS, count_pawns_100_roles)
    arrays = sum(_arrays(t) for t in node.signatures[0])
    assert _increfs(node) <= arrays  # one per array argument it uses (the tables' too)


def _arrays(t) -> int:
    """The arrays an argument of numba type ``t`` holds (a tuple's members counted)."""
    if isinstance(t, types.Array):
        return 1
    return sum(_arrays(x) for x in t) if isinstance(t, types.BaseTuple) else 0


@pytest.mark.parametrize("algorithm", ["maxn", "maxnis", "paranoid", "hypermax"])
def test_improved_node_functions_take_no_references(algorithm):
    # recursive: a reference per array argument and node would cost half the speed, so
    # they are compiled without reference counting (see :mod:`chameleon_lab.search.improved`)
    search(ChameleonMatch(move_limit=None).position, algorithm, flavour="improved", depth=2)
    template = getattr(I, f"{algorithm}_node")
    siblings = get_algorithm(algorithm).code("siblings")  # the parts it calls by name
    node = _fresh(template, CHAMELEON_OPS, count_pawns_100_roles, siblings=siblings, _nrt=False)
    llvm = node.inspect_llvm(node.signatures[0]).split("\ndefine")[1]
    assert "@NRT_incref(" not in llvm and "@NRT_decref(" not in llvm
    # the parts written apart and marked inlined are compiled into it, not called
    called = re.findall(r"call [^@\n]*@([\w.$]+)", llvm)
    for name in siblings or {}:
        assert not any(name in c for c in called), (algorithm, name)


@pytest.mark.parametrize(
    "name", ["chameleon", "tictactoe", "gomoku", "nim", "dice", "othello", "connect4"]
)
def test_every_games_protocol_functions_take_no_references(name):
    # compiled afresh with the kernel's own options (numba shows no code of cached ones)
    from chameleon_lab.games import get_game

    game = get_game(name)
    ops, state = game.ops, game.start().state.copy()
    moves = np.zeros((2, ops.max_moves), dtype=np.int64)
    undo = np.zeros((2, ops.undo_size), dtype=np.int64)
    ops.generate(state, moves, 0)
    calls = [
        (ops.generate, (state, moves, 0)),
        (ops.make, (state, moves[0, 0], undo, 0)),
        (ops.unmake, (state, undo, 0)),
        (ops.player_of, (state,)),
        (ops.key, (state,)),
    ]
    for function, args in calls:
        options = {
            k: v for k, v in function.targetoptions.items() if k not in ("cache", "nopython")
        }
        fresh = njit(**options)(function.py_func)
        fresh(*args)
        assert _increfs(fresh) == 0, (name, function.__name__)


def test_the_suite_scores_its_leaves_inline_and_orders_by_a_call():
    # the leaves' scoring (the sibling _leaf_value) is inlined: a call per leaf would
    # cost the loop what it saved over recursion. static_key stays a function of its own
    # (see twoplayer.static_key); the parts marked inlined (twoplayer._leaf_value,
    # _enter, _key_moves) are compiled into the node function
    game = get_game("tictactoe")
    search(game.start(), "alphabeta", depth=2)
    root = _fresh(TP.ab_root, ops_of(game), leaf_evaluator(game, None),
                  siblings=TP.ROOT_SIBLINGS, _nrt=False)  # fmt: skip
    node = root.py_func.__globals__["ab_node"]  # the copy the search runs
    llvm = node.inspect_llvm(node.signatures[0]).split("\ndefine")[1]
    called = re.findall(r"call [^@\n]*@([\w.$]+)", llvm)
    assert any("static_key" in name for name in called)
    assert not any("leaf_value" in name for name in called)
    # the parts of the node function written apart are compiled into it (inlined)
    assert not any("_enter" in name or "_key_moves" in name for name in called)
    # the root function calls the node function (one copy of the tree's code)
    root_llvm = root.inspect_llvm(root.signatures[0]).split("\ndefine")[1]
    assert any("ab_node" in name for name in re.findall(r"call [^@\n]*@([\w.$]+)", root_llvm))
    assert "@NRT_incref(" not in root_llvm


LITERAL_COMPILES = """
import json
from numba.core import event, types
from chameleon_lab.games import get_game
from chameleon_lab.search.api import search
found = []

class Listen(event.Listener):
    def on_start(self, e):
        f = e.data["dispatcher"].py_func
        literal = [i for i, a in enumerate(e.data["args"]) if isinstance(a, types.Literal)]
        if f.__module__.startswith("chameleon_lab.") and literal:
            found.append([f.__module__, f.__qualname__.split("__")[0], literal])

    def on_end(self, e):
        pass

event.register("numba:compile", Listen())
pos = get_game("nim").start()
for algorithm in ("alphabeta", "mcts", "maxn", "brs"):
    search(pos, algorithm, **({"iterations": 50} if algorithm == "mcts" else {"depth": 3}))
print(json.dumps(found))
"""


def test_no_compiled_function_is_compiled_for_a_literal_argument(tmp_path):
    # numba compiles a function called with a constant (0, True) for the literal type
    # apart from int64 or bool, and a variable started at 0 is typed literal at first;
    # those second compiles were a fifth of a search's compile time (see "Literal
    # arguments" in chameleon_lab.games.specialise). An empty cache: all is compiled.
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", LITERAL_COMPILES], env=env,
                          capture_output=True, text=True, check=True)  # fmt: skip
    assert json.loads(done.stdout) == []
