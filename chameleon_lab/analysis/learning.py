"""What notebook 13 learns in: a setting per game and player count, each a TD-Leaf run
and the hand-made heuristic its learned weights must beat.

The notebook learns in several games in one run so that every verdict it writes is
corrected with the others (Holm over all its claims): ``learn`` names the games, and
each game's setting is :data:`DEFAULTS`'s with the researcher's changes over it (the
features learned, their start weights, the hand-made ``opponent``, TD-Leaf's ``step``
and ``squash``, the ``players`` counts and the self-play ``algorithm``). A game with
several player counts (Chameleon Chess with three and four, the thesis's setting) is a
setting per count, labelled ``"chameleon 3p"``; a two-player game is labelled by its
name.

The defaults start each game at its hand-made weights: Connect Four at
``weighted_lines`` (1, 2, 7, seed 004's weighting), Othello at ``mobility`` (0, 1, 10)
against seed 003's Hard (not a weighted heuristic, so not a start), Chameleon Chess at
``pawns100roles`` (pawns 100, roles 1) with ``squash`` scaled so that a pawn ahead is a
value of about 0.5.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..checks import whole_number
from ..games.heuristic_check import sample_positions
from ..games.protocol import MAX_PLAYERS
from ..games.registry import get_game
from ..games.valuenet import ValueNet, encoding, net_heuristic
from ..games.weighted import weighted_heuristic
from .accuracy import accuracy, compare, solved_positions
from .headtohead import DuelPlan, block_estimate
from .tdleaf import TDLeafSpec, seated_game, train
from .tuning import decide
from .valuenet import NetSpec, train_net, training_games

#: Each learnable game's setting: what :func:`settings` starts from.
DEFAULTS: dict[str, dict[str, Any]] = {
    "connect4": {
        "features": ["stones", "pairs", "triples"], "start": [1.0, 2.0, 7.0],
        "opponent": "weighted_lines", "squash": 0.1, "step": 0.05, "players": [2],
        "algorithm": "alphabeta",
    },
    "othello": {
        "features": ["discs", "mobility", "corners"], "start": [0.0, 1.0, 10.0],
        "opponent": "hard", "squash": 0.1, "step": 0.05, "players": [2],
        "algorithm": "alphabeta",
    },
    "chameleon": {
        "features": ["pawns", "roles", "mobility", "centre"], "start": [100.0, 1.0, 0.0, 0.0],
        "opponent": "pawns100roles", "squash": 0.005, "step": 1.0, "players": [3, 4],
        "algorithm": "paranoid",
    },
}  # fmt: skip
#: The random plies before the held-back positions solved exactly, per game with a
#: solver (Othello's endgame solver wants 44 and more); a game's ``position_plies``
#: change them.
PLIES: dict[str, tuple[int, int]] = {"connect4": (12, 24), "othello": (44, 50)}


@dataclass(frozen=True)
class Setting:
    """One setting: its ``label`` in the tables, the TD-Leaf run, the opponent, and the
    random plies before its held-back solved positions (None: no solver)."""

    label: str
    spec: TDLeafSpec
    opponent: str
    plies: tuple[int, int] | None = None


def settings(
    learn: Sequence[str], changes: Mapping[str, Mapping[str, Any]], **common: Any
) -> list[Setting]:
    """The settings of the games ``learn`` names, each :data:`DEFAULTS`'s with
    ``changes[game]`` over it, a setting per player count; ``common`` the TD-Leaf
    parameters every run shares (``depth``, ``games``, ``batch``, ``lam``,
    ``opening_plies``, ``seed``). ``ValueError`` naming what is wrong: an unknown or
    repeated game, a change to a key a setting does not have, an opponent the game does
    not know, and whatever :class:`~.tdleaf.TDLeafSpec` refuses."""
    if isinstance(learn, str) or not isinstance(learn, Sequence) or not learn:
        raise ValueError(f"learn must be a non-empty list of games, got {learn!r}")
    if len(set(learn)) != len(learn):
        raise ValueError(f"learn must name each game once, got {list(learn)!r}")
    out = []
    for game in learn:
        if game not in DEFAULTS:
            raise ValueError(f"unknown game {game!r} to learn; valid values: {', '.join(DEFAULTS)}")
        given = dict(changes.get(game) or {})
        keys = [*DEFAULTS[game], *(["position_plies"] if game in PLIES else [])]
        unknown = sorted(set(given) - set(keys))
        if unknown:
            raise ValueError(
                f"{game}'s setting has no {', '.join(unknown)}; its keys: {', '.join(keys)}"
            )
        plies = _plies(game, given.pop("position_plies", PLIES.get(game)))
        s = {**DEFAULTS[game], **given}
        get_game(game).heuristics.get(s["opponent"])  # or ValueError naming the valid ones
        counts = s["players"]
        if isinstance(counts, (str, int)) or not isinstance(counts, Sequence) or not counts:
            raise ValueError(f"{game}'s players must be a list of counts, got {counts!r}")
        for n in counts:
            spec = TDLeafSpec(
                game=game, features=tuple(s["features"]), start=tuple(s["start"]),
                alpha=s["step"], beta=s["squash"], players=n, algorithm=s["algorithm"],
                **common,
            )  # fmt: skip
            label = game if list(counts) == [2] else f"{game} {n}p"
            out.append(Setting(label, spec, s["opponent"], plies))
    return out


def stacked(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The tables of ``tables`` (setting label -> table) one below the other, a
    ``setting`` column first (columns a setting lacks, such as another game's features,
    empty)."""
    parts = [t.assign(setting=label) for label, t in tables.items()]
    out = pd.concat(parts, ignore_index=True)
    out.insert(0, "setting", out.pop("setting"))
    return out


def moved_words(setting: Setting, curve: pd.DataFrame) -> str:
    """A sentence on where ``setting``'s weights went (``curve`` its :func:`~.tdleaf.train`
    table)."""
    first, last = curve.iloc[0], curve.iloc[-1]
    moved = ", ".join(f"{f} {first[f]:g} -> {last[f]:.3g}" for f in setting.spec.features)
    return f"{setting.label}: after {int(last['games'])} self-play games {moved}."


def _plies(game: str, value: Any) -> tuple[int, int] | None:
    """``value`` as ``(low, high)`` plies, ``0 <= low <= high`` (None for a game
    without a solver); ``ValueError`` otherwise."""
    if value is None:
        return None
    ok = isinstance(value, Sequence) and len(value) == 2
    ok = ok and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    if not ok or not 0 <= value[0] <= value[1]:
        raise ValueError(f"{game}'s position_plies must be [low, high] with 0 <= low <= high, "
                         f"got {value!r}")  # fmt: skip
    return int(value[0]), int(value[1])


def train_all(
    chosen: Sequence[Setting], records: str | Path, *, progress: bool = True
) -> tuple[pd.DataFrame, dict[str, str]]:
    """Every setting's TD-Leaf run (resumed from its checkpoint in ``records``): the
    learning curves stacked (:func:`stacked`) and each setting's learned heuristic by
    its label."""
    curves, learned = {}, {}
    for s in chosen:
        curve = train(s.spec, Path(records) / f"tdleaf-{s.spec.fingerprint}.json",
                      progress=progress)  # fmt: skip
        weights = dict(zip(s.spec.features, curve.iloc[-1][list(s.spec.features)], strict=True))
        curves[s.label] = curve
        learned[s.label] = weighted_heuristic(s.spec.game, weights).name
    return stacked(curves), learned


def net_specs(
    chosen: Sequence[Setting], *, games: int, hidden: int, epochs: int, random_move: float,
    depth: int, opening_plies: int, seed: int, learn: Sequence[str] = ("connect4", "chameleon"),
) -> dict[str, NetSpec]:  # fmt: skip
    """Per setting whose game ``learn`` names (games with a value-network encoding:
    Connect Four, Chameleon Chess) the training run of its value network: ``games``
    self-play games of the setting's search, players and move limit at ``depth`` with
    its opponent's heuristic at every seat; none where ``games`` is 0. ``ValueError``
    for a game in ``learn`` without an encoding."""
    if isinstance(learn, str):
        raise ValueError(f"the games that learn a network must be a list, got {learn!r}")
    names = set()
    for game in learn:
        encoding(game)  # a game with an encoding, or ValueError naming them
        names.add(get_game(game).name)
    out: dict[str, NetSpec] = {}
    for s in chosen if games else ():
        if s.spec.game in names:
            out[s.label] = NetSpec(
                game=s.spec.game, games=games, depth=depth, heuristic=s.opponent,
                random_move=random_move, opening_plies=opening_plies, hidden=hidden,
                epochs=epochs, seed=seed, players=s.spec.players, algorithm=s.spec.algorithm,
                move_limit=s.spec.move_limit,
            )  # fmt: skip
    return out


def train_nets(
    specs: Mapping[str, NetSpec], records: str | Path, *, progress: bool = True
) -> tuple[dict[str, ValueNet], pd.DataFrame]:
    """Each setting's value network trained (or read back from ``records``) and their
    learning curves stacked, a ``setting`` column first
    (:func:`~.valuenet.train_net`)."""
    nets, curves = {}, []
    for label, spec in specs.items():
        nets[label], curve = train_net(spec, records, progress=progress)
        curves.append(curve.assign(setting=label)[["setting", *curve.columns]])
    return nets, (pd.concat(curves, ignore_index=True) if curves else pd.DataFrame())


def contenders(
    chosen: Sequence[Setting], curve: pd.DataFrame, learned: Mapping[str, str],
    nets: Mapping[str, str] | None = None, *, alike_positions: int = 100,
) -> dict[str, dict[str, str]]:  # fmt: skip
    """Per setting the evaluations that play its opponent (label -> heuristic): its
    TD-Leaf weights where they moved; its start weights where they value positions
    otherwise than the opponent (:func:`alike`; Othello starts from ``mobility`` against
    Hard), so that a verdict on the learned weights can be read against the weights
    learning started from; and its value network where ``nets`` (label -> heuristic)
    has one."""
    out: dict[str, dict[str, str]] = {}
    for s in chosen:
        rows = curve[curve["setting"] == s.label]
        playing = {}
        if rows["heuristic"].iloc[-1] != rows["heuristic"].iloc[0]:
            playing["learned"] = learned[s.label]
        start = weighted_heuristic(s.spec.game, dict(zip(s.spec.features, s.spec.start,
                                                         strict=True))).name  # fmt: skip
        if not alike(s.spec.game, s.spec.players, start, s.opponent, count=alike_positions):
            playing["start"] = start
        if nets and s.label in nets:
            playing["net"] = nets[s.label]
        out[s.label] = playing
    return out


def alike(game: str, players: int, first: str, second: str, *, count: int = 100) -> bool:
    """Whether the heuristics ``first`` and ``second`` of ``game`` seated for ``players``
    give every player the same value (to 1e-9) on ``count`` positions of seeded random
    play: two names for one evaluation (a start equal to the hand-made weights, such as
    Connect Four's 1, 2, 7 and ``weighted_lines``), whose duel would only replay itself."""
    built = seated_game(game, players)
    functions = [built.heuristics.get(name).function for name in (first, second)]
    values = np.zeros((2, MAX_PLAYERS))
    for position in sample_positions(built, count):
        for function, out in zip(functions, values, strict=True):
            function(position.state, out)
        if not np.allclose(values[0], values[1], rtol=1e-9, atol=1e-9):
            return False
    return True


def accuracy_tables(
    chosen: Sequence[Setting], playing: Mapping[str, Mapping[str, str]], *, positions: int,
    resamples: int, alpha: float, seed: int,
) -> tuple[pd.DataFrame, pd.DataFrame]:  # fmt: skip
    """On ``positions`` held-back positions of each setting whose game a solver values
    (:data:`PLIES`; drawn from ``seed + 1``), each contender's and the
    opponent's accuracy, and each contender against the opponent (Bonferroni over
    every comparison of the run); both tables stacked by setting (empty where no
    setting has a solver)."""
    exact = [s for s in chosen if s.plies is not None]
    count = sum(len(playing[s.label]) for s in exact) or 1
    tables, versus = {}, {}
    for s in exact:
        solved = solved_positions(s.spec.game, positions, plies=s.plies, seed=seed + 1)
        names = [*playing[s.label].values(), s.opponent]
        tables[s.label] = accuracy(solved, names, resamples=resamples, seed=seed)
        parts = [compare(solved, name, s.opponent, alpha=alpha / count, resamples=resamples,
                         seed=seed) for name in playing[s.label].values()]  # fmt: skip
        if parts:
            versus[s.label] = pd.concat(parts, ignore_index=True)
    return (stacked(tables) if tables else pd.DataFrame(),
            stacked(versus) if versus else pd.DataFrame())  # fmt: skip


def duel_rows(
    chosen: Sequence[Setting], playing: Mapping[str, Mapping[str, str]],
    budgets: Sequence[Mapping[str, Any]], records: str | Path, *, versus_start: bool = False,
    **duel: Any,
) -> pd.DataFrame:  # fmt: skip
    """Each setting's contenders head to head against its opponent at each budget
    (:func:`~.tuning.decide`, ``duel`` its ``plan``, ``opening_plies`` and ``seed``):
    a row per claim and budget, a ``setting`` column first, for Holm over all of them
    (:func:`~.headtohead.claim_verdicts`). With ``versus_start``, where a setting's
    learned and start weights both play, the learned weights play the start ones too:
    the direct claim that learning improved on where it began, which two verdicts
    against the opponent only suggest. Each row also gives what each side's search
    reached in the duel's games (:func:`effort`): at equal time, the cost of an
    evaluation is paid in depth."""
    rows = {}
    for s in chosen:
        seated = {"game": s.spec.game, "algorithm": s.spec.algorithm, "players": s.spec.players}
        mine = playing[s.label]
        pairs = [(label, name, s.opponent, None) for label, name in mine.items()]
        if versus_start and {"learned", "start"} <= mine.keys():
            pairs.append(("learned", mine["learned"], mine["start"], "start"))
        parts = []
        for label, name, opponent, rival in pairs:
            for budget in budgets:
                t, row = decide(name, opponent, [budget], records, label=label,
                                rival_label=rival, **seated, **duel)  # fmt: skip
                parts.append(row.assign(**effort(t, label, rival or opponent)))
        if parts:
            rows[s.label] = pd.concat(parts, ignore_index=True)
    return stacked(rows) if rows else pd.DataFrame()


def effort_sentences(decided: pd.DataFrame) -> str:
    """:func:`effort`'s columns of :func:`duel_rows` in words, a line a duel: what
    each side's search reached, so a verdict at equal time is read beside the depth
    its evaluation cost."""
    lines = []
    for r in decided.itertuples():
        said = f"{r.setting}, {r.agent} against {r.rival} at {r.budget}: median depth "
        said += f"{r.agent_depth:g} against {r.rival_depth:g}, "
        if np.isnan(r.budget_ms):  # at a depth, a move's overhead dominates its speed
            said += f"median {r.agent_nodes:,.0f} against {r.rival_nodes:,.0f} nodes a move."
        else:
            said += (f"{r.agent_nodes_per_s / 1e3:,.0f} against "
                     f"{r.rival_nodes_per_s / 1e3:,.0f} thousand nodes a second.")  # fmt: skip
        lines.append(said)
    return "\n".join(lines)


def effort(t: Any, agent: str, rival: str) -> dict[str, float]:
    """What each side of a duel's games searched, over its moves but the random
    opening ones: the median depth completed (``agent_depth``, ``rival_depth``), the
    median nodes a move (expanded plus evaluated positions, the benchmarks' count;
    ``agent_nodes``, ``rival_nodes``) and nodes a second of its own thinking time
    (``agent_nodes_per_s``, ``rival_nodes_per_s``; a move's overhead included, which
    dominates shallow searches: a speed of the evaluation at a time budget only)."""
    moves = t.moves[~t.moves["random"].astype(bool)]
    out = {}
    for side, name in (("agent", agent), ("rival", rival)):
        mine = moves[moves["agent"] == name]
        seconds = mine["time_ms"].sum() / 1000.0
        nodes_each = mine["expanded"] + mine["evaluated"]
        nodes = nodes_each.sum()
        out[f"{side}_depth"] = float(mine["depth"].median()) if len(mine) else np.nan
        out[f"{side}_nodes"] = float(nodes_each.median()) if len(mine) else np.nan
        out[f"{side}_nodes_per_s"] = float(nodes / seconds) if seconds > 0 else np.nan
    return out


def accuracy_sentences(chosen: Sequence[Setting], table: pd.DataFrame, versus: pd.DataFrame) -> str:
    """What :func:`accuracy_tables` found, a line per setting and comparison; a line
    saying so where no setting's game has a solver."""
    if table.empty:
        games = ", ".join(dict.fromkeys(s.spec.game for s in chosen))
        return f"No solver values positions of {games}: only the duels decide."
    words = {"higher": "higher than", "lower": "lower than", "undecided": "not told apart from"}
    lines = []
    for s in chosen:
        mine = table[table["setting"] == s.label].set_index("heuristic")
        if mine.empty:
            continue
        counts = mine[["won", "lost"]].iloc[0].astype(int)
        lines.append(f"{s.label}: {int(mine[['won', 'drawn', 'lost']].iloc[0].sum())} solved "
                     f"positions, {counts['won']} won and {counts['lost']} lost for the "
                     "player to move.")  # fmt: skip
        rows = versus[versus["setting"] == s.label] if not versus.empty else versus
        for row in rows.itertuples():
            ours, theirs = mine.at[row.heuristic, row.figure], mine.at[s.opponent, row.figure]
            lines.append(
                f"  {row.figure}: {row.heuristic} {ours:.3f}, {s.opponent} {theirs:.3f}: "
                f"{words[row.verdict]} {s.opponent}'s (difference {row.difference:+.3f}, "
                f"{row.level:.1%} interval {row.low:+.3f} to {row.high:+.3f})."
            )
    return "\n".join(lines)


def checkpoints_of(rows: pd.DataFrame, count: int) -> pd.DataFrame:
    """``count`` rows of one setting's learning curve, spaced evenly by position from
    its start to its last batch, both included (all of them where it has fewer)."""
    whole_number("checkpoints", count, 2)
    picks = sorted({round(i) for i in np.linspace(0, len(rows) - 1, count)})
    return rows.iloc[picks]


def strength_curve(
    chosen: Sequence[Setting], curve: pd.DataFrame, records: str | Path, *, checkpoints: int,
    budget: Mapping[str, Any], plan: DuelPlan, opening_plies: int, seed: int,
) -> pd.DataFrame:  # fmt: skip
    """Each setting's strength along its training: the weights of ``checkpoints``
    batches (:func:`checkpoints_of`) each against the setting's opponent at ``budget``
    in ``plan.max_blocks`` balanced blocks, all of them: a fixed sample decided in
    advance, so an estimate with its 95 % bootstrap interval over blocks
    (:func:`~.headtohead.block_estimate`), not a test. A row per setting and checkpoint:
    the training games, the heuristic, blocks and games played, the Elo difference to
    the opponent and its interval. Weights that value positions as the opponent does
    (:func:`alike`) play no games: 0 by definition, blocks 0. The first and last
    checkpoints play as ``start`` and ``learned``, the verdict duels' labels, so the
    games those duels played at an equal budget are read back, not played again."""
    fixed = dataclasses.replace(plan, batch=plan.max_blocks)
    rows = []
    for s in chosen:
        part = checkpoints_of(curve[curve["setting"] == s.label], checkpoints)
        for i in range(len(part)):
            games = int(part["games"].iloc[i])
            weights = {f: float(part[f].iloc[i]) for f in s.spec.features}
            name = weighted_heuristic(s.spec.game, weights).name
            label = "start" if i == 0 else "learned" if i == len(part) - 1 else f"after{games}"
            row = {"setting": s.label, "games": games, "checkpoint": label, "heuristic": name,
                   "opponent": s.opponent}  # fmt: skip
            if alike(s.spec.game, s.spec.players, name, s.opponent):
                rows.append({**row, "blocks": 0, "played": 0, "elo": 0.0, "elo_low": 0.0,
                             "elo_high": 0.0})  # fmt: skip
                continue
            point = _strength_point(
                name, s.opponent, s.spec, budget, records, plan=fixed,
                opening_plies=opening_plies, seed=seed, label=label,
            )  # fmt: skip
            rows.append({**row, **point})
    return pd.DataFrame(rows)


def net_strength_curve(
    specs: Mapping[str, NetSpec], records: str | Path, *, checkpoints: int,
    budget: Mapping[str, Any], plan: DuelPlan, opening_plies: int, seed: int,
    progress: bool = True,
) -> pd.DataFrame:  # fmt: skip
    """Each value network's strength against how many self-play games trained it: per
    setting (label -> :class:`~.valuenet.NetSpec`) ``checkpoints`` networks trained on
    the games numbered below evenly spaced counts up to all of them (``train_games``;
    the same held-out games measure each), each against the games' heuristic, the
    setting's opponent, at ``budget`` in ``plan.max_blocks`` balanced blocks: a fixed
    sample, so an estimate with its 95 % bootstrap interval over blocks
    (:func:`~.headtohead.block_estimate`), not a test. A row per setting and point:
    self-play games drawn on, the games that trained (not held out), the network, its
    held-out error, blocks, games played, the Elo difference and its interval. The
    last point is the setting's network itself and plays as ``net``, the verdict
    duels' label, so their games at an equal budget are read back."""
    whole_number("checkpoints", checkpoints, 1)
    fixed = dataclasses.replace(plan, batch=plan.max_blocks)
    rows = []
    for label, spec in specs.items():
        counts = sorted({max(1, round(spec.games * (i + 1) / checkpoints))
                         for i in range(checkpoints)})  # fmt: skip
        for count in counts:
            point = spec if count == spec.games else dataclasses.replace(spec, train_games=count)
            net, curve = train_net(point, records, progress=progress)
            name = net_heuristic(net).name
            played = _strength_point(name, spec.heuristic, spec, budget, records, plan=fixed,
                                     opening_plies=opening_plies, seed=seed,
                                     label="net" if point is spec else f"net{count}")  # fmt: skip
            rows.append({"setting": label, "games": count, "trained_on": training_games(point),
                         "heuristic": name, "opponent": spec.heuristic,
                         "holdout_mse": float(curve.loc[curve["kept"], "holdout_mse"].iloc[0]),
                         **played})  # fmt: skip
    return pd.DataFrame(rows)


def _strength_point(
    name: str, opponent: str, spec: Any, budget: Mapping[str, Any], records: str | Path, *,
    plan: DuelPlan, opening_plies: int, seed: int, label: str,
) -> dict[str, Any]:  # fmt: skip
    """One point of a strength curve: heuristic ``name`` against ``opponent`` in
    ``spec``'s game, search and player count at ``budget``, all of ``plan``'s blocks
    (:func:`~.tuning.decide`, reading back the games ``label`` already played):
    blocks and games played, the Elo difference and its 95 % bootstrap interval over
    blocks (:func:`~.headtohead.block_estimate`)."""
    t, duel = decide(name, opponent, [budget], records, game=spec.game,
                     algorithm=spec.algorithm, players=spec.players, plan=plan,
                     opening_plies=opening_plies, seed=seed, label=label)  # fmt: skip
    scores = np.asarray(duel["scores"].iloc[0], dtype=float)
    elo, low, high = block_estimate(scores, seed)
    return {"blocks": len(scores), "played": len(t.games), "elo": elo, "elo_low": low,
            "elo_high": high}  # fmt: skip


def strength_sentences(table: pd.DataFrame) -> str:
    """:func:`strength_curve` in words: a line per setting, each checkpoint's Elo
    difference to the opponent with its 95 % interval (estimates, not verdicts)."""
    lines = []
    for label, part in table.groupby("setting", sort=False):
        points = [_point_words(r) for r in part.itertuples()]
        lines.append(f"{label} against {part['opponent'].iloc[0]}, {int(part['blocks'].max())} "
                     f"blocks a point (Elo, 95 % interval): {'; '.join(points)}.")  # fmt: skip
    return "\n".join(lines)


def _point_words(r: Any) -> str:
    """One checkpoint of :func:`strength_sentences`: its estimate and interval; said
    so where every block scored alike (no spread to draw an interval from), and where
    it played no games (the opponent's own evaluation)."""
    if r.blocks == 0:
        return f"after {r.games} games the opponent's own evaluation"
    said = f"after {r.games} games {r.elo:+.0f} [{r.elo_low:+.0f}, {r.elo_high:+.0f}]"
    if r.blocks > 1 and r.elo_low == r.elo_high:
        said += " (every block scored alike: no spread between blocks to measure)"
    return said
