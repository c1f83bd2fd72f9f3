"""Sphinx configuration of chameleon_lab's documentation (``make docs``).

The build is offline and reads nothing but this repository: the algorithm and game
tables come from the registries (``_ext/chameleon_docs.py``), the CLI reference from
``chameleon_lab.cli.build_parser``, the API reference from the docstrings, and the
notebook pages from ``reports/*.ipynb`` when ``make run`` has written them, otherwise
from the committed ``notebooks/*.ipynb`` (no outputs). No notebook is executed here.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

from chameleon_lab.version import __version__  # noqa: E402

project = "chameleon_lab"
author = "chameleon_lab developers"
copyright = "chameleon_lab developers, MIT licence"
release = version = __version__

extensions = [
    "myst_nb",  # Markdown pages (MyST) and notebooks
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinxarg.ext",  # the CLI reference from the argparse parser
    "chameleon_docs",  # the registries' tables, the notebooks' staging
]

root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints"]
# .rst first: autosummary writes its stubs with the first suffix
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}

# A broken reference between pages or to any Python object of ours fails the build
# (make docs passes -W --keep-going). Nitpicky: the offline build has no intersphinx
# inventories, so the docstrings name numpy, numba and the standard library as literals
# (``numba.njit``), and private helpers too; module-level aliases are left out
# (docs/_ext/chameleon_docs.py).
nitpicky = True

myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 3

# notebooks are rendered as they are: executed by `make run`, never while building
nb_execution_mode = "off"
nb_merge_streams = True

autosummary_generate = True
autosummary_imported_members = False
# a module documents what it defines; what it re-exports is documented where defined
autodoc_default_options = {"members": True, "ignore-module-all": True}
autodoc_member_order = "bysource"
autodoc_typehints = "none"  # signatures name numpy and numba types Sphinx cannot resolve

html_theme = "furo"
html_title = f"chameleon_lab {release}"
html_static_path: list[str] = []
