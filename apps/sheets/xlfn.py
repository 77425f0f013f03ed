"""Formulas as .xlsx files store them: functions newer than Excel 2007 carry a prefix
(``_xlfn.XLOOKUP``, ``_xlfn._xlws.SORT``), which Excel and LibreOffice require to
recognise them; reading a file drops it."""

from __future__ import annotations

from openpyxl.formula.tokenizer import Token

from officegym.apps.sheets.parse import tokens

__all__ = ["XLFN", "from_file", "to_file"]

# Functions newer than Excel 2007 are stored in .xlsx files with a prefix.
XLFN = frozenset(
    (
        "IFS",
        "SWITCH",
        "XOR",
        "MAXIFS",
        "MINIFS",
        "CONCAT",
        "TEXTJOIN",
        "STDEV.P",
        "STDEV.S",
        "VAR.P",
        "VAR.S",
        "MODE.SNGL",
        "RANK.EQ",
        "PERCENTILE.INC",
        "QUARTILE.INC",
        "CEILING.MATH",
        "FLOOR.MATH",
        "IFNA",
        "DAYS",
        "ISOWEEKNUM",
        "XLOOKUP",
        "XMATCH",
        "UNIQUE",
        "SORT",
        "SORTBY",
        "FILTER",
        "SEQUENCE",
        "TEXTBEFORE",
        "TEXTAFTER",
        "NUMBERVALUE",
        "UNICHAR",
        "UNICODE",
    )
)
XLWS = frozenset({"SORT", "FILTER"})


def to_file(formula: str) -> str:
    """A formula (without '=') as an .xlsx file stores it: newer functions prefixed
    with ``_xlfn.`` (and ``_xlws.`` for SORT and FILTER)."""

    def prefix(tok: Token) -> str:
        name = tok.value[:-1].upper()
        if name not in XLFN:
            return tok.value
        return ("_xlfn._xlws." if name in XLWS else "_xlfn.") + tok.value

    return "".join(
        prefix(t) if t.type == Token.FUNC and t.subtype == Token.OPEN else t.value
        for t in tokens("=" + formula)
    )


def from_file(formula: str) -> str:
    """A formula read from an .xlsx file, with the ``_xlfn.``/``_xlws.`` prefixes dropped."""
    if "_xl" not in formula:
        return formula
    return "".join(
        t.value.replace("_xlfn.", "").replace("_xlws.", "")
        if t.type == Token.FUNC and t.subtype == Token.OPEN
        else t.value
        for t in tokens("=" + formula)
    )
