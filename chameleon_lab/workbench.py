"""The notebook workbench: the parameter checks and folders the notebooks use.

Each notebook in ``notebooks/`` has a cell tagged ``parameters`` and, right after it,
a cell that calls :func:`check_choice` / :func:`check_numbers` on them, so a bad value
(an unknown algorithm name, profile or source) stops the notebook there with a
message listing the valid values.

The batch that runs them and its profiles are :mod:`chameleon_lab.batch`, which the
notebooks do not load: a profile's change is on no artefact's path.

Folders: a relative output folder (``figures_dir``, ``data_dir``, the reports) means
one in the project, the folder holding ``pyproject.toml`` (:func:`project_path`),
whatever the working directory of the shell, the kernel or Jupyter: the notebooks'
check cells resolve their folders with it too, so papermill's command line, its Python
API and JupyterLab all write to the same place.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .search.registry import algorithm_names, get_algorithm

NOTEBOOKS = (
    "00_explore_heuristics",
    "01_game",
    "02_trees",
    "03_complexity",
    "04_thesis_tables",
    "05_time_budgets",
    "06_two_player_search",
    "07_connect_four_reversi",
    "08_search_efficiency",
    "09_beyond_the_thesis",
    "10_tuning",
    "11_hypermax",
    "12_the_papers_games",
    "13_self_learning",
)
SOURCES = ("legacy", "thesis", "improved")
#: The thesis's four searches, which the profiles of notebook 05 play (its thesis
#: flavour too); a test holds them to the registry's thesis flavour.
THESIS_FOUR = ["maxn", "maxnis", "paranoid", "hypermax"]


def __getattr__(name: str) -> Any:
    """``ALGORITHMS`` (the searches notebooks 05 and 08 may compare on four-player
    Chameleon Chess) and ``THESIS_ALGORITHMS``, read from the registry on use."""
    if name == "ALGORITHMS":
        return algorithm_names(players=4)
    if name == "THESIS_ALGORITHMS":
        return algorithm_names(flavour="thesis")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def check_choice(name: str, value: Any, valid: Iterable[Any]) -> Any:
    """``value`` if it is one of ``valid``, else ``ValueError`` listing them."""
    valid = list(valid)
    if value not in valid:
        raise ValueError(f"unknown {name} {value!r}; valid values: {', '.join(map(str, valid))}")
    return value


def check_choices(name: str, values: Sequence[Any], valid: Iterable[Any]) -> list[Any]:
    """Every entry of ``values`` checked with :func:`check_choice`; not empty."""
    if isinstance(values, str) or not isinstance(values, Sequence) or not values:
        raise ValueError(f"{name} must be a non-empty list, got {values!r}")
    return [check_choice(name.rstrip("s"), v, valid) for v in values]


def check_algorithms(values: Sequence[Any], *, players: int = 4) -> list[str]:
    """A non-empty list of the registry's algorithms that search games of ``players``
    players, or ``ValueError`` naming the first that is not (each looked up by its
    name, so a run reads only the entries it uses)."""
    if isinstance(values, str) or not isinstance(values, Sequence) or not values:
        raise ValueError(f"algorithms must be a non-empty list, got {values!r}")
    for value in values:
        if get_algorithm(value).two_player and players != 2:
            raise ValueError(
                f"{value} searches two-player games only; algorithms for {players} "
                f"players: {', '.join(algorithm_names(players=players))}"
            )
    return list(values)


def check_numbers(name: str, values: Sequence[Any], low: float = 1) -> list[Any]:
    """A non-empty list of numbers >= ``low``, or ``ValueError`` saying so."""
    if isinstance(values, str) or not isinstance(values, Sequence) or not values:
        raise ValueError(f"{name} must be a non-empty list of numbers >= {low}, got {values!r}")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v < low:
            raise ValueError(f"{name} must hold numbers >= {low}, got {v!r} in {values!r}")
    return list(values)


def check_game(name: Any, params: Any = None) -> Any:
    """The game ``name`` with ``params`` (a mapping) from the registry, or
    ``ValueError`` listing the games or the game's parameters."""
    from .games.registry import get_game

    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise ValueError(f"game_params must be a mapping of parameter to value, got {params!r}")
    return get_game(name, **params)


def _is_project(folder: Path) -> bool:
    try:
        data = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return False
    return data.get("project", {}).get("name") == "chameleon_lab"


def project_root() -> Path:
    """The project folder: the one holding chameleon_lab's ``pyproject.toml``.

    The checkout the package is imported from; for an installed copy, the nearest such
    folder at or above the working directory; else the working directory itself.
    """
    package = Path(__file__).resolve().parent
    for start in (package.parent, Path.cwd().resolve()):
        for folder in (start, *start.parents):
            if _is_project(folder):
                return folder
    return Path.cwd().resolve()


def project_path(path: str | Path) -> Path:
    """``path`` as an absolute path: a relative one is taken in the project folder
    (:func:`project_root`), not in the working directory of the kernel or shell."""
    if isinstance(path, str) and not path.strip():
        raise ValueError("a folder path must not be empty; give e.g. 'figures' or '/tmp/out'")
    path = Path(path).expanduser()
    return path if path.is_absolute() else project_root() / path


def notebook_dir() -> Path:
    """``notebooks/`` of the source tree (the batch runs from a checkout)."""
    return Path(__file__).resolve().parents[1] / "notebooks"
