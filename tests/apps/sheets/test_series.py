"""The series the fill handle continues, as Sheets continues them: numbers by their step
or best line, dates by day or month, weekday and month names in their own style, text
ending in a number; one cell, formulas and mixed cells make no series (they repeat)."""

from __future__ import annotations

import pytest

from officegym.apps.sheets.series import extend


@pytest.mark.parametrize(
    ("sources", "expected"),
    [
        (["1", "2"], ["3", "4", "5"]),
        (["10", "8"], ["6", "4", "2"]),
        (["0.1", "0.2"], ["0.3", "0.4", "0.5"]),
        (["1", "2", "4"], ["5.333333333", "6.833333333", "8.333333333"]),  # the best line
        (["10%", "20%"], ["30%", "40%", "50%"]),
        (["2025-01-30", "2025-01-31"], ["2025-02-01", "2025-02-02", "2025-02-03"]),
        (["2025-01-31", "2025-02-28"], ["2025-03-28", "2025-04-25", "2025-05-23"]),  # 28 days
        (["2025-01-15", "2025-02-15"], ["2025-03-15", "2025-04-15", "2025-05-15"]),
        (["01/05/2025", "01/12/2025"], ["01/19/2025", "01/26/2025", "02/02/2025"]),
        (["Mon", "Tue"], ["Wed", "Thu", "Fri"]),
        (["Friday", "Saturday"], ["Sunday", "Monday", "Tuesday"]),
        (["JAN", "MAR"], ["MAY", "JUL", "SEP"]),
        (["november", "december"], ["january", "february", "march"]),
        (["Item 1", "Item 2"], ["Item 3", "Item 4", "Item 5"]),
        (["Q3", "Q4"], ["Q5", "Q6", "Q7"]),
        (["Box 007", "Box 008"], ["Box 009", "Box 010", "Box 011"]),
    ],
)
def test_a_series_continues(sources: list[str], expected: list[str]) -> None:
    assert extend(sources, 3) == expected


@pytest.mark.parametrize(
    "sources",
    [
        ["1"],  # one cell copies
        ["Mon"],
        ["=A1", "=A2"],  # formulas repeat with their references moved
        ["1", "x"],
        ["apple", "pear"],
        ["Item 1", "Box 2"],
        ["Mon", "Jan"],
        ["Mon", "Wed", "Thu"],
        ["1", ""],
        ["'1", "'2"],  # text typed as text
    ],
)
def test_cells_that_are_no_series_repeat(sources: list[str]) -> None:
    assert extend(sources, 3) is None
