"""Bridges between this library and other game-playing libraries.

Each bridge is an optional extra: importing it needs the other library, and nothing in
the rest of the package imports a bridge (only tests, the CLI and notebooks do), so the
library works without them.

* :mod:`.openspiel`: every game registered as an OpenSpiel game, OpenSpiel's bots as
  agents of this library's tournaments, this library's agents as OpenSpiel bots
  (``pip install -e '.[openspiel]'``).
* :mod:`.actions`: each game's moves numbered ``0..size-1`` with the same number in
  every position (OpenSpiel's action ids; usable by any bridge that wants a fixed action
  space). It needs no other library.
"""
