"""The README's table of algorithms says what the registry says (it cannot rot)."""

from __future__ import annotations

import re
from pathlib import Path

from chameleon_lab.search.registry import ALGORITHMS

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_lists_every_algorithm_as_the_registry_declares_it():
    text = README.read_text()
    header = "| algorithm | what | players | flavours | budgets | reference |"
    assert text.count(header) == 1
    block = text[text.index(header) :].split("\n\n")[0]
    rows = re.findall(r"^\| `(\w+)` \| (.*) \|$", block, flags=re.M)
    table = {name: [c.strip() for c in rest.split(" | ")] for name, rest in rows}
    assert list(table) == list(ALGORITHMS)
    for name, spec in ALGORITHMS.items():
        title, players, flavours, budgets, reference = table[name]
        assert title == spec.title
        assert players == ("2" if spec.two_player else "2-4")
        assert flavours == ", ".join(spec.flavours)
        assert budgets == ", ".join(spec.budgets)
        assert reference == spec.reference
