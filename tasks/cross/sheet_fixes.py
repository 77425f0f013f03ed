"""Cross-app template between the chat and the spreadsheet: a colleague asks in a direct
message for a damaged workbook to be fixed (a #REF! total, totals that stop short, a
typed-in grand total); fix it so it computes, then confirm to them."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.slack.models import Message
from officegym.tasks.base import Spec, template
from officegym.tasks.common import call, dm_step, people_rows, pick
from officegym.tasks.mutants import Equivalent
from officegym.tasks.sheets.common import Book, book_of, used_rows
from officegym.tasks.sheets.fixes import SUMMARY, broken_region, region_fix
from officegym.tasks.sheets.formulas import _num
from officegym.tasks.sheets.perturb import Follows, Reader
from officegym.tasks.sheets.steps import fix_step, on_book, read_call
from officegym.tasks.slack.common import member_ids
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step

GOALS = [
    "A colleague asked you, in a direct message, to fix something in a spreadsheet. Do what "
    "they ask, then reply to them in that conversation to confirm.",
    "Check your direct messages: someone needs a spreadsheet fixed. Fix it, then let them know "
    "in that conversation that it is done.",
    "One of your colleagues reported a problem with a workbook to you by direct message. Repair "
    "it and reply to them there once it is fixed.",
]
FIXES = {
    "Regional Sales Summary": "#REF!",
    "Support Tickets Weekly": "leave out",
    "Q1 Marketing Spend": "typed",
}


def _fix(w: Session, rng: random.Random, name: str) -> tuple[Book, Step]:
    """What fixing one damaged workbook takes: the workbook and the step that rewrites
    its broken cells, judged as one check named after the workbook."""
    if name == SUMMARY:
        book, row, region, last = broken_region(w)
        return book, _judged(name, region_fix(rng, w, book, row, region, last))
    book = book_of(w, name)
    sheet = next(iter(book.sheets))
    t = used_rows(w, book, sheet)
    if name == "Support Tickets Weekly":

        def weeks(r: Reader) -> list[list[Any]]:
            return [[sum(_num(v) for v in r.column(sheet, f"{c}2:{c}{t - 1}")) for c in "BC"]]

        rounds = [[(sheet, f"B{t - 1}", 500), (sheet, f"C{t - 2}", 400)]]
        sums = [f"=SUM(B2:B{t - 1})", f"=SUM(C2:C{t - 1})"]
        return book, _judged(
            name, fix_step(book, sheet, f"B{t}", sums, weeks, name=name, rounds=rounds)
        )

    def spend(r: Reader) -> list[list[Any]]:
        return [[sum(_num(v) for row in r.grid(sheet, f"B2:D{t - 1}") for v in row)]]

    rounds = [[(sheet, f"B{rng.randint(2, t - 1)}", 77_700)]]
    total = [f"=SUM(E2:E{t - 1})"]
    return book, _judged(
        name, fix_step(book, sheet, f"E{t}", total, spend, name=name, rounds=rounds)
    )


def _judged(name: str, step: Step) -> Step:
    """The fix's computation check, named after the workbook: the cells it judges are
    free of the reference's formula text (any formula that computes them will do)."""
    (f,) = step.checks
    if not isinstance(f, Follows):
        raise TypeError(f"a fix is checked by Follows, not {type(f).__name__}")
    return dataclasses.replace(step, checks=[dataclasses.replace(f, name=f"{name} fixed")])


def _requests(w: Session) -> list[tuple[Any, str]]:
    """The seeded DMs asking to fix a damaged workbook: (message, workbook name)."""
    out = []
    for name in FIXES:
        stmt = select(Message).where(Message.text.like(f"%{name}%"), Message.text.like("Hi %"))
        out += [(m, name) for m in w.scalars(stmt.order_by(Message.id))]
    return out


@template("cross.fix-report-request", difficulty="hard", apps=["sheets", "slack"])
def fix_report_request(w: Session, rng: random.Random) -> Spec:
    """Act on a colleague's DM: fix the damaged workbook they point at, then confirm to them."""
    msg, name = pick(rng, _requests(w), "requests to fix a workbook")
    people = {p.id: p for p in people_rows(w)}
    asker = people[msg.user_id]
    me = next(people[m] for m in member_ids(w, msg.channel_id) if m != asker.id)
    book, fix = _fix(w, rng, name)
    reply = rng.choice(["Fixed: {n} is right again.", "Done, {n} now adds up correctly."]).format(
        n=name
    )
    sheet = next(iter(book.sheets))
    return Spec(
        goal=rng.choice(GOALS),
        persona=me.handle,
        steps=[
            Step(
                calls=[
                    call("slack_list_dms"),
                    call("slack_read_dm", people=[asker.handle]),
                    read_call(name, "A1:F20", sheet=sheet, mode="formulas"),
                ]
            ),
            on_book(book, fix, recalc=True),
            dm_step(
                w,
                me,
                asker,
                reply,
                Says(all_of=[[name]], act="confirm"),
                name=f"confirmed to {asker.name}",
                lone=True,
                equivalent=[
                    Equivalent(
                        "text.drop-fact",
                        "the reply confirms; the workbook's year may go",
                        tool="slack_send_dm",
                        words=("Q1",),
                    )
                ],
            ),
        ],
    )
