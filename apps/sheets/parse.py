"""Formula text -> syntax tree, through openpyxl's Excel tokenizer.

References are kept *relative to the formula's cell* (`RefT`): ``B2`` typed in C5 is
"one column left, three rows up", ``$B$2`` is B2 wherever it is. A formula's
relative (R1C1) form is therefore the same in every cell of a filled-down column,
and `lex` returns it as the key the compile cache uses. The same walk over tokens
rewrites references when a formula is copied or rows and columns move (`rewrite`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from openpyxl.formula.tokenizer import Token, Tokenizer, TokenizerError

from officegym.apps.sheets import budget
from officegym.apps.sheets.refs import MAX_COLS, MAX_ROWS, col_index, quote_sheet
from officegym.apps.sheets.refs import split_sheet as _split
from officegym.apps.sheets.values import ERRORS
from officegym.errors import Invalid

__all__ = ["Corner", "FormulaError", "Lexed", "RefT", "lex", "parse_tree", "rewrite", "tokens"]

MAX_FORMULA = 8192  # characters, as in Excel


class FormulaError(Invalid):
    """A formula that cannot be entered: the message says where it breaks."""

    def __init__(self, formula: str, reason: str) -> None:
        super().__init__(f"formula {formula[:80]!r}: {reason}", code="bad_formula")


@dataclass(frozen=True, slots=True)
class Corner:
    """One corner of a reference: absolute numbers, or offsets from the formula's cell."""

    row: int
    col: int
    row_abs: bool
    col_abs: bool

    def at(self, row: int, col: int) -> tuple[int, int]:
        return (
            self.row if self.row_abs else row + self.row,
            self.col if self.col_abs else col + self.col,
        )

    def r1c1(self) -> str:
        def part(letter: str, n: int, absolute: bool) -> str:
            return f"{letter}{n}" if absolute else (f"{letter}[{n}]" if n else letter)

        return part("R", self.row, self.row_abs) + part("C", self.col, self.col_abs)


NOWHERE = Corner(0, 0, True, True)  # the corner of a defined name (resolved when evaluated)


@dataclass(frozen=True, slots=True)
class RefT:
    """A reference as written in a formula: cells, ranges, whole columns or rows, or a
    defined name (`name`)."""

    first: Corner
    last: Corner | None
    sheet: str | None = None
    name: str | None = None
    whole: str | None = None  # "col" for A:C, "row" for 2:5

    def key(self) -> str:
        where = f"{quote_sheet(self.sheet)}!" if self.sheet else ""
        if self.name is not None:
            return where + self.name.upper()
        last = f":{self.last.r1c1()}" if self.last else ""
        return f"{where}{self.first.r1c1()}{last}"

    def area(self, row: int, col: int) -> tuple[int, int, int, int] | None:
        """(r1, c1, r2, c2) for a formula in (row, col); None when it falls off the grid."""
        r1, c1 = self.first.at(row, col)
        r2, c2 = self.last.at(row, col) if self.last else (r1, c1)
        if r1 > r2:
            r1, r2 = r2, r1
        if c1 > c2:
            c1, c2 = c2, c1
        if r1 < 1 or c1 < 1 or r2 > MAX_ROWS or c2 > MAX_COLS:
            return None
        return r1, c1, r2, c2


@dataclass(frozen=True)
class Lexed:
    """A formula's tokens with references made relative, and its R1C1 key."""

    key: str
    items: tuple[Any, ...]  # Token or RefT, whitespace dropped


def tokens(formula: str) -> list[Token]:
    """openpyxl's tokens of a formula (with its '='); `FormulaError` if it cannot."""
    return _tokens(formula)


def _tokens(formula: str) -> list[Token]:
    if len(formula) > MAX_FORMULA:
        raise FormulaError(formula, f"longer than {MAX_FORMULA} characters")
    try:
        return Tokenizer(formula).items
    except (TokenizerError, ValueError, IndexError) as exc:
        raise FormulaError(formula, str(exc)) from None


def _corner(text: str, row: int, col: int) -> Corner | None:
    """A1 corner (``$B3``) -> Corner relative to (row, col); whole rows/columns too."""
    i, n = 0, len(text)
    col_abs = i < n and text[i] == "$"
    i += col_abs
    j = i
    while j < n and text[j].isalpha():
        j += 1
    letters = text[i:j]
    row_abs = j < n and text[j] == "$"
    k = j + row_abs
    digits = text[k:]
    if (letters and (len(letters) > 3 or not letters.isascii())) or (
        digits and not digits.isdecimal()
    ):
        return None
    if not letters and not digits:
        return None
    c = col_index(letters) if letters else 0
    r = int(digits) if digits else 0
    if c > MAX_COLS or r > MAX_ROWS:
        return None
    if not letters:  # a whole row: columns 1..MAX
        return Corner(r if row_abs or col_abs else r - row, 0, row_abs or col_abs, True)
    if not digits:  # a whole column
        return Corner(0, c if col_abs else c - col, True, col_abs)
    return Corner(r if row_abs else r - row, c if col_abs else c - col, row_abs, col_abs)


def make_ref(text: str, row: int, col: int) -> RefT:
    """An operand token's reference, relative to (row, col); a name if it is no address."""
    sheet, body = _split(text)
    left, sep, right = body.partition(":")
    if sep and "!" in right:
        right = _split(right)[1]
    a = _corner(left, row, col)
    b = _corner(right, row, col) if sep else None
    if a is None or (sep and b is None) or _mixed(a, b, sep):
        if sep or not left.replace("_", "").replace(".", "").isalnum():
            raise FormulaError(text, "not a valid reference")
        return RefT(NOWHERE, None, sheet, left)
    if b is not None and a.col_abs and a.col == 0:  # whole rows 2:5
        a, b = Corner(a.row, 1, a.row_abs, True), Corner(b.row, MAX_COLS, b.row_abs, True)
        return RefT(a, b, sheet, whole="row")
    if b is not None and a.row_abs and a.row == 0:  # whole columns A:C
        a, b = Corner(1, a.col, True, a.col_abs), Corner(MAX_ROWS, b.col, True, b.col_abs)
        return RefT(a, b, sheet, whole="col")
    return RefT(a, b, sheet)


def _mixed(a: Corner, b: Corner | None, sep: str) -> bool:
    """A lone column or row letter without ':' (``A``, ``5``) is not a reference."""
    whole = (a.row_abs and a.row == 0) or (a.col_abs and a.col == 0)
    if not sep or b is None:
        return whole
    b_whole = (b.row_abs and b.row == 0) or (b.col_abs and b.col == 0)
    return whole != b_whole


@functools.lru_cache(maxsize=65536)
def lex(formula: str, row: int, col: int) -> Lexed:
    """Tokens of `formula` (without its '=') typed in (row, col), references relative."""
    items: list[Any] = []
    parts: list[str] = []
    for tok in _tokens("=" + formula):
        if tok.type == Token.WSPACE:
            continue
        if tok.type == Token.OPERAND and tok.subtype == Token.RANGE:
            ref = make_ref(tok.value, row, col)
            items.append(ref)
            parts.append(ref.key())
        else:
            items.append(tok)
            parts.append(tok.value.upper() if tok.type == Token.FUNC else tok.value)
        parts.append("\x1f")
    return Lexed("".join(parts), tuple(items))


# ---------------------------------------------------------------- the syntax tree

BINARY = {
    "=": 1,
    "<>": 1,
    "<": 1,
    ">": 1,
    "<=": 1,
    ">=": 1,
    "&": 2,
    "+": 3,
    "-": 3,
    "*": 4,
    "/": 4,
    "^": 5,
}
PREFIX_POWER = 6  # Excel: negation binds tighter than ^ (-2^2 = 4)


class _Parser:
    def __init__(self, formula: str, items: tuple[Any, ...]) -> None:
        self.formula, self.items, self.i = formula, items, 0
        self.depth, self.max_depth = 0, budget.current().depth

    def fail(self, reason: str) -> FormulaError:
        return FormulaError(self.formula, reason)

    def peek(self) -> Any:
        return self.items[self.i] if self.i < len(self.items) else None

    def take(self) -> Any:
        item = self.peek()
        if item is None:
            raise self.fail("ends too early")
        self.i += 1
        return item

    def expression(self, power: int = 0) -> tuple:
        self.depth += 1
        if self.depth > self.max_depth:
            raise self.fail(f"nested more than {self.max_depth} levels deep")
        try:
            return self._expression(power)
        finally:
            self.depth -= 1

    def _expression(self, power: int) -> tuple:
        left = self.prefix()
        while True:
            tok = self.peek()
            if isinstance(tok, Token) and tok.type == Token.OP_POST:
                self.i += 1
                left = ("pct", left)
                continue
            if not (isinstance(tok, Token) and tok.type == Token.OP_IN):
                return left
            op = tok.value
            bp = BINARY.get(op)
            if bp is None:
                raise self.fail(f"unknown operator {op!r}")
            if bp <= power:
                return left
            self.i += 1
            right = self.expression(bp)  # every operator, ^ too, is left-associative in Excel
            left = ("bin", op, left, right)

    def prefix(self) -> tuple:
        tok = self.take()
        if isinstance(tok, RefT):
            return ("ref", tok)
        if tok.type == Token.OP_PRE:
            inner = self.expression(PREFIX_POWER)
            return ("neg", inner) if tok.value == "-" else ("pos", inner)
        if tok.type == Token.OPERAND:
            return self.operand(tok)
        if tok.type == Token.PAREN and tok.subtype == Token.OPEN:
            inner = self.expression()
            self.close(Token.PAREN)
            return inner
        if tok.type == Token.FUNC and tok.subtype == Token.OPEN:
            return self.function(tok.value[:-1].upper())
        if tok.type == Token.ARRAY and tok.subtype == Token.OPEN:
            return self.array()
        raise self.fail(f"unexpected {tok.value!r}")

    def operand(self, tok: Token) -> tuple:
        if tok.subtype == Token.NUMBER:
            try:
                return ("num", float(tok.value))
            except ValueError:
                raise self.fail(f"{tok.value!r} is not a number") from None
        if tok.subtype == Token.TEXT:
            return ("str", tok.value[1:-1].replace('""', '"'))
        if tok.subtype == Token.LOGICAL:
            return ("bool", tok.value.upper() == "TRUE")
        if tok.subtype == Token.ERROR:
            err = ERRORS.get(tok.value.upper())
            if err is None:
                raise self.fail(f"unknown error value {tok.value!r}")
            return ("err", err)
        raise self.fail(f"unexpected {tok.value!r}")

    def close(self, kind: str) -> None:
        tok = self.take()
        if not (isinstance(tok, Token) and tok.type == kind and tok.subtype == Token.CLOSE):
            raise self.fail("a parenthesis is not closed where it should be")

    def function(self, name: str) -> tuple:
        args: list[tuple] = []
        tok = self.peek()
        if isinstance(tok, Token) and tok.type == Token.FUNC and tok.subtype == Token.CLOSE:
            self.i += 1
            return ("func", name, args)
        while True:
            tok = self.peek()
            is_sep = isinstance(tok, Token) and tok.type == Token.SEP and tok.subtype == Token.ARG
            is_close = (
                isinstance(tok, Token) and tok.type == Token.FUNC and tok.subtype == Token.CLOSE
            )
            args.append(("missing",) if is_sep or is_close else self.expression())
            tok = self.take()
            if isinstance(tok, Token) and tok.type == Token.SEP and tok.subtype == Token.ARG:
                continue
            if isinstance(tok, Token) and tok.type == Token.FUNC and tok.subtype == Token.CLOSE:
                return ("func", name, args)
            raise self.fail(
                f"expected ',' or ')' in {name}(), found {getattr(tok, 'value', tok)!r}"
            )

    def array(self) -> tuple:
        rows: list[list[Any]] = [[]]
        while True:
            tok = self.take()
            if isinstance(tok, Token) and tok.type == Token.OPERAND:
                rows[-1].append(self.operand(tok)[1])
            elif isinstance(tok, Token) and tok.type == Token.OP_PRE and tok.value == "-":
                rows[-1].append(-self.operand(self.take())[1])
            else:
                raise self.fail("an array constant holds only numbers, text, TRUE/FALSE")
            tok = self.take()
            if isinstance(tok, Token) and tok.type == Token.SEP:
                if tok.subtype == Token.ROW:
                    rows.append([])
                continue
            if isinstance(tok, Token) and tok.type == Token.ARRAY and tok.subtype == Token.CLOSE:
                break
            raise self.fail("bad array constant")
        if len({len(r) for r in rows}) != 1:
            raise self.fail("array constant rows differ in length")
        return ("arr", rows)


def parse_tree(formula: str, lexed: Lexed) -> tuple:
    """The syntax tree of a lexed formula: nested tuples ('bin', op, l, r), ('func',
    NAME, args), ('ref', RefT), ('num', x) ..."""
    if not lexed.items:
        raise FormulaError(formula, "is empty")
    p = _Parser(formula, lexed.items)
    tree = p.expression()
    if p.peek() is not None:
        tok = p.peek()
        raise p.fail(
            f"unexpected {getattr(tok, 'value', tok.key() if isinstance(tok, RefT) else tok)!r}"
        )
    if _depth(tree) > p.max_depth:  # a long chain such as 1+1+...+1 nests to the left
        raise p.fail(f"nested more than {p.max_depth} levels deep")
    return tree


def _depth(tree: tuple) -> int:
    """How deep a syntax tree nests, walked without recursion."""
    deepest, stack = 0, [(tree, 1)]
    while stack:
        node, d = stack.pop()
        deepest = max(deepest, d)
        kind = node[0]
        if kind == "bin":
            stack += [(node[2], d + 1), (node[3], d + 1)]
        elif kind in ("neg", "pos", "pct"):
            stack.append((node[1], d + 1))
        elif kind == "func":
            stack += [(a, d + 1) for a in node[2]]
    return deepest


# ---------------------------------------------------------------- rewriting references


def rewrite(formula: str, move: Callable[[str], str]) -> str:
    """`formula` (without '=') with every reference token replaced by `move(token)`;
    everything else kept as written."""
    return "".join(move(text) if is_ref else text for is_ref, text in _pieces(formula))


@functools.lru_cache(maxsize=4096)
def _pieces(formula: str) -> tuple[tuple[bool, str], ...]:
    """The formula's tokens as (is a reference, text), tokenized once: a fill rewrites
    the same formula for every row it fills."""
    return tuple(
        (tok.type == Token.OPERAND and tok.subtype == Token.RANGE, tok.value)
        for tok in _tokens("=" + formula)
    )
