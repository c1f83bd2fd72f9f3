"""Notebook 05's verdicts (:func:`chameleon_lab.analysis.studies.budget_verdicts`):
every pair at every budget on game pairs, Holm over all of them, on games whose answer
is known; and the research page's section from its tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
from test_headtohead import seat_decides
from test_ranking import make_tables

from chameleon_lab.analysis.research import write_page
from chameleon_lab.analysis.studies import budget_verdicts
from chameleon_lab.tournament import Tables


def _study(first_by_budget: dict[float, str | None], blocks: int = 2) -> Tables:
    """Four agents at each budget in ``blocks`` blocks of 24 seatings; at each budget
    its agent finishes first wherever it sits, the others in seat order."""
    parts = []
    for n, (budget, first) in enumerate(first_by_budget.items()):
        t = make_tables(
            [{**s, "session_id": f"S{n}"} for s in seat_decides(first=first, blocks=blocks)]
        )
        for df in (t.games, t.seats, t.moves):
            df["budget_ms"] = budget
        t.moves["time_ms"] = budget
        parts.append(t)
    return Tables(*(pd.concat([getattr(t, f) for t in parts], ignore_index=True)
                    for f in ("games", "seats", "moves")))  # fmt: skip


def test_every_pair_at_every_budget_is_tested_and_holm_corrected():
    """At 10 ms a finishes first everywhere: its three pairs are decided for it (24 game
    pairs of score 1: no flip of signs does as well), the others' pairs score 1/2
    exactly and stay open; at 20 ms d finishes first: its pairs decided against the
    first-named; the Holm family is all twelve rows."""
    v = budget_verdicts(_study({10.0: "a", 20.0: "d"}), list("abcd"))
    assert len(v) == 12 and list(v["budget_ms"]) == [10.0] * 6 + [20.0] * 6
    assert (v["players"] == 4).all() and (v["blocks"] == 2).all() and (v["games"] == 48).all()
    by = v.set_index(["budget_ms", "agent", "rival"])["verdict"]
    assert [by[10.0, "a", r] for r in "bcd"] == ["supported"] * 3
    assert [by[20.0, r, "d"] for r in "abc"] == ["contradicted"] * 3
    assert (v.loc[v["verdict"] == "open", "p_value"] == 1.0).all()
    assert (v["verdict"] == "open").sum() == 6
    decided = v[v["verdict"] != "open"]
    assert (decided["p_value"] < 2e-4).all()  # 2**24 flips: the Monte Carlo's least
    assert (decided["p_holm"] > decided["p_value"]).all()  # corrected over the twelve
    assert np.isfinite(v.loc[v["verdict"] == "open", "detectable_elo"]).all()
    assert (v["agent_median_ms"] == v["budget_ms"]).all()


def test_the_page_shows_notebook_05s_tables_and_verdicts(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    t = _study({10.0: "a", 20.0: None})
    budget_verdicts(t, list("abcd")).to_csv(data / "budget_verdicts_improved.csv", index=False)
    rates = pd.DataFrame({"budget_ms": [10.0, 20.0], "agent": ["a", "a"], "win_rate": [1.0, 0.25],
                          "ci_low": [0.9, 0.1], "ci_high": [1.0, 0.4]})  # fmt: skip
    rates.to_csv(data / "budget_win_rates_improved.csv", index=False)
    page = write_page(tmp_path).read_text()
    assert "## Notebook 05: the searches at time budgets (improved flavour)" in page
    assert "12 comparisons (pair of searches, budget): 3 supported, 0 contradicted, 9 open" in page
    assert "| a       | 1.00 [0.90, 1.00] | 0.25 [0.10, 0.40] |" in page
    assert "4 players, 10 ms: supported" in page
    assert page.count("80 % power only for gaps of") == 9


def test_each_budget_plays_its_own_number_of_blocks(tmp_path, monkeypatch):
    """``repetitions`` a list: one count of blocks a budget, the sessions otherwise
    those of a single count (the same fingerprint: block r is the same games, so a
    run with more blocks resumes one with fewer)."""
    import pytest

    from chameleon_lab.analysis import studies
    from chameleon_lab.tournament.runner import RunReport

    played = []

    def run(session, out, **_):
        played.append(session)
        return RunReport(None, 0, 0, 0, 0.0)

    monkeypatch.setattr(studies, "run_session", run)
    monkeypatch.setattr(studies, "session_records", lambda out, session: [])
    study = _study({10.0: None})
    study.games["mode_value"] = 10.0
    monkeypatch.setattr(studies, "tables", lambda records: study)
    studies.budget_study(["maxn", "paranoid"], [10, 30, 100], repetitions=[8, 4, 1],
                         records_dir=tmp_path, progress=False)  # fmt: skip
    assert [s.repetitions for s in played] == [8, 4, 1]
    one = studies.budget_session(["maxn", "paranoid"], 30, "improved", 1)
    assert played[1].fingerprint == one.fingerprint
    assert studies.budget_repetitions([10, 30], 3) == [3, 3]
    for bad, message in (
        ([4, 2, 1], r"a list of one for each of the 2 budgets \[10, 30\], got \[4, 2, 1\]"),
        ([4, 0], r"whole numbers >= 1, got 0 in \[4, 0\]"),
        ([4, 2.5], r"whole numbers >= 1, got 2.5"),
        ("4", "a whole number >= 1 or a list"),
        (True, "a whole number >= 1 or a list"),
    ):
        with pytest.raises(ValueError, match=message):
            studies.budget_repetitions([10, 30], bad)
