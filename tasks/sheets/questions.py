"""Spreadsheet templates that ask a question whose answer is read or computed from a
workbook: a conditional total of the orders, a budget line's overrun, planned hires."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass

from sqlalchemy.orm import Session

from officegym.tasks.base import Level, Spec, template
from officegym.tasks.common import call, people_rows
from officegym.tasks.facts import integer, money
from officegym.tasks.priors import spread
from officegym.tasks.sheets.common import BUDGETS, ORDERS, PLAN, book_of, grid, used_rows
from officegym.tasks.sheets.formulas import cell_number
from officegym.tasks.sheets.steps import read_call
from officegym.tasks.steps import Step

COLS = {"Region": "C", "Product": "D", "Category": "E", "Sales Rep": "F"}


@template("sheets.conditional-total", difficulty="easy")
def conditional_total(w: Session, rng: random.Random) -> Spec:
    """Answer a conditional total (or count) of the orders: by region, product, category, rep
    (the question chosen so the answers spread: small counts recur)."""
    book = book_of(w, ORDERS)
    last = used_rows(w, book, "Orders")
    rows = grid(w, book, f"Orders!A2:I{last}")
    asks = [
        (field, value, measure)
        for field in sorted(COLS)
        for value in sorted({r[ord(COLS[field]) - 65] for r in rows})
        for measure in ("revenue", "units", "orders")
    ]
    answer = lambda q: (q[2] == "revenue", _measured(rows, *q))  # noqa: E731
    field, value, measure = spread(rng, asks, answer, "order questions")
    n, where = _measured(rows, field, value, measure), f"{field.lower()} {value}"
    if measure == "orders":
        fact, question = integer(n, alone=True), f"How many orders of {where} are"
    elif measure == "units":
        fact, question = integer(n, alone=True), f"How many units in total were ordered for {where}"
    else:
        fact, question = money(n, alone=True), f"What is the total revenue of the orders of {where}"
    me = rng.choice([book.owner, *rng.sample(list(people_rows(w)), 5)])
    summed = "G" if measure == "units" else "I"  # the status bar sums the last column
    cond = call(
        "sheets_filter_rows",
        workbook=book.name,
        range=f"Orders!{COLS[field]}1:{summed}{last}",
        column=COLS[field],
        condition=value,
    )
    return Spec(
        goal=f'{question} in the "{book.name}" workbook? Answer with just the number.',
        persona=me.handle,
        steps=[Step(calls=[cond])],
        answer=fact,
    )


def _measured(rows: list[list], field: str, value: object, measure: str) -> int:
    """The orders of `rows` whose `field` is `value`: how many, their units or revenue."""
    i = ord(COLS[field]) - 65
    picked = [r for r in rows if r[i] == value]
    if measure == "orders":
        return len(picked)
    if measure == "units":
        return int(sum(cell_number(r[6]) for r in picked))
    return int(math.fsum(cell_number(r[8]) for r in picked))


@template("sheets.budget-overrun", difficulty="medium")
def budget_overrun(w: Session, rng: random.Random) -> Spec:
    """Answer by how much a team's budget line (or two lines, or all of them) or one category
    over every team went over (or stayed under) its budget (chosen so the answers spread:
    one line's gap alone would be one of thirty)."""
    book = book_of(w, BUDGETS)
    last = used_rows(w, book, "Q1") - 1
    rows = [(i + 2, r) for i, r in enumerate(grid(w, book, f"Q1!A2:D{last}"))]
    asks = [
        _BudgetAsk(f"the {r[0]} team's {r[1]} spending", r[0], f"Q1!A{n}:F{n}", (r,))
        for n, r in rows
    ]
    for team in sorted({r[0] for _, r in rows}):
        at = [n for n, r in rows if r[0] == team]
        lines = tuple(r for _, r in rows if r[0] == team)
        read = f"Q1!A{at[0]}:F{at[-1]}"
        what = f"the {team} team's spending, all categories together"
        asks.append(_BudgetAsk(what, team, read, lines))
        for a, b in itertools.combinations(lines, 2):
            what = f"the {team} team's {a[1]} and {b[1]} spending together"
            asks.append(_BudgetAsk(what, team, read, (a, b)))
    for category in sorted({r[1] for _, r in rows}):
        lines = tuple(r for _, r in rows if r[1] == category)
        what = f"the {category} spending of all teams together"
        asks.append(_BudgetAsk(what, None, f"Q1!A1:F{last}", lines))
    ask = spread(rng, [a for a in asks if a.gap], lambda a: a.gap, "budget lines off budget")
    heads = tuple(p for p in people_rows(w) if ask.team and p.title == f"Head of {ask.team}")
    me = rng.choice(book.editors + heads)
    asked = (
        "exceed its Q1 budget"
        if ask.actual > ask.budget
        else "stay under its Q1 budget (how much is left unspent)"
    )
    return Spec(
        goal=f'In "{book.name}", by how many dollars did {ask.what} {asked}? Answer with just '
        "the amount.",
        persona=me.handle,
        steps=[Step(calls=[read_call(book, ask.read)])],
        answer=money(ask.gap, alone=True, besides=(ask.budget, ask.actual)),
    )


@dataclass(frozen=True)
class _BudgetAsk:
    """What a budget question asks about: its words, its team (if one), the range holding
    its lines and the lines (team, category, budget, actual)."""

    what: str
    team: str | None
    read: str
    lines: tuple[list, ...]

    @property
    def budget(self) -> int:
        return int(sum(cell_number(r[2]) for r in self.lines))

    @property
    def actual(self) -> int:
        return int(sum(cell_number(r[3]) for r in self.lines))

    @property
    def gap(self) -> int:
        return abs(self.actual - self.budget)


# What a question may ask: the plan's columns it adds up (C: current head count, D-F:
# the Q2-Q4 hires, G: the year-end head count), asked of one team, several, or all.
_HAS = "How many {what} does the {team} team have"
_WILL = "How many people will the {team} team have once its planned {what} have joined"
_SEVERAL = {
    _HAS: "How many {what} do the {team} teams have together",
    _WILL: "How many people will the {team} teams have together once their planned {what} "
    "have joined",
}
_ALL = {
    _HAS: "How many {what} do all the plan's teams have together",
    _WILL: "How many people will all the plan's teams have once their planned {what} have joined",
}
ASKS = (
    ((3,), _HAS, "hires planned in Q2"),
    ((4,), _HAS, "hires planned in Q3"),
    ((5,), _HAS, "hires planned in Q4"),
    ((6,), _HAS, "people planned at year end"),
    ((3, 4), _HAS, "hires planned in Q2 and Q3 together"),
    ((4, 5), _HAS, "hires planned in Q3 and Q4 together"),
    ((3, 4, 5), _HAS, "hires planned from Q2 through Q4"),
    ((2, 3), _WILL, "Q2 hires"),
    ((2, 3, 4), _WILL, "Q2 and Q3 hires"),
)


@template("sheets.planned-hires", difficulty="easy", knobs={"teams": (1, 2, 3)})
def planned_hires(w: Session, rng: random.Random, level: Level) -> Spec:
    """Answer a team's planned hires over one or more quarters, or its head count at a
    point of the year (harder levels: summed over two or three teams). The teams and the
    question are chosen so the answers spread (one quarter's hires are often 1)."""
    book = book_of(w, PLAN)
    last = used_rows(w, book, "Plan") - 1
    rows = grid(w, book, f"Plan!A2:G{last}")
    groups = list(itertools.combinations(range(len(rows)), level.teams))
    if level.teams == 1:
        groups.append(tuple(range(len(rows))))  # the whole plan
    asks = [(g, cols, ask) for g in groups for cols, *ask in ASKS]
    picked, cols, (form, what) = spread(
        rng, asks, lambda a: sum(int(cell_number(rows[i][c])) for i in a[0] for c in a[1]), "rows"
    )
    picked = rng.sample(picked, len(picked))
    me = rng.choice([book.owner, *rng.sample(list(people_rows(w)), 5)])
    teams = [rows[i][0] for i in picked]
    n = sum(int(cell_number(rows[i][c])) for i in picked for c in cols)
    col = max(cols)
    if level.teams == 1 and len(teams) > 1:
        question = _ALL[form].format(what=what)
        teams = []  # the whole plan: no team to filter on
    elif level.teams == 1:
        question = form.format(what=what, team=teams[0])
    else:
        names = " and ".join(", ".join(str(t) for t in teams).rsplit(", ", 1))
        question = _SEVERAL[form].format(what=what, team=names)
    filters = [
        call(
            "sheets_filter_rows",
            workbook=book.name,
            range=f"Plan!A1:{'ABCDEFG'[col]}{last}",
            column="A",
            condition=str(team),
        )
        for team in teams
    ]
    return Spec(
        goal=f'{question} in the "{book.name}" workbook? Answer with just the number.',
        persona=me.handle,
        steps=[Step(calls=[read_call(book, f"Plan!A1:G{last + 1}"), *filters])],
        answer=integer(n, alone=True, ignoring=tuple(teams)),
    )
