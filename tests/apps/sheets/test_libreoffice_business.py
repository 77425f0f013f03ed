"""The business corpus (`corpus_business.py`: loans, depreciation, statistics, lifted
array arguments, working weeks, database functions over an order table) computed by
us and by LibreOffice (headless, once per corpus) must agree formula by formula."""

from __future__ import annotations

import os
from typing import Any

import pytest

from officegym.apps.sheets.functions import FUNCTIONS
from tests.apps.sheets import libreoffice
from tests.apps.sheets.corpus_business import build
from tests.apps.sheets.test_libreoffice import evaluate, same

CORPUS = build()
ISSUE_FUNCTIONS = [
    "REGEXMATCH",
    "REGEXEXTRACT",
    "REGEXREPLACE",
    "IPMT",
    "PPMT",
    "XNPV",
    "SLN",
    "DDB",
    "DB",
    "EFFECT",
    "NOMINAL",
    "CUMIPMT",
    "NETWORKDAYS.INTL",
    "WORKDAY.INTL",
    "TIMEVALUE",
    "PERCENTILE.EXC",
    "PERCENTRANK",
    "RANK.AVG",
    "SLOPE",
    "INTERCEPT",
    "FORECAST",
    "SORTN",
    "JOIN",
]


@pytest.fixture(scope="module")
def theirs() -> dict[str, list[Any]]:
    binary = libreoffice.soffice()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("no LibreOffice: scripts/setup --dev installs libreoffice-calc-nogui")
        pytest.skip("no LibreOffice (scripts/setup --dev installs libreoffice-calc-nogui)")
    return libreoffice.cached_results(CORPUS, binary)


def test_the_business_corpus_is_large_and_deterministic() -> None:
    assert len(CORPUS.formulas) >= 300
    assert build().digest() == CORPUS.digest()


def test_every_business_formula_matches_libreoffice(theirs: dict[str, list[Any]]) -> None:
    ours, _, book = evaluate(CORPUS)
    wrong = [
        f"={f}: ours {o!r}, LibreOffice {t!r}"
        for f, o, t in zip(CORPUS.formulas, ours, theirs["formulas"], strict=True)
        if not same(o, t)
    ]
    assert book.internal_errors == 0
    assert not wrong, f"{len(wrong)} of {len(ours)} differ:\n" + "\n".join(wrong[:60])


def test_google_only_functions_match_their_equivalents(theirs: dict[str, list[Any]]) -> None:
    _, ours, _ = evaluate(CORPUS)
    wrong = [
        f"={a} -> {o!r}, but LibreOffice's ={b} -> {t!r}"
        for (a, b), o, t in zip(CORPUS.pairs, ours, theirs["pairs"], strict=True)
        if not same(o, t)
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    "name",
    ISSUE_FUNCTIONS,
)
def test_the_functions_the_issue_names_exist(name: str) -> None:
    assert name in FUNCTIONS
