"""The OpenSpiel bridge (chameleon_lab.interop.openspiel) against independent truths.

OpenSpiel's own checks (``pyspiel.random_sim_test``) on every game and several parameter
choices; our legal moves, moves and returns against what OpenSpiel's states say along
seeded random games; parameters refused naming them; OpenSpiel's C++ MCTS bot in
sessions of ours (records, replayed by our rules, the same again from the same seed; its
choice equal to its own ``step``); our agents as OpenSpiel bots (never losing TicTacToe,
which the exact solver says is a draw; the move our search chooses; games through
OpenSpiel's evaluation code).

The tests need the ``openspiel`` extra, which the ``dev`` extra installs (so CI runs
them); without it they are skipped with a message saying how to install it, and only
the import's own message is checked.
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import pickle
import sys

import numpy as np
import pytest

from chameleon_lab import get_game
from chameleon_lab.agents import Agent, agent_from_params
from chameleon_lab.games.match import final_result
from chameleon_lab.games.registry import game_names
from chameleon_lab.search.api import search
from chameleon_lab.search.solve import solve
from chameleon_lab.tournament import Session, play_game, without_times
from chameleon_lab.tournament.play import record_positions

try:
    import pyspiel
except ImportError:  # pragma: no cover - the dev extra installs it
    pyspiel = None

INSTALL = "pip install -e '.[openspiel]'"
needs_openspiel = pytest.mark.skipif(
    pyspiel is None, reason=f"OpenSpiel is not installed: {INSTALL} (the dev extra has it)"
)

#: Game strings whose random simulations OpenSpiel checks: every game with its
#: defaults, then other parameter choices.
SPECS = [
    *(f"chameleon_lab_{name}" for name in sorted(game_names())),
    "chameleon_lab_chameleon(players=2)",
    "chameleon_lab_chameleon(players=3)",
    "chameleon_lab_chameleon(players=4,move_limit=40)",
    "chameleon_lab_chameleon(players=2,colours=RY)",
    "chameleon_lab_chameleon(players=3,colours=GYB)",
    "chameleon_lab_tictactoe()",
    "chameleon_lab_gomoku(width=5,height=4,k=3)",
    "chameleon_lab_nim(heaps=1;2;3,misere=True)",
    "chameleon_lab_nim(heaps=0;0)",
    "chameleon_lab_dice(target=15,start=1)",
    "chameleon_lab_dice(target=3,start=5)",
    "chameleon_lab_othello(variant=reversi)",
    "chameleon_lab_connect4(width=5,height=4)",
    "chameleon_lab_rolit(players=RG)",
    "chameleon_lab_rolit(players=RYG)",
    "chameleon_lab_chinesecheckers(players=2,size=2,turns=15)",
    "chameleon_lab_chinesecheckers(players=4,size=3,turns=20)",
    "chameleon_lab_focus(players=2,turns=15)",
    "chameleon_lab_focus(players=3,goal=last,turns=20)",
]


@pytest.fixture(scope="module")
def bridge():
    """The bridge, imported once (it registers the games)."""
    if pyspiel is None:
        pytest.skip(f"OpenSpiel is not installed: {INSTALL}")
    return importlib.import_module("chameleon_lab.interop.openspiel")


def test_without_openspiel_the_import_says_how_to_install_it(monkeypatch):
    for name in list(sys.modules):
        if name.startswith("chameleon_lab.interop"):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # what an absent module does
    with pytest.raises(ImportError) as caught:
        importlib.import_module("chameleon_lab.interop.openspiel")
    assert INSTALL in str(caught.value)


def test_a_game_without_a_numbering_is_refused_naming_those_with_one(monkeypatch):
    """The numbering is the game's own (its ``register_game(..., actions=)``): a game
    registered without one has no action space, and the message says how to add one."""
    from chameleon_lab.games import registry
    from chameleon_lab.interop.actions import action_space

    entry = dataclasses.replace(registry.game_entry("tictactoe"), actions=None)
    monkeypatch.setitem(registry._GAMES, "tictactoe", entry)
    message = (r"tictactoe has no action numbering yet: pass actions= to its register_game "
               r".*games with one: chameleon, chinesecheckers, connect4")  # fmt: skip
    with pytest.raises(ValueError, match=message):
        action_space(get_game("tictactoe"))
    monkeypatch.undo()
    assert action_space(get_game("tictactoe")).size == 9


@needs_openspiel
def test_every_game_is_registered_under_its_name(bridge):
    expected = sorted(f"chameleon_lab_{name}" for name in game_names())
    assert sorted(bridge.GAMES) == expected
    assert set(expected) <= set(pyspiel.registered_names())


@needs_openspiel
@pytest.mark.parametrize("spec", SPECS)
def test_openspiels_random_simulation_test_passes(bridge, spec):
    game = pyspiel.load_game(spec)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


#: (game string, players, distinct actions, longest game, min and max utility, sum of
#: the returns or None), from the games' rules as the README states them
DECLARED = [
    ("chameleon_lab_tictactoe", 2, 9, 9, -1, 1, 0),
    ("chameleon_lab_gomoku", 2, 49, 49, -1, 1, 0),
    # Pons's scores: a win with the fourth of the first player's stones, 21 + 1 - 4
    ("chameleon_lab_connect4", 2, 7, 42, -18, 18, 0),
    ("chameleon_lab_connect4(width=5,height=4)", 2, 5, 20, -7, 7, 0),  # 10 + 1 - 4
    ("chameleon_lab_othello", 2, 65, 120, -64, 64, 0),  # 64 squares and pass
    ("chameleon_lab_rolit(players=RG)", 2, 64, 60, -1, 1, 0),  # 60 placements, no pass
    ("chameleon_lab_nim", 2, 12, 12, -1, 1, 0),  # 3 + 4 + 5 objects
    # from * 128 + to over the 37 holes of the small star; 10 moves each at most
    ("chameleon_lab_chinesecheckers(players=2,size=2,turns=10)", 2, 4736, 20, -1, 1, 0),
    ("chameleon_lab_dice", 2, 6, 4, -1, 1, 0),  # 4 up to 8, at least 1 a tip
    # from * 32 + direction * 8 + k, then 2048 + the square of a reserve entry
    ("chameleon_lab_focus(players=2,turns=10)", 2, 2112, 20, -1, 1, 0),
    ("chameleon_lab_chameleon(players=2)", 2, 4096, 100, -1, 1, 0),
    ("chameleon_lab_chameleon(players=3)", 3, 4096, 100, -1, 1, -1),  # +1 -1 -1
    ("chameleon_lab_chameleon(players=4,move_limit=60)", 4, 4096, 60, -1, 1, -2),
]


@needs_openspiel
@pytest.mark.parametrize("spec, players, actions, length, low, high, total", DECLARED)
def test_type_and_info_say_what_the_game_is(
    bridge, spec, players, actions, length, low, high, total
):
    game = pyspiel.load_game(spec)
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    utility = pyspiel.GameType.Utility
    assert kind.utility == (utility.ZERO_SUM if total == 0 else utility.CONSTANT_SUM)
    assert (game.num_players(), game.num_distinct_actions(), game.max_game_length()) == (
        players,
        actions,
        length,
    )
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (low, high, total)
    assert game.max_chance_outcomes() == 0


def _random_games(game, games, seed, max_plies=None):
    """The states of ``games`` seeded random games of an OpenSpiel game."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        state = game.new_initial_state()
        states = [state]
        while not state.is_terminal() and (max_plies is None or len(states) <= max_plies):
            state = state.child(int(rng.choice(state.legal_actions())))
            states.append(state)
        yield states


ROUND_TRIPS = [
    ("chameleon_lab_tictactoe", 30, None),
    ("chameleon_lab_gomoku(width=5,height=5,k=4)", 10, None),
    ("chameleon_lab_connect4", 10, None),
    ("chameleon_lab_othello", 3, None),
    ("chameleon_lab_othello(variant=reversi)", 2, None),
    ("chameleon_lab_nim(heaps=3;0;5;2)", 20, None),
    ("chameleon_lab_dice(target=20,start=3)", 20, None),
    ("chameleon_lab_chameleon(players=2)", 3, None),
    ("chameleon_lab_chameleon(players=3,colours=RYB)", 3, None),
    ("chameleon_lab_chameleon(players=4,move_limit=300)", 2, None),
]


@needs_openspiel
@pytest.mark.parametrize("spec, games, cap", ROUND_TRIPS)
def test_actions_moves_and_returns_agree_with_our_rules(bridge, spec, games, cap):
    """Along random games: OpenSpiel's legal actions are our legal moves one to one (in
    range, sorted, named as we write them), an action plays our move, and at the end
    the returns are our game's and the best of them is our result's winner."""
    game = pyspiel.load_game(spec)
    players = game.lab_game.info.players
    space = game.space
    checked = 0
    for states in _random_games(game, games, seed=len(spec), max_plies=cap):
        for state, after in itertools.pairwise(states):
            position = state.position
            legal = state.legal_actions()
            ours = position.legal_moves
            assert legal == sorted(legal) and len(legal) == len(ours)
            assert {space.action(m) for m in ours} == set(legal)
            assert all(0 <= a < game.num_distinct_actions() for a in legal)
            named = {state.action_to_string(state.current_player(), space.action(m)) for m in ours}
            assert named == {str(m) for m in ours}
            played = after.history()[-1]
            move = next(m for m in ours if space.action(m) == played)
            assert after.position == position.play(move)
            assert state.current_player() == players.index(int(position.to_move))
            checked += 1
        final = states[-1]
        if final.is_terminal() and final.position.is_over:
            ours = final.position.returns
            assert final.returns() == [ours[p] for p in players]
            winners = final_result(final.position).survivors
            best = max(final.returns())
            assert {players[i] for i, r in enumerate(final.returns()) if r == best} == {
                int(w) for w in winners
            }
    assert checked > 0


@needs_openspiel
@pytest.mark.parametrize("spec", SPECS)
def test_games_and_states_pickle_and_come_back_whole(bridge, spec):
    game = pyspiel.load_game(spec)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.space.size == game.space.size
    (states,) = _random_games(game, 1, seed=7, max_plies=6)
    state = pickle.loads(pickle.dumps(states[-1]))
    assert state.position == states[-1].position and state.history() == states[-1].history()
    assert state.legal_actions() == states[-1].legal_actions()


@needs_openspiel
def test_the_move_limit_ends_chameleon_chess_sharing_what_is_left(bridge):
    for players, share in ((2, 0.0), (3, -1 / 3), (4, -0.5)):
        game = pyspiel.load_game(f"chameleon_lab_chameleon(players={players},move_limit=4)")
        (states,) = _random_games(game, 1, seed=players)
        final = states[-1]
        assert len(states) == 5 and final.is_terminal() and not final.position.is_over
        assert final.returns() == pytest.approx([share] * players)
        assert sum(final.returns()) == pytest.approx(game.utility_sum())


@needs_openspiel
@pytest.mark.parametrize(
    "spec, words",
    [
        ("chameleon_lab_connect4(depth=3)", ["depth", "height", "width"]),
        ("chameleon_lab_tictactoe(k=3)", ["'k'"]),
        ("chameleon_lab_othello(variant=go)", ["variant", "othello", "reversi"]),
        ("chameleon_lab_chameleon(players=5)", ["players=5", "2, 3 or 4"]),
        ("chameleon_lab_chameleon(colours=RY)", ["colours", "players=2"]),
        ("chameleon_lab_nim(heaps=3;x)", ["chameleon_lab_nim parameter heaps", "semicolons"]),
        ("chameleon_lab_gomoku(k=9)", ["k=9", "1..7"]),
        ("chameleon_lab_chameleon(move_limit=0)", ["move_limit", ">= 1"]),
    ],
)
def test_bad_parameters_are_refused_naming_them(bridge, spec, words):
    with pytest.raises((ValueError, pyspiel.SpielError)) as caught:
        pyspiel.load_game(spec)
    assert all(w in str(caught.value) for w in words), str(caught.value)


@needs_openspiel
def test_the_game_class_itself_refuses_unknown_parameters(bridge):
    """OpenSpiel checks names before it makes a game; made directly, the game does."""
    cls = type(pyspiel.load_game("chameleon_lab_connect4"))
    with pytest.raises(ValueError, match=r"no parameter 'depth'; its parameters: width, height"):
        cls({"depth": 3})
    with pytest.raises(ValueError, match=r"width='7': must be a whole number"):
        cls({"width": "7"})


# ------------------------------------------------------------ OpenSpiel's bots in ours
@needs_openspiel
def test_openspiels_mcts_bot_plays_sessions_of_ours_and_records_them(bridge):
    session = Session(
        "openspiel-mcts",
        {
            "os": {"kind": "openspiel", "bot": "mcts", "max_simulations": 30},
            "ab": {"algorithm": "alphabeta", "depth": 2},
        },
        game="connect4",
        design="every",
        seed=11,
    )
    records = [play_game(task) for task in session.tasks()]
    assert len(records) == 2
    for record in records:
        assert record["agents"]["os"] == {
            "kind": "openspiel",
            "bot": "mcts",
            "game": "connect4",
            "seed": 0,
            "max_simulations": 30,
            "uct_c": 2.0,
            "rollouts": 1,
            "solve": True,
            "max_memory_mb": 1000,
            "time_ms": None,
            "move_limit": None,
        }
        final = record_positions(record)[-1]  # every move replayed by our rules
        assert final.is_over and sorted(record["outcomes"].values()) in (
            ["draw", "draw"],
            ["loss", "win"],
        )
        os_seat = record["seats"][record["seating"].index("os")]
        os_moves = [m for m in record["moves"] if m["seat"] == os_seat]
        # its simulations: 30, fewer once MCTS-Solver has proven the root's value
        assert all(1 <= m["evaluated"] <= 30 for m in os_moves)
        assert os_moves[0]["evaluated"] == 30
    again = [play_game(task) for task in session.tasks()]
    assert [without_times(r) for r in again] == [without_times(r) for r in records]


@needs_openspiel
def test_openspiels_mcts_bot_plays_chameleon_chess_in_a_session(bridge):
    session = Session(
        "openspiel-chameleon",
        {
            "os": {"kind": "openspiel", "bot": "mcts", "max_simulations": 8, "move_limit": 6},
            "pa": {"algorithm": "paranoid", "depth": 1},
        },
        design="fixed",
        seatings=["os,pa,os,_"],
        move_limit=6,
        seed=2,
    )
    (record,) = [play_game(task) for task in session.tasks()]
    assert len(record["moves"]) == 6 and record["reason"] == "move_limit"
    assert [m["seat"] for m in record["moves"][:3]] == ["RED", "YELLOW", "GREEN"]
    assert len(record_positions(record)) == 7  # the moves are legal by our rules


@needs_openspiel
@pytest.mark.parametrize("spec, moves", [("connect4", ["4", "4", "3"]), ("tictactoe", ["b2"])])
def test_the_mcts_agent_chooses_what_openspiels_own_step_does(bridge, spec, moves):
    position = get_game(spec).from_moves(moves)
    agent = bridge.OpenSpielAgent(bot="mcts", game=spec, max_simulations=60, seed=5)
    chosen = [agent.choose(position).move for _ in range(3)]
    game = agent.openspiel_game(position.game)
    from chameleon_lab.interop.openspiel_agents import _draw

    evaluator = pyspiel.RandomRolloutEvaluator(1, _draw(5, 1))
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, 60, 1000, True, _draw(5, 0), False)
    stepped = [bot.step_with_policy(game.state_at(position))[1] for _ in range(3)]
    assert [game.space.action(m) for m in chosen] == stepped


@needs_openspiel
def test_the_tournament_command_seats_openspiels_bots(bridge, tmp_path):
    from chameleon_lab.cli import main
    from chameleon_lab.tournament import read_records

    out = tmp_path / "random.jsonl"
    args = ["tournament", "--game", "tictactoe", "--agent", "os:kind=openspiel,bot=random"]
    args += ["--agent", "ab:algorithm=alphabeta,depth=9", "--out", str(out), "--workers", "2"]
    assert main([*args, "--quiet"]) == 0  # two forked workers: they inherit the kind
    records = read_records(out)
    assert len(records) == 2 and records[0]["agents"]["os"]["bot"] == "random"
    assert all(r["outcomes"]["ab"] in ("win", "draw") for r in records)  # a draw at best


@needs_openspiel
def test_openspiel_agents_refuse_bad_parameters(bridge):
    with pytest.raises(ValueError, match=r"unknown OpenSpiel agent parameter.*depth.*valid"):
        agent_from_params({"kind": "openspiel", "depth": 3})
    with pytest.raises(ValueError, match=r"unknown OpenSpiel bot 'alphazero'; valid bots"):
        agent_from_params({"kind": "openspiel", "bot": "alphazero"})
    with pytest.raises(ValueError, match=r"move_limit must be a whole number >= 1 or None"):
        agent_from_params({"kind": "openspiel", "move_limit": 0})
    with pytest.raises(ValueError, match=r"connect4 ends by its rules.*no move_limit"):
        agent_from_params({"kind": "openspiel", "game": "connect4", "move_limit": 9})
    with pytest.raises(ValueError, match=r"unknown agent kind 'gym'; kinds known.*openspiel"):
        agent_from_params({"kind": "gym"})


# ------------------------------------------------------------ our agents as their bots
@needs_openspiel
def test_our_alphabeta_as_a_bot_never_loses_tictactoe_to_uniform_random(bridge):
    assert solve(get_game("tictactoe").start()).value == 0  # a draw with perfect play
    game = pyspiel.load_game("chameleon_lab_tictactoe")
    ours = {"algorithm": "alphabeta", "game": "tictactoe", "depth": 9}
    results = []
    for seed in range(8):
        for seat in (0, 1):
            bots = [pyspiel.make_uniform_random_bot(1 - seat, seed)] * 2
            bots[seat] = bridge.AgentBot(ours)
            results.append(pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)[seat])
    assert min(results) >= 0 and results.count(1.0) >= 8


@needs_openspiel
def test_an_agent_bot_plays_the_move_our_search_chooses(bridge):
    game = pyspiel.load_game("chameleon_lab_connect4")
    bot = bridge.AgentBot(Agent("alphabeta", game="connect4", depth=4))
    (states,) = _random_games(game, 1, seed=3, max_plies=12)
    for state in states:
        if state.is_terminal():
            continue
        position = state.position
        result = search(position, "alphabeta", depth=4)
        assert bot.step(state) == game.space.action(position.legal_moves[result.index])


@needs_openspiel
def test_our_bots_play_through_openspiels_python_evaluation(bridge):
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    game = pyspiel.load_game("chameleon_lab_chameleon(players=3,move_limit=12)")
    bots = [
        bridge.AgentBot({"algorithm": "paranoid", "depth": 1}),
        bridge.AgentBot({"algorithm": "maxn", "depth": 1}),
        pyspiel.make_uniform_random_bot(2, 1),
    ]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.default_rng(1))
    assert len(returns) == 3 and sum(returns) == pytest.approx(-1.0)


@needs_openspiel
def test_an_agent_bot_refuses_openspiels_own_games(bridge):
    bot = bridge.AgentBot({"algorithm": "alphabeta", "game": "tictactoe", "depth": 2})
    with pytest.raises(TypeError, match=r"chameleon_lab registers.*tic_tac_toe"):
        bot.step(pyspiel.load_game("tic_tac_toe").new_initial_state())
    with pytest.raises(ValueError, match="this agent plays tictactoe; the position is connect4"):
        bot.step(pyspiel.load_game("chameleon_lab_connect4").new_initial_state())
