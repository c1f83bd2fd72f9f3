"""SPSA tuning (issue 44, item 8): against theory and a known optimum.

Truths: SPSA's step written out by hand from Spall's formulas; on a noisy match whose
expected score is a logistic of the two sides' distances to a known optimum, SPSA's
averaged iterate ends near that optimum; an interrupted run ends as an uninterrupted
one; the gradient test finds a weight that decides the match and none in pure noise.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from chameleon_lab.analysis.claims import holm
from chameleon_lab.analysis.spsa import (
    SPSASpec,
    games_per_iteration,
    iteration_session,
    movement_test,
    movement_tests,
    spsa,
)
from chameleon_lab.analysis.tuning import TuningSpec, at_players, player_counts, seat_templates

TUNING = TuningSpec(
    game="chameleon",
    features=("roles", "mobility", "centre"),
    x0=(1.0, 0.0, 0.0),
    low=(0.0, 0.0, 0.0),
    high=(20.0, 10.0, 10.0),
    seed=5,
    depth=1,
    templates=seat_templates("chameleon", 3),
    name="t",
)
#: the optimum of the synthetic match, in the tuned weights' units
OPTIMUM = np.array([8.0, 6.0, 2.0])


def match(games: int = 24, seed: int = 0):
    """A noisy match: each side's strength is minus its scaled squared distance to
    OPTIMUM, the plus side wins a game with the logistic probability of the strength
    gap (slope 4), ``games`` games an iteration, drawn with a seeded generator."""
    rng = np.random.default_rng(seed)

    def objective(plus: np.ndarray, minus: np.ndarray, k: int) -> float:
        z = TUNING.scale
        gap = -np.sum((z(plus) - z(OPTIMUM)) ** 2) + np.sum((z(minus) - z(OPTIMUM)) ** 2)
        p = 1.0 / (1.0 + math.exp(-4.0 * gap))
        return float(rng.binomial(games, p) / games)

    return objective


def test_a_step_is_spalls_formula_by_hand() -> None:
    spec = SPSASpec(TUNING, iterations=3, a=0.2, c=0.05, A=1.0)
    theta = TUNING.scale(TUNING.x0)
    seen = []

    def objective(plus: np.ndarray, minus: np.ndarray, k: int) -> float:
        seen.append((plus.copy(), minus.copy()))
        return [0.75, 0.25, 0.5][k]

    result = spsa(spec, objective=objective, progress=False)
    for k in range(3):
        a_k = 0.2 / (k + 1 + 1.0) ** 0.602
        c_k = 0.05 / (k + 1) ** 0.101
        assert (a_k, c_k) == pytest.approx(spec.gains(k))
        delta = spec.delta(k)
        assert set(delta) <= {-1.0, 1.0}
        z_plus = np.clip(theta + c_k * delta, 0, 1)
        z_minus = np.clip(theta - c_k * delta, 0, 1)
        assert np.allclose(TUNING.scale(seen[k][0]), z_plus)
        assert np.allclose(TUNING.scale(seen[k][1]), z_minus)
        y = [0.75, 0.25, 0.5][k]
        grad = (2 * y - 1) / (z_plus - z_minus)
        inside = (z_plus > 0) & (z_plus < 1) & (z_minus > 0) & (z_minus < 1)
        # inside the bounds the played difference is 2 c_k Delta, Spall's estimate
        assert np.allclose(grad[inside], ((2 * y - 1) / (2 * c_k) * delta)[inside])
        row = result.history.iloc[k]
        assert np.allclose([row[f"grad_{f}"] for f in TUNING.features], grad)
        assert np.allclose([row[f] for f in TUNING.features], TUNING.unscale(theta))
        theta = np.clip(theta + a_k * grad, 0, 1)
    assert np.allclose([result.final_weights[f] for f in TUNING.features], TUNING.unscale(theta))


def test_spsa_finds_a_known_optimum_under_noise() -> None:
    spec = SPSASpec(TUNING, iterations=200, a=0.1, c=0.2)
    result = spsa(spec, objective=match(), progress=False)
    tuned = TUNING.scale([result.weights[f] for f in TUNING.features])
    start = TUNING.scale(TUNING.x0)
    target = TUNING.scale(OPTIMUM)
    assert np.linalg.norm(tuned - target) < 0.1  # from 0.55 away
    assert np.linalg.norm(start - target) > 0.5
    signal = movement_test(result)
    found = signal.set_index("feature")["found"]
    assert found["roles"] == "raise" and found["mobility"] == "raise"  # not by luck


def test_pure_noise_shows_no_gradient() -> None:
    rng = np.random.default_rng(1)

    def coin(plus: np.ndarray, minus: np.ndarray, k: int) -> float:
        return float(rng.binomial(24, 0.5) / 24)  # the weights change nothing

    result = spsa(SPSASpec(TUNING, iterations=60), objective=coin, progress=False)
    signal = movement_test(result)
    assert (signal["found"] == "none").all()
    assert (signal["noise"] > 0).all() and (signal["moved"].abs() <= signal["noise"]).all()


def test_a_weight_that_decides_the_match_is_found_and_the_others_not() -> None:
    rng = np.random.default_rng(2)

    def roles_decide(plus: np.ndarray, minus: np.ndarray, k: int) -> float:
        p = 0.5 + 0.3 * np.sign(plus[0] - minus[0])  # more roles weight wins
        return float(rng.binomial(24, p) / 24)

    result = spsa(SPSASpec(TUNING, iterations=60), objective=roles_decide, progress=False)
    signal = movement_test(result).set_index("feature")
    assert signal.at["roles", "found"] == "raise"
    assert (signal.drop("roles")["found"] == "none").all()
    assert result.weights["roles"] > TUNING.x0[0]


def test_an_interrupted_run_ends_as_an_uninterrupted_one(tmp_path) -> None:
    spec = SPSASpec(TUNING, iterations=30)
    whole = spsa(spec, tmp_path / "whole.jsonl", objective=match(seed=3), progress=False)
    log = tmp_path / "parts.jsonl"
    objective = match(seed=3)
    first = spsa(spec, log, objective=objective, progress=False, stop_after=11)
    assert first.iterations == 11
    calls = []

    def counting(plus: np.ndarray, minus: np.ndarray, k: int) -> float:
        calls.append(k)
        return objective(plus, minus, k)

    rest = spsa(spec, log, objective=counting, progress=False)
    assert calls == list(range(11, 30))  # only the missing iterations were played
    assert rest.weights == whole.weights and rest.history.equals(whole.history)
    assert log.read_text() == (tmp_path / "whole.jsonl").read_text()


def test_a_torn_last_line_is_cut_and_another_runs_log_refused(tmp_path) -> None:
    spec = SPSASpec(TUNING, iterations=6)
    log = tmp_path / "log.jsonl"
    spsa(spec, log, objective=match(), progress=False, stop_after=4)
    with open(log, "a") as f:
        f.write('{"iteration": 4, "plus"')  # killed while writing
    resumed = spsa(spec, log, objective=match(), progress=False)
    assert resumed.iterations == 6 and len(log.read_text().splitlines()) == 1 + 6
    other = SPSASpec(TUNING, iterations=6, c=0.3)
    assert other.log_file(tmp_path) != spec.log_file(tmp_path)
    with pytest.raises(ValueError, match="log of another SPSA run"):
        spsa(other, log, objective=match(), progress=False)


def test_cma_only_fields_do_not_change_the_run() -> None:
    import dataclasses

    cma = dataclasses.replace(TUNING, popsize=9, sigma0=0.5, generations=2, repetitions=7)
    assert SPSASpec(cma).fingerprint == SPSASpec(TUNING).fingerprint
    assert (
        SPSASpec(dataclasses.replace(TUNING, depth=2)).fingerprint != SPSASpec(TUNING).fingerprint
    )


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("iterations", 0, "iterations must be a whole number > 0"),
        ("iterations", 2.5, "iterations must be a whole number > 0"),
        ("blocks", True, "blocks must be a whole number > 0"),
        ("a", -1.0, "a must be a finite number > 0"),
        ("a", math.inf, "a must be a finite number > 0"),
        ("c", 0.7, r"c must be a number in \(0, 0.5\]"),
        ("A", -1, "A must be a number >= 0"),
        ("alpha", 0.0, r"alpha must be a number in \(0, 1\]"),
        ("gamma", 2, r"gamma must be a number in \(0, 1\]"),
    ],
)
def test_bad_values_are_named(field: str, value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SPSASpec(TUNING, **{field: value})
    with pytest.raises(ValueError, match="tuning must be a TuningSpec"):
        SPSASpec({"game": "chameleon"})  # type: ignore[arg-type]


def test_an_iteration_is_balanced_blocks_of_distinct_openings() -> None:
    spec = SPSASpec(TUNING, blocks=3)
    assert spec.players == 3 and games_per_iteration(spec) == 3 * 6
    plus, minus = np.array([2.0, 1.0, 0.0]), np.array([0.0, 0.0, 1.0])
    session = iteration_session(spec, plus, minus, 4)
    tasks = list(session.tasks())
    openings = {task.opening_moves for task in tasks}
    assert len(openings) == 3  # one distinct opening a block
    seats = {"plus": [0] * 4, "minus": [0] * 4}
    for task in tasks:
        for seat, agent in enumerate(task.seating):
            if agent is not None:
                seats[agent][seat] += 1
    assert seats["plus"] == seats["minus"]  # every seat equally often for both
    other = iteration_session(spec, plus, minus, 5)
    assert {t.opening_moves for t in other.tasks()}.isdisjoint(openings)
    names = {a["heuristic"] for a in session.agents.values()}
    assert len(names) == 2 and all(n.startswith("weighted-") for n in names)


def test_a_real_iteration_plays_and_resumes_from_its_records(tmp_path) -> None:
    spec = SPSASpec(TUNING, iterations=1, blocks=1)
    first = spsa(spec, spec.log_file(tmp_path), records=tmp_path, workers=1, progress=False)
    assert first.iterations == 1 and 0.0 <= first.history["score"].iloc[0] <= 1.0
    spec.log_file(tmp_path).unlink()  # the log lost, the games kept: replayed from records
    again = spsa(spec, spec.log_file(tmp_path), records=tmp_path, workers=1, progress=False)
    assert again.history.equals(first.history)


def test_runs_at_several_player_counts_are_one_holm_family() -> None:
    """movement_tests: one run alone is movement_test with a players column; two runs
    share one Holm family (p_holm of the six weights is Holm over their six p's)."""
    rng = np.random.default_rng(3)

    def roles_decide(plus: np.ndarray, minus: np.ndarray, k: int) -> float:
        p = 0.5 + 0.3 * np.sign(plus[0] - minus[0])
        return float(rng.binomial(24, p) / 24)

    def coin(plus: np.ndarray, minus: np.ndarray, k: int) -> float:
        return float(rng.binomial(24, 0.5) / 24)

    specs = at_players(TUNING, [3, 4])
    runs = {
        3: spsa(SPSASpec(specs[3], iterations=40), objective=roles_decide, progress=False),
        4: spsa(SPSASpec(specs[4], iterations=40), objective=coin, progress=False),
    }
    alone = movement_test(runs[3])
    one = movement_tests({3: runs[3]})
    assert one["players"].tolist() == [3, 3, 3]
    assert np.allclose(one["p_holm"], alone["p_holm"]) and (one["found"] == alone["found"]).all()
    both = movement_tests(runs)
    assert both["players"].tolist() == [3, 3, 3, 4, 4, 4]
    assert np.allclose(both["p_holm"], holm(both["p"].to_numpy()))
    assert (both["p_holm"] >= np.concatenate([alone["p_holm"], both["p"][3:]]) - 1e-12).all()
    found = both.set_index(["players", "feature"])["found"]
    assert found[(3, "roles")] == "raise" and (found.loc[4] == "none").all()


def test_a_spec_per_player_count_is_the_spec_of_that_count_alone() -> None:
    """at_players keeps every field but the seats, so a run at [3, 4] resumes the
    logs of runs made at 3 and at 4 alone (the same fingerprints)."""
    specs = at_players(TUNING, [3, 4])
    assert specs[3] == TUNING
    assert specs[4].templates == seat_templates("chameleon", 4)
    assert SPSASpec(specs[3]).fingerprint == SPSASpec(TUNING).fingerprint
    assert player_counts("chameleon", 3) == [3]
    for bad in ([], [3, 3], [5], [True], "3", {3: 1}):
        with pytest.raises(ValueError, match="players must"):
            player_counts("chameleon", bad)
