"""Notebook 13's settings (:mod:`chameleon_lab.analysis.learning`): the defaults are the
runs the research results were made with, every change is checked, the tables stack."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from chameleon_lab.analysis.headtohead import DuelPlan
from chameleon_lab.analysis.learning import (
    Setting,
    alike,
    checkpoints_of,
    contenders,
    duel_rows,
    net_specs,
    settings,
    stacked,
    strength_curve,
    strength_sentences,
)
from chameleon_lab.analysis.tdleaf import TDLeafSpec
from chameleon_lab.analysis.valuenet import NetSpec
from chameleon_lab.games.weighted import weighted_heuristic

RESEARCH = {"depth": 2, "games": 400, "batch": 20, "lam": 0.7, "opening_plies": 4, "seed": 0}


def test_connect_fours_default_is_the_run_the_research_checkpoint_holds():
    """The committed research checkpoint of notebook 13 is named by the fingerprint of
    the run it holds (``research/data/records/learning/tdleaf-fedd1b37ef.json``): the
    default Connect Four setting with the research profile's numbers is that run."""
    (setting,) = settings(["connect4"], {}, **RESEARCH)
    assert setting.label == "connect4" and setting.opponent == "weighted_lines"
    assert setting.spec.fingerprint == "fedd1b37ef"
    assert setting.plies == (12, 24)


def test_chameleon_learns_at_three_and_four_players_with_paranoid():
    chosen = settings(["chameleon", "connect4"], {"chameleon": {"step": 0.5}}, **RESEARCH)
    assert [s.label for s in chosen] == ["chameleon 3p", "chameleon 4p", "connect4"]
    three = chosen[0].spec
    assert (three.players, three.algorithm, three.alpha, three.start) == (
        3,
        "paranoid",
        0.5,
        (100.0, 1.0, 0.0, 0.0),
    )
    assert chosen[0].opponent == "pawns100roles" and chosen[0].plies is None
    assert settings(["othello"], {"othello": {"position_plies": [46, 50]}})[0].plies == (46, 50)


@pytest.mark.parametrize(
    ("learn", "changes", "message"),
    [
        ([], {}, "learn must be a non-empty list of games"),
        ("connect4", {}, "learn must be a non-empty list of games"),
        (["connect4", "connect4"], {}, "learn must name each game once"),
        (["go"], {}, "unknown game 'go' to learn; valid values: connect4, othello, chameleon"),
        (["connect4"], {"connect4": {"kings": 1}}, "connect4's setting has no kings; its keys:"),
        (["chameleon"], {"chameleon": {"position_plies": [1, 2]}}, "has no position_plies"),
        (["othello"], {"othello": {"position_plies": [50, 44]}}, "0 <= low <= high, got"),
        (["othello"], {"othello": {"opponent": "hardest"}}, "hardest"),
        (["chameleon"], {"chameleon": {"players": 3}}, "players must be a list of counts"),
        (["chameleon"], {"chameleon": {"algorithm": "alphabeta"}}, "alphabeta searches two"),
        (["connect4"], {"connect4": {"start": [1.0, -2.0, 7.0]}}, "start must be 3 weights"),
    ],
)
def test_bad_settings_are_refused_naming_what_would_be_right(learn, changes, message):
    with pytest.raises(ValueError, match=message):
        settings(learn, changes, **RESEARCH)


def test_the_tables_stack_with_the_setting_first_and_other_games_features_empty():
    a = pd.DataFrame({"games": [0, 10], "stones": [1.0, 0.9]})
    b = pd.DataFrame({"games": [0, 10], "pawns": [100.0, 99.0]})
    out = stacked({"connect4": a, "chameleon 3p": b})
    assert list(out.columns) == ["setting", "games", "stones", "pawns"]
    assert list(out["setting"]) == ["connect4"] * 2 + ["chameleon 3p"] * 2
    assert np.isnan(out["pawns"].iloc[0]) and np.isnan(out["stones"].iloc[3])


def test_weights_that_did_not_move_play_no_duel_and_each_net_plays_in_its_setting():
    # each game's default start is its opponent's weighting (Connect Four's 1, 2, 7 is
    # weighted_lines, Chameleon's 100, 1 pawns100roles): no start duel there
    chosen = [s for s in settings(["connect4", "chameleon"], {"chameleon": {"players": [3]}},
                                  **RESEARCH)]  # fmt: skip
    curve = pd.DataFrame(
        {"setting": ["connect4", "connect4", "chameleon 3p", "chameleon 3p"],
         "heuristic": ["w-a", "w-b", "w-c", "w-c"]}
    )  # fmt: skip
    learned = {"connect4": "w-b", "chameleon 3p": "w-c"}
    playing = contenders(chosen, curve, learned, {"connect4": "net-1"})
    assert playing == {"connect4": {"learned": "w-b", "net": "net-1"}, "chameleon 3p": {}}
    both = contenders(chosen, curve, learned, {"connect4": "net-1", "chameleon 3p": "net-2"})
    assert both["chameleon 3p"] == {"net": "net-2"}


def test_each_setting_with_an_encoding_trains_a_net_of_its_search_and_players():
    chosen = settings(["connect4", "othello", "chameleon"], {}, **RESEARCH)
    common = {"games": 40, "hidden": 8, "epochs": 2, "random_move": 0.1, "depth": 2,
              "opening_plies": 4, "seed": 0}  # fmt: skip
    specs = net_specs(chosen, **common)
    assert list(specs) == ["connect4", "chameleon 3p", "chameleon 4p"]  # Othello: none
    assert specs["connect4"] == NetSpec(games=40, hidden=8, epochs=2, heuristic="weighted_lines")
    three = specs["chameleon 3p"]
    assert (three.players, three.algorithm, three.heuristic) == (3, "paranoid", "pawns100roles")
    assert list(net_specs(chosen, **common, learn=["connect4"])) == ["connect4"]
    assert net_specs(chosen, **{**common, "games": 0}) == {}
    with pytest.raises(ValueError, match="othello has no value-network encoding"):
        net_specs(chosen, **common, learn=["othello"])


def test_a_start_unlike_the_opponent_plays_it_as_the_baseline():
    # Othello starts from mobility's weights against Hard; Connect Four from 1, 1, 1
    chosen = [
        *settings(["othello"], {}, **RESEARCH),
        Setting("connect4", TDLeafSpec(game="connect4"), "weighted_lines", (12, 24)),
    ]
    curve = pd.DataFrame({"setting": ["othello"] * 2 + ["connect4"] * 2,
                          "heuristic": ["w-a", "w-a", "w-c", "w-c"]})  # fmt: skip
    playing = contenders(chosen, curve, {"othello": "w-a", "connect4": "w-c"})
    assert set(playing["othello"]) == {"start"} and set(playing["connect4"]) == {"start"}
    assert playing["othello"]["start"].startswith("weighted-")


@pytest.mark.parametrize(
    ("game", "players", "weights", "named", "same"),
    [
        ("connect4", 2, {"stones": 1, "pairs": 2, "triples": 7}, "weighted_lines", True),
        ("connect4", 2, {"stones": 1, "pairs": 2, "triples": 6}, "weighted_lines", False),
        ("othello", 2, {"discs": 0, "mobility": 1, "corners": 10}, "mobility", True),
        ("othello", 2, {"discs": 0, "mobility": 1, "corners": 10}, "hard", False),
        ("chameleon", 3, {"pawns": 100, "roles": 1}, "pawns100roles", True),
        ("chameleon", 4, {"pawns": 100, "roles": 2}, "pawns100roles", False),
    ],
)
def test_alike_finds_two_names_for_one_evaluation(game, players, weights, named, same):
    # the named heuristics are written by hand from their seeds, apart from the weighted
    # features: equal values on random positions are an independent agreement
    mine = weighted_heuristic(game, weights).name
    assert alike(game, players, mine, named, count=60) is same


def test_checkpoints_are_spaced_from_the_start_to_the_last_batch():
    rows = pd.DataFrame({"games": [0, 10, 20, 30, 40]})
    assert list(checkpoints_of(rows, 3)["games"]) == [0, 20, 40]
    assert list(checkpoints_of(rows, 9)["games"]) == [0, 10, 20, 30, 40]
    with pytest.raises(ValueError, match="checkpoints must be a whole number >= 2"):
        checkpoints_of(rows, 1)


def test_the_strength_curve_plays_fixed_blocks_and_reads_them_back(tmp_path):
    # Connect Four's start 1, 2, 7 is weighted_lines (no games); two later checkpoints
    # each play two blocks (a block: both seats, two games) at depth 1
    setting = Setting("connect4", TDLeafSpec(game="connect4", start=(1.0, 2.0, 7.0)),
                      "weighted_lines")  # fmt: skip
    curve = pd.DataFrame({"setting": ["connect4"] * 3, "games": [0, 10, 20],
                          "stones": [1.0, 1.0, 0.0], "pairs": [2.0, 1.0, 0.0],
                          "triples": [7.0, 1.0, 1.0]})  # fmt: skip
    plan = DuelPlan(max_blocks=2, workers=1, progress=False)
    run = {"checkpoints": 3, "budget": {"depth": 1}, "plan": plan, "opening_plies": 2, "seed": 0}
    table = strength_curve([setting], curve, tmp_path, **run)
    assert list(table["checkpoint"]) == ["start", "after10", "learned"]
    assert list(table["blocks"]) == [0, 2, 2] and list(table["played"]) == [0, 4, 4]
    assert table["elo"].iloc[0] == 0.0
    played = table.iloc[1:]
    assert (played["elo_low"] <= played["elo"]).all() and (
        played["elo"] <= played["elo_high"]
    ).all()
    # the Elo of each point from the games' outcomes in its records, by the logistic
    # formula: 400 log10(s / (1 - s)) of the mean points s
    for row in played.itertuples():
        (path,) = [f for f in tmp_path.glob(f"duel-{row.checkpoint}-*.jsonl")]
        points = {"win": 1.0, "draw": 0.5, "loss": 0.0}
        games = [json.loads(line) for line in path.read_text().splitlines()]
        mean = np.mean([points[g["outcomes"][row.checkpoint]] for g in games])
        with np.errstate(divide="ignore"):
            assert row.elo == pytest.approx(400 * np.log10(mean / (1 - mean)))
    files = sorted(tmp_path.glob("*.jsonl"))
    sizes = [f.stat().st_size for f in files]
    again = strength_curve([setting], curve, tmp_path, **run)  # read back, nothing played
    assert [f.stat().st_size for f in sorted(tmp_path.glob("*.jsonl"))] == sizes
    pd.testing.assert_frame_equal(again, table)


def test_the_learned_weights_play_their_start_directly(tmp_path):
    # a Connect Four start of 1, 1, 1 is not weighted_lines, so it plays the opponent
    # beside the learned weights; versus_start adds the duel of learned against start
    setting = Setting("connect4", TDLeafSpec(game="connect4"), "weighted_lines")
    learned = weighted_heuristic("connect4", {"stones": 0, "pairs": 1, "triples": 3}).name
    start = weighted_heuristic("connect4", {"stones": 1, "pairs": 1, "triples": 1}).name
    playing = {"connect4": {"learned": learned, "start": start}}
    plan = DuelPlan(max_blocks=2, workers=1, progress=False)
    run = {"plan": plan, "opening_plies": 2, "seed": 0}
    rows = duel_rows([setting], playing, [{"depth": 1}], tmp_path, versus_start=True, **run)
    assert list(zip(rows["agent"], rows["rival"], strict=True)) == [
        ("learned", "weighted_lines"),
        ("start", "weighted_lines"),
        ("learned", "start"),
    ]
    assert rows["text"].iloc[2] == "the learned heuristic is stronger than the start one"
    # the learned-against-start games are recorded under those labels, and the row's
    # block scores are the learned side's points in them, two games a block
    (path,) = tmp_path.glob("duel-learned-start-2p-*.jsonl")
    games = [json.loads(line) for line in path.read_text().splitlines()]
    points = [{"win": 1.0, "draw": 0.5, "loss": 0.0}[g["outcomes"]["learned"]] for g in games]
    assert len(games) == 4 and rows["games"].iloc[2] == 4
    assert np.mean(rows["scores"].iloc[2]) == pytest.approx(np.mean(points))
    # each side's depth and nodes a second, from the moves the records hold
    for side, name in (("agent", "learned"), ("rival", "start")):
        played = [
            m
            for g in games
            for m in g["moves"]
            if not m["random"]
            and dict(zip(g["seats"], g["seating"], strict=True))[m["seat"]] == name
        ]
        nodes = sum(m["expanded"] + m["evaluated"] for m in played)
        seconds = sum(m["time_ms"] for m in played) / 1000
        assert rows[f"{side}_depth"].iloc[2] == np.median([m["depth"] for m in played]) == 1
        assert rows[f"{side}_nodes_per_s"].iloc[2] == pytest.approx(nodes / seconds)
        each = [m["expanded"] + m["evaluated"] for m in played]
        assert rows[f"{side}_nodes"].iloc[2] == np.median(each)
    without = duel_rows([setting], playing, [{"depth": 1}], tmp_path, **run)
    assert list(without["rival"]) == ["weighted_lines", "weighted_lines"]


def test_strength_words_say_where_every_block_scored_alike():
    table = pd.DataFrame(
        {"setting": ["c"] * 3, "games": [0, 100, 200], "opponent": ["w"] * 3,
         "blocks": [0, 16, 16], "elo": [0.0, 0.0, 35.0], "elo_low": [0.0, 0.0, -10.0],
         "elo_high": [0.0, 0.0, 80.0]}
    )  # fmt: skip
    words = strength_sentences(table)
    assert "after 0 games the opponent's own evaluation" in words
    assert "after 100 games +0 [+0, +0] (every block scored alike" in words
    assert "after 200 games +35 [-10, +80];" not in words and "+35 [-10, +80]." in words
    assert words.count("every block scored alike") == 1


def test_the_networks_strength_curve_trains_on_the_first_games_and_reads_back(tmp_path):
    """Two networks: one on the first half of the self-play games, the setting's own
    on all; each plays weighted_lines in two blocks. The last point is the verdicts'
    network under their label, so a verdict duel played first is read back."""
    from chameleon_lab.analysis.learning import net_strength_curve
    from chameleon_lab.analysis.valuenet import train_net
    from chameleon_lab.games.valuenet import net_heuristic
    from chameleon_lab.tournament import records_only

    spec = NetSpec(games=10, epochs=2, hidden=4, seed=1, heuristic="weighted_lines")
    plan = DuelPlan(max_blocks=2, batch=2, workers=1, progress=False)
    run = {"budget": {"depth": 1}, "plan": plan, "opening_plies": 2, "seed": 0}
    whole = net_heuristic(train_net(spec, tmp_path, progress=False)[0]).name
    setting = Setting("connect4", TDLeafSpec(game="connect4"), "weighted_lines")
    duel_rows([setting], {"connect4": {"net": whole}}, [run["budget"]], tmp_path,
              plan=plan, opening_plies=2, seed=0)  # fmt: skip
    with records_only():  # all of the games: nothing to train or play again
        (last,) = net_strength_curve({"c4": spec}, tmp_path, checkpoints=1, **run).itertuples()
    assert (last.heuristic, last.games, last.trained_on, last.blocks) == (whole, 10, 8, 2)
    table = net_strength_curve({"c4": spec}, tmp_path, checkpoints=2, **run, progress=False)
    assert list(table["games"]) == [5, 10] and list(table["played"]) == [4, 4]
    assert table["heuristic"].iloc[0] != whole and table["heuristic"].iloc[1] == whole
    assert list(table["opponent"]) == ["weighted_lines"] * 2
    assert (table["holdout_mse"] > 0).all()
    assert (table["elo_low"] <= table["elo"]).all() and (table["elo"] <= table["elo_high"]).all()
    assert len(list(tmp_path.glob("duel-net5-*.jsonl"))) == 1
