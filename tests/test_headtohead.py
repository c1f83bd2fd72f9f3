"""Head-to-head claims (:mod:`chameleon_lab.analysis.headtohead`): block scores worked
by hand, verdicts on block scores whose answer is known, and a real duel that stops
when its SPRT decides and resumes without playing a game twice."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pandas as pd
import pytest
from test_ranking import COLOURS, make_tables

from chameleon_lab.analysis.headtohead import (
    Claim,
    DuelPlan,
    block_scores,
    claim_verdicts,
    duel_session,
    pair_scores,
    run_duel,
    side_times,
    verdict_sentences,
)
from chameleon_lab.analysis.sequential import SPRT
from chameleon_lab.tournament import read_records, records_only

R, G, Y = "RED", "GREEN", "YELLOW"


def _game(game, block, seats, survivors, moves):
    return {"game": game, "repetition": block, "seats": seats, "survivors": survivors,
            "moves": moves}  # fmt: skip


def test_block_scores_count_finishing_places_per_block_by_hand():
    t = make_tables(
        [
            # block 0: a wins; b eliminated before c (a above b: 1)
            _game(0, 0, {R: "a", G: "b", Y: "c"}, [R], [R, G, Y, R, Y]),
            # block 0: a (GREEN) eliminated first, b later: b above a (0)
            _game(1, 0, {R: "b", G: "a", Y: "c"}, [Y], [R, G, Y, R, Y]),
            # block 1: both survive (level: 0.5); a at two seats counts with its best
            _game(2, 1, {R: "a", G: "a", Y: "b"}, [R, Y], [R, G, Y]),
            # block 1: c alone, a eliminated after b (a above b: 1); no b: no score
            _game(3, 1, {R: "b", G: "c", Y: "a"}, [G], [R, G, Y, G, Y]),
            _game(4, 1, {R: "c", G: "a"}, [G], [R, G]),
        ]
    )  # fmt: skip
    scores = block_scores(t, "a", "b")
    assert list(scores.index.get_level_values("repetition")) == [0, 1]
    assert scores.to_numpy() == pytest.approx([(1 + 0) / 2, (0.5 + 1) / 2])
    assert block_scores(t, "b", "a").to_numpy() == pytest.approx([0.5, 0.25])
    with pytest.raises(ValueError, match="no agent 'z' in the records; agents: a, b, c"):
        block_scores(t, "a", "z")


def seat_decides(first: str | None = None, blocks: int = 1) -> list[dict]:
    """Four agents a, b, c, d in all 24 seatings a block; the seats finish in seat
    order (``first``, if given, finishes first wherever it sits): the survivor's seat
    alone moves last, the others are eliminated one a round, worst first."""
    from itertools import permutations

    specs = []
    for block in range(blocks):
        for seating in permutations("abcd"):
            seats = dict(zip(COLOURS, seating, strict=True))
            order = sorted(COLOURS, key=lambda c: (seats[c] != first, COLOURS.index(c)))
            moves = order[:3] + order[:2] + order[:1]  # the last never moves
            specs.append({"game": len(specs), "repetition": block, "seats": seats,
                          "survivors": order[:1], "moves": moves})  # fmt: skip
    return specs


def test_pair_scores_pair_each_seating_with_its_twin():
    """Where the seat alone decides, a game's score is 0 or 1 but every true pair (the
    two exchanged, the others where they were) scores 1/2 exactly; where a finishes
    first wherever it sits, every pair with a scores 1."""
    t = make_tables(seat_decides(blocks=2))
    assert sorted(set(block_scores(t, "a", "b"))) == [0.5]  # blocks: 12 wins of 24
    scores = pair_scores(t, "a", "b")
    assert len(scores) == 24 and (scores == 0.5).all()
    assert scores.index.names == ["session_id", "repetition", "seating"]
    assert list(scores.index.get_level_values("repetition")) == [0] * 12 + [1] * 12
    assert sorted(scores.index[0][2].split()) == list("abcd")
    strong = make_tables(seat_decides(first="a"))
    assert (pair_scores(strong, "a", "c") == 1.0).all()
    assert (pair_scores(strong, "b", "c") == 0.5).all()


def test_pair_scores_refuse_a_design_that_does_not_exchange_the_two():
    specs = seat_decides()
    t = make_tables([s for s in specs if s["seats"][COLOURS[0]] != "d"])  # d never RED
    assert len(pair_scores(t, "a", "b")) == 9  # 18 games: a and b exchanged in each
    with pytest.raises(ValueError, match="block 0 of session S: no game exchanges 'a' and 'd'"):
        pair_scores(t, "a", "d")


def _duels(rows):
    return pd.DataFrame(
        [
            {"source": "s", "text": f"claim {i}", "agent": "x", "rival": "y", "players": 3,
             "budget_ms": 10.0, "sprt": "continue", "sprt_blocks": len(sc), "blocks": len(sc),
             "games": 6 * len(sc), "scores": np.asarray(sc)}
            for i, sc in enumerate(rows)
        ]
    )  # fmt: skip


def test_verdicts_are_holm_corrected_and_say_what_an_open_run_could_not_see():
    rng = np.random.default_rng(5)
    strong = np.clip(rng.normal(0.75, 0.1, 40), 0, 1)  # about +190 Elo, 40 blocks
    weak = 1.0 - np.clip(rng.normal(0.75, 0.1, 40), 0, 1)
    few = np.array([0.6, 0.4, 0.7])
    table = claim_verdicts(_duels([strong, weak, few]))
    assert list(table["verdict"]) == ["supported", "contradicted", "open"]
    p = np.sort(table["p_value"].to_numpy())
    order = np.argsort(table["p_value"].to_numpy())
    holm = np.minimum(1, np.maximum.accumulate(p * np.array([3, 2, 1])))  # by hand
    assert table["p_holm"].to_numpy()[order] == pytest.approx(holm)
    assert table.loc[0, "elo_low"] > 0 > table.loc[1, "elo_high"]
    # three blocks of sign flips: the smallest two-sided p-value is 2/8
    assert table.loc[2, "p_value"] >= 0.25
    # three blocks cannot reach Holm's first level 0.05 / 3 (the smallest p is 1/4)
    assert np.isinf(table.loc[2, "detectable_elo"])
    text = verdict_sentences(table)
    assert "no gap was detectable" in text.splitlines()[-1]
    assert "supported (+" in text and "contradicted (-" in text


def test_a_duel_stops_when_its_test_decides_and_resumes_without_replaying(tmp_path):
    """Perfect TicTacToe (alpha-beta to the end) against random moves: the SPRT
    accepts H1 long before the 72 distinct two-ply openings are used up."""
    agents = {
        "perfect": {"algorithm": "alphabeta", "depth": 9},
        "random": {"algorithm": "negamax", "depth": 1, "random_move_probability": 1.0},
    }
    session = duel_session(
        "perfect", "random", agents, players=2, budget_ms=None, opening_plies=2, game="tictactoe"
    )
    sprt = SPRT(elo0=0.0, elo1=200.0, alpha=0.05, beta=0.05)
    plan = DuelPlan(sprt=sprt, batch=1, max_blocks=30, workers=1, progress=False)
    t, result = run_duel(session, tmp_path, plan)
    scores = block_scores(t, "perfect", "random").to_numpy()
    assert result.decision == "H1" and result.blocks == len(scores) < 30
    assert (scores >= 0.5).all()
    path = session.records_file(tmp_path)
    lines = path.read_text().splitlines()
    assert len(lines) == 2 * len(scores)  # a game pair per block, nothing more
    _, result2 = run_duel(session, tmp_path, plan)
    assert path.read_text().splitlines() == lines and result2 == result
    assert len({tuple(r["opening"]) for r in read_records(path)}) == len(scores)
    # a minimum of blocks: played on past the decision, which stays where it was
    longer = dataclasses.replace(plan, min_blocks=len(scores) + 3)
    t3, result3 = run_duel(session, tmp_path, longer)
    assert len(block_scores(t3, "perfect", "random")) == len(scores) + 3
    assert result3 == result


def test_an_open_verdict_says_the_gap_it_had_power_for():
    """Ten blocks: the smallest sign-flip p is 2/1024 < 0.05 / 2, so a gap is
    detectable; with 80 % power at level 0.025 two-sided, (z_.9875 + z_.8) sd / sqrt(n)
    in score above 0.5, mapped to Elo (values of z by hand)."""
    scores = np.array([0.5, 0.6, 0.4, 0.55, 0.45, 0.5, 0.65, 0.35, 0.5, 0.5])
    table = claim_verdicts(_duels([scores, scores]))
    sd = np.std(scores, ddof=1)
    gap = (2.241403 + 0.841621) * sd / np.sqrt(10)
    expected = 400 * np.log10((0.5 + gap) / (0.5 - gap))
    assert table["detectable_elo"].to_numpy() == pytest.approx([expected] * 2, rel=1e-4)
    assert list(table["verdict"]) == ["open", "open"]
    assert f"80 % power only for gaps of {expected:.0f} Elo" in verdict_sentences(table)


def test_level_p_is_the_larger_one_sided_t_test():
    """The equivalence p-value by hand: one-sided one-sample t-tests (scipy) of the mean
    block score above the score of -margin and below that of +margin."""
    from scipy import stats

    from chameleon_lab.analysis.headtohead import level_p

    rng = np.random.default_rng(2)
    low, high = (1 / (1 + 10 ** (-e / 400)) for e in (-50.0, 50.0))
    for centre in (0.5, 0.55, 0.6):
        scores = np.clip(rng.normal(centre, 0.12, 30), 0, 1)
        up = stats.ttest_1samp(scores, low, alternative="greater").pvalue
        down = stats.ttest_1samp(scores, high, alternative="less").pvalue
        assert level_p(scores, 50.0) == pytest.approx(max(up, down))
    assert level_p(np.full(5, 0.5), 50.0) == 0.0 and level_p(np.full(5, 0.7), 50.0) == 1.0
    assert level_p(np.array([0.5]), 50.0) == 1.0


def test_a_level_claims_equivalence_test_joins_holms_family():
    """Rows 0-1 claim "stronger", rows 2-4 "level": Holm over the five sign-flip
    p-values and the three equivalence ones (eight hypotheses, by statsmodels); a
    level claim is supported by its equivalence test, contradicted by a difference."""
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(4)
    strong = np.clip(rng.normal(0.75, 0.1, 40), 0, 1)
    even = np.clip(rng.normal(0.5, 0.05, 60), 0, 1)
    apart = np.clip(rng.normal(0.7, 0.05, 60), 0, 1)
    few = np.array([0.5, 0.55, 0.45])
    level = [False, False, True, True, True]
    table = claim_verdicts(_duels([strong, even, even, apart, few]), level=level)
    p = np.concatenate([table["p_value"], table["p_level"][2:]])
    holm = multipletests(p, method="holm")[1]
    assert table["p_holm"].to_numpy() == pytest.approx(holm[:5])
    assert table["p_level_holm"].to_numpy()[2:] == pytest.approx(holm[5:])
    assert table["p_level"][:2].isna().all()
    assert list(table["verdict"]) == ["supported", "open", "supported", "contradicted", "open"]
    assert "p_level" not in claim_verdicts(_duels([strong])).columns
    with pytest.raises(ValueError, match="one truth value per duel"):
        claim_verdicts(_duels([strong]), level=[True, False])


def test_a_duel_may_bring_its_own_test_to_the_rounds(monkeypatch):
    """play_in_rounds runs each duel with its own sequential test when it brings one,
    the plan's otherwise."""
    from types import SimpleNamespace

    from chameleon_lab.analysis import headtohead
    from chameleon_lab.analysis.sequential import LevelSPRT

    seen = []

    def fake_run_duel(session, folder, plan):
        seen.append((session, plan.sprt))
        return None, SimpleNamespace(decision="H0")

    monkeypatch.setattr(headtohead, "run_duel", fake_run_duel)
    level = LevelSPRT(40.0)
    headtohead.play_in_rounds([("a", "f"), ("b", "f", level)], DuelPlan(max_blocks=4))
    assert seen == [("a", DuelPlan().sprt), ("b", level)]
    with pytest.raises(ValueError, match="sprt must be an SPRT or a LevelSPRT"):
        DuelPlan(sprt="level")


def test_claims_are_plain_data():
    claim = Claim("Schadd & Winands 2011", "BRS is stronger than Paranoid", "brs", "paranoid")
    assert (claim.agent, claim.rival) == ("brs", "paranoid")


def test_a_study_plays_its_duels_in_rounds_and_drops_the_decided(monkeypatch):
    """Three duels deciding after 2, 6 and never (max 7 blocks), in batches of 2: each
    round brings every undecided duel 2 blocks further, a decided one is not played
    again, the last round stops at ``max_blocks``; then every duel is read once more.
    Inside ``records_only`` no round is taken."""
    from types import SimpleNamespace

    from chameleon_lab.analysis import headtohead

    decide_at = {"a": 2, "b": 6, "c": 99}
    calls = []

    def fake_run_duel(session, folder, plan):
        calls.append((session, plan.max_blocks))
        decided = plan.max_blocks >= decide_at[session]
        return None, SimpleNamespace(decision="H1" if decided else "continue")

    monkeypatch.setattr(headtohead, "run_duel", fake_run_duel)
    duels = [(name, "unused") for name in ("a", "b", "c")]
    headtohead.play_in_rounds(duels, DuelPlan(max_blocks=7, batch=2))
    assert calls == [
        ("a", 2), ("b", 2), ("c", 2),
        ("b", 4), ("c", 4),
        ("b", 6), ("c", 6),
        ("c", 7),
    ]  # fmt: skip
    calls.clear()  # recomputing from records: no rounds (the reading stops each duel)
    with records_only():
        headtohead.play_in_rounds(duels, DuelPlan(max_blocks=7, batch=2))
    assert calls == []


def test_a_duel_decided_early_plays_on_to_its_minimum(monkeypatch):
    """A duel decided at 2 blocks with min_blocks 6 is played on in its rounds to 6; one
    undecided stops at max_blocks as before."""
    from types import SimpleNamespace

    from chameleon_lab.analysis import headtohead

    calls = []

    def fake_run_duel(session, folder, plan):
        calls.append((session, plan.max_blocks, plan.min_blocks))
        decided = session == "a" or plan.max_blocks >= 99
        return None, SimpleNamespace(decision="H1" if decided else "continue")

    monkeypatch.setattr(headtohead, "run_duel", fake_run_duel)
    plan = DuelPlan(max_blocks=8, batch=2, min_blocks=6)
    headtohead.play_in_rounds([("a", "f"), ("b", "f")], plan)
    assert [c[:2] for c in calls if c[0] == "a"] == [("a", 2), ("a", 4), ("a", 6)]
    assert [c[1] for c in calls if c[0] == "b"] == [2, 4, 6, 8]
    with pytest.raises(ValueError, match="min_blocks must be a whole number >= 0"):
        DuelPlan(min_blocks=-1)


def test_a_resumed_duel_replays_its_records_once(tmp_path, monkeypatch):
    """A duel whose records reach its decision is read back with one replay of the
    session (the last check point the records reach), not one per batch before it,
    and says what the run that played it said."""
    from chameleon_lab.analysis import headtohead

    agents = {
        "perfect": {"algorithm": "alphabeta", "depth": 9},
        "random": {"algorithm": "negamax", "depth": 1, "random_move_probability": 1.0},
    }
    session = duel_session(
        "perfect", "random", agents, players=2, budget_ms=None, opening_plies=2, game="tictactoe"
    )
    sprt = SPRT(elo0=0.0, elo1=200.0, alpha=0.05, beta=0.05)
    plan = DuelPlan(sprt=sprt, batch=2, max_blocks=30, workers=1, progress=False)
    t, result = run_duel(session, tmp_path, plan)
    assert result.decision == "H1" and t.games.shape[0] >= 2 * 2 * 2  # two batches or more
    calls = []
    real = headtohead.run_session

    def counted(*args, **kw):
        calls.append(args[0].repetitions)
        return real(*args, **kw)

    monkeypatch.setattr(headtohead, "run_session", counted)
    t2, result2 = run_duel(session, tmp_path, plan)
    assert result2 == result and t2.games.equals(t.games)
    assert calls == [t.games.shape[0] // 2]  # the blocks played, one replay


def test_side_times_give_each_sides_median_largest_and_overshoot_by_hand():
    """Moves of 9, 11 and 15 ms for x and 10, 10 and 10 for y at a 10 ms budget: x's
    median 11, largest 15, two of three moves over, 5 ms overshoot; y none over. At a
    budget in plies the overshoot columns are NaN, not zero."""
    t = make_tables([_game(0, 0, {R: "x", G: "y"}, [R], [R, G, R, G, R, G])])
    t = dataclasses.replace(t, moves=t.moves.assign(time_ms=[9.0, 10.0, 11.0, 10.0, 15.0, 10.0]))
    got = side_times(t, Claim("s", "x beats y", "x", "y"), 10.0)
    assert got["agent_median_ms"] == 11.0 and got["agent_max_ms"] == 15.0
    assert got["agent_over_budget"] == pytest.approx(2 / 3)
    assert got["agent_max_overshoot_ms"] == 5.0
    assert got["rival_over_budget"] == 0.0 and got["rival_max_overshoot_ms"] == 0.0
    plies = side_times(t, Claim("s", "x beats y", "x", "y"))
    assert plies["agent_max_ms"] == 15.0
    assert np.isnan(plies["agent_over_budget"]) and np.isnan(plies["rival_max_overshoot_ms"])


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("batch", 0, "batch must be a whole number >= 1, got 0"),
        ("max_blocks", 2.5, "max_blocks must be a whole number >= 1, got 2.5"),
        ("batch", True, "batch must be a whole number >= 1, got True"),
        ("workers", 0, "workers must be a whole number >= 1 or None"),
        ("sprt", 0.05, "sprt must be an SPRT"),
        ("progress", "yes", "progress must be true or false"),
    ],
)
def test_a_duel_plan_refuses_bad_values_naming_the_valid_ones(field, value, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        DuelPlan(**{field: value})
