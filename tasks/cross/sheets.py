"""Cross-app templates between the spreadsheet, the CRM and the chat: a rep's pipeline
from the CRM into a new workbook, a workbook's true total posted to a channel, a team's
worst budget overrun reported to its head's manager, a broken report fixed at a
colleague's request, an expense report's total sent to one's manager."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.slack.models import Channel, Message
from officegym.tasks.base import Spec, template
from officegym.tasks.checks import GradeContext, NewRowId, Predicate
from officegym.tasks.crm.common import crm_index
from officegym.tasks.facts import choice
from officegym.tasks.mutants import Equivalent
from officegym.tasks.sheets.common import (
    allow_book,
    allow_new_workbook,
    allow_values,
    book_of,
    grid,
    sheets_index,
    used_rows,
)
from officegym.tasks.sheets.fixes import SUMMARY, broken_region, region_rounds, region_total
from officegym.tasks.sheets.formulas import _num
from officegym.tasks.sheets.perturb import Reader, follows, load_final
from officegym.tasks.slack.common import allow_dm, allow_post, call, member_ids, pick
from officegym.tasks.slack.said import Said
from officegym.tasks.statements import Says

APPS = ["sheets", "crm", "slack"]


def _pipeline_sheet(made: NewRowId, deals: list[Any]):
    """The new workbook's Deals sheet lists exactly the deals, then a Total that sums them."""
    want = sorted((d.name, d.stage, float(d.amount or 0)) for d in deals)
    n = len(deals)

    def check(g: GradeContext) -> tuple[bool, str]:
        wb_id = made.resolve(g)
        if wb_id is None:
            return False, "no such workbook was created"
        r = Reader(load_final(g.final, wb_id))
        rows = r.grid("Deals", f"A1:C{n + 2}")
        body = sorted((str(a), str(b), _num(c)) for a, b, c in rows[1 : n + 1])
        if [str(x).lower() for x in rows[0]] != ["opportunity", "stage", "amount"] or body != want:
            return False, f"the Deals rows differ from the CRM's open deals ({len(body)} rows read)"

        def total(x: Reader) -> list[list[Any]]:
            return [["Total", None, sum(_num(v) for v in x.column("Deals", f"C2:C{n + 1}"))]]

        return follows(
            g, wb_id, ("Deals", f"A{n + 2}:C{n + 2}"), total, [[("Deals", "C2", 1234567)]]
        )

    return check


@template("cross.pipeline-to-sheet", difficulty="hard", apps=APPS)
def pipeline_to_sheet(w: Session, rng: random.Random) -> Spec:
    """Copy your open CRM deals into a new workbook with a live total."""
    idx = crm_index(w)
    reps = [p for p in idx.with_role("rep", "sales") if 2 <= len(idx.open_opps(p.id)) <= 12]
    me = pick(rng, reps, "sales reps with a few open deals")
    deals = sorted(idx.open_opps(me.id), key=lambda o: o.id)
    name = rng.choice(
        [f"Pipeline - {me.name}", "My open pipeline", f"{me.name.split()[0]}'s deals"]
    )
    made, allowed = allow_new_workbook(me.id, name)
    n = len(deals)
    rows = [["Opportunity", "Stage", "Amount"], *([d.name, d.stage, d.amount or 0] for d in deals)]
    return Spec(
        goal=f'Create a workbook named "{name}" with one sheet named "Deals": a header row '
        '"Opportunity", "Stage", "Amount", then one row per open opportunity of yours in the CRM, '
        'then a row "Total" whose Amount cell is a formula adding up the amounts above it.',
        persona=me.handle,
        checks=[Predicate(name="the deals and a live total", fn=_pipeline_sheet(made, deals))],
        allowed=allowed,
        solution=[
            call("crm_search_opportunities", owner=me.handle, open_only=True, limit=100),
            call("sheets_create_workbook", name=name, sheets=["Deals"]),
            call(
                "sheets_write_range",
                workbook=name,
                range="Deals!A1",
                values=[*rows, ["Total", None, f"=SUM(C2:C{n + 1})"]],
            ),
        ],
    )


def _channel(w: Session, name: str) -> Any:
    return w.scalars(select(Channel).where(Channel.name == name)).one()


@template("cross.sheet-total-to-chat", difficulty="medium", apps=["sheets", "slack"])
def sheet_total_to_chat(w: Session, rng: random.Random) -> Spec:
    """Post a workbook's true total (not its stale total cell) in the team channel."""
    book = book_of(w, "Q1 Marketing Spend")
    last = used_rows(w, book, "Spend")
    rows = grid(w, book, f"Spend!A2:D{last - 1}")
    col = rng.choice([1, 2, 3, None])
    month = {1: "January", 2: "February", 3: "March"}.get(col or 0)
    true = int(sum(_num(r[c]) for r in rows for c in ((col,) if col else (1, 2, 3))))
    channel = _channel(w, "marketing")
    members = sorted(member_ids(w, channel.id))
    people = {p.id: p for p in _people_rows(w)}
    me = people[rng.choice(members)]
    what = f"{month} marketing spend" if month else "Q1 marketing spend"
    return Spec(
        goal=f'Post the total {what} in #marketing, added up from the channel rows of the "Q1 '
        'Marketing Spend" workbook (its grand total cell is known to be stale).',
        persona=me.handle,
        checks=[
            Said(
                name=f"the {what} posted",
                author_id=me.id,
                channel_id=channel.id,
                says=Says(amount=true, act="report", facts=_period(month)),
            )
        ],
        allowed=allow_post(channel.id, me.id),
        solution=[
            call("sheets_read_range", workbook="Q1 Marketing Spend", range=f"Spend!A1:E{last}"),
            call("slack_post_message", channel="marketing", text=f"The {what} comes to ${true:,}."),
        ],
    )


def _period(month: str | None) -> list[Any]:
    """The month (or the quarter) the posted total covers."""
    if month is None:
        return [
            choice(
                "Q1",
                {"Q1": ("quarter", "first quarter"), "January": (), "February": (), "March": ()},
            )
        ]
    return [choice(month, ["January", "February", "March", "Q1"])]


def _people_rows(w: Session) -> list[Any]:
    from officegym.apps.org.models import Person

    return list(w.execute(select(Person.__table__).order_by(Person.id)))


@template("cross.budget-overrun-to-manager", difficulty="medium", apps=["sheets", "slack"])
def budget_overrun_to_manager(w: Session, rng: random.Random) -> Spec:
    """Find your team's budget line furthest over budget and DM your manager about it."""
    book = book_of(w, "FY2026 Team Budgets")
    last = used_rows(w, book, "Q1") - 1
    rows = grid(w, book, f"Q1!A2:D{last}")
    people = {p.id: p for p in _people_rows(w)}
    heads = {
        p.title.removeprefix("Head of "): p
        for p in people.values()
        if p.title.startswith("Head of ")
    }
    teams = sorted(
        {
            r[0]
            for r in rows
            if r[0] in heads and any(_num(x[3]) > _num(x[2]) for x in rows if x[0] == r[0])
        }
    )
    team = pick(rng, teams, "teams over budget somewhere")
    mine = [r for r in rows if r[0] == team]
    worst = max(mine, key=lambda r: _num(r[3]) - _num(r[2]))
    over = int(_num(worst[3]) - _num(worst[2]))
    me, boss = heads[team], people[heads[team].manager_id]
    categories = sorted({r[1] for r in rows})
    return Spec(
        goal='Look up your team\'s lines in the "FY2026 Team Budgets" workbook, find the category '
        "that went furthest over its Q1 budget, and send your manager a direct message naming "
        "that category and by how many dollars it is over.",
        persona=me.handle,
        checks=[
            Said(
                name=f"DM to {boss.name} with {worst[1]} and ${over:,}",
                author_id=me.id,
                dm_to=boss.id,
                says=Says(
                    facts=[choice(worst[1], categories)],
                    amount=over,
                    act="report",
                    amounts_besides=(int(_num(worst[2])), int(_num(worst[3]))),
                ),
            )
        ],
        allowed=allow_dm(w, me, boss),
        solution=[
            call("sheets_read_range", workbook=book.name, range=f"Q1!A1:F{last + 1}"),
            call(
                "slack_send_dm",
                people=[boss.handle],
                text=f"{team} Q1 budget: {worst[1]} is ${over:,} over budget.",
            ),
        ],
        equivalent=[
            Equivalent(
                "text.drop-fact",
                "the team is the sender's own; naming it is optional",
                tool="slack_send_dm",
                words=("Q1",),
            )
        ],
    )


@template("cross.fix-report-request", difficulty="hard", apps=["sheets", "slack"])
def fix_report_request(w: Session, rng: random.Random) -> Spec:
    """Act on a colleague's DM: fix the broken total they point at, then tell them it's done."""
    book, row, region, last = broken_region(w)
    me = book.owner
    ask = _request(w, me.id, region)
    rep = {p.id: p for p in _people_rows(w)}[ask.user_id]
    regions = [str(r[0]) for r in grid(w, book, "Summary!A2:A5")]
    reply = rng.choice(
        ["Fixed: the {r} total on the Summary sheet works again.", "Done, the {r} total is back."]
    )
    rounds = region_rounds(rng, w, book, region, last)
    return Spec(
        goal="A colleague asked you, in a direct message, to fix something in one of your "
        "spreadsheets. Do what they ask, then reply to them in that conversation to confirm.",
        persona=me.handle,
        checks=[
            Predicate(
                name=f"B{row} totals the {region} deals",
                fn=lambda g: follows(
                    g, book.id, ("Summary", f"B{row}"), region_total(row, last), rounds
                ),
            ),
            Said(
                name=f"confirmed to {rep.name}",
                author_id=me.id,
                dm_to=rep.id,
                says=Says(facts=[choice(region, regions)], act="confirm"),
            ),
        ],
        allowed=[*allow_book(book), *allow_values(book), *allow_dm(w, me, rep), *_cell(book, row)],
        solution=[
            call("slack_list_dms"),
            call("slack_read_dm", people=[rep.handle]),
            call("sheets_read_range", workbook=SUMMARY, range="Summary!A1:B6", mode="formulas"),
            call(
                "sheets_write_range",
                workbook=SUMMARY,
                range=f"Summary!B{row}",
                values=[[f"=SUMIF(Deals!A2:A{last},A{row},Deals!B2:B{last})"]],
            ),
            call("slack_send_dm", people=[rep.handle], text=reply.format(r=region)),
        ],
    )


def _cell(book: Any, row: int) -> list[Any]:
    from officegym.tasks.checks import Allow

    sid = book.sheets["Summary"]
    return [
        Allow(
            "sheets_cell", kinds=("update",), where={"sheet_id": sid, "row": row, "col": 2}, limit=1
        )
    ]


def _request(w: Session, owner_id: int, region: str) -> Any:
    """The seeded DM asking the owner to fix the summary."""
    stmt = select(Message).where(
        Message.text.like(f"%Regional Sales Summary shows #REF! for {region}%")
    )
    found = w.scalars(stmt.order_by(Message.id)).first()
    if found is None:
        raise LookupError("the world has no request to fix the summary")
    return found


@template("cross.expense-total-to-manager", difficulty="easy", apps=["sheets", "slack"])
def expense_total_to_manager(w: Session, rng: random.Random) -> Spec:
    """Send your manager the total of your expense report."""
    reports = [b for n, b in sorted(sheets_index(w).items()) if n.startswith("Expenses - ")]
    book = pick(rng, reports, "expense reports")
    me = book.owner
    boss = {p.id: p for p in _people_rows(w)}[me.manager_id]
    last = used_rows(w, book, "Expenses") - 1
    amounts = [int(_num(v[0])) for v in grid(w, book, f"Expenses!D2:D{last}")]
    total = sum(amounts)
    return Spec(
        goal="Send your manager a direct message with the total of your expense report "
        f'"{book.name}".',
        persona=me.handle,
        checks=[
            Said(
                name=f"DM to {boss.name} with ${total:,}",
                author_id=me.id,
                dm_to=boss.id,
                says=Says(amount=total, amounts_besides=amounts, act="report"),
            )
        ],
        allowed=allow_dm(w, me, boss),
        solution=[
            call("sheets_read_range", workbook=book.name, range=f"Expenses!A1:E{last + 1}"),
            call(
                "slack_send_dm",
                people=[boss.handle],
                text=f"My expense report total is ${total:,}.",
            ),
        ],
    )
