"""Notebook 12's machinery: the papers' findings as duels on their own games."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from chameleon_lab.analysis.headtohead import duel_session
from chameleon_lab.analysis.papers import (
    FINDINGS,
    GAMES,
    agreement,
    findings_on,
    paper_agents,
    ply_positions,
    pruning_table,
)
from chameleon_lab.analysis.sequential import LevelSPRT
from chameleon_lab.tournament import Session


def _row(found: str, verdict: str) -> SimpleNamespace:
    return SimpleNamespace(found=found, verdict=verdict)


def test_agreement_follows_the_finding_and_the_verdict():
    assert agreement(_row("stronger", "supported")) == "same direction"
    assert agreement(_row("stronger", "contradicted")) == "opposite"
    assert agreement(_row("stronger", "open")) == "open"
    # a level finding: supported by its equivalence test, contradicted by a difference
    assert agreement(_row("level", "supported")) == "level"
    assert agreement(_row("level", "contradicted")) == "differs"
    assert agreement(_row("level", "open")) == "open"


def test_the_findings_are_the_abstracts():
    """Schadd & Winands 2011: BRS beats MaxN on all their games, Paranoid on Chinese
    Checkers and Focus, level with it on Rolit; Nijssen & Winands CG 2010 tested
    progressive history on Focus and Chinese Checkers only."""
    on = {g: {(f.agent, f.rival, f.found) for f in findings_on(g)} for g in GAMES}
    assert ("brs", "maxn", "stronger") in on["rolit"] & on["chinesecheckers"] & on["focus"]
    assert ("brs", "paranoid", "stronger") in on["chinesecheckers"] & on["focus"]
    assert ("mcts-ph", "mcts", "stronger") in on["chinesecheckers"] & on["focus"]
    assert ("brs", "paranoid", "level") in on["rolit"]
    assert ("brs", "paranoid", "stronger") not in on["rolit"]
    assert all(f.agent != "mcts-ph" for f in findings_on("rolit"))
    assert {f.found for f in FINDINGS} == {"stronger", "level"}
    with pytest.raises(ValueError, match=r"'blokus'.*valid: rolit, chinesecheckers, focus"):
        findings_on("blokus")


@pytest.mark.parametrize("game", GAMES)
def test_every_finding_is_a_duel_that_builds(game):
    agents = paper_agents(game)
    for finding in findings_on(game):
        assert {finding.agent, finding.rival} <= set(agents)
        for players in (3, 4):
            params = {"size": 3} if game == "chinesecheckers" else {}
            session = duel_session(finding.agent, finding.rival, agents, players=players,
                                   budget_ms=5, game=game, game_params=params)  # fmt: skip
            assert isinstance(session, Session)
            seatings = session.seating_list()
            # every seat of the block: each of the two sits there equally often
            seats = players if game == "rolit" else len(seatings[0])
            for seat in range(seats):
                sat = Counter(s[seat] for s in seatings)
                assert sat[finding.agent] == sat[finding.rival] > 0
            if game != "rolit":  # the game's players parameter is the duel's
                assert session.game_params["players"] == players == seats
            if game == "chinesecheckers":
                assert session.game_params["size"] == 3


def test_chinese_checkers_takes_its_players_from_the_duel_not_the_caller():
    agents = paper_agents("chinesecheckers")
    session = duel_session("brs", "maxn", agents, players=4, budget_ms=5,
                           game="chinesecheckers", game_params={"players": 3})  # fmt: skip
    assert session.game_params["players"] == 4


def test_ply_positions_are_reproducible_and_after_their_plies():
    a = ply_positions("chinesecheckers", {"players": 3, "size": 2}, [3, 8], 2, seed=1)
    b = ply_positions("chinesecheckers", {"players": 3, "size": 2}, [3, 8], 2, seed=1)
    assert list(a) == ["ply 3", "ply 8"]
    for name, group in a.items():
        assert len(group) == 2 and group == b[name]
        for pos in group:
            assert not pos.is_over and pos.to_json()["ply"] == int(name.split()[1])


def test_the_pruning_table_never_counts_more_than_maxn():
    """MaxN-IS and speculative MaxN search MaxN's tree with prunings: never more nodes
    at the same depth on the same position (theory; the differential checks hold
    their values to MaxN's)."""
    per, shares = pruning_table("chinesecheckers", {"players": 3, "size": 2}, [4], 2, [1, 2, 3])
    wide = per.pivot_table(index=["phase", "position", "depth"], columns="algorithm",
                           values="nodes")  # fmt: skip
    assert (wide["maxnis"] <= wide["maxn"]).all() and (wide["maxnsp"] <= wide["maxn"]).all()
    assert (shares.loc[shares["algorithm"] == "maxn", "share_of_maxn"] == 1.0).all()
    assert set(shares["depth"]) == {1, 2, 3}


def test_a_findings_run_brings_every_games_duels_as_far_round_by_round(monkeypatch, tmp_path):
    """All games' duels share the rounds: every duel of every game is played to a
    batch's blocks before any is played further, each in its game's folder (before,
    a run played the first game's duels to their end before the second game's first
    block, so an interrupted run had nothing of the last game)."""
    from chameleon_lab.analysis import headtohead, papers
    from chameleon_lab.analysis.headtohead import DuelPlan

    calls, tests, minimum = [], {}, set()

    def fake_run_duel(session, folder, plan):
        calls.append((session.game, session.name, Path(folder), plan.max_blocks))
        tests[session.game, tuple(session.agents)] = plan.sprt
        minimum.add(plan.min_blocks)
        return None, SimpleNamespace(decision="continue")

    class Played(Exception):
        pass

    def stop(*args, **kwargs):
        raise Played

    monkeypatch.setattr(headtohead, "run_duel", fake_run_duel)
    monkeypatch.setattr(papers, "duel_tables", stop)
    games = ["rolit", "focus"]
    with pytest.raises(Played):
        papers.findings_study(games, [3], [10], tmp_path, plan=DuelPlan(max_blocks=4, batch=2))
    per_game = {g: len(findings_on(g)) for g in games}
    caps = [c[3] for c in calls]
    assert caps == [2] * sum(per_game.values()) + [4] * sum(per_game.values())
    first_round = calls[: sum(per_game.values())]
    assert Counter(c[0] for c in first_round) == per_game
    assert all(folder == tmp_path / game for game, _, folder, _ in calls)
    # Rolit's level finding stops by the level test, Focus's BRS-Paranoid by the plan's
    level = {key for key, test in tests.items() if test != DuelPlan().sprt}
    assert level == {("rolit", ("brs", "paranoid"))}
    assert tests["rolit", ("brs", "paranoid")] == LevelSPRT(50.0)
    # 9 duels and 1 equivalence test: Holm's strictest level 0.005 needs 9 blocks
    # (2 / 2**9 <= 0.005 < 2 / 2**8), 10 in batches of 2
    assert minimum == {10}


def test_our_pruning_beside_sturtevants_count_ply_by_ply():
    """His abstract's count: 100k of 1.2 million nodes at depth 6 (1/12); ours at the
    deepest depth only, MaxN itself left out, each share to the power 1 / depth."""
    import pandas as pd

    from chameleon_lab.analysis.papers import STURTEVANT_2003, pruning_beside

    assert STURTEVANT_2003.share == pytest.approx(1 / 12)
    assert STURTEVANT_2003.per_ply == pytest.approx((1 / 12) ** (1 / 6))
    shares = pd.DataFrame(
        [(a, "ply 10", d, s) for a, d, s in [("maxn", 1, 1.0), ("maxn", 3, 1.0),
                                              ("maxnsp", 1, 0.9), ("maxnsp", 3, 0.343),
                                              ("maxnis", 3, 1.0)]],
        columns=["algorithm", "phase", "depth", "share_of_maxn"],
    )  # fmt: skip
    beside = pruning_beside(shares)
    assert list(beside["algorithm"]) == ["maxnsp", "maxnis"]
    assert beside["per_ply"].to_numpy() == pytest.approx([0.7, 1.0])
    assert (beside["published_share"] == STURTEVANT_2003.share).all()
