"""Notebook 13's settings (:mod:`chameleon_lab.analysis.learning`): the defaults are the
runs the research results were made with, every change is checked, the tables stack."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from chameleon_lab.analysis.learning import Setting, contenders, settings, stacked
from chameleon_lab.analysis.tdleaf import TDLeafSpec

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


def test_weights_that_did_not_move_play_no_duel_and_the_net_plays_in_connect_four():
    chosen = [
        Setting("connect4", TDLeafSpec(game="connect4"), "weighted_lines", (12, 24)),
        Setting("chameleon 3p", TDLeafSpec(game="chameleon", players=3, algorithm="paranoid"),
                "pawns100roles"),
    ]  # fmt: skip
    curve = pd.DataFrame(
        {"setting": ["connect4", "connect4", "chameleon 3p", "chameleon 3p"],
         "heuristic": ["w-a", "w-b", "w-c", "w-c"]}
    )  # fmt: skip
    playing = contenders(chosen, curve, {"connect4": "w-b", "chameleon 3p": "w-c"}, "net-1")
    assert playing == {"connect4": {"learned": "w-b", "net": "net-1"}, "chameleon 3p": {}}
