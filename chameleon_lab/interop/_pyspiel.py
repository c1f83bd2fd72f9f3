"""OpenSpiel's Python module, or an ``ImportError`` that says how to install it.

Every module of the OpenSpiel bridge imports ``pyspiel`` from here, so whichever of them
is imported first without the extra installed says the same thing.
"""

from __future__ import annotations

INSTALL = "pip install -e '.[openspiel]'"

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "chameleon_lab.interop.openspiel needs OpenSpiel (the package open_spiel, which "
        f"provides pyspiel); install the optional extra with: {INSTALL}"
    ) from exc

__all__ = ["INSTALL", "pyspiel"]
