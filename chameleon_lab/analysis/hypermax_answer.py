"""The answer of notebook ``11_hypermax`` in words, written from the notebook's own
tables, so that the quick and the full run each say what they found.

* :func:`how_often`: the share of positions on which Hypermax chose another move than
  MaxN, by normalisation and depth;
* :func:`why`: the causes of the normalised departures explained, most frequent first;
* :func:`mend`: the mended Hypermax's agreement with MaxN and its nodes against MaxN's;
* :func:`mended_verdicts` and :func:`games` (its sentences): plain against mended
  Hypermax in the thesis's sessions, block by block (each repetition one opening,
  the same for both): the sign-flip test of the paired differences of win share with
  Holm's correction across the sessions, the equivalence of the two (two one-sided
  tests, a margin of win share) beside it, and the gap an undecided session could
  have detected;
* :func:`answer`: the four together.

Each function takes a table the notebook saved (``hypermax_departures``,
``hypermax_causes``, ``hypermax_mended_nodes``, ``hypermax_mended_sessions``,
``hypermax_mended_blocks``) and returns sentences; none of them holds a number of its
own.
"""

from __future__ import annotations

import pandas as pd

from .claims import holm, paired_tost, sign_flip_detectable_gap
from .summary import SIDE_FIGURES

#: The equivalence margin of the win rates compared (15 points, as issue 44 asks).
MARGIN = 0.15
#: The counts :func:`mended_verdicts` sums over a session's blocks.
BLOCK_COUNTS = ("plain_wins", "plain_games", "mended_wins", "mended_games")


def _percent(x: float) -> str:
    return f"{100 * x:.0f} %" if x >= 0.01 or x == 0 else f"{100 * x:.1f} %"


def how_often(rates: pd.DataFrame, flavour: str = "thesis") -> str:
    """Move departures of ``flavour``'s Hypermax from MaxN per depth, unnormalised and
    normalised, over all player counts."""
    part = rates[rates["flavour"] == flavour]
    sums = part.groupby(["normalize", "depth"])[["move_departures", "positions"]].sum()
    lines = []
    for normalize, label in ((False, "Unnormalised"), (True, "Normalised")):
        if normalize not in sums.index.get_level_values(0):
            continue
        rows = sums.loc[normalize]
        shares = ", ".join(
            f"{_percent(r.move_departures / r.positions)} at depth {d}" for d, r in rows.iterrows()
        ).replace(" at depth", " of the positions at depth", 1)
        lines.append(
            f"{label}, Hypermax chose another move than MaxN on {shares} "
            f"({int(rows['positions'].iloc[0])} positions a depth)."
        )
    if (False in sums.index.get_level_values(0)) and "departures_from_normalised_maxn" in part:
        un = part[~part["normalize"].astype(bool)]
        share = un["departures_from_normalised_maxn"].sum() / un["positions"].sum()
        lines.append(
            "Against the normalised MaxN the thesis seated beside it, the unnormalised "
            f"Hypermax chose another move on {_percent(share)} of the positions."
        )
    return " ".join(lines)


def why(counts: pd.DataFrame) -> str:
    """The causes of the normalised departures explained, most frequent first."""
    norm = counts[counts["normalize"].astype(bool)]
    total = int(norm["departures"].sum())
    if not total:
        return "Normalised, no departure was found to explain at these depths."
    by_cause = norm.groupby("cause")["departures"].sum().sort_values(ascending=False)
    parts = ", ".join(f"{cause} {int(n)} ({_percent(n / total)})" for cause, n in by_cause.items())
    return f"Of the {total} normalised departures explained: {parts}."


def mend(saved: pd.DataFrame) -> str:
    """Whether the mended Hypermax returned MaxN's moves, and its nodes as a share of
    MaxN's per player count and depth."""
    searches, same = int(saved["positions"].sum()), int(saved["same"].sum())
    lines = [f"The mended Hypermax returned MaxN's move and vector in {same} of {searches} "
             "searches."]  # fmt: skip
    for players, group in saved.groupby("players"):
        ratios = ", ".join(f"{r.mended_of_maxn:.2f} at depth {r.depth}" for r in group.itertuples())
        lines.append(f"With {players} players its nodes were {ratios} of MaxN's.")
    return " ".join(lines)


def _paired(mended, plain, alpha: float, level: float, power: float) -> dict[str, float]:
    """:func:`~chameleon_lab.analysis.claims.paired_tost` of one session's blocks; one
    block alone (a session played once) has a difference and nothing to test it by."""
    if len(mended) < 2:
        nan = float("nan")
        return {"difference": float(mended[0] - plain[0]), "ci_low": nan, "ci_high": nan,
                "p_value": 1.0, "p_tost": nan, "detectable_gap": float("inf")}  # fmt: skip
    eq = paired_tost(mended, plain, margin=MARGIN, alpha=alpha)
    return {
        "difference": eq.difference,
        "ci_low": eq.ci_low,
        "ci_high": eq.ci_high,
        "p_value": eq.p_differ,
        "p_tost": eq.p_tost,
        "detectable_gap": sign_flip_detectable_gap(eq.sd, eq.blocks, level, power),
    }


_SIDE_COLUMNS = [f"{side}_{k}" for k in SIDE_FIGURES for side in ("plain", "mended")]


def mended_verdicts(
    blocks: pd.DataFrame,
    beside: pd.DataFrame | None = None,
    agent: str = "Hypermax",
    alpha: float = 0.05,
    power: float = 0.8,
) -> pd.DataFrame:
    """Plain against mended ``agent`` in each session of ``blocks``
    (:func:`chameleon_lab.thesis.compare.mended_blocks`), block by block: per session
    the wins of each, the mean over blocks of the mended one's win share less the plain
    one's (``difference``) with its 95 % bootstrap interval, the sign-flip p-value of no
    difference with Holm's correction across the sessions (``verdict``: more or fewer
    wins with the mended one, or no difference detected), the two one-sided t-tests of
    a difference within :data:`MARGIN` (``equivalence``: differs, equivalent or
    undecided; :func:`~chameleon_lab.analysis.claims.paired_tost`), and where no
    difference was detected the smallest mean difference the blocks could have
    detected with ``power`` at Holm's strictest level (``detectable_gap``). With
    ``beside`` (:func:`chameleon_lab.thesis.compare.mended_beside`) each side's median
    depth, median and largest milliseconds a move and largest overshoot too. Empty
    when no session seats ``agent``."""
    if blocks.empty:
        return pd.DataFrame()
    sessions = list(dict.fromkeys(blocks["session"]))
    level = alpha / len(sessions)
    depths = beside[beside["agent"] == agent].set_index("session") if beside is not None else None
    out = []
    for name in sessions:
        part = blocks[blocks["session"] == name]
        mended = part["mended_wins"] / part["mended_games"]
        plain = part["plain_wins"] / part["plain_games"]
        row = {
            "session": name,
            "blocks": len(part),
            **{c: int(part[c].sum()) for c in BLOCK_COUNTS},
            **_paired(mended.to_numpy(), plain.to_numpy(), alpha, level, power),
        }
        if depths is not None and name in depths.index:
            row |= {c: depths.at[name, c] for c in _SIDE_COLUMNS if c in depths.columns}
        out.append(row)
    table = pd.DataFrame(out)
    table.insert(table.columns.get_loc("p_tost"), "p_holm", holm(table["p_value"].to_numpy()))
    decided = table["p_holm"] < alpha
    more = table["difference"] > 0
    table["verdict"] = [
        ("more" if m else "fewer") + " wins with the mended one" if d else "no difference detected"
        for d, m in zip(decided, more, strict=True)
    ]
    table["equivalence"] = [
        "differs" if d else "equivalent" if p < alpha else "undecided"
        for d, p in zip(decided, table["p_tost"], strict=True)
    ]
    table.loc[decided, "detectable_gap"] = float("nan")
    return table


def _depths(row) -> str:
    plain, mended = (
        getattr(row, "plain_depth_median", None),
        getattr(row, "mended_depth_median", None),
    )
    if plain is None or pd.isna(plain):
        return ""
    return f"; median depth {plain:g} plain, {mended:g} mended"


def games(
    blocks: pd.DataFrame,
    beside: pd.DataFrame | None = None,
    agent: str = "Hypermax",
    alpha: float = 0.05,
) -> str:
    """Plain against mended ``agent`` in each session, in words
    (:func:`mended_verdicts`)."""
    table = mended_verdicts(blocks, beside, agent, alpha)
    if table.empty:
        return f"No session seated {agent}."
    lines = []
    for row in table.itertuples():
        head = (
            f"{row.session}: {agent} won {row.plain_wins}/{row.plain_games} plain, "
            f"{row.mended_wins}/{row.mended_games} mended"
        )
        if row.blocks < 2:
            lines.append(
                f"{head}, from one opening: {100 * row.difference:+.1f} points of win share "
                "with the mended one, one block and nothing to test it by (play the session "
                f"more than once: session_repetitions){_depths(row)}."
            )
            continue
        gap = row.detectable_gap
        power = (
            ""
            if pd.isna(gap)
            else "; too few blocks to reach the corrected level"
            if gap == float("inf")
            else f"; 80 % power only for a mean difference of {100 * gap:.0f} points or more"
        )
        lines.append(
            f"{head}, over {row.blocks} openings; mended less plain "
            f"{100 * row.difference:+.1f} points of win share a block (95 % "
            f"{100 * row.ci_low:+.1f} to {100 * row.ci_high:+.1f}; sign-flip p = "
            f"{row.p_value:.3f}, Holm {row.p_holm:.3f}: {row.verdict}{power}; within "
            f"{100 * MARGIN:.0f} points of each other: {row.equivalence}){_depths(row)}."
        )
    return "\n".join(lines)


def answer(
    rates: pd.DataFrame,
    counts: pd.DataFrame,
    saved: pd.DataFrame,
    beside: pd.DataFrame,
    blocks: pd.DataFrame,
) -> str:
    """The notebook's answer, paragraph by paragraph, from its five tables."""
    return "\n\n".join(
        [
            "How often. " + how_often(rates),
            "Why. " + why(counts),
            "The mend. " + mend(saved),
            "The games.\n" + games(blocks, beside),
        ]
    )
