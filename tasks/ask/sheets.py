"""Spreadsheet ask-the-requester template: correct an expense line to the amount on a
receipt only a colleague holds."""

from __future__ import annotations

import datetime as dt
import random

from sqlalchemy.orm import Session

from officegym.tasks import facts as F
from officegym.tasks.ask.common import ask, teammates
from officegym.tasks.asked import ActedAt
from officegym.tasks.base import Spec, template
from officegym.tasks.checks import Allow
from officegym.tasks.common import call, pick
from officegym.tasks.mutants import name_facts
from officegym.tasks.sheets.common import allow_book, allow_values, grid, sheets_index, used_rows
from officegym.tasks.sheets.perturb import Follows, Reader
from officegym.tasks.steps import Step

APPS = ("sheets", "slack")
AMOUNT_COL = 4  # column D


@template("sheets.ask-expense-amount", difficulty="medium", apps=APPS)
def ask_expense_amount(w: Session, rng: random.Random) -> Spec:
    """Correct an expense line to the receipt's amount, which only a colleague knows."""
    reports = [b for n, b in sorted(sheets_index(w).items()) if n.startswith("Expenses - ")]
    book = pick(rng, reports, "expense reports")
    me = book.owner
    req = pick(rng, teammates(w, me), "teammates of the report's owner")
    total = used_rows(w, book, "Expenses")
    row = rng.randint(2, total - 1)
    serial, category, merchant, old = grid(w, book, f"Expenses!A{row}:D{row}")[0]
    day = dt.date(1899, 12, 30) + dt.timedelta(days=int(serial))
    amount = rng.choice([a for a in range(40, 960) if a != old])
    first = req.name.split()[0]
    sid = book.sheets["Expenses"]

    def total_of(r: Reader) -> list[list[float]]:
        return [[sum(float(v or 0) for v in r.column("Expenses", f"D2:D{total - 1}"))]]

    parts = ask(
        w, me, req,
        fact=F.money(amount),
        reply=f"The receipt says ${amount}. Thanks for fixing it!",
        topic=("amount", "receipt", "how much", "figure", "cost", "total", "expense", "price"),
        question=f"Hi {first}, what amount is on the receipt for that {merchant} expense?",
        acted=ActedAt("sheets_change", {"workbook_id": book.id, "actor_id": me.id}, "at"),
        brief=f"You hold the receipt of the {merchant} expense of {day:%B %-d}: ${amount}.",
    )  # fmt: skip
    return Spec(
        goal=f'Row {row} of your expense report "{book.name}" ({merchant}, {category}, '
        f"{day:%B %-d}) has the wrong amount. {req.name} (@{req.handle}) has the receipt: ask "
        f"{first} in a direct message for the right amount, then correct the line. The total "
        "must still add up the lines.",
        persona=me.handle,
        steps=[
            parts.step
            + Step(
                equivalent=name_facts(
                    merchant,
                    "the question names the expense by its merchant; any of its words will do",
                    "slack_send_dm",
                )
            ),
            # TODO(steps): move to tasks/sheets/common.py (write a range)
            Step(
                calls=[
                    call("sheets_read_range", workbook=book.name, range=f"Expenses!A{row}:D{row}"),
                    call(
                        "sheets_write_range",
                        workbook=book.name,
                        range=f"Expenses!D{row}",
                        values=[[amount]],
                    ),
                ],
                checks=[
                    Follows(
                        name="the line has the receipt's amount",
                        workbook_id=book.id,
                        target=("Expenses", f"D{row}"),
                        expect=lambda r: [[amount]],
                    ),
                    Follows(
                        name="the total adds up the lines",
                        workbook_id=book.id,
                        target=("Expenses", f"D{total}"),
                        expect=total_of,
                        rounds=[[("Expenses", f"D{row}", amount + 1000)]],
                        weight=0,  # a guard: the seeded total already adds up
                    ),
                ],
                allowed=[
                    *allow_book(book),
                    *allow_values(book),
                    Allow(
                        "sheets_cell",
                        kinds=("update",),
                        where={"sheet_id": sid, "row": row, "col": AMOUNT_COL},
                        limit=1,
                    ),
                ],
            ),
        ],
        hidden=parts.hidden,
    )
