"""The Connect Four solver (:mod:`chameleon_lab.games.connect4.solver`) against
independent truths: Pascal Pons's published test positions and scores (a sample in
``tests/data/connect4_pons_positions.txt``, its header names the source), and the
generic alpha-beta solver, exact too, on small boards and near the end of big ones."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chameleon_lab.games import get_game
from chameleon_lab.games.connect4 import solver as C4
from chameleon_lab.search import solve as solve_module
from chameleon_lab.search.solve import solve

DATA = Path(__file__).parent / "data" / "connect4_pons_positions.txt"
#: Small tables keep the tests' memory low; the values do not depend on the size.
BITS = 18


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    """``solve`` dispatches connect4 to the solver, as it will once registered."""
    monkeypatch.setitem(solve_module.SPECIALISED, "connect4", "chameleon_lab.games.connect4.solver")


def _pons_positions() -> list[tuple[str, str, int]]:
    rows = []
    for line in DATA.read_text().splitlines():
        if line and not line.startswith("#"):
            name, seq, score = line.split()
            rows.append((name, seq, int(score)))
    return rows


def _play(seq: str, width: int = 7, height: int = 6):
    pos = get_game("connect4", width=width, height=height).start()
    for ch in seq:
        pos = pos.play(ch)
    return pos


def _random_position(rng: random.Random, width: int, height: int, stones: int):
    pos = get_game("connect4", width=width, height=height).start()
    for _ in range(stones):
        if pos.is_over:
            break
        pos = pos.play(rng.choice(pos.legal_moves))
    return pos


def _check_best_move(pos, sol) -> None:
    """The solver's move keeps its value: the generic solver scores the child at minus
    it (or the move wins at once with the value a win with the next stone has)."""
    child = pos.play(str(sol.move + 1))
    assert -solve(child, method="generic").value == sol.value, (pos, sol)


def test_the_sample_holds_pons_sets():
    rows = _pons_positions()
    counts = {name: sum(1 for r in rows if r[0] == name) for name, _, _ in rows}
    assert counts == {
        "Test_L3_R1": 60,
        "Test_L2_R1": 60,
        "Test_L2_R2": 20,
        "Test_L1_R1": 20,
        "Test_L1_R2": 5,
        "Test_L1_R3": 2,
    }


def test_pons_published_scores():
    wrong = []
    for name, seq, score in _pons_positions():
        sol = solve(_play(seq), tt_bits=20)
        if sol.value != score:
            wrong.append((name, seq, score, sol.value))
    assert not wrong


def test_pons_positions_near_the_end_agree_with_the_generic_solver_with_best_moves():
    for _name, seq, score in _pons_positions():
        if len(seq) >= 33:
            pos = _play(seq)
            sol = solve(pos, tt_bits=BITS)
            assert sol.value == score == solve(pos, method="generic").value, seq
            _check_best_move(pos, sol)


@pytest.mark.parametrize(("width", "height"), [(4, 4), (5, 4), (4, 5), (6, 4), (5, 5)])
def test_empty_small_boards_match_the_generic_solver(width, height):
    pos = get_game("connect4", width=width, height=height).start()
    sol = solve(pos, tt_bits=BITS)
    assert sol.value == solve(pos, method="generic").value
    assert sol.move in range(width)
    assert sol.nodes > 0 and sol.seconds >= 0


@pytest.mark.parametrize(
    ("width", "height", "empty"),
    [(7, 6, 14), (9, 6, 13), (7, 8, 13), (8, 6, 14), (4, 9, 16), (9, 4, 15), (7, 5, 15)],
)
def test_every_board_size_near_the_end_matches_the_generic_solver(width, height, empty):
    rng = random.Random(width * 10 + height)
    for _ in range(6):
        pos = _random_position(rng, width, height, width * height - empty)
        sol = solve(pos, tt_bits=BITS)
        assert sol.value == solve(pos, method="generic").value, pos
        if not pos.is_over:
            _check_best_move(pos, sol)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.sampled_from([(4, 4), (5, 4), (4, 5), (5, 5), (6, 4)]),
    seed=st.integers(0, 2**32 - 1),
    fill=st.floats(0.0, 1.0),
)
def test_random_playouts_match_the_generic_solver(size, seed, fill):
    width, height = size
    cells = width * height
    # the generic solver takes a second or two from the empty 5 x 5 and 6 x 4 boards:
    # leave it at most 20 empty cells there
    least = cells - 20 if cells > 20 else 0
    stones = least + round(fill * (cells - least))
    pos = _random_position(random.Random(seed), width, height, stones)
    assert solve(pos, tt_bits=BITS).value == solve(pos, method="generic").value, pos


def test_finished_positions_score_as_the_kernel_returns():
    won = _play("4455667")  # red's fourth stone in row 1: yellow to move has lost
    assert won.is_over
    sol = solve(won)
    assert sol.value == solve(won, method="generic").value == -((42 + 2 - 7) // 2)
    assert sol.move == -1
    drawn = None  # a 4 x 4 board filled without four in a row
    for seed in range(500):
        pos = _random_position(random.Random(seed), 4, 4, 16)
        if pos.is_over and pos.winner is None:
            drawn = pos
            break
    assert drawn is not None
    assert solve(drawn).value == solve(drawn, method="generic").value == 0
    assert solve(drawn).move == -1


def test_a_win_with_the_next_stone_and_a_lost_position():
    pos = _play("445566")  # red completes 3-4-5-6 or ... with the 4th stone: 22 - 4
    sol = solve(pos, tt_bits=BITS)
    assert sol.value == 18 and sol.move in (2, 6)
    lost = _play("44455554221")  # Pons's example: score -15
    assert solve(lost, tt_bits=BITS).value == -15
    assert solve(_play("4455"), tt_bits=BITS).value == 18  # Pons's example


@pytest.mark.parametrize("bits", [-1, 31, True, 2.0])
def test_tt_bits_are_validated(bits):
    with pytest.raises(ValueError, match="tt_bits"):
        solve(_play("4455"), tt_bits=bits)


def test_a_one_entry_table_still_solves_exactly():
    for _name, seq, score in _pons_positions()[:20]:
        assert solve(_play(seq), tt_bits=0).value == score


def test_solve_state_reports_its_work():
    pos = _play("2252576253462244111563365343671351441")
    sol = C4.solve_state(pos.game, pos.state, tt_bits=BITS)
    assert sol.value == -1
    assert sol.expanded > 0 and sol.evaluated > 0 and sol.tt_hits >= 0
    assert sol.nodes == sol.expanded + sol.evaluated


# ------------------------------------------------------------------ the benchmark
def test_the_benchmark_agrees_with_the_published_scores():
    from chameleon_lab.bench import solve_connect4 as B

    table = B.run(DATA, limit=30)
    assert table["positions"].sum() == 30
    assert table["agree"].all()
    assert (table["our_nodes"] > 0).all()


def test_the_benchmark_reads_a_reference_solvers_output(tmp_path):
    """A stand-in for Pons's solver, answering the file's own scores in his formats."""
    from chameleon_lab.bench import solve_connect4 as B

    scores = {seq: score for _name, seq, score in _pons_positions()[:12]}
    book = tmp_path / "scores.txt"
    book.write_text("".join(f"{s} {v}\n" for s, v in scores.items()))
    positions = tmp_path / "positions.txt"
    positions.write_text("".join(f"{s} {v}\n" for s, v in scores.items()))
    for extra in ("", " 100 250"):
        fake = tmp_path / "fake_solver"
        fake.write_text(
            "#!/bin/sh\n"
            f'while read s; do echo "$s $(grep "^$s " {book} | cut -d\' \' -f2){extra}"; done\n'
        )
        fake.chmod(0o755)
        table = B.run(positions, reference=str(fake))
        assert table["agree"].all()
        assert table["positions"].sum() == 12
        if extra:
            assert (table["pons_nodes"] == 100).all()
            assert table["pons_ms"].round(6).eq(0.25).all()


def test_the_benchmark_prints_its_table(capsys):
    from chameleon_lab.bench import solve_connect4 as B

    assert B.main(["--limit", "5"]) == 0
    out = capsys.readouterr().out
    assert "our_ms" in out and "pons_ms" in out and "agree" in out
