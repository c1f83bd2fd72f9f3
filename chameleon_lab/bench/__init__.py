"""Benchmarks: the speed figures ``chameleon-lab bench ...`` prints (never asserted in
unit tests).

* :mod:`.chameleon`: Chameleon Chess: perft on the 11 start seatings, the multi-player
  searches' nodes per second and depths within time budgets, tournament throughput;
* :mod:`.games`: every game's perft and the two-player suite's ladder, beside
  OpenSpiel's Python alpha-beta where it is installed;
* :mod:`.solve_connect4`, :mod:`.solve_othello`: the exact solvers beside Pascal Pons's
  Connect Four solver and Edax.
"""
