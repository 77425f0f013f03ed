"""The column vectors behind range reads (`columns.Values`) stay equal to the sheet's
values through every way a value changes: typed edits, recalculation, spills, inserted
and deleted rows and columns, sorting, pasting, filling, clearing, removing duplicates,
sheets added, renamed and deleted, a copy brought up to a saved state, a rollback and a
world reset. After each operation the session's book (vectors updated in place) must hold
exactly the values of a book loaded afresh from the database and recalculated whole."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable

from sqlalchemy.orm import Session

from officegym import memo
from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets import store
from officegym.apps.sheets.columns import Values
from officegym.apps.sheets.engine import Book
from officegym.apps.sheets.models import Workbook
from officegym.apps.sheets.values import Value, XlError
from officegym.world import World
from tests.apps.sheets.book_helpers import Sheets
from tests.apps.sheets.helpers import owner, workbook

ROWS = 40
BUDGETS = "FY2026 Team Budgets"


def check_vectors(values: Values) -> int:
    """Every vector equals the dictionary over the rows it covers, and its non-number rows
    are exactly those; returns how many vectors there are."""
    covered = values.vectors()
    for c, n in covered.items():
        if n <= 1:
            continue
        assert values.column(1, n - 1, c) == [dict.get(values, (r, c)) for r in range(1, n)]
        odd = [r for r in range(1, n) if type(dict.get(values, (r, c))) is not float]
        assert values.odd(1, n - 1, c, n) == odd, f"column {c}"
    return len(covered)


def _random_value(rng: random.Random) -> Value:
    return rng.choice([None, 1.5, float(rng.randint(0, 9)), "x", True, XlError("#N/A")])


def _random_op(values: Values, shadow: dict[tuple[int, int], Value], rng: random.Random) -> None:
    """One random change made to both `values` and a plain dict."""
    key = (rng.randint(1, 30), rng.randint(1, 3))
    roll = rng.random()
    if roll < 0.55:
        v = _random_value(rng)
        values[key], shadow[key] = v, v
    elif roll < 0.8:
        assert values.pop(key, "none") == shadow.pop(key, "none")
    elif roll < 0.88 and key in shadow:
        del values[key], shadow[key]
    elif roll < 0.92:
        extra = {(rng.randint(1, 30), 2): 4.0}
        values.update(extra)
        shadow.update(extra)
    elif roll < 0.95:
        assert values.setdefault(key, 2.0) == shadow.setdefault(key, 2.0)
    elif roll < 0.97 and shadow:
        k, v = values.popitem()
        assert shadow.pop(k) == v
    elif roll < 0.98:
        values.clear()
        shadow.clear()


def test_vectors_follow_every_dict_change_and_read() -> None:
    rng = random.Random(5)
    values, shadow = Values(), {}
    reads = 0
    for _ in range(3000):
        _random_op(values, shadow, rng)
        r1 = rng.randint(1, 35)
        r2, c = rng.randint(r1, 40), rng.randint(1, 3)
        got = values.column(r1, r2, c)
        assert got == [shadow.get((r, c)) for r in range(r1, r2 + 1)]
        got.append("mine")  # a caller's list: changing it changes no vector
        reads += 1
        assert dict(values) == shadow
        assert check_vectors(values) >= 1
        found = values.odd(r1, r2, c, 64)
        assert found == [r for r in range(r1, r2 + 1) if type(shadow.get((r, c))) is not float]
    copy = pickle.loads(pickle.dumps(values))
    assert type(copy) is Values and dict(copy) == shadow and copy.vectors() == {}
    assert reads == 3000


def test_a_far_read_is_answered_without_a_vector() -> None:
    values = Values({(1, 1): 1.0})
    assert values.column(2_000_000, 2_000_002, 1) == [None, None, None]
    assert values.vectors() == {}
    assert values.odd(1, 1, 1, 10) is None  # nothing covers it: callers walk the values


def test_a_plain_dict_given_to_a_sheet_is_wrapped() -> None:
    b = Book(1, 45000.0)
    sheet = b.add_sheet(1, "S")
    assert type(sheet.values) is Values
    copy = b.fork()
    assert type(copy.sheets[1].values) is Values


def _engine_cells() -> dict[str, str]:
    cells = {f"A{r}": str(r % 7 * 3) for r in range(2, 30)}
    cells |= {f"B{r}": str(r) for r in range(2, 30)}
    cells |= {"A10": "text", "B12": "", "A15": "=1/0", "B20": "TRUE"}
    cells |= {
        "D1": "=SUM(B2:B29)",
        "D2": '=SUMIF(A2:A29,">5",B2:B29)',
        "D3": '=COUNTIF(B2:B29,"<>12")',
        "D4": "=SUMPRODUCT(B2:B29,B2:B29)",
        "D5": '=AVERAGEIFS(B2:B29,B2:B29,">=3",B2:B29,"<25")',
        "D6": "=MAX(B2:B29)",
        "D7": "=IFERROR(SUM(A2:A29),-1)",
        "D8": "=COUNTIF(A2:A29,6)",
    }
    return cells


def test_engine_edits_match_a_book_built_afresh() -> None:
    rng = random.Random(3)
    live = Sheets()
    live.fill(_engine_cells())
    for step in range(60):
        ref = f"{rng.choice('AB')}{rng.randint(2, 29)}"
        text = rng.choice(["", "x", "=1/0", "TRUE", str(rng.randint(0, 20)), "=B2*2"])
        live.type(ref, text)
        fresh = Sheets()
        fresh.fill({**_engine_cells(), **_typed(live)})
        fresh.book.recalc_all()
        assert _values(live.book) == _values(fresh.book), f"step {step}: {ref} <- {text!r}"
        assert check_vectors(live.book.sheets[1].values) >= 2


def _typed(s: Sheets) -> dict[str, str]:
    from officegym.apps.sheets.refs import a1

    return {a1(r, c): st.input or "" for (r, c), st in s.book.sheets[1].cells.items()}


def _values(b: Book) -> dict[tuple[int, int, int], tuple[str, str]]:
    """Values with their types (1.0 and True differ), by (sheet, row, col)."""
    return {
        (sid, r, c): (type(v).__name__, repr(v))
        for sid, sh in b.sheets.items()
        for (r, c), v in dict.items(sh.values)
    }


def _grid() -> list[list[object]]:
    rng = random.Random(11)
    rows: list[list[object]] = [["n", "m", "tag", "w", "twice"]]
    for r in range(2, ROWS + 2):
        w = "" if r % 9 == 0 else rng.randint(1, 9)
        rows.append([rng.randint(1, 99), rng.randint(1, 60), rng.choice("xyz"), w, f"=A{r}*2"])
    return rows


SUMMARIES = [
    f"=SUM(A2:A{ROWS + 1})",
    f"=AVERAGE(D2:D{ROWS + 1})",
    f'=SUMIF(A2:A{ROWS + 1},">50",B2:B{ROWS + 1})',
    f'=COUNTIF(B2:B{ROWS + 1},"<=30")',
    f'=AVERAGEIFS(B2:B{ROWS + 1},A2:A{ROWS + 1},">=20",D2:D{ROWS + 1},"<>7")',
    f"=SUMPRODUCT(A2:A{ROWS + 1},B2:B{ROWS + 1},D2:D{ROWS + 1})",
    f"=MAX(D2:D{ROWS + 1})",
    f"=INDEX(B2:B{ROWS + 1},MATCH(MAX(A2:A{ROWS + 1}),A2:A{ROWS + 1},0))",
    f'=SUMIFS(B2:B{ROWS + 1},C2:C{ROWS + 1},"x*",A2:A{ROWS + 1},"<>5")',
    f"=SUM(E2:E{ROWS + 1})",
    "=SUM(G2:G20)",
]


def _setup(s: Session, me: Person) -> Workbook:
    wb = sheets.create_workbook(s, me, "Vectors")
    sheets.write_range(s, me, wb, "A1", _grid())
    sheets.write_range(s, me, wb, "H1", [[f] for f in SUMMARIES])
    sheets.write_range(s, me, wb, "G2", [["=SEQUENCE(6)"]])  # a spill read by H11
    sheets.add_sheet(s, me, wb, "Other")
    other = [[f"=SUM(Sheet1!A2:A{ROWS + 1})", f'=SUMIF(Sheet1!B2:B{ROWS + 1},">10")']]
    sheets.write_range(s, me, wb, "A1", other, sheet="Other")
    return wb


def _same_as_fresh(s: Session, wb: Workbook, what: str) -> None:
    live = store.book(s, wb.id)
    for sheet in live.sheets.values():
        check_vectors(sheet.values)
    stored = store.load(s, wb.id)
    assert _values(live) == _values(stored), f"after {what}: live and saved differ"
    stored.recalc_all()
    assert _values(live) == _values(stored), f"after {what}: recalculated afresh differs"


def _operations(me: Person, wb: Workbook) -> list[tuple[str, Callable[[Session], object]]]:
    def on(sheet: str) -> Callable[[Session], object]:
        return lambda s: sheets.sheet_named(s, wb, sheet)

    return [
        ("typed numbers", lambda s: sheets.write_range(s, me, wb, "A5", [[77], [3]])),
        ("typed text and a blank", lambda s: sheets.write_range(s, me, wb, "B7", [["t"], [""]])),
        ("an error typed", lambda s: sheets.write_range(s, me, wb, "D3", [["=1/0"]])),
        ("the error cleared", lambda s: sheets.write_range(s, me, wb, "D3", [[4]])),
        ("a spill blocked", lambda s: sheets.write_range(s, me, wb, "G4", [[9]])),
        ("a spill freed", lambda s: sheets.clear_range(s, me, wb, "G4")),
        ("rows inserted", lambda s: sheets.change_dimension(
            s, me, wb, "insert", sheet=None, axis="row", start=6, count=2)),
        ("rows deleted", lambda s: sheets.change_dimension(
            s, me, wb, "delete", sheet=None, axis="row", start=10, count=3)),
        ("a column inserted", lambda s: sheets.change_dimension(
            s, me, wb, "insert", sheet=None, axis="col", start="B")),
        ("the column deleted", lambda s: sheets.change_dimension(
            s, me, wb, "delete", sheet=None, axis="col", start="B")),
        ("sorted", lambda s: sheets.sort_range(s, me, wb, "A1:E30", [("A", True)], header=True)),
        ("pasted", lambda s: sheets.copy_range(s, me, wb, "A2:E6", "A20")),
        ("filled down", lambda s: sheets.fill_range(s, me, wb, "D2:D12")),
        ("cleared", lambda s: sheets.clear_range(s, me, wb, "B14:B18")),
        ("duplicates removed", lambda s: sheets.remove_duplicates(
            s, me, wb, "A1:E30", columns=["C"], header=True)),
        ("a sheet renamed", lambda s: sheets.rename_sheet(s, me, wb, on("Other")(s), "Elsewhere")),
        ("typed after the rename", lambda s: sheets.write_range(s, me, wb, "B3", [[59]])),
        ("a sheet deleted", lambda s: sheets.delete_sheet(s, me, wb, on("Elsewhere")(s))),
    ]  # fmt: skip


def test_service_operations_match_a_book_loaded_afresh(world: World) -> None:
    with world.session() as s:
        memo.enable(s)  # a tool runner's session: the book stays loaded across calls
        me = s.get_one(Person, 1)
        wb = _setup(s, me)
        kept = []
        for i, (what, op) in enumerate(_operations(me, wb)):
            live = store.book(s, wb.id)
            op(s)
            if store.book(s, wb.id) is live:  # else reloaded: vectors start afresh
                kept.append(what)
            _same_as_fresh(s, wb, what)
            sheets.write_range(s, me, wb, f"B{2 + i}", [[i]])  # a recalculation reads them
            _same_as_fresh(s, wb, f"{what}, then an edit")
        print(kept)
        assert len(kept) >= 10


def test_rollback_brings_values_back(world: World) -> None:
    with world.session() as s:
        memo.enable(s)
        me = s.get_one(Person, 1)
        wb = _setup(s, me)
        s.commit()
        saved = _values(store.book(s, wb.id))
        sheets.write_range(s, me, wb, "A2", [[5000]])
        assert _values(store.book(s, wb.id)) != saved
        s.rollback()
        assert _values(store.book(s, wb.id)) == saved
        _same_as_fresh(s, wb, "a rollback")


def test_a_reset_world_forks_untouched_vectors(world: World) -> None:
    """Edits of a session's book (a fork of the world's initial book) leave the initial
    book's values and vectors alone: after a reset the next fork reads as seeded."""
    with world.session() as s:
        wb, me = workbook(s, BUDGETS), owner(s, BUDGETS)
        live = store.book(s, wb.id)
        seeded = _values(live)
        live.recalc_all()  # vectors on every column a formula reads
        assert _values(live) == seeded
        q1 = sheets.sheet_named(s, wb, "Q1").id
        assert live.sheets[q1].values.vectors()
        for r in range(2, 6):
            sheets.write_range(s, me, wb, f"C{r}", [[1000 * r]])
        assert _values(store.book(s, wb.id)) != seeded
        _same_as_fresh(s, wb, "edits of a seeded workbook")
        s.commit()
    world.reset()
    with world.session() as s:
        again = store.book(s, workbook(s, BUDGETS).id)
        assert _values(again) == seeded
        _same_as_fresh(s, workbook(s, BUDGETS), "a reset")


def test_a_copy_brought_up_to_a_saved_state(world: World) -> None:
    """`Book.place` (how graders replay changes onto a copy) keeps a copy's vectors."""
    with world.session() as s:
        me = s.get_one(Person, 1)
        wb = _setup(s, me)
        copy = store.load(s, wb.id).fork()  # a book of its own (no other book edits it)
        sid = next(iter(copy.sheets))
        copy.recalc_all()  # vectors built on the copy
        assert copy.sheets[sid].values.vectors()
        sheets.write_range(s, me, wb, "A2", [[5000], ["word"]])
        for r in (2, 3):
            copy.place(sid, r, 1, store.load(s, wb.id).cell(sid, r, 1))
        copy.recalc([(sid, 2, 1), (sid, 3, 1)])
        check_vectors(copy.sheets[sid].values)
        assert _values(copy) == _values(store.book(s, wb.id))


def test_readers_in_threads_grow_each_vector_once() -> None:
    """Two threads reading one book (no writer) build the same vectors as one would."""
    import threading

    base = {(r, c): (float(r) if r % 5 else "t") for r in range(1, 3001) for c in (1, 2)}
    for _ in range(20):
        values = Values(base)
        spans = [(1, 50 * k) for k in range(1, 61)]

        wrong: list[tuple[int, int, int]] = []

        def read(
            order: list[tuple[int, int]], values: Values = values, wrong: list = wrong
        ) -> None:
            for r1, r2 in order:
                for c in (1, 2):
                    if values.column(r1, r2, c) != [base.get((r, c)) for r in range(r1, r2 + 1)]:
                        wrong.append((r1, r2, c))

        threads = [threading.Thread(target=read, args=(spans,)) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert wrong == []
        assert values.vectors() == {1: 3001, 2: 3001}
        assert check_vectors(values) == 2


def test_remembered_lists_last_until_their_column_changes() -> None:
    rng = random.Random(9)
    values, shadow = Values(), {}
    computed = 0

    def hits(c: int) -> list[bool]:
        nonlocal computed
        computed += 1
        return [type(shadow.get((r, c))) is float for r in range(1, 31)]

    for _ in range(3000):
        if rng.random() < 0.3:
            _random_op(values, shadow, rng)
        c = rng.randint(1, 3)
        got = values.remembered(c, ("floats", 30), lambda c=c: hits(c))
        assert got == [type(shadow.get((r, c))) is float for r in range(1, 31)]
        got.append(True)  # the caller's own list
    assert 300 < computed < 2000  # kept between changes, computed again after them


def test_a_criterion_over_an_untouched_column_is_not_tested_again() -> None:
    live = Sheets()
    live.fill({f"A{r}": str(r) for r in range(1, 101)} | {f"B{r}": "1" for r in range(1, 101)})
    live.type("C1", '=SUMIF(A1:A100,">50",B1:B100)')
    assert live["C1"] == 50.0
    kept = live.book.sheets[1].values._kept  # the bookkeeping under test
    first = list(kept.values())
    assert len(first) == 1
    live.type("B60", "5")
    assert live["C1"] == 54.0
    assert list(kept.values()) == first and next(iter(kept.values())) is first[0]  # B changed
    live.type("A10", "70")
    assert live["C1"] == 55.0
    assert next(iter(kept.values())) is not first[0]  # A changed: tested again
    live.type("A70", "x")
    assert live["C1"] == 54.0
