"""A round changes every source cell an expectation read and the blanks around them, and
nothing else: numbers renewed, unique names permuted (look-ups still find them), the
ends of a run of keys cycling through every key over the rounds."""

from __future__ import annotations

import random

from officegym.apps.sheets.engine import Book
from officegym.apps.sheets.refs import parse_area
from officegym.tasks.sheets.sources import (
    ROUNDS,
    Run,
    categories,
    edge_rounds,
    edges,
    perturbation,
    runs,
)

SID = 7
REGIONS = ["EMEA", "APAC", "LATAM", "EMEA", "APAC"]


def _book() -> Book:
    """Header in row 1; rows 2-6: region (A), amount (B), unique name (C); a total in B8."""
    b = Book(1, 46000.0)
    b.add_sheet(SID, "Deals")
    for c, head in enumerate(["Region", "Amount", "Name"], start=1):
        b.set_input(SID, 1, c, head)
    for i, region in enumerate(REGIONS):
        b.set_input(SID, 2 + i, 1, region)
        b.set_input(SID, 2 + i, 2, str(100 * (i + 1)))
        b.set_input(SID, 2 + i, 3, f"Deal {i}")
    b.set_input(SID, 8, 2, "=SUM(B2:B6)")
    b.recalc(list(b.dirty))
    return b


def _not_total(key: tuple[int, int, int]) -> bool:
    return key == (SID, 8, 2)


def test_reads_become_runs_down_each_column_cut_by_the_result() -> None:
    reads = [(SID, parse_area("A2:B6")), (SID, parse_area("B7")), (SID, parse_area("B8"))]
    assert runs(reads, _not_total) == [Run(SID, 1, 2, 6), Run(SID, 2, 2, 7)]


def test_a_round_renews_every_source_cell_and_the_blanks_around_them() -> None:
    b = _book()
    found = runs([(SID, parse_area("A2:C6"))], _not_total)
    edits = perturbation(b, found, random.Random(1), _not_total)
    amounts = [(SID, r, 2) for r in range(2, 7)]
    assert all(edits[k] != b.cell(*k).input for k in amounts)  # type: ignore[union-attr]
    names = sorted(edits[(SID, r, 3)] for r in range(2, 7))
    assert names == sorted(f"'Deal {i}" for i in range(5))  # a permutation: keys still match
    assert (SID, 7, 1) in edits and (SID, 7, 3) in edits and (SID, 7, 2) in edits
    assert not any(k[1] == 1 for k in edits)  # the header is no blank: left alone
    assert (SID, 8, 2) not in edits


def test_the_ends_of_a_run_of_keys_take_every_key_over_the_rounds() -> None:
    b = _book()
    found = runs([(SID, parse_area("A2:B6"))], _not_total)
    n = max(ROUNDS, categories(b, found))
    assert categories(b, found) == 3 and n == 3
    last = {perturbation(b, found, random.Random(i), _not_total, i)[(SID, 6, 1)] for i in range(n)}
    below = {perturbation(b, found, random.Random(i), _not_total, i)[(SID, 7, 1)] for i in range(n)}
    assert last == below == {"'APAC", "'EMEA", "'LATAM"}


def test_rounds_are_the_same_for_the_same_seed() -> None:
    b = _book()
    found = runs([(SID, parse_area("A2:C6"))], _not_total)
    one = perturbation(b, found, random.Random("wb:target:0"), _not_total)
    assert one == perturbation(b, found, random.Random("wb:target:0"), _not_total)


def _grid_book() -> Book:
    """Rows 2-6, columns B-D of numbers under a header row; names in A; nothing in E."""
    b = Book(1, 46000.0)
    b.add_sheet(SID, "Deals")
    for c, head in enumerate(["Name", "Q1", "Q2", "Q3"], start=1):
        b.set_input(SID, 1, c, head)
    for r in range(2, 7):
        b.set_input(SID, r, 1, f"Deal {r}")
        for c in (2, 3, 4):
            b.set_input(SID, r, c, str(10 * r + c))
    b.recalc(list(b.dirty))
    return b


def _edited(book: Book, edits: dict) -> Book:
    copy = book.fork()
    for key, text in edits.items():
        copy.set_input(*key, text)
    copy.recalc(list(edits))
    return copy


def _values(book: Book, r1: int, c1: int, r2: int, c2: int) -> list[float]:
    cells = [book.value(SID, r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]
    return [v for v in cells if isinstance(v, float | int) and not isinstance(v, bool)]


def test_edge_rounds_catch_a_range_one_short_or_too_far_in_every_direction() -> None:
    """Over the two edge rounds, MAX, MIN and SUM of every range one row or column short
    of B2:D6, or reaching one too far (into the header, the names, the blank row or
    column), differ from the true range's in some round: by construction, not by luck."""
    book = _grid_book()
    found = runs([(SID, parse_area("B2:D6"))], lambda key: False)
    rounds = [
        _edited(book, edges(book, found, random.Random(k), lambda key: False, k))
        for k in range(edge_rounds(book, found))
    ]
    true = (2, 2, 6, 4)
    moves = [(1, 0, 0, 0), (0, 1, 0, 0), (0, 0, -1, 0), (0, 0, 0, -1)]  # shrink each side
    moves += [(-a, -b, -c, -d) for a, b, c, d in moves]  # and grow it
    for fn in (max, min, sum):
        for move in moves:
            near = tuple(t + m for t, m in zip(true, move, strict=True))
            assert any(fn(_values(b, *near)) != fn(_values(b, *true)) for b in rounds), (
                f"{fn.__name__} over {near} passes every edge round"
            )


def test_edge_rounds_leave_formulas_and_skipped_cells_alone() -> None:
    book = _grid_book()
    book.set_input(SID, 2, 5, "=SUM(B2:D2)")  # a formula beside the data
    book.recalc(list(book.dirty))
    found = runs([(SID, parse_area("B2:D6"))], lambda key: False)
    for k in range(edge_rounds(book, found)):
        out = edges(book, found, random.Random(k), lambda key: key == (SID, 1, 3), k)
        assert (SID, 2, 5) not in out and (SID, 1, 3) not in out
        assert all(isinstance(v, str) for v in out.values())
