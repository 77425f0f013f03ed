"""Our formula engine against a real spreadsheet program: every formula of the corpus
(`corpus.py`, 600+ formulas over seeded data) computed by us and by LibreOffice
(headless, once per corpus) must agree; functions LibreOffice 7.4 lacks are compared
through an equivalent formula it knows."""

from __future__ import annotations

import math
import os
from typing import Any

import pytest

from officegym.apps.sheets.engine import Book
from officegym.apps.sheets.values import XlError
from tests.apps.sheets import libreoffice
from tests.apps.sheets.corpus import Corpus, build

CORPUS = build()


@pytest.fixture(scope="module")
def theirs() -> dict[str, list[Any]]:
    binary = libreoffice.soffice()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("no LibreOffice: scripts/setup --dev installs libreoffice-calc-nogui")
        pytest.skip("no LibreOffice (scripts/setup --dev installs libreoffice-calc-nogui)")
    return libreoffice.cached_results(CORPUS, binary)


def evaluate(corpus: Corpus) -> tuple[list[Any], list[Any], Book]:
    """Our values of the corpus formulas and of the pair formulas (same cells as in the file)."""
    b = Book(1, 46000.0)
    for sid, (name, rows) in enumerate(corpus.data.items(), start=1):
        b.add_sheet(sid, name)
        for r, row in enumerate(rows, start=1):
            for c, v in enumerate(row, start=1):
                if v is not None and v != "":
                    text = ("TRUE" if v else "FALSE") if isinstance(v, bool) else str(v)
                    b.set_input(
                        sid,
                        r,
                        c,
                        "'" + text
                        if isinstance(v, str) and (v.strip() != v or v == "12")
                        else text,
                    )
    fid = len(corpus.data) + 1
    b.add_sheet(fid, "Formulas")
    for i, f in enumerate(corpus.formulas, start=1):
        b.set_input(fid, i, 1, "=" + f)
    for i, (ours, _) in enumerate(corpus.pairs, start=1):
        b.set_input(fid, i, 2, "=" + ours)
    b.recalc_all()
    a = [b.value(fid, i, 1) for i in range(1, len(corpus.formulas) + 1)]
    pairs = [b.value(fid, i, 2) for i in range(1, len(corpus.pairs) + 1)]
    return a, pairs, b


def same(ours: Any, theirs: Any) -> bool:
    if isinstance(ours, XlError):
        return isinstance(theirs, str) and theirs == ours.code
    if theirs is None:
        return ours in ("", None)
    if isinstance(ours, bool) or isinstance(theirs, bool):
        return isinstance(ours, bool) and isinstance(theirs, bool) and ours == theirs
    if isinstance(ours, float | int) and isinstance(theirs, float | int):
        return math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-9)
    return ours == theirs


def test_the_corpus_is_large_and_deterministic() -> None:
    assert len(CORPUS.formulas) >= 300
    assert build().digest() == CORPUS.digest()


def test_every_corpus_formula_matches_libreoffice(theirs: dict[str, list[Any]]) -> None:
    ours, _, book = evaluate(CORPUS)
    wrong = [
        f"={f}: ours {o!r}, LibreOffice {t!r}"
        for f, o, t in zip(CORPUS.formulas, ours, theirs["formulas"], strict=True)
        if not same(o, t)
    ]
    assert book.internal_errors == 0
    assert not wrong, f"{len(wrong)} of {len(ours)} differ:\n" + "\n".join(wrong[:40])


def test_functions_libreoffice_lacks_match_its_equivalents(theirs: dict[str, list[Any]]) -> None:
    _, ours, _ = evaluate(CORPUS)
    wrong = [
        f"={a} -> {o!r}, but LibreOffice's ={b} -> {t!r}"
        for (a, b), o, t in zip(CORPUS.pairs, ours, theirs["pairs"], strict=True)
        if not same(o, t)
    ]
    assert not wrong, "\n".join(wrong)
