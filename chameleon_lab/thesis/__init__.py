"""What exists only to reproduce the thesis and the original Chameleon program.

Everything else in the library is general; this wing is the thesis's:

* :mod:`.nodes` and :mod:`.driver`: the original program's four searches and its root
  driver (depth mode, time mode), bit for bit (the ``thesis`` flavour);
* :mod:`.legacy`: the original's session files read as records;
* :mod:`.replay`: those sessions played again, position by position;
* :mod:`.sessions`: the sessions behind the thesis's tables 6.1 to 6.11;
* :mod:`.compare`: our results beside the thesis's, with intervals and a verdict;
* :mod:`.reference`: the reference data of ``../shared`` (thesis tables, legacy
  sessions, the complexity runs, the original's perft counts).
"""

from . import driver  # registers the thesis flavour with the search layer

__all__ = ["driver"]
