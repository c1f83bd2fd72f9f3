"""Writing the workbench's outputs: figures (PNG and SVG) and tables (CSV), atomically.

One seaborn style for every figure (:func:`use_style`), so the thesis's figures and
ours look alike; :func:`save_figure` writes both formats with fixed SVG ids and no
date, so an unchanged figure is an unchanged file; :func:`save_table` writes a CSV
through a temporary file, so a killed run never leaves half a table.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd


def use_style() -> None:
    """The workbench's plot style: seaborn's whitegrid, colour-blind palette, context
    ``notebook``; non-interactive backend when there is no display."""
    import matplotlib
    import seaborn as sns

    if not os.environ.get("DISPLAY") and "inline" not in matplotlib.get_backend():
        matplotlib.use("Agg")
    sns.set_theme(style="whitegrid", palette="colorblind", context="notebook")


def save_figure(fig: Any, name: str, folder: str | Path) -> list[Path]:
    """Write ``fig`` as ``folder/name.png`` and ``folder/name.svg``; returns the paths."""
    import matplotlib

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for suffix in ("png", "svg"):
        path = folder / f"{name}.{suffix}"
        tmp = folder / f".{name}.tmp.{suffix}"
        meta = {"Date": None} if suffix == "svg" else {}
        with matplotlib.rc_context({"svg.hashsalt": "chameleon_lab"}):
            fig.savefig(tmp, dpi=130, bbox_inches="tight", metadata=meta, format=suffix)
        os.replace(tmp, path)
        paths.append(path)
    return paths


def save_table(df: pd.DataFrame, name: str, folder: str | Path) -> Path:
    """Write ``df`` as ``folder/name.csv`` (through a temporary file); returns the path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.csv"
    tmp = folder / f".{name}.tmp.csv"
    df.to_csv(tmp, index=False)
    os.replace(tmp, path)
    return path
