"""Notebook 09's verdicts on published claims (:mod:`chameleon_lab.analysis.beyond`),
worked by hand: the gap between the claimed agent's rating and its best rival's, its
95 % interval from the two standard errors, and the verdict that interval gives."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from chameleon_lab.analysis.beyond import CLAIMS, LADDER_AGENTS, verdict_text, verdicts
from chameleon_lab.search.registry import check_options, get_algorithm


def rated(elos: dict[str, tuple[float, float]]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"players": 4, "budget_ms": 10.0, "agent": a, "elo": e, "se": s}
            for a, (e, s) in elos.items()
        ]
    )


CLAIM = (("us", "brs beats maxnis and paranoid", "brs", ("maxnis", "paranoid")),)


@pytest.mark.parametrize(
    ("brs", "verdict"),
    [(100.0, "supported"), (-100.0, "contradicted"), (30.0, "open"), (-30.0, "open")],
)
def test_a_verdict_reads_the_interval_of_the_gap_to_the_best_rival(brs, verdict):
    table = verdicts(
        rated({"brs": (brs, 20.0), "maxnis": (0.0, 20.0), "paranoid": (-50.0, 5.0)}), CLAIM
    )
    (row,) = table.itertuples()
    half = 1.959964 * math.hypot(20.0, 20.0)  # 55.4 Elo: brs's and maxnis's errors
    assert row.best_rival == "maxnis"
    assert row.elo_gap == pytest.approx(brs)
    assert (row.ci_low, row.ci_high) == pytest.approx((brs - half, brs + half), abs=1e-3)
    assert row.verdict == verdict
    assert f"{verdict} ({brs:+.0f} Elo against maxnis" in verdict_text(table)


def test_a_claim_whose_agents_did_not_play_is_left_out():
    assert verdicts(rated({"maxnis": (0.0, 1.0), "paranoid": (0.0, 1.0)}), CLAIM).empty
    assert verdicts(rated({"brs": (0.0, 1.0), "hypermax": (0.0, 1.0)}), CLAIM).empty


def test_the_ladder_and_the_claims_name_registered_searches():
    for params in LADDER_AGENTS.values():
        algorithm = get_algorithm(params["algorithm"])
        check_options(algorithm, params.get("options", {}))
    for _, _, agent, rivals in CLAIMS:
        assert {agent, *rivals} <= set(LADDER_AGENTS)
