"""``python -m chameleon_lab.conformance`` as CONTRACT.md describes it, run as a real process."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from chameleon_lab.games.chameleon import Position


def run(args: list[str], lines: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "chameleon_lab.conformance", *args],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_successors_command_answers_each_line(successor_records):
    records = successor_records[:25]
    proc = run(["successors"], [json.dumps(r["state"]) for r in records])
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(records)
    for answer, rec in zip(answers, records, strict=True):
        assert [Position.from_legacy(s).to_compact() for s in answer] == rec["successors"]


def test_perft_command_matches_perft_json(conformance_dir):
    records = json.loads((conformance_dir / "perft.json").read_text())
    proc = run(["perft", "4"], [json.dumps(r["state"]) for r in records])
    assert proc.returncode == 0, proc.stderr
    assert [int(x) for x in proc.stdout.split()] == [r["perft"][3] for r in records]


def test_perft_of_depth_zero_and_of_a_finished_game_is_one():
    over = Position.from_compact("1|4,6,1,3|1343").to_legacy()  # only GREEN left
    start = Position.start().to_legacy()
    proc = run(["perft", "0"], [json.dumps(start)])
    assert proc.stdout.split() == ["1"]
    proc = run(["perft", "3"], [json.dumps(over)])
    assert proc.stdout.split() == ["1"]


GOOD = Position.start().to_legacy()


def _bad(mutate) -> str:
    obj = json.loads(json.dumps(GOOD))
    mutate(obj)
    return json.dumps(obj)


def _set(path, value):
    def mutate(obj):
        target = obj
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


BAD_LINES = {
    "not JSON": ("{not json", "not JSON"),
    "two pawns on one field": (
        _bad(_set(["pawns", 1, "position"], {"row": 7, "col": 0})),
        "both stand on",
    ),
    "pawn outside the limits": (
        _bad(_set(["limits"], {"minRow": 0, "maxRow": 6, "minCol": 0, "maxCol": 7})),
        "outside the limits",
    ),
    "player to move without pawns": (
        json.dumps(Position.start("RG").to_legacy() | {"player": 2}),
        "has no pawns",
    ),
    "limits smaller than 3x3": (_bad(_set(["limits", "maxRow"], 1)), "3x3"),
    "limits larger than the board": (_bad(_set(["limits", "maxCol"], 8)), "off the board"),
    "unknown role mapping": (
        _bad(_set(["pawns", 0, "roles"], {"0": 0, "1": 0, "2": 2, "3": 3})),
        "not one of the four role mappings",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_LINES))
@pytest.mark.parametrize("command", [["successors"], ["perft", "2"]])
def test_bad_input_names_the_line_and_exits_2(case, command):
    line, fragment = BAD_LINES[case]
    proc = run(command, [json.dumps(GOOD), "", line, json.dumps(GOOD)])
    assert proc.returncode == 2
    assert proc.stderr.startswith("line 3: ")
    assert fragment in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert len(proc.stdout.splitlines()) == 1  # the good first line was answered


def test_bad_arguments_exit_2():
    assert run(["perft", "-1"], []).returncode == 2
    assert run(["perft", "two"], []).returncode == 2
    assert run(["frobnicate"], []).returncode == 2


def test_choose_normalises_maxn_and_maxnis_whatever_it_is_given():
    """CONTRACT.md: ``normalize`` matters for paranoid and hypermax only (maxn and maxnis
    always normalise, as the original had no switch for them): the registry marks
    exactly those two, and a choose line answers with the normalised search's move
    whatever flag it carries, at a position where MaxN without normalisation moves
    otherwise."""
    import random

    from chameleon_lab.conformance import answer_choose
    from chameleon_lab.search.registry import ALGORITHMS
    from chameleon_lab.thesis.driver import thesis_search

    assert {a.name for a in ALGORITHMS.values() if a.normalize_always} == {"maxn", "maxnis"}
    rng = random.Random(1)  # 20 random plies of three players (found by trying seeds)
    position = Position.start(rng.choice(["RGY", "RGYB"]))
    for _ in range(rng.randrange(2, 30)):
        position = rng.choice(position.successors())
    search = {"depth": 2, "heuristic": "pawns10roles"}
    normalised = thesis_search(position, "maxn", normalize=True, **search).index
    assert thesis_search(position, "maxn", normalize=False, **search).index != normalised
    query = {"state": position.to_legacy(), "eval": "pawns10roles", "depth": 2}
    for algorithm in ("maxn", "maxnis"):
        answer = thesis_search(position, algorithm, normalize=True, **search).index
        for flag in ({"normalize": False}, {"normalize": True}, {}):
            got = answer_choose({**query, "algorithm": algorithm, **flag})
            assert got["index"] == answer, (algorithm, flag)


@pytest.mark.parametrize(
    ("algorithm", "words"),
    [(5, "algorithm must be a name such as 'maxn', got 5"), ("maxm", "unknown algorithm 'maxm'")],
)
def test_choose_refuses_an_algorithm_it_does_not_know(algorithm, words):
    query = {"state": GOOD, "algorithm": algorithm, "eval": "pawns", "depth": 1}
    proc = run(["choose"], [json.dumps(query)])
    assert proc.returncode == 2 and proc.stderr.startswith("line 1: ")
    assert words in proc.stderr
