"""Formulas as .xlsx files store them: functions newer than Excel 2007 carry a prefix
(``_xlfn.XLOOKUP``, ``_xlfn._xlws.SORT``), which Excel and LibreOffice require to
recognise them, and LET's names carry ``_xlpm.`` (``_xlfn.LET(_xlpm.x,2,_xlpm.x*3)``);
reading a file drops them."""

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
        "LET",
        "PERCENTILE.EXC",
        "QUARTILE.EXC",
        "PERCENTRANK.INC",
        "PERCENTRANK.EXC",
        "RANK.AVG",
        "NORM.DIST",
        "NORM.INV",
        "NORM.S.DIST",
        "NORM.S.INV",
        "COVARIANCE.P",
        "COVARIANCE.S",
        "FORECAST.LINEAR",
        "CHOOSECOLS",
        "CHOOSEROWS",
        "TOCOL",
        "TOROW",
        "HSTACK",
        "VSTACK",
        "TAKE",
        "DROP",
        "WRAPROWS",
        "WRAPCOLS",
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

    toks = tokens("=" + formula)
    params = _let_names(toks)

    def text(t: Token) -> str:
        if t.type == Token.FUNC and t.subtype == Token.OPEN:
            return prefix(t)
        if t.type == Token.OPERAND and t.subtype == Token.RANGE and t.value.upper() in params:
            return "_xlpm." + t.value
        return t.value

    return "".join(text(t) for t in toks)


def _let_names(toks: list[Token]) -> set[str]:
    """The names LET binds in a formula (upper case): its arguments 1, 3, 5 ... but the
    last, when they are bare names."""
    names: set[str] = set()
    frames: list[tuple[str, list[int], list[tuple[int, str]]]] = []  # name, [arg], bare names
    for t in toks:
        opens = t.subtype == Token.OPEN and t.type in (Token.FUNC, Token.PAREN, Token.ARRAY)
        if opens:
            frames.append((t.value[:-1].upper().replace("_XLFN.", ""), [0], []))
        elif t.subtype == Token.CLOSE and frames:
            name, arg, bare = frames.pop()
            if name == "LET":
                names.update(n for i, n in bare if i % 2 == 0 and i < arg[0])
        elif t.type == Token.SEP and t.subtype == Token.ARG and frames:
            frames[-1][1][0] += 1
        elif t.type == Token.OPERAND and t.subtype == Token.RANGE and frames:
            frames[-1][2].append((frames[-1][1][0], t.value.upper()))
    return names


def from_file(formula: str) -> str:
    """A formula read from an .xlsx file, with the ``_xlfn.``/``_xlws.``/``_xlpm.``
    prefixes dropped."""
    if "_xl" not in formula:
        return formula

    def text(t: Token) -> str:
        if t.type == Token.FUNC and t.subtype == Token.OPEN:
            return t.value.replace("_xlfn.", "").replace("_xlws.", "")
        if t.type == Token.OPERAND and t.value.lower().startswith("_xlpm."):
            return t.value[len("_xlpm.") :]
        return t.value

    return "".join(text(t) for t in tokens("=" + formula))
