"""Random positions for the search tests (a helper module, not a test file)."""

from __future__ import annotations

import random

from chameleon_lab.games.chameleon import ChameleonMatch, Colour, Position


def random_positions(count: int, seed: int, max_moves: int = 60) -> list[Position]:
    """``count`` positions after 0 to ``max_moves`` random moves from random seatings of
    two to four players; none is over and each has a legal move."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        game = ChameleonMatch(players=rng.sample(list(Colour), rng.randint(2, 4)), move_limit=None)
        for _ in range(rng.randint(0, max_moves)):
            if game.is_over or not game.position.legal_moves:
                break
            game.play(rng.choice(game.position.legal_moves))
        if not game.is_over and game.position.legal_moves:
            positions.append(game.position)
    return positions
