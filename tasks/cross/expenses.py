"""Cross-app template between the booking site and the spreadsheet: a traveller adds a
stay they booked to their expense report, as one line whose amount is what the booking
site charged (read from the reservation, never given in the goal), and the report's
Total row keeps adding up every line."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.booking import service as booking
from officegym.apps.booking.models import Payment
from officegym.apps.sheets.values import serial_of
from officegym.tasks.base import Spec, template
from officegym.tasks.booking.common import booking_index
from officegym.tasks.common import call, pick
from officegym.tasks.sheets.common import (
    grid,
    sheets_index,
    used_rows,
)
from officegym.tasks.sheets.formulas import cell_number
from officegym.tasks.sheets.perturb import Reader
from officegym.tasks.sheets.steps import computed_step, insert_line_step, on_book, write_call
from officegym.tasks.steps import Step

CATEGORY = "Lodging"
DAYS = {
    "charged": "the day the booking site charged you for it",
    "check_in": "the day you check in",
    "check_out": "the day you check out",
}

NOTES = {
    "code": "the stay's code",
    "nights": 'its number of nights (as "3 nights")',
    "purpose": "the trip's purpose as the booking site states it",
}


def _note(stay: Any, kind: str) -> str:
    if kind == "code":
        return stay.code
    if kind == "nights":
        n = (stay.check_out - stay.check_in).days
        return f"{n} night{'s' * (n != 1)}"
    return stay.purpose


def _claimed(w: Session, book: Any) -> str:
    """The report's Notes column as one text (the codes of the trips it claims)."""
    notes = grid(w, book, f"Expenses!E2:E{used_rows(w, book, 'Expenses')}")
    return " ".join(str(row[0]) for row in notes if row[0])


def _stays(w: Session) -> list[tuple[Any, Any, dt.date]]:
    """(confirmed stay, its traveller's expense report, the day it was charged) for stays
    charged once, in full, in the month the report covers, that the report does not
    claim yet."""
    reports = {
        b.owner.id: b for n, b in sorted(sheets_index(w).items()) if n.startswith("Expenses - ")
    }
    stays = {
        r.id: r for r in booking_index(w).stays if r.status == "confirmed" and r.guest_id in reports
    }
    charges: dict[int, list[Any]] = {i: [] for i in stays}
    for p in w.execute(
        select(Payment.reservation_id, Payment.kind, Payment.amount, Payment.created_at).where(
            Payment.reservation_id.in_(stays)
        )
    ):
        charges[p.reservation_id].append(p)
    out = []
    for i, r in stays.items():
        book = reports[r.guest_id]
        if r.code in _claimed(w, book):
            continue  # already a line of the report (seeded from last month's trips)
        month = dt.datetime.strptime(book.name.rsplit(" - ", 1)[1], "%B %Y").date()
        paid = charges[i]
        if (
            len(paid) == 1
            and paid[0].kind == "charge"
            and paid[0].amount == r.total
            and (paid[0].created_at.year, paid[0].created_at.month) == (month.year, month.month)
        ):
            out.append((r, book, paid[0].created_at.date()))
    return out


@template("cross.trip-expense-row", difficulty="medium", apps=["booking", "sheets"])
def trip_expense_row(w: Session, rng: random.Random) -> Spec:
    """Add a booked stay to your expense report: a Lodging line with the stay's total."""
    stay, book, charged = pick(rng, _stays(w), "stays charged in an expense report's month")
    on = rng.choice(sorted(DAYS))
    day = charged if on == "charged" else getattr(stay, on)
    notes = rng.choice([k for k in sorted(NOTES) if k != "purpose" or stay.purpose])
    note = _note(stay, notes)
    title = booking.get_listing(w, stay.listing_id).title
    amount = stay.total // 100  # the site charges whole dollars
    total_row = used_rows(w, book, "Expenses")
    new, total = total_row, total_row + 1
    before = grid(w, book, f"Expenses!A2:E{total_row - 1}")
    line = [serial_of(day), CATEGORY, title, amount, note]

    def sums(r: Reader) -> list[list[Any]]:
        return [
            ["Total", None, None, sum(cell_number(v) for v in r.column("Expenses", f"D2:D{new}"))]
        ]

    return Spec(
        goal=f'Add your stay {stay.code} to your expense report "{book.name}", as the last line '
        f"above its Total row: dated {DAYS[on]}, category {CATEGORY}, the place's name as the "
        "merchant, the total the booking site charged for the stay as the amount, and "
        f"{NOTES[notes]} in Notes. Make sure the Total still adds up every line.",
        persona=book.owner.handle,
        steps=[
            Step(
                calls=[
                    call("booking_get_trip", code=stay.code),
                    call(
                        "sheets_read_range", workbook=book.name, range=f"Expenses!A1:E{total_row}"
                    ),
                ]
            ),
            on_book(
                book,
                insert_line_step(book, "Expenses", total_row, f"A{new}:E{total}"),
                computed_step(
                    book,
                    "Expenses",
                    f"A{new}:E{new}",
                    lambda r: [line],
                    name="the stay's line: date, category, place, amount charged, notes",
                    calls=[
                        write_call(
                            book,
                            f"Expenses!A{new}",
                            [[day.isoformat(), CATEGORY, title, amount, note]],
                        )
                    ],
                ),
                computed_step(
                    book,
                    "Expenses",
                    f"A2:E{new - 1}",
                    lambda r: before,
                    name="the earlier lines stay",
                    calls=(),
                    weight=0,
                ),
                computed_step(
                    book,
                    "Expenses",
                    f"A{total}:D{total}",
                    sums,
                    name="the total includes it",
                    rounds=[[("Expenses", f"D{new}", amount + 1000)], [("Expenses", "D2", 1)]],
                    calls=[write_call(book, f"Expenses!D{total}", [[f"=SUM(D2:D{new})"]])],
                ),
                recalc=True,
            ),
        ],
    )
