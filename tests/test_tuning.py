"""Weighted heuristics and their tuning by self-play (issue 32, item 4).

Truths: the weighted heuristic with the thesis's weights against the thesis's own
functions and against counts made here in Python from the pawns; CMA-ES on a quadratic
whose optimum is known; an interrupted run against an uninterrupted one.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import numpy as np
import pytest
from positions import random_positions

from chameleon_lab.agents import Agent
from chameleon_lab.analysis.headtohead import DuelPlan
from chameleon_lab.analysis.tuning import (
    TuningSpec,
    against,
    check_templates,
    decide,
    score_noise,
    seat_templates,
    tune,
)
from chameleon_lab.games.chameleon import heuristics as CH
from chameleon_lab.games.chameleon import kernel as K
from chameleon_lab.games.chameleon.board import ROLE_POINTS
from chameleon_lab.games.heuristics import fingerprint
from chameleon_lab.games.othello import heuristics as OH
from chameleon_lab.games.registry import get_game
from chameleon_lab.games.weighted import (
    check_weights,
    features_of,
    weighted_function,
    weighted_heuristic,
    weighted_name,
)
from chameleon_lab.search import differential as D

POSITIONS = random_positions(300, seed=32, max_moves=80)


def _scores(function, state) -> np.ndarray:
    out = np.full(4, np.nan)
    before = state.copy()
    function(state, out)
    assert np.array_equal(state, before)  # the state is untouched
    return out


def _python_counts(state: np.ndarray) -> tuple[np.ndarray, ...]:
    """Pawns, role points, targets and closeness per player, walking the pawns here."""
    pawns, roles, targets, centre = (np.zeros(4) for _ in range(4))
    rows = state[K.MINR] + state[K.MAXR]
    cols = state[K.MINC] + state[K.MAXC]
    for s in range(state[K.NSLOTS]):
        if state[K.ALIVE + s]:
            p = state[K.PL + s]
            sq = state[K.SQ + s]
            pawns[p] += 1
            roles[p] += ROLE_POINTS[K.role_at(state, s)]
            targets[p] += K.count_targets(state, s)
            centre[p] += (14 - abs(2 * (sq // 8) - rows) - abs(2 * (sq % 8) - cols)) / 2
    return pawns, roles, targets, centre


def test_thesis_weights_give_the_thesis_heuristics_exactly() -> None:
    roles100 = weighted_function("chameleon", {"pawns": 100, "roles": 1})
    roles10 = weighted_function("chameleon", {"pawns": 10, "roles": 1})
    moves100 = weighted_function("chameleon", {"pawns": 100, "mobility": 1})
    pawns = weighted_function("chameleon", {"pawns": 1})
    for position in POSITIONS:
        state = position.state
        assert np.array_equal(_scores(roles100, state), _scores(CH.count_pawns_100_roles, state))
        assert np.array_equal(_scores(roles10, state), _scores(CH.count_pawns_10_roles, state))
        assert np.array_equal(_scores(moves100, state), _scores(CH.count_pawns_100_moves, state))
        assert np.array_equal(_scores(pawns, state), _scores(CH.count_pawns, state))


def test_every_feature_against_counts_made_in_python() -> None:
    weights = {"pawns": 3.0, "roles": 0.5, "mobility": 0.25, "centre": 2.0}
    function = weighted_function("chameleon", weights)
    for position in POSITIONS[:150]:
        state = position.state
        pawns, roles, targets, centre = _python_counts(state)
        expected = 3.0 * pawns + 0.5 * roles + 0.25 * targets + 2.0 * centre
        assert np.allclose(_scores(function, state), expected, rtol=0, atol=1e-9)
        assert (centre >= 0).all() and (centre <= 7 * pawns).all()


def test_othello_weights_give_its_heuristics_exactly() -> None:
    rng = random.Random(4)
    game = get_game("othello")
    discs = weighted_function("othello", {"discs": 1})
    mobility = weighted_function("othello", {"mobility": 1, "corners": 10})
    for _ in range(20):
        position = game.start()
        for _ in range(rng.randint(0, 58)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves))
            state = position.state
            assert np.array_equal(_scores(discs, state), _scores(OH.discs, state))
            assert np.array_equal(_scores(mobility, state), _scores(OH.mobility, state))


def test_connect_four_weights_give_its_heuristics_exactly() -> None:
    from chameleon_lab.games.connect4 import heuristics as C4

    rng = random.Random(5)
    game = get_game("connect4")
    lines = weighted_function("connect4", {"stones": 1})
    weighted_lines = weighted_function("connect4", {"stones": 1, "pairs": 2, "triples": 7})
    seen = 0
    for _ in range(30):
        position = game.start()
        while not position.is_over:
            position = position.play(rng.choice(position.legal_moves))
            state = position.state
            assert np.array_equal(_scores(lines, state), _scores(C4.lines, state))
            assert np.array_equal(_scores(weighted_lines, state), _scores(C4.weighted_lines, state))
            seen += 1
    assert seen > 300


def test_the_name_and_fingerprint_change_with_the_weights() -> None:
    a = weighted_heuristic("chameleon", {"pawns": 100, "roles": 1})
    same = weighted_heuristic("chameleon", {"pawns": 100.0, "roles": 1.0, "centre": 0})
    b = weighted_heuristic("chameleon", {"pawns": 100, "roles": 1.5})
    assert a is same and a.function is same.function
    assert a.name.startswith("weighted-") and a.name != b.name
    assert a.fingerprint != b.fingerprint
    assert a.name in get_game("chameleon").heuristics
    assert a.doc == "Weighted heuristic of chameleon: pawns 100, roles 1, mobility 0, centre 0"
    # a fresh compile of the same weights has the same fingerprint (it travels by it)
    again = CH.weighted_evaluator(100.0, 1.0, 0.0, 0.0)
    assert again is not a.function and fingerprint(again) == a.fingerprint
    assert weighted_name("othello", {"discs": 1}) != weighted_name("chameleon", {"pawns": 1})
    # an agent records the fingerprint and refuses a record of other weights
    agent = Agent("paranoid", heuristic=a.name, depth=1)
    assert agent.params()["heuristic_code"] == a.fingerprint
    with pytest.raises(ValueError, match="has changed"):
        Agent.from_params({**agent.params(), "heuristic_code": b.fingerprint})


def test_functions_without_closed_numbers_keep_their_fingerprints() -> None:
    import hashlib
    import inspect

    source = inspect.getsource(CH.count_pawns.py_func).encode()
    assert fingerprint(CH.count_pawns) == hashlib.sha256(source).hexdigest()[:12]


@pytest.mark.parametrize(
    ("game", "weights", "match"),
    [
        ("chameleon", {"discs": 1}, "chameleon has no feature 'discs'; its features: pawns"),
        ("othello", {"pawns": 1}, "othello has no feature 'pawns'; its features: discs"),
        ("chameleon", {"pawns": -1}, "weight of pawns must be a finite number >= 0, got -1"),
        ("chameleon", {"pawns": float("nan")}, "weight of pawns must be a finite"),
        ("chameleon", {"pawns": "1"}, "weight of pawns must be a number"),
        ("chameleon", {"pawns": 0}, "at least one weight must be above 0"),
        ("nim", {"pawns": 1}, "nim has no weighted heuristic; games with one: chameleon"),
    ],
)
def test_bad_weights(game: str, weights: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        check_weights(game, weights)


# ----------------------------------------------------------------------------- tuner

OPTIMUM = np.array([5.0, 3.0, 7.0])


def quadratic(x: np.ndarray, generation: int) -> list[float]:
    """A score whose maximum, 0, is at OPTIMUM (inside the default bounds)."""
    return list(-((x - OPTIMUM) ** 2).sum(axis=1))


SPEC = TuningSpec(popsize=8, generations=30, sigma0=0.3, seed=3)


def test_a_weights_name_is_the_weighted_heuristic_in_any_process() -> None:
    """``weights:stones=1,pairs=2,triples=7`` is ``weighted_lines`` (the same weights):
    the same value and move at every position; its agent's recorded parameters make the
    same agent in a fresh interpreter, which has registered nothing."""
    spec = "weights:stones=1,pairs=2,triples=7"
    named = Agent("alphabeta", game="connect4", heuristic=spec, depth=3)
    plain = Agent("alphabeta", game="connect4", heuristic="weighted_lines", depth=3)
    assert named.heuristic == "weights:stones=1.0,pairs=2.0,triples=7.0"  # canonical
    game = get_game("connect4")
    for pos in D.game_positions(game, 6, seed=2):
        a, b = named.choose(pos), plain.choose(pos)
        assert a.move == b.move and a.pv == b.pv
        np.testing.assert_array_equal(a.scores, b.scores)
    params = json.dumps(named.params())
    script = (
        "import json; from chameleon_lab.agents import agent_from_params; "
        f"a = agent_from_params(json.loads({params!r})); print(a.heuristic, a.heuristic_code)"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, check=True)  # fmt: skip
    assert done.stdout.split() == [named.heuristic, named.heuristic_code]


@pytest.mark.parametrize(
    "name, match",
    [
        ("weights:", r"has the form weights:stones=<number>,pairs=<number>,triples=<number>"),
        ("weights:stones=x", r"'stones=x' in 'weights:stones=x': each part is feature=number"),
        ("weights:stones=1,stones=2", "each part is feature=number, once"),
        ("weights:kings=1", "connect4 has no feature 'kings'; its features: stones"),
        ("weights:stones=-1", "the weight of stones must be a finite number >= 0, got -1.0"),
        ("weights:stones=nan", "the weight of stones must be a finite number"),
    ],
)
def test_bad_weights_names_say_what_would_be_right(name: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        Agent("alphabeta", game="connect4", heuristic=name, depth=1)


def test_cma_es_finds_the_optimum_of_a_quadratic_and_repeats_itself() -> None:
    result = tune(SPEC, objective=quadratic, progress=False)
    tuned = np.array([result.weights[f] for f in SPEC.features])
    assert np.abs(tuned - OPTIMUM).max() < 0.1
    assert result.weights["pawns"] == 100.0 and result.best_score > -0.01
    assert result.generations == 30 and len(result.history) == 30 * 8
    curve = result.curve
    assert curve["best"].iloc[-1] > curve["best"].iloc[0]
    again = tune(SPEC, objective=quadratic, progress=False)
    assert again.weights == result.weights and again.history.equals(result.history)
    other = tune(TuningSpec(popsize=8, generations=30, sigma0=0.3, seed=4), objective=quadratic,
                 progress=False)  # fmt: skip
    assert other.weights != result.weights


def test_the_global_random_state_neither_moves_nor_is_moved() -> None:
    np.random.seed(0)  # noqa: NPY002
    before = np.random.get_state()[1].copy()  # noqa: NPY002
    quiet = tune(SPEC, objective=quadratic, progress=False)
    assert np.array_equal(np.random.get_state()[1], before)  # noqa: NPY002

    def noisy(x: np.ndarray, generation: int) -> list[float]:
        np.random.random(5)  # noqa: NPY002 - the caller's stream, drawn between asks
        return quadratic(x, generation)

    assert tune(SPEC, objective=noisy, progress=False).weights == quiet.weights


def test_an_interrupted_run_ends_as_an_uninterrupted_one(tmp_path) -> None:
    whole = tune(SPEC, tmp_path / "whole.jsonl", objective=quadratic, progress=False)
    log = tmp_path / "parts.jsonl"
    first = tune(SPEC, log, objective=quadratic, progress=False, stop_after=11)
    assert first.generations == 11
    calls = []

    def counting(x: np.ndarray, generation: int) -> list[float]:
        calls.append(generation)
        return quadratic(x, generation)

    rest = tune(SPEC, log, objective=counting, progress=False)
    assert calls == list(range(11, 30))  # only the missing generations were scored
    assert rest.weights == whole.weights and rest.history.equals(whole.history)
    assert log.read_text() == (tmp_path / "whole.jsonl").read_text()


def test_a_run_killed_in_a_generation_resumes_there(tmp_path) -> None:
    log = tmp_path / "log.jsonl"

    def interrupted(x: np.ndarray, generation: int) -> list[float]:
        if generation == 7:
            raise KeyboardInterrupt  # Ctrl-C while the generation's games are played
        return quadratic(x, generation)

    with pytest.raises(KeyboardInterrupt):
        tune(SPEC, log, objective=interrupted, progress=False)
    assert len(log.read_text().splitlines()) == 1 + 7  # the header and generations 0-6
    resumed = tune(SPEC, log, objective=quadratic, progress=False)
    assert resumed.weights == tune(SPEC, objective=quadratic, progress=False).weights


def test_a_log_continues_into_more_generations(tmp_path) -> None:
    short = TuningSpec(popsize=8, generations=10, sigma0=0.3, seed=3)
    assert short.fingerprint == SPEC.fingerprint  # generations are not part of it
    assert short.log_file(tmp_path) == SPEC.log_file(tmp_path)
    assert TuningSpec(popsize=8, generations=10, seed=3).fingerprint != SPEC.fingerprint
    log = SPEC.log_file(tmp_path)
    tune(short, log, objective=quadratic, progress=False)
    calls = []

    def counting(x: np.ndarray, generation: int) -> list[float]:
        calls.append(generation)
        return quadratic(x, generation)

    longer = tune(SPEC, log, objective=counting, progress=False)
    assert calls == list(range(10, 30))
    assert longer.weights == tune(SPEC, objective=quadratic, progress=False).weights


def test_a_torn_last_line_is_cut_and_the_generation_scored_again(tmp_path) -> None:
    log = tmp_path / "log.jsonl"
    tune(SPEC, log, objective=quadratic, progress=False, stop_after=5)
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:-1]) + lines[-1][:40])  # killed while writing generation 4
    calls = []

    def counting(x: np.ndarray, generation: int) -> list[float]:
        calls.append(generation)
        return quadratic(x, generation)

    result = tune(SPEC, log, objective=counting, progress=False, stop_after=6)
    assert calls == [4, 5] and result.generations == 6
    assert [json.loads(line).get("generation") for line in log.read_text().splitlines()] == [
        None, 0, 1, 2, 3, 4, 5
    ]  # fmt: skip


def test_a_log_of_another_spec_is_refused(tmp_path) -> None:
    log = tmp_path / "log.jsonl"
    tune(SPEC, log, objective=quadratic, progress=False, stop_after=2)
    other = TuningSpec(popsize=8, generations=30, sigma0=0.3, seed=5)
    with pytest.raises(ValueError, match="log of another tuning run"):
        tune(other, log, objective=quadratic, progress=False)


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (
            {"low": (0.0, 5.0, 0.0), "high": (20.0, 2.0, 10.0)},
            "mobility must have low below high, got low=5 > high=2",
        ),
        ({"low": (1.0, 0.0, 0.0), "high": (1.0, 10.0, 10.0)}, "low = high = 1"),
        ({"low": (-1.0, 0.0, 0.0)}, "low bound of roles must be >= 0"),
        ({"x0": (30.0, 0.0, 0.0)}, "x0 of roles must lie within"),
        ({"x0": (1.0, 0.0)}, "x0 must be 3 finite numbers"),
        ({"features": ("roles", "discs")}, "chameleon has no feature 'discs'; its features"),
        ({"fixed": {"roles": 2.0}}, "roles: tuned and fixed at once"),
        ({"sigma0": 0.0}, "sigma0 must be a number in"),
        ({"popsize": 1}, "popsize must be a whole number >= 2, got 1"),
        ({"generations": 0}, "generations must be a whole number >= 1"),
        ({"seed": -1}, "seed must be a whole number >= 0"),
        ({"opponent": "nonsense"}, "unknown heuristic 'nonsense'"),
        ({"templates": ("X,X,_,_",)}, "X \\(the candidate\\) once"),
        ({"game": "nim"}, "nim has no weighted heuristic"),
    ],
)
def test_bad_specs(change: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        TuningSpec(**change)


def test_an_objective_must_score_every_candidate() -> None:
    with pytest.raises(ValueError, match="must return 8 finite scores"):
        tune(SPEC, objective=lambda x, g: [0.0], progress=False)


def test_a_spec_survives_its_dict() -> None:
    assert TuningSpec.from_dict(json.loads(json.dumps(SPEC.to_dict()))) == SPEC
    with pytest.raises(ValueError, match="unknown tuning key"):
        TuningSpec.from_dict({"weights": 1})


# ----------------------------------------------------------------------- real games


@pytest.mark.slow
def test_a_tiny_real_run_end_to_end(tmp_path) -> None:
    """Two generations of two candidates, depth 1, two games each, in this process;
    then the tuned heuristic against two of the thesis's. (Each candidate's weights are
    compiled into its own heuristic and searches: more candidates cost compile time and
    check nothing more.)"""
    spec = TuningSpec(popsize=2, generations=2, depth=1, repetitions=1, seed=2, opening_plies=2)
    log, records = tmp_path / "log.jsonl", tmp_path / "records"
    result = tune(spec, log, records=records, workers=1, progress=False)
    assert result.generations == 2 and len(result.history) == 4
    assert result.history["score"].between(0, 1).all()
    assert len(list(records.glob("tuning-g00*.jsonl"))) == 2
    again = tune(spec, log, records=records, workers=1, progress=False)  # all from the log
    assert again.weights == result.weights
    tuned = result.heuristic()
    assert tuned.name.startswith("weighted-")
    table = against(tuned.name, ("pawns", "pawns100roles"), budget={"depth": 1}, repetitions=1,
                    opening_plies=2, workers=1, progress=False)  # fmt: skip
    assert list(table["opponent"]) == ["pawns", "pawns100roles"]
    assert (table["games"] == 2).all()
    assert (table["ci_low"] <= table["win_rate"]).all()
    assert (table["win_rate"] <= table["ci_high"]).all()
    noise = score_noise(result, records)
    assert list(noise["generation"]) == [0, 1] and (noise["games"] == 2).all()
    for row in noise.itertuples():  # the noise by hand from the records' outcomes
        points: dict[str, list[float]] = {}
        for path in records.glob(f"tuning-g{row.generation:03d}-*.jsonl"):
            for r in map(json.loads, path.read_text().splitlines()):
                for name, outcome in r["outcomes"].items():
                    if name.startswith("c"):  # the candidates, not the opponent
                        win = {"win": 1.0, "draw": 0.5}.get(outcome, 0.0)
                        points.setdefault(name, []).append(win)
        ses = [np.std(v, ddof=1) / np.sqrt(len(v)) for v in points.values()]
        assert row.noise == pytest.approx(np.sqrt(np.mean(np.square(ses))))
        spread = result.history.query(f"generation == {row.generation}")["score"].std(ddof=1)
        assert row.spread == pytest.approx(spread)
        assert row.signal == pytest.approx(np.sqrt(max(spread**2 - row.noise**2, 0.0)))
    duels_t, duels = decide(tuned.name, "pawns100roles", [{"depth": 1}], records, players=3,
                            plan=DuelPlan(max_blocks=2, workers=1, progress=False),
                            opening_plies=2)  # fmt: skip
    (row,) = duels.itertuples()
    assert (row.budget, row.players, row.blocks, row.games) == ("depth 1", 3, 2, 12)
    assert len(duels_t.games) == 12 and set(duels_t.seats["agent"]) == {"tuned", "pawns100roles"}
    with pytest.raises(ValueError, match="budgets must be a list"):
        decide(tuned.name, "pawns100roles", {"depth": 1}, records)
    with pytest.raises(ValueError, match="rival_label must be a non-empty name"):
        decide(tuned.name, "pawns100roles", [{"depth": 1}], records, rival_label="")
    with pytest.raises(ValueError, match="label must be a name other than the opponent's"):
        decide(tuned.name, "pawns100roles", [{"depth": 1}], records, rival_label="tuned")
    with pytest.raises(ValueError, match="budget must be one of"):
        against(tuned.name, budget={"depth": 1, "time_ms": 10})
    with pytest.raises(ValueError, match="budget must be one of"):
        against(tuned.name, budget={"plies": 1})
    with pytest.raises(ValueError, match="unknown heuristic 'nonsense'"):
        against(tuned.name, ("nonsense",), budget={"depth": 1}, workers=1, progress=False)


def test_seat_templates_put_the_candidate_at_each_seat_once() -> None:
    assert seat_templates("chameleon", 3) == ("X,O,O,_", "O,X,O,_", "O,O,X,_")
    four = seat_templates("chameleon", 4)
    assert sorted(t.split(",").index("X") for t in four) == [0, 1, 2, 3]
    assert all(t.count("O") == 3 for t in four) and check_templates(four) == four
    assert seat_templates("chameleon", 2) == ("X,O,_,_", "O,X,_,_")
    assert seat_templates("othello") == ("X,O", "O,X")
    with pytest.raises(ValueError, match=r"players must be a whole number 2\.\.2 for othello"):
        seat_templates("othello", 3)
    with pytest.raises(ValueError, match=r"2\.\.4 for chameleon, got 5"):
        seat_templates("chameleon", 5)


def test_othello_and_connect_four_get_their_own_opponent_and_seatings() -> None:
    for game, opponent in [("othello", "hard"), ("connect4", "aggressive3")]:
        one = features_of(game)[:1]
        spec = TuningSpec(game=game, features=one, x0=(1.0,), low=(0.0,), high=(2.0,), fixed={})
        assert spec.opponent == opponent and spec.templates == ("X,O", "O,X")


@pytest.mark.slow
def test_the_same_tuner_tunes_connect_four() -> None:
    """The tuner end to end on another game than Chameleon Chess (Connect Four: its
    weighted searches compile in a fifth of Othello's time, and Othello's features are
    checked against its heuristics above)."""
    spec = TuningSpec(
        game="connect4",
        features=("pairs", "triples"),
        x0=(1.0, 10.0),
        low=(0.0, 0.0),
        high=(5.0, 40.0),
        fixed={"stones": 1.0},
        popsize=2,
        generations=1,
        depth=1,
        repetitions=1,
        opening_plies=2,
        name="connect4-tuning",
    )
    result = tune(spec, workers=1, progress=False)
    assert len(result.history) == 2 and result.history["score"].between(0, 1).all()
    assert set(result.weights) == {"stones", "pairs", "triples"}
