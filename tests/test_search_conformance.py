"""The thesis-flavour searches against the original program's recorded choices."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from chameleon_lab.games.chameleon import Position
from chameleon_lab.thesis.driver import thesis_search


@pytest.fixture(scope="module")
def choice_records(conformance_dir):
    with (conformance_dir / "choices.jsonl").open() as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _settings(name: str) -> tuple[str, bool]:
    if name.endswith("_norm"):
        return name[: -len("_norm")], True
    return name, name in ("maxn", "maxnis")


def test_every_recorded_choice_is_reproduced(choice_records):
    mismatches, total = [], 0
    for r, rec in enumerate(choice_records):
        pos = Position.from_legacy(rec["state"])
        for ch in rec["choices"]:
            algorithm, normalize = _settings(ch["algorithm"])
            result = thesis_search(
                pos, algorithm, depth=ch["depth"], heuristic=ch["eval"], normalize=normalize
            )
            total += 1
            if result.index != ch["index"]:
                mismatches.append((r, ch))
    assert total == 4050
    assert mismatches == []


def _choose(lines: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "chameleon_lab.conformance", "choose"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_choose_command_returns_index_and_successor(choice_records):
    queries, expected = [], []
    for rec in choice_records[:5]:
        for ch in rec["choices"]:
            if ch["depth"] == 2:
                algorithm, normalize = _settings(ch["algorithm"])
                queries.append(
                    json.dumps(
                        {
                            "state": rec["state"],
                            "algorithm": algorithm,
                            "eval": ch["eval"],
                            "normalize": normalize,
                            "depth": 2,
                        }
                    )
                )
                expected.append((rec["state"], ch["index"]))
    proc = _choose(queries)
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(expected)
    for answer, (state, index) in zip(answers, expected, strict=True):
        assert answer["index"] == index
        assert answer["state"] == Position.from_legacy(state).successors()[index].to_legacy()


QUERY = {
    "state": Position.start().to_legacy(),
    "algorithm": "maxn",
    "eval": "pawns",
    "normalize": False,
    "depth": 1,
}


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"algorithm": "minimax"}, "valid algorithms: maxn, maxnis, paranoid, hypermax"),
        ({"eval": "material"}, "valid names: pawns, pawns10roles"),
        ({"depth": 0}, "depth must be a whole number >= 1"),
        ({"normalize": "yes"}, "normalize must be true or false"),
        ({"normalise": True}, "unknown key 'normalise' in the choose query (did you mean "),
        ({"state": Position.from_compact("1|4,6,1,3|1343").to_legacy()}, "already over"),
    ],
)
def test_choose_rejects_bad_queries(change, fragment):
    proc = _choose([json.dumps(QUERY), json.dumps(QUERY | change)])
    assert proc.returncode == 2
    assert proc.stderr.startswith("line 2: ") and fragment in proc.stderr
