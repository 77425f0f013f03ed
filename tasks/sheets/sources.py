"""The source cells of a computed result, and rounds that change every one of them.

`Follows` runs its expectation once on the final workbook through a tracing `Reader`;
the cells it read are the sources the result should read. `runs` groups them down
each column into runs of consecutive rows (cells of the target itself left out). A
round (`perturbation`) then gives every cell of every run a new value of its kind —
numbers a new number, text another text of the same run (so keys and categories still
match something), true/false the other — and fills the blank cell just above and just
below each run with a value of the run's kind. In a run of keys (texts that repeat,
such as regions), the first and last rows and the blanks around them take the round's
key, and there are as many rounds as keys (up to `MAX_KEYS`), so a total over one
region sees each end of the range in that region once. So a typed-in number, a formula over
part of the rows with the rest typed, a filled column with rows typed over, a range
one row short, or one that reaches into the blank rows around the data all stop
matching, while a result that reads exactly its sources follows. An expectation that
must include rows added below the data reads to the sheet's last row
(`Reader.rows`), and then a filled row below is part of what it reads.

Randomness alone rarely puts a maximum in the edge row, so more rounds (`edges`, two
per run of numbers for up to `EDGES` runs) reach every edge by construction. In a run
of numbers, the first and last rows take the extremes: in one round the first rows hold
the largest values and the last rows the smallest, in the other the reverse, and the
round's lead run holds the largest and the smallest of all (so a total over several
ranges or columns sees each one's edges too). The cell above a run then holds a value
beyond its first row's, the one below beyond its last row's, and the cells just left
and right of it the largest value in one round and 0 in the other, wherever nothing
reads them (not a source, no formula, not a pivot table's header): a range that takes
in a header of text is caught too. So a range one row or one column short in any
direction, or one that reaches a row or a column too far, changes a total, a maximum
and a minimum alike, while the middle rows keep values strictly between the extremes.

Rounds are seeded by the check (workbook, target, round), so grading stays a pure
function of the two states.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from officegym.apps.sheets.engine import Book, Key
from officegym.apps.sheets.refs import Area
from officegym.apps.sheets.values import Value

__all__ = [
    "EDGES",
    "ROUNDS",
    "Run",
    "categories",
    "edge_rounds",
    "edges",
    "perturbation",
    "runs",
]

ROUNDS = 3  # independent rounds of changes to every source cell, per check
MAX_KEYS = 6  # at most this many rounds more, for the keys of runs such as regions
TOP = 999_999  # perturbed numbers are whole numbers in 1..TOP
EDGES = 4  # runs that lead the edge rounds in turn (two rounds each)
STEP = 1000  # between the extremes: far beyond the 1e-6 relative tolerance of a match


@dataclass(frozen=True)
class Run:
    """Consecutive rows `r1..r2` of column `col` of sheet `sid`, read by an expectation."""

    sid: int
    col: int
    r1: int
    r2: int


def runs(reads: Iterable[tuple[int, Area]], skip: Callable[[Key], bool]) -> list[Run]:
    """The cells read, by column, as runs of consecutive rows (skipped cells cut runs)."""
    rows: dict[tuple[int, int], set[int]] = {}
    for sid, a in reads:
        for c in range(a.c1, a.c2 + 1):
            found = rows.setdefault((sid, c), set())
            found.update(r for r in range(a.r1, a.r2 + 1) if not skip((sid, r, c)))
    out: list[Run] = []
    for (sid, c), rs in sorted(rows.items()):
        # consecutive rows keep the same difference to their position in the sorted list
        for _, block in itertools.groupby(enumerate(sorted(rs)), key=lambda x: x[1] - x[0]):
            found = [r for _, r in block]
            out.append(Run(sid, c, found[0], found[-1]))
    return out


def _blank(book: Book, key: Key) -> bool:
    state = book.cell(*key)
    return state is None or (state.input is None and state.value is None)


def _number(rng: random.Random) -> str:
    return str(rng.randint(1, TOP))


def _texts(book: Book, run: Run) -> tuple[list[Value], list[str], list[str]]:
    """The run's values, its texts, and its categories (its distinct texts, when some
    repeat: a column of keys such as regions, not of unique names)."""
    values = [book.value(run.sid, r, run.col) for r in range(run.r1, run.r2 + 1)]
    texts = [v for v in values if isinstance(v, str) and v != ""]
    distinct = sorted(set(texts))
    return values, texts, distinct if len(distinct) < len(texts) else []


def categories(book: Book, found: list[Run]) -> int:
    """How many rounds it takes for the ends of every run of keys to have held each key
    (up to `MAX_KEYS`): a total over one region must see its last row in that region."""
    return max((min(MAX_KEYS, len(_texts(book, run)[2])) for run in found), default=0)


def _changes(book: Book, run: Run, rng: random.Random, n: int, ends_only: bool) -> dict[Key, str]:
    """Round `n`'s inputs for the run's cells (with `ends_only`, its first and last rows
    only): numbers renewed, texts shuffled (the ends of a run of keys, and the blanks
    around it, take the round's key), blanks filled."""
    values, texts, keys_ = _texts(book, run)
    numbers = sum(1 for v in values if isinstance(v, float | int) and not isinstance(v, bool))
    textual = len(texts) > numbers
    shuffled = rng.sample(texts, len(texts))
    ends = {run.r1 - 1, run.r1, run.r2, run.r2 + 1}

    def fresh(row: int) -> str:
        if keys_ and row in ends:
            return "'" + keys_[n % len(keys_)]
        return "'" + rng.choice(texts) if textual else _number(rng)

    out: dict[Key, str] = {}
    for r, v in zip(range(run.r1, run.r2 + 1), values, strict=True):
        if ends_only and r not in ends:
            continue
        key = (run.sid, r, run.col)
        if isinstance(v, bool):
            out[key] = "FALSE" if v else "TRUE"
        elif isinstance(v, float | int):
            out[key] = _number(rng)
        elif isinstance(v, str) and v != "":
            picked = "'" + shuffled.pop()  # a permutation: unique names stay unique
            if keys_ and r in ends:
                out[key] = fresh(r)
            elif not ends_only:
                out[key] = picked
        elif v is None or v == "":
            out[key] = fresh(r)
    for r in (run.r1 - 1, run.r2 + 1):
        key = (run.sid, r, run.col)
        if r >= 1 and _blank(book, key):
            out[key] = fresh(r)
    return out


def perturbation(
    book: Book, found: list[Run], rng: random.Random, skip: Callable[[Key], bool], n: int = 0
) -> dict[Key, str]:
    """Round `n`: a new input for every source cell and the blank cells around each run
    (never a skipped cell, such as the result's own). Rounds past `ROUNDS`, there to
    give the ends of runs of keys every key, change only the ends of the runs."""
    out: dict[Key, str] = {}
    for run in found:
        changed = _changes(book, run, rng, n, ends_only=n >= ROUNDS)
        out.update((k, v) for k, v in changed.items() if not skip(k))
    return out


def _numeric(book: Book, run: Run) -> bool:
    """Whether a run holds numbers (at least as many as texts; blanks count for neither)."""
    values, texts, _ = _texts(book, run)
    numbers = sum(1 for v in values if isinstance(v, float | int) and not isinstance(v, bool))
    return numbers > 0 and numbers >= len(texts)


def edge_rounds(book: Book, found: list[Run]) -> int:
    """How many edge rounds the runs take: two per run of numbers, for up to `EDGES`."""
    return 2 * min(EDGES, sum(1 for run in found if _numeric(book, run)))


def edges(
    book: Book, found: list[Run], rng: random.Random, skip: Callable[[Key], bool], k: int
) -> dict[Key, str]:
    """Edge round `k`: a full round, then in every run of numbers the extremes at its
    first and last rows, beyond them above and below and in the unread cells beside
    it; run k // 2 leads, its edges the extremes of all runs (see the module's
    docstring)."""
    out = perturbation(book, found, rng, skip)
    numeric = [run for run in found if _numeric(book, run)]
    n = len(numeric)
    sources = {(r.sid, row, r.col) for r in found for row in range(r.r1, r.r2 + 1)}
    lead = (k // 2) % max(n, 1)
    for j, run in enumerate(numeric):
        up = n - 1 if j == lead else j - (j > lead)  # the lead run's extremes lie beyond all
        down = 0 if j == lead else j + (j < lead)
        high = (TOP + STEP * (1 + up), TOP + STEP * (n + 1 + up))  # (row, beyond it)
        low = (STEP * (n + 1 + down), STEP * (1 + down))
        top, bottom = (high, low) if k % 2 == 0 else (low, high)
        place = {run.r1 - 1: top[1], run.r1: top[0], run.r2: bottom[0], run.r2 + 1: bottom[1]}
        for r in range(run.r1 + 1, run.r2):
            key = (run.sid, r, run.col)
            if _plain_number(out.get(key)):
                out[key] = str(rng.randint(min(STEP * (2 * n + 2), TOP), TOP))
        for r, v in place.items():
            key = (run.sid, r, run.col)
            inside = r in (run.r1, run.r2)
            if skip(key) or r < 1 or (inside and not _plain_number(out.get(key))):
                continue
            if inside or (key not in sources and _unread(book, key)):
                out[key] = str(v)  # beyond the run: a blank, or a label (a header) too
        beside = str(TOP + STEP * (2 * n + 2)) if k % 2 == 0 else "0"
        for col in (run.col - 1, run.col + 1):
            for r in range(run.r1, run.r2 + 1):
                key = (run.sid, r, col)
                if col >= 1 and key not in sources and not skip(key) and _unread(book, key):
                    out[key] = beside
    return out


def _plain_number(text: str | None) -> bool:
    return text is not None and text.isdigit()


def _unread(book: Book, key: Key) -> bool:
    """A cell that may take a number in a copy: blank or a typed value, not a formula."""
    state = book.cell(*key)
    return state is None or not (isinstance(state.input, str) and state.input.startswith("="))
